//! Move-ordering knowledge: history scores, continuation history and
//! counter-moves, kept by each search thread between the moves of a game
//! (the low-ply history for one search), and the killer moves kept per ply
//! in the search stack.

use super::correction::{CorrectionHistory, CorrectionKeys};
use super::params::{
    history_bonus_base, history_bonus_cap, history_bonus_per_depth, history_max, prior_early_malus,
    prior_early_moves, prior_fail_low_late_pct, prior_fail_low_pct, prior_late_moves,
};
use super::searcher::Frame;
use super::Searcher;
use xiangqi::types::{Move, Piece, SQUARES};

/// Move-ordering knowledge one search thread keeps between the moves of a
/// game, after Pikafish's quiet-move tables:
/// - the history, by side to move and the move's squares;
/// - the pawn history, by the pawns on the board (a few bits of their key)
///   and the moving piece and its destination;
/// - the low-ply history, by the first `LOW_PLIES` plies of this search and
///   the move's squares: what refutes near the root, kept for one search;
/// - continuation history: how a quiet move (by piece and destination)
///   fared after each move one and two plies before it;
/// - counter-moves, by the earlier move's piece and destination;
/// - beside them, the static evaluation's correction history.
pub struct Heuristics {
    history: Vec<i32>,
    /// `PAWN_ROWS + 1` rows of `MOVE_KEYS`; the last (`NO_PAWNS`) stands
    /// for no pawn structure (a picker given no context) and stays zero.
    pawn_history: Vec<i16>,
    /// `LOW_PLIES` rows of `SQUARE_PAIRS`. The root's row is learnt but
    /// not read: the root orders its moves by the last iteration.
    low_ply: Vec<i16>,
    counters: Vec<Move>,
    /// `MOVE_KEYS + 1` rows of `MOVE_KEYS`: the row of an earlier move's key,
    /// then the quiet move's key; the last row (`NO_CONTINUATION`) stands
    /// for no earlier move and stays zero.
    continuation: Vec<i16>,
    /// What the static evaluation's errors have been (`correction`).
    pub(super) correction: CorrectionHistory,
}

/// Entries of a piece-to history table: one per piece (16 codes) and
/// destination.
pub(super) const MOVE_KEYS: usize = 16 * SQUARES;

/// Entries of a history table by the move's squares.
const SQUARE_PAIRS: usize = SQUARES * SQUARES;

/// Pawn structures the pawn history tells apart (a power of two).
const PAWN_ROWS: usize = 512;

/// The pawn-history row of no pawn structure: never updated, so it adds
/// nothing to a move's score.
const NO_PAWNS: usize = PAWN_ROWS;

/// Plies from the root that the low-ply history covers.
const LOW_PLIES: usize = 5;

/// The continuation row of no earlier move (before the root, or a null
/// move): it is never updated, so it adds nothing to a move's score.
pub(super) const NO_CONTINUATION: usize = MOVE_KEYS;

/// The continuation rows of the moves one and two plies before a node.
pub type Continuations = [usize; 2];

/// Where a node's quiet moves are scored and learnt: its continuation
/// rows, its ply (`LOW_PLIES` past the low-ply history) and its pawn
/// structure's row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuietContext {
    pub(super) cont: Continuations,
    pub(super) ply: usize,
    pub(super) pawns: usize,
}

impl QuietContext {
    /// No earlier moves, past the low plies, no pawn structure: the
    /// history alone (a picker given no context).
    pub const NONE: QuietContext = QuietContext {
        cont: [NO_CONTINUATION; 2],
        ply: LOW_PLIES,
        pawns: NO_PAWNS,
    };

    /// The context of a node at `ply` whose position has `keys`, after the
    /// moves of the rows `cont`.
    fn new(cont: Continuations, ply: usize, keys: &CorrectionKeys) -> QuietContext {
        QuietContext {
            cont,
            ply: ply.min(LOW_PLIES),
            pawns: keys.pawns() as usize & (PAWN_ROWS - 1),
        }
    }
}

/// A move's key in the piece-to tables: its piece and destination.
#[inline(always)]
pub(super) fn move_key(piece: Piece, m: Move) -> usize {
    piece.index() * SQUARES + m.to().index()
}

/// A move's key in the tables by squares: its origin and destination.
#[inline(always)]
fn squares_key(m: Move) -> usize {
    m.from().index() * SQUARES + m.to().index()
}

/// A move's key in the history: the side that plays it (its piece's) and
/// its squares.
#[inline(always)]
fn history_key(piece: Piece, m: Move) -> usize {
    piece.color().index() * SQUARE_PAIRS + squares_key(m)
}

