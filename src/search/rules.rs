//! The game's rules inside the tree: repetitions (judged by perpetual
//! check, and by the chase rule near the root), the move limit and
//! insufficient material.

use super::params::chase_ply;
use super::{Searcher, MATE, RULE_WIN};
use xiangqi::position::Position;
use xiangqi::rules::{self, CycleVerdict, MOVE_LIMIT_PLIES};

impl Searcher<'_> {
    /// The score the rules give this position, if they end the game here:
    /// a repetition (judged by perpetual check, and by chase near the root),
    /// the move limit, or insufficient material.
    pub(super) fn rule_score(&self, ply: usize, in_check: bool) -> Option<i32> {
        let pos = &self.pos;
        if pos.halfmove_clock() >= MOVE_LIMIT_PLIES {
            // A mate delivered on the last move still counts.
            let mated = in_check && !pos.has_legal_move();
            return Some(if mated { -(MATE - ply as i32) } else { 0 });
        }
        if rules::insufficient_material(pos) {
            return Some(0);
        }
        let cycle_start = self.repetition()?;
        let us = pos.side_to_move();
        let verdict = if ply as i32 <= chase_ply() {
            rules::judge_cycle(pos, cycle_start)
        } else {
            self.judge_by_checks(cycle_start)
        };
        Some(match verdict {
            CycleVerdict::Draw => 0,
            CycleVerdict::Loses(loser, _) if loser == us => -(RULE_WIN - ply as i32),
            CycleVerdict::Loses(..) => RULE_WIN - ply as i32,
        })
    }

    /// The start of the repetition cycle that ends here, if this position
    /// repeats one after the root, or repeats twice counting those before
    /// (the root policy of Stockfish and Pikafish).
    fn repetition(&self) -> Option<usize> {
        let mut latest = None;
        for i in rules::earlier_occurrences(&self.pos) {
            if i > self.root_len {
                return Some(i);
            }
            if latest.is_some() {
                return latest;
            }
            latest = Some(i);
        }
        None
    }

    /// Judges the cycle from `start` to now by checks alone (see `rules::judge_cycle`).
    fn judge_by_checks(&self, start: usize) -> CycleVerdict {
        let n = self.pos.history().len();
        let us = self.pos.side_to_move();
        // Positions where we were to move were reached by the opponent's moves.
        let them_checked = (start + 2..=n).step_by(2).all(|k| self.checks[k]);
        let we_checked = (start + 1..n).step_by(2).all(|k| self.checks[k]);
        match (we_checked, them_checked) {
            (true, false) => CycleVerdict::Loses(us, rules::Termination::PerpetualCheck),
            (false, true) => CycleVerdict::Loses(us.flip(), rules::Termination::PerpetualCheck),
            _ => CycleVerdict::Draw,
        }
    }
}

/// Whether the side to move was in check in each position of the game so far
/// (indexed by history length; only the reversible tail is computed).
pub(super) fn history_checks(pos: &Position) -> Vec<bool> {
    let n = pos.history().len();
    let reach = (pos.halfmove_clock() as usize).min(n);
    let mut checks = vec![false; n + 1];
    let mut p = pos.clone();
    for k in (n - reach..=n).rev() {
        checks[k] = p.in_check();
        p.unmake_move();
    }
    checks
}
