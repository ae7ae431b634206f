//! Move-ordering knowledge: history scores and counter-moves (both by moving
//! piece and destination), kept by each search thread between the moves of
//! a game, and the killer moves kept per ply in the search stack.

use super::params::{history_bonus_per_depth2, history_max};
use super::Searcher;
use xiangqi::types::{Move, Piece, SQUARES};

/// Move-ordering knowledge one search thread keeps between the moves of a
/// game: history scores and counter-moves, both by moving piece and
/// destination.
pub struct Heuristics {
    history: Vec<i32>,
    counters: Vec<Move>,
}

/// Entries of a history table: one per piece (16 codes) and destination.
const MOVE_KEYS: usize = 16 * SQUARES;

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
        }
    }

    /// Gravity update: bounded by `history_max()`, old knowledge fades.
    fn update_history(&mut self, i: usize, bonus: i32) {
        let bonus = bonus.clamp(-history_max(), history_max());
        let h = &mut self.history[i];
        *h += bonus - *h * bonus.abs() / history_max();
    }

    /// The history score of the move of `piece` to `m`'s destination.
    #[inline(always)]
    pub(super) fn history(&self, piece: Piece, m: Move) -> i32 {
        self.history[move_key(piece, m)]
    }

    /// Sets a history score (for tests).
    #[cfg(test)]
    pub(super) fn set_history(&mut self, piece: Piece, m: Move, score: i32) {
        self.history[move_key(piece, m)] = score;
    }

    /// The counter-move to a move of `piece` to `m`'s destination.
    #[inline(always)]
    pub(super) fn counter(&self, piece: Piece, m: Move) -> Move {
        self.counters[move_key(piece, m)]
    }
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
        let bonus = (depth * depth * history_bonus_per_depth2()).min(history_max() / 2);
        let i = self.history_index(m);
        self.h.update_history(i, bonus);
        for &q in tried {
            let i = self.history_index(q);
            self.h.update_history(i, -bonus);
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
}