impl Heuristics {
    pub fn new() -> Heuristics {
        Heuristics {
            history: vec![0; 2 * SQUARE_PAIRS],
            pawn_history: vec![0; (PAWN_ROWS + 1) * MOVE_KEYS],
            low_ply: vec![0; LOW_PLIES * SQUARE_PAIRS],
            counters: vec![Move::NULL; MOVE_KEYS],
            continuation: vec![0; (MOVE_KEYS + 1) * MOVE_KEYS],
            correction: CorrectionHistory::new(),
        }
    }

    /// Readies the tables for a new search: the low-ply history, of the
    /// last search's root, is forgotten, and the history fades to three
    /// quarters (the last position's refutations count less here).
    pub fn new_search(&mut self) {
        self.low_ply.fill(0);
        for h in &mut self.history {
            *h = *h * 3 / 4;
        }
    }

    /// The same update of the move with key `i` in the continuation rows
    /// `cont` (the rows of no earlier move excepted).
    fn update_continuation(&mut self, cont: Continuations, i: usize, bonus: i32) {
        for row in cont {
            if row != NO_CONTINUATION {
                update_i16(
                    &mut self.continuation[row * MOVE_KEYS + i],
                    bonus,
                    history_max(),
                );
            }
        }
    }

    /// Every update of `piece`'s quiet move `m` at a node of `ctx`: its
    /// history, its pawn history, its low-ply history (two thirds of the
    /// bonus, as Pikafish's) and its continuation history.
    fn update_quiet(&mut self, ctx: QuietContext, piece: Piece, m: Move, bonus: i32) {
        let h = &mut self.history[history_key(piece, m)];
        *h = gravity(*h, bonus, history_max());
        if ctx.pawns != NO_PAWNS {
            update_i16(
                &mut self.pawn_history[ctx.pawns * MOVE_KEYS + move_key(piece, m)],
                bonus,
                history_max(),
            );
        }
        if ctx.ply < LOW_PLIES {
            update_i16(
                &mut self.low_ply[ctx.ply * SQUARE_PAIRS + squares_key(m)],
                bonus * 2 / 3,
                history_max(),
            );
        }
        self.update_continuation(ctx.cont, move_key(piece, m), bonus);
    }

    /// A quiet move's ordering score at a node of `ctx`: the mean of its
    /// history and its pawn history, plus its continuation history and,
    /// within `LOW_PLIES` of the root, its low-ply history divided by the
    /// ply plus one.
    #[inline(always)]
    pub(super) fn quiet_score(&self, piece: Piece, m: Move, ctx: QuietContext) -> i32 {
        let i = move_key(piece, m);
        let mut score = (self.history[history_key(piece, m)]
            + i32::from(self.pawn_history[ctx.pawns * MOVE_KEYS + i]))
            / 2
            + i32::from(self.continuation[ctx.cont[0] * MOVE_KEYS + i])
            + i32::from(self.continuation[ctx.cont[1] * MOVE_KEYS + i]);
        if ctx.ply < LOW_PLIES {
            score += i32::from(self.low_ply[ctx.ply * SQUARE_PAIRS + squares_key(m)])
                / (ctx.ply as i32 + 1);
        }
        score
    }

