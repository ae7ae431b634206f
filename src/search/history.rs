//! Move-ordering knowledge: history scores, continuation history and
//! counter-moves (all by moving piece and destination), kept by each search
//! thread between the moves of a game, and the killer moves kept per ply in
//! the search stack.

use super::correction::CorrectionHistory;
use super::params::{
    history_bonus_base, history_bonus_cap, history_bonus_per_depth, history_max, prior_early_malus,
    prior_early_moves, prior_fail_low_late_pct, prior_fail_low_pct, prior_late_moves,
};
use super::Searcher;
use xiangqi::types::{Move, Piece, SQUARES};

/// Move-ordering knowledge one search thread keeps between the moves of a
/// game: history scores and counter-moves, both by moving piece and
/// destination, and continuation history: how a quiet move fared after
/// each move one and two plies before it (both moves by piece and
/// destination); and, beside them, the static evaluation's correction
/// history.
pub struct Heuristics {
    history: Vec<i32>,
    counters: Vec<Move>,
    /// `MOVE_KEYS + 1` rows of `MOVE_KEYS`: the row of an earlier move's key,
    /// then the quiet move's key; the last row (`NO_CONTINUATION`) stands
    /// for no earlier move and stays zero.
    continuation: Vec<i16>,
    /// What the static evaluation's errors have been (`correction`).
    pub(super) correction: CorrectionHistory,
}

/// Entries of a history table: one per piece (16 codes) and destination.
const MOVE_KEYS: usize = 16 * SQUARES;

/// The continuation row of no earlier move (before the root, or a null
/// move): it is never updated, so it adds nothing to a move's score.
pub const NO_CONTINUATION: usize = MOVE_KEYS;

/// The continuation rows of the moves one and two plies before a node.
pub type Continuations = [usize; 2];

/// A move's key in the history tables: its piece and destination.
#[inline(always)]
fn move_key(piece: Piece, m: Move) -> usize {
    piece.index() * SQUARES + m.to().index()
}

impl Heuristics {
    pub fn new() -> Heuristics {
        Heuristics {
            history: vec![0; MOVE_KEYS],
            counters: vec![Move::NULL; MOVE_KEYS],
            continuation: vec![0; (MOVE_KEYS + 1) * MOVE_KEYS],
            correction: CorrectionHistory::new(),
        }
    }

    /// Gravity update: bounded by `history_max()`, old knowledge fades.
    fn update_history(&mut self, i: usize, bonus: i32) {
        self.history[i] = gravity(self.history[i], bonus);
    }

    /// The same update of the move with key `i` in the continuation rows
    /// `cont` (the rows of no earlier move excepted).
    fn update_continuation(&mut self, cont: Continuations, i: usize, bonus: i32) {
        for row in cont {
            if row != NO_CONTINUATION {
                let h = &mut self.continuation[row * MOVE_KEYS + i];
                // `gravity` keeps it within +-history_max() <= i16::MAX.
                *h = gravity(i32::from(*h), bonus) as i16;
            }
        }
    }

    /// Both updates of the move with key `i`: its history and its
    /// continuation history after the moves of the rows `cont`.
    fn update_quiet(&mut self, cont: Continuations, i: usize, bonus: i32) {
        self.update_history(i, bonus);
        self.update_continuation(cont, i, bonus);
    }

    /// A quiet move's ordering score: its history plus its continuation
    /// history after the moves of the rows `cont`.
    #[inline(always)]
    pub(super) fn quiet_score(&self, piece: Piece, m: Move, cont: Continuations) -> i32 {
        let i = move_key(piece, m);
        self.history[i]
            + i32::from(self.continuation[cont[0] * MOVE_KEYS + i])
            + i32::from(self.continuation[cont[1] * MOVE_KEYS + i])
    }

    /// Sets a history score (for tests).
    #[cfg(test)]
    pub(super) fn set_history(&mut self, piece: Piece, m: Move, score: i32) {
        self.history[move_key(piece, m)] = score;
    }

