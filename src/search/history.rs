//! Move-ordering knowledge: history scores and counter-moves (both by moving
//! piece and destination), continuation histories (a quiet move's score
//! after the move one and two plies before it), kept by each search thread
//! between the moves of a game, and the killer moves kept per ply in the
//! search stack.

use super::params::{history_bonus_per_depth2, history_max};
use super::Searcher;
use xiangqi::position::Position;
use xiangqi::types::{Color, Move, Piece, PieceKind, SQUARES};

/// Move-ordering knowledge one search thread keeps between the moves of a
/// game: history scores and counter-moves, both by moving piece and
/// destination.
pub struct Heuristics {
    history: Vec<i32>,
    counters: Vec<Move>,
    /// Continuation history: a row per (piece, destination) of an earlier
    /// move, and in it a score per (piece, destination) of the move now.
    /// The last row, `NO_MOVE_ROW`, stands for no earlier move (the root,
    /// a null move): read as zeros, never written.
    continuation: Vec<i16>,
    /// Capture history: a score per (piece, destination, captured kind).
    captures: Vec<i16>,
    /// Correction history: by side to move and a hash of both sides'
    /// pawns, how far the searches' scores have come out from the static
    /// evaluation, in 1/`CORRECTION_GRAIN` centipawns (a moving average).
    correction: Vec<i32>,
}

/// Entries per side of the correction history (a power of two).
const CORRECTION_SIZE: usize = 1 << 14;
/// The correction history's fixed-point unit, per centipawn.
const CORRECTION_GRAIN: i32 = 256;
/// The largest correction, in centipawns.
const CORRECTION_MAX: i32 = 256;

/// Entries of a history table: one per piece (16 codes) and destination.
const MOVE_KEYS: usize = 16 * SQUARES;
/// The continuation-history row read when there is no earlier move.
pub const NO_MOVE_ROW: usize = MOVE_KEYS;

/// Gravity update: bounded by `history_max()`, old knowledge fades.
#[inline(always)]
fn gravity(h: i32, bonus: i32) -> i32 {
    let bonus = bonus.clamp(-history_max(), history_max());
    h + bonus - h * bonus.abs() / history_max()
}