    /// Sets a history score (for tests).
    #[cfg(test)]
    pub(super) fn set_history(&mut self, piece: Piece, m: Move, score: i32) {
        self.history[history_key(piece, m)] = score;
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

/// A table entry after a bonus (or, negative, a malus): within `+-limit`,
/// old knowledge fading. The history tables and the correction history
/// both learn by it.
#[inline(always)]
fn gravity(h: i32, bonus: i32, limit: i32) -> i32 {
    let bonus = bonus.clamp(-limit, limit);
    h + bonus - h * bonus.abs() / limit
}

/// `gravity` on an entry kept as i16 (`limit` <= i16::MAX): the history
/// tables' (within `history_max()`) and the correction history's.
#[inline(always)]
pub(super) fn update_i16(h: &mut i16, bonus: i32, limit: i32) {
    *h = gravity(i32::from(*h), bonus, limit) as i16;
}

impl Default for Heuristics {
    fn default() -> Self {
        Heuristics::new()
    }
}

impl Searcher<'_> {
    /// The continuation rows of the moves one and two plies before `ply`.
    #[inline(always)]
    fn continuations(&self, ply: usize) -> Continuations {
        let row = |back: usize| {
            self.played(ply, back)
                .map_or(NO_CONTINUATION, |f| move_key(f.piece, f.mv))
        };
        [row(1), row(2)]
    }

    /// Where the quiet moves of the node at `ply` (on the current line)
    /// are scored and learnt.
    #[inline(always)]
    pub(super) fn quiet_context(&self, ply: usize) -> QuietContext {
        QuietContext::new(
            self.continuations(ply),
            ply,
            &self.stack[ply].correction_keys,
        )
    }

    /// The counter-move to the move that led to `ply` (`Move::NULL` at the
    /// root or after a null move).
    #[inline(always)]
    pub(super) fn counter_move(&self, ply: usize) -> Move {
        self.played(ply, 1)
            .map_or(Move::NULL, |prev| self.h.counter(prev.piece, prev.mv))
    }

    /// A quiet move refuted this node: reward it, punish the quiet moves tried
    /// before it, and remember it as killer and counter-move.
    pub(super) fn reward_quiet(&mut self, ply: usize, m: Move, tried: &[Move], depth: i32) {
        let bonus = quiet_bonus(depth);
        let ctx = self.quiet_context(ply);
        self.h
            .update_quiet(ctx, self.pos.piece_at(m.from()), m, bonus);
        for &q in tried {
            self.h
                .update_quiet(ctx, self.pos.piece_at(q.from()), q, -bonus);
        }
        let k = &mut self.stack[ply].killers;
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
        if let Some(prev) = self.played(ply, 1).map(|f| move_key(f.piece, f.mv)) {
            self.h.counters[prev] = m;
        }
    }

    /// The hash move cut this node off without a search (a lower bound at
    /// or above beta): when it is a quiet move of the side to move, its
    /// histories earn a refutation's bonus, as if it had been searched. And
    /// the quiet move into this node, one of the parent's first few, is
    /// marked down in the parent's continuation rows: its reply was
    /// already known.
    pub(super) fn reward_hash_cut(&mut self, ply: usize, m: Move, depth: i32) {
        if m.is_null() {
            return;
        }
        if self.pos.is_pseudo_legal(m) && !self.pos.is_capture(m) {
            let ctx = self.quiet_context(ply);
            self.h
                .update_quiet(ctx, self.pos.piece_at(m.from()), m, quiet_bonus(depth));
        }
        if let Some((ctx, prev)) = self.quiet_move_into(ply) {
            if prev.move_count <= prior_early_moves() as usize {
                self.h.update_continuation(
                    ctx.cont,
                    move_key(prev.piece, prev.mv),
                    -prior_early_malus(),
                );
            }
        }
    }

    /// No move raised alpha at this node: the quiet move into it refuted
    /// it, so it earns part of a refutation's bonus in the parent's
    /// histories (all of it when it came late in the parent's order, where
    /// it was least expected).
    pub(super) fn reward_prior_quiet(&mut self, ply: usize, depth: i32) {
        let Some((ctx, prev)) = self.quiet_move_into(ply) else {
            return;
        };
        let pct = if prev.move_count > prior_late_moves() as usize {
            prior_fail_low_late_pct()
        } else {
            prior_fail_low_pct()
        };
        self.h
            .update_quiet(ctx, prev.piece, prev.mv, quiet_bonus(depth) * pct / 100);
    }

    /// The quiet move into `ply` (none at the root, after a null move or a
    /// capture): the parent's context and frame (the move, its piece and
    /// its number in the parent's order).
    fn quiet_move_into(&self, ply: usize) -> Option<(QuietContext, Frame)> {
        let prev = *self.played(ply, 1)?;
        (!prev.capture).then(|| (self.quiet_context(ply - 1), prev))
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
    use xiangqi::types::Color;
    use xiangqi::Position;

    fn key(pos: &Position, uci: &str) -> (Piece, Move, usize) {
        let m = pos.parse_move(uci).expect("test move");
        let piece = pos.piece_at(m.from());
        (piece, m, move_key(piece, m))
    }

    /// The context of continuation rows `cont` alone.
    fn after(cont: Continuations) -> QuietContext {
        QuietContext {
            cont,
            ..QuietContext::NONE
        }
    }

    #[test]
    fn continuation_history_is_learnt_per_earlier_move() {
        let pos = Position::startpos();
        let mut h = Heuristics::new();
        let (_, _, cannon) = key(&pos, "h2e2");
        let (_, _, horse) = key(&pos, "b0c2");
        let (piece, m, rook) = key(&pos, "a0a1");
        let after_cannon = after([cannon, NO_CONTINUATION]);
        let two_back = after([NO_CONTINUATION, cannon]);
        let after_horse = after([horse, NO_CONTINUATION]);

        h.update_continuation(after_cannon.cont, rook, 1000);
        assert_eq!(h.quiet_score(piece, m, after_cannon), 1000);
        // The same row serves the move two plies back.
        assert_eq!(h.quiet_score(piece, m, two_back), 1000);
        assert_eq!(h.quiet_score(piece, m, after_horse), 0);
        assert_eq!(h.quiet_score(piece, m, QuietContext::NONE), 0);
        // Both rows add up, with half the move's own history.
        h.update_continuation(after_horse.cont, rook, -300);
        h.set_history(piece, m, 50);
        assert_eq!(
            h.quiet_score(piece, m, after([cannon, horse])),
            1000 - 300 + 25
        );

        // The row of no earlier move is never written.
        h.update_continuation([NO_CONTINUATION; 2], rook, 1000);
        assert_eq!(h.quiet_score(piece, m, QuietContext::NONE), 25);
    }

    #[test]
    fn continuation_scores_stay_within_the_history_bound() {
        let pos = Position::startpos();
        let mut h = Heuristics::new();
        let (_, _, cannon) = key(&pos, "h2e2");
        let (piece, m, rook) = key(&pos, "a0a1");
        let ctx = after([cannon, NO_CONTINUATION]);
        for bonus in [history_max(); 200] {
            h.update_continuation(ctx.cont, rook, bonus);
        }
        let top = h.quiet_score(piece, m, ctx);
        assert!(
            top > history_max() * 9 / 10 && top <= history_max(),
            "{top}"
        );
        for _ in 0..400 {
            h.update_continuation(ctx.cont, rook, -2 * history_max());
        }
        let bottom = h.quiet_score(piece, m, ctx);
        assert!(
            bottom >= -history_max() && bottom < -history_max() * 9 / 10,
            "{bottom}"
        );
    }

    #[test]
    fn the_history_tells_the_squares_apart_and_the_pawn_history_the_pawns() {
        // Red's cannons b2 and h2 to e2: the same move by piece and
        // destination, told apart by their squares.
        let pos = Position::startpos();
        let mut h = Heuristics::new();
        let keys = CorrectionKeys::of(&pos);
        let ctx = QuietContext::new([NO_CONTINUATION; 2], LOW_PLIES, &keys);
        let (cannon, from_b2, _) = key(&pos, "b2e2");
        let (_, from_h2, _) = key(&pos, "h2e2");
        h.update_quiet(ctx, cannon, from_b2, 1000);
        // Its history and its pawn history, half of each; the other
        // cannon shares the pawn history alone.
        assert_eq!(h.quiet_score(cannon, from_b2, ctx), 1000);
        assert_eq!(h.quiet_score(cannon, from_h2, ctx), 500);
        // Under other pawns (a pawn one step on), the history alone.
        let mut pushed = pos.clone();
        pushed.make_move(pos.parse_move("c3c4").expect("test move"));
        let other = QuietContext::new(
            [NO_CONTINUATION; 2],
            LOW_PLIES,
            &CorrectionKeys::of(&pushed),
        );
        assert_ne!(other.pawns, ctx.pawns);
        assert_eq!(h.quiet_score(cannon, from_b2, other), 500);
        assert_eq!(h.quiet_score(cannon, from_h2, other), 0);
        // Black's cannon between the same squares has its own entries.
        let black = Piece::new(Color::Black, cannon.kind());
        assert_eq!(h.quiet_score(black, from_b2, ctx), 0);
        // With no context, the history alone learns: the row of no pawns
        // stays zero.
        h.update_quiet(QuietContext::NONE, black, from_b2, 800);
        assert_eq!(h.quiet_score(black, from_b2, QuietContext::NONE), 400);
        assert!(h.pawn_history[NO_PAWNS * MOVE_KEYS..]
            .iter()
            .all(|&v| v == 0));
    }

    #[test]
    fn the_low_ply_history_counts_near_the_root_for_one_search() {
        let pos = Position::startpos();
        let mut h = Heuristics::new();
        let keys = CorrectionKeys::of(&pos);
        let at = |ply| QuietContext::new([NO_CONTINUATION; 2], ply, &keys);
        let (piece, m, _) = key(&pos, "h2e2");
        h.update_quiet(at(1), piece, m, 900);
        // History and pawn history, half each, and two thirds of the bonus
        // in the low-ply history, divided by the ply plus one.
        assert_eq!(h.quiet_score(piece, m, at(1)), 900 + 600 / 2);
        assert_eq!(h.quiet_score(piece, m, at(0)), 900);
        assert_eq!(h.quiet_score(piece, m, at(LOW_PLIES + 3)), 900);
        // A new search forgets it, and the history fades to 3/4.
        h.new_search();
        assert_eq!(h.quiet_score(piece, m, at(1)), (675 + 900) / 2);
    }
}