    /// Sets the continuation score of `piece`'s move `m` after the move
    /// `earlier` of `earlier_piece` (for tests), and returns the latter's row.
    #[cfg(test)]
    pub(super) fn set_continuation(
        &mut self,
        earlier_piece: Piece,
        earlier: Move,
        piece: Piece,
        m: Move,
        score: i16,
    ) -> usize {
        let row = move_key(earlier_piece, earlier);
        self.continuation[row * MOVE_KEYS + move_key(piece, m)] = score;
        row
    }

    /// The counter-move to a move of `piece` to `m`'s destination.
    #[inline(always)]
    pub(super) fn counter(&self, piece: Piece, m: Move) -> Move {
        self.counters[move_key(piece, m)]
    }
}

/// A history score after a bonus (or, negative, a malus): bounded by
/// `history_max()`, old knowledge fades.
#[inline(always)]
fn gravity(h: i32, bonus: i32) -> i32 {
    let bonus = bonus.clamp(-history_max(), history_max());
    h + bonus - h * bonus.abs() / history_max()
}

impl Default for Heuristics {
    fn default() -> Self {
        Heuristics::new()
    }
}

impl Searcher<'_> {
    fn history_index(&self, m: Move) -> usize {
        move_key(self.pos.piece_at(m.from()), m)
    }

    /// The continuation rows of the moves one and two plies before `ply`.
    #[inline(always)]
    pub(super) fn continuations(&self, ply: usize) -> Continuations {
        let row = |back: usize| match ply.checked_sub(back).map(|p| self.stack[p]) {
            Some(f) if !f.mv.is_null() => move_key(f.piece, f.mv),
            _ => NO_CONTINUATION,
        };
        [row(1), row(2)]
    }

    /// The counter-move to the move that led to `ply` (`Move::NULL` at the
    /// root or after a null move).
    #[inline(always)]
    pub(super) fn counter_move(&self, ply: usize) -> Move {
        match ply.checked_sub(1).map(|p| self.stack[p]) {
            Some(prev) if !prev.mv.is_null() => self.h.counter(prev.piece, prev.mv),
            _ => Move::NULL,
        }
    }

    /// A quiet move refuted this node: reward it, punish the quiet moves tried
    /// before it, and remember it as killer and counter-move.
    pub(super) fn reward_quiet(&mut self, ply: usize, m: Move, tried: &[Move], depth: i32) {
        let bonus = quiet_bonus(depth);
        let cont = self.continuations(ply);
        let i = self.history_index(m);
        self.h.update_quiet(cont, i, bonus);
        for &q in tried {
            let i = self.history_index(q);
            self.h.update_quiet(cont, i, -bonus);
        }
        let k = &mut self.stack[ply].killers;
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
        if let Some(prev) = ply.checked_sub(1).map(|p| self.stack[p]) {
            if !prev.mv.is_null() {
                self.h.counters[move_key(prev.piece, prev.mv)] = m;
            }
        }
    }

    /// The hash move cut this node off without a search (a lower bound at
    /// or above beta): when it is a quiet move of the side to move, its
    /// history and continuation history earn a refutation's bonus, as if it
    /// had been searched. And the quiet move into this node, one of the
    /// parent's first few, is marked down in the parent's continuation rows:
    /// its reply was already known.
    pub(super) fn reward_hash_cut(&mut self, ply: usize, m: Move, depth: i32) {
        if m.is_null() {
            return;
        }
        if self.pos.is_pseudo_legal(m) && !self.pos.is_capture(m) {
            let bonus = quiet_bonus(depth);
            let cont = self.continuations(ply);
            let i = self.history_index(m);
            self.h.update_quiet(cont, i, bonus);
        }
        if let Some((cont, key, number)) = self.quiet_move_into(ply) {
            if number <= prior_early_moves() as usize {
                self.h.update_continuation(cont, key, -prior_early_malus());
            }
        }
    }

    /// No move raised alpha at this node: the quiet move into it refuted
    /// it, so it earns part of a refutation's bonus in the parent's history
    /// and continuation rows (all of it when it came late in the parent's
    /// order, where it was least expected).
    pub(super) fn reward_prior_quiet(&mut self, ply: usize, depth: i32) {
        let Some((cont, key, number)) = self.quiet_move_into(ply) else {
            return;
        };
        let pct = if number > prior_late_moves() as usize {
            prior_fail_low_late_pct()
        } else {
            prior_fail_low_pct()
        };
        self.h
            .update_quiet(cont, key, quiet_bonus(depth) * pct / 100);
    }

    /// The quiet move into `ply` (none at the root, after a null move or a
    /// capture): the parent's continuation rows, the move's key, and its
    /// number in the parent's order.
    fn quiet_move_into(&self, ply: usize) -> Option<(Continuations, usize, usize)> {
        let parent = ply.checked_sub(1)?;
        let prev = &self.stack[parent];
        (!prev.mv.is_null() && !prev.capture).then(|| {
            (
                self.continuations(parent),
                move_key(prev.piece, prev.mv),
                prev.move_count,
            )
        })
    }
}