/// What a refutation at `depth` earns in the history tables.
#[inline(always)]
fn history_bonus(depth: i32) -> i32 {
    (depth * depth * history_bonus_per_depth2()).min(history_max() / 2)
}

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
            captures: vec![0; MOVE_KEYS * 8],
            correction: vec![0; 2 * CORRECTION_SIZE],
        }
    }

    fn update_history(&mut self, i: usize, bonus: i32) {
        let h = &mut self.history[i];
        *h = gravity(*h, bonus);
    }

    /// Updates the continuation score of the move with key `i` after the
    /// earlier moves of `rows`.
    fn update_continuation(&mut self, rows: [usize; 2], i: usize, bonus: i32) {
        for row in rows {
            if row != NO_MOVE_ROW {
                let c = &mut self.continuation[row * MOVE_KEYS + i];
                *c = gravity(i32::from(*c), bonus) as i16;
            }
        }
    }

    /// The correction-history entry of a position.
    fn correction_index(pos: &Position) -> usize {
        let red = pos.pieces(Color::Red, PieceKind::Pawn).0;
        let black = pos.pieces(Color::Black, PieceKind::Pawn).0;
        let mix =
            |x: u128, k: u64| ((x as u64) ^ ((x >> 64) as u64).rotate_left(29)).wrapping_mul(k);
        let hash =
            mix(red, 0x9E37_79B9_7F4A_7C15) ^ mix(black, 0xC2B2_AE3D_27D4_EB4F).rotate_left(17);
        let side = pos.side_to_move() as usize;
        side * CORRECTION_SIZE + (hash >> 50) as usize % CORRECTION_SIZE
    }

    /// The static evaluation `raw` of `pos`, corrected by what searches of
    /// positions with the same pawns have found.
    #[inline(always)]
    pub(super) fn corrected(&self, pos: &Position, raw: i32) -> i32 {
        raw + self.correction[Self::correction_index(pos)] / CORRECTION_GRAIN
    }

    /// A search of `pos` to `depth` scored `score` where the static
    /// evaluation said `raw`: moves the position's correction towards the
    /// difference, more for deeper searches.
    pub(super) fn update_correction(&mut self, pos: &Position, raw: i32, score: i32, depth: i32) {
        let target = (score - raw).clamp(-CORRECTION_MAX, CORRECTION_MAX) * CORRECTION_GRAIN;
        let weight = (depth + 1).min(16);
        let c = &mut self.correction[Self::correction_index(pos)];
        *c = (*c * (256 - weight) + target * weight) / 256;
    }

    /// The capture history of `piece` taking a `victim` on `m`'s destination.
    #[inline(always)]
    pub(super) fn capture_score(&self, piece: Piece, m: Move, victim: PieceKind) -> i32 {
        i32::from(self.captures[move_key(piece, m) * 8 + victim.index()])
    }

    /// A quiet move's ordering score: its history plus its continuation
    /// scores after the earlier moves of `rows` (see `Searcher::continuation_rows`).
    #[inline(always)]
    pub(super) fn quiet_score(&self, piece: Piece, m: Move, rows: [usize; 2]) -> i32 {
        let i = move_key(piece, m);
        self.history[i]
            + i32::from(self.continuation[rows[0] * MOVE_KEYS + i])
            + i32::from(self.continuation[rows[1] * MOVE_KEYS + i])
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

    /// The continuation-history rows of a move at `ply`: the keys of the
    /// moves one and two plies before it (`NO_MOVE_ROW` where there is none).
    #[inline(always)]
    pub(super) fn continuation_rows(&self, ply: usize) -> [usize; 2] {
        let row = |back: usize| match ply.checked_sub(back).map(|p| self.stack[p]) {
            Some(f) if !f.mv.is_null() => move_key(f.piece, f.mv),
            _ => NO_MOVE_ROW,
        };
        [row(1), row(2)]
    }

    /// The capture history's key of the capture `m`, in the position
    /// before it.
    fn capture_index(&self, m: Move) -> usize {
        self.history_index(m) * 8 + self.pos.piece_at(m.to()).kind().index()
    }

    /// A move refuted this node: reward it in its history (a quiet one also
    /// as killer and counter-move), and punish the moves tried before it,
    /// `quiets` in the quiet histories (if it is quiet) and `captures` in the
    /// capture history (whatever it is).
    pub(super) fn reward_cutoff(
        &mut self,
        ply: usize,
        m: Move,
        quiets: &[Move],
        captures: &[Move],
        depth: i32,
    ) {
        let bonus = history_bonus(depth);
        if self.pos.is_capture(m) {
            let i = self.capture_index(m);
            self.h.captures[i] = gravity(i32::from(self.h.captures[i]), bonus) as i16;
        } else {
            self.reward_quiet(ply, m, quiets, depth);
        }
        for &c in captures {
            let i = self.capture_index(c);
            self.h.captures[i] = gravity(i32::from(self.h.captures[i]), -bonus) as i16;
        }
    }

    /// A quiet move refuted this node: reward it, punish the quiet moves tried
    /// before it, and remember it as killer and counter-move.
    fn reward_quiet(&mut self, ply: usize, m: Move, tried: &[Move], depth: i32) {
        let bonus = history_bonus(depth);
        let rows = self.continuation_rows(ply);
        let i = self.history_index(m);
        self.h.update_history(i, bonus);
        self.h.update_continuation(rows, i, bonus);
        for &q in tried {
            let i = self.history_index(q);
            self.h.update_history(i, -bonus);
            self.h.update_continuation(rows, i, -bonus);
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