/// A quiet refutation's history bonus at `depth`: linear in depth, within
/// [0, history_bonus_cap()]. Never below 0: a tuning build may set the base
/// above one ply's worth, and a refutation is not to be punished. The cap is
/// at least 512 (its range, enforced by set_tunable), so the bounds are
/// ordered.
#[inline(always)]
pub(super) fn quiet_bonus(depth: i32) -> i32 {
    (history_bonus_per_depth() * depth - history_bonus_base()).clamp(0, history_bonus_cap())
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi::Position;

    fn key(pos: &Position, uci: &str) -> (Piece, Move, usize) {
        let m = pos.parse_move(uci).expect("test move");
        let piece = pos.piece_at(m.from());
        (piece, m, move_key(piece, m))
    }

    #[test]
    fn continuation_history_is_learnt_per_earlier_move() {
        let pos = Position::startpos();
        let mut h = Heuristics::new();
        let (_, _, cannon) = key(&pos, "h2e2");
        let (_, _, horse) = key(&pos, "b0c2");
        let (piece, m, rook) = key(&pos, "a0a1");
        let after_cannon = [cannon, NO_CONTINUATION];
        let two_back = [NO_CONTINUATION, cannon];
        let after_horse = [horse, NO_CONTINUATION];

        h.update_continuation(after_cannon, rook, 1000);
        assert_eq!(h.quiet_score(piece, m, after_cannon), 1000);
        // The same row serves the move two plies back.
        assert_eq!(h.quiet_score(piece, m, two_back), 1000);
        assert_eq!(h.quiet_score(piece, m, after_horse), 0);
        assert_eq!(h.quiet_score(piece, m, [NO_CONTINUATION; 2]), 0);
        // Both rows add up, with the move's own history.
        h.update_continuation(after_horse, rook, -300);
        h.update_history(rook, 50);
        assert_eq!(h.quiet_score(piece, m, [cannon, horse]), 1000 - 300 + 50);

        // The row of no earlier move is never written.
        h.update_continuation([NO_CONTINUATION; 2], rook, 1000);
        assert_eq!(h.quiet_score(piece, m, [NO_CONTINUATION; 2]), 50);
    }

    #[test]
    fn continuation_scores_stay_within_the_history_bound() {
        let pos = Position::startpos();
        let mut h = Heuristics::new();
        let (_, _, cannon) = key(&pos, "h2e2");
        let (piece, m, rook) = key(&pos, "a0a1");
        for bonus in [history_max(); 200] {
            h.update_continuation([cannon, NO_CONTINUATION], rook, bonus);
        }
        let top = h.quiet_score(piece, m, [cannon, NO_CONTINUATION]);
        assert!(
            top > history_max() * 9 / 10 && top <= history_max(),
            "{top}"
        );
        for _ in 0..400 {
            h.update_continuation([cannon, NO_CONTINUATION], rook, -2 * history_max());
        }
        let bottom = h.quiet_score(piece, m, [cannon, NO_CONTINUATION]);
        assert!(
            bottom >= -history_max() && bottom < -history_max() * 9 / 10,
            "{bottom}"
        );
    }
}
