//! The search of one node: principal-variation alpha-beta with its
//! selectivity (razoring, reverse futility, null move, internal iterative
//! reduction, SEE and late-move pruning, futility, singular extensions,
//! late-move reductions),
//! and the quiescence search of captures (and evasions) at the horizon.

use super::params::*;
use super::picker::{MovePicker, GOOD_CAPTURE, LOWEST_REFUTATION, TT_MOVE_SCORE};
use super::see::see_ge;
use super::tt::{score_from_tt, score_to_tt, Bound, Entry};
use super::{Searcher, INFINITY, MATE, MAX_PLY, RULE_WIN};
use xiangqi::movegen::MoveList;
use xiangqi::types::{Color, Move, Piece, PieceKind};

impl Searcher<'_> {
    /// A node searched within (`alpha`, `beta`). A `cut_node` is a
    /// zero-window node expected to fail high: the first child of a node
    /// expected to fail low, or a later child searched with a null window
    /// (nodes alternate between the two kinds down a line).
    pub(super) fn negamax(
        &mut self,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        in_check: bool,
        cut_node: bool,
    ) -> i32 {
        // Step 1. Check extension (from depth check_ext_depth), and
        // quiescence at the horizon (which searches every evasion in check).
        let mut depth = depth.max(0);
        if in_check && depth >= check_ext_depth() {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiesce(alpha, beta, ply, in_check);
        }
        let pv_node = beta - alpha > 1;
        let prior_reduction = std::mem::take(&mut self.stack[ply].reduction);
        if !self.enter(ply, in_check) {
            return 0;
        }
        // Step 2. The rules: repetition, move limit, insufficient material.
        if let Some(score) = self.rule_score(ply, in_check) {
            return score;
        }
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.static_eval(ply) };
        }
        // Step 3. Mate distance pruning.
        let mut alpha = alpha.max(-(MATE - ply as i32));
        let beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        // Step 4. Transposition table (no cut-off in a search that leaves
        // a move out: its result is not the position's).
        let excluded = self.stack[ply].excluded;
        let key = self.pos.key();
        let entry = self.tt.probe(key);
        // The picker plays the hash move only if it is legal here: a wrong
        // move from a key collision is never searched.
        let tt_move = entry.map_or(Move::NULL, |e| e.mv);
        if let Some(e) = entry {
            let score = score_from_tt(e.score, ply);
            let fits = match e.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if !pv_node && e.depth as i32 >= depth && fits && excluded.is_null() {
                if score >= beta {
                    self.reward_hash_cut(ply, tt_move, depth);
                }
                return score;
            }
        }

        // Step 5. Static evaluation (the table keeps it uncorrected).
        let (raw_eval, eval) = self.node_evals(ply, in_check, entry.map(|e| e.eval));
        self.stack[ply].eval = eval;
        self.stack[ply + 2].killers = [Move::NULL; 2];
        let improving = !in_check && ply >= 2 && eval > self.stack[ply - 2].eval;
        // Hindsight: a node reduced by hindsight_deeper plies or more goes a
        // ply deeper when the move into it did not worsen the mover's static
        // evaluation (this node's and the parent's, each from its side to
        // move, add up to 0 or less); a node reduced at all goes a ply
        // shallower when both sides stand well (they add up to more than
        // hindsight_shallower_margin), as Stockfish's priorReduction does.
        if prior_reduction > 0 && !in_check && ply >= 1 && self.stack[ply - 1].eval > -INFINITY {
            let both = eval + self.stack[ply - 1].eval;
            if prior_reduction >= hindsight_deeper() && both <= 0 {
                depth += 1;
            } else if depth >= 2 && both > hindsight_shallower_margin() {
                depth -= 1;
            }
        }

        let cuts = self.selectivity;
        if !pv_node && !in_check && cuts.node_pruning {
            // Step 6. Razoring: hopeless at low depth unless a capture saves it.
            if depth <= razor_depth() && eval + razor_base() + razor_per_depth() * depth < alpha {
                let score = self.quiesce(alpha, alpha + 1, ply, false);
                if score <= alpha {
                    return score;
                }
            }
            // Step 7. Reverse futility pruning, with a wider margin where
            // the evaluation needed a large correction (Stockfish's).
            if depth <= rfp_depth()
                && eval.abs() < RULE_WIN
                && eval
                    - rfp_per_depth() * (depth - improving as i32)
                    - (eval - raw_eval).abs() * rfp_correction_pct() / 100
                    >= beta
            {
                return eval;
            }
        }
        if !pv_node && !in_check && cuts.null_move_and_reductions && excluded.is_null() {
            // Step 8. Null move pruning.
            let last_null = ply > 0 && self.stack[ply - 1].mv.is_null();
            if depth >= nmp_min_depth()
                && eval >= beta
                && beta.abs() < RULE_WIN
                && !last_null
                // Passing is safe to assume harmless where the side to move
                // has a rook, horse or cannon (zugzwang is rare with one).
                && self.pos.majors(self.pos.side_to_move()).any()
            {
                let r = nmp_base()
                    + depth / nmp_depth_div()
                    + ((eval - beta) / nmp_eval_div()).min(nmp_eval_max());
                self.stack[ply].mv = Move::NULL;
                self.stack[ply].piece = Piece::NONE;
                self.pos.make_null_move();
                self.pass_state(ply);
                let score = -self.negamax(depth - r, -beta, -beta + 1, ply + 1, false, !cut_node);
                self.pos.unmake_move();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= RULE_WIN { beta } else { score };
                }
            }
        }

        // Step 9. Internal iterative reduction: no hash move, a shallower search will do.
        if tt_move.is_null() && depth >= iir_min_depth() && pv_node && cuts.null_move_and_reductions
        {
            depth -= iir_reduction();
        }

        // Step 10. The moves, from the staged picker.
        let mut picker = MovePicker::new(
            tt_move,
            self.stack[ply].killers,
            self.counter_move(ply),
            in_check,
        )
        .with_context(self.quiet_context(ply));
        let alpha_orig = alpha;
        // Moves may be pruned at this node (once a move has held off a
        // mate): not in check, and not in an ending without a rook, a horse
        // or a cannon, whose mates come from quiet moves of soldiers (with
        // the king and advisors) late in the order, and whose nodes have
        // few moves to prune.
        let pruning_node = !in_check
            && cuts.move_pruning
            && (self.pos.majors(Color::Red) | self.pos.majors(Color::Black)).any();
        let mut best = -INFINITY;
        let mut best_move = Move::NULL;
        let mut quiets = MoveList::new();
        let mut move_count = 0;
        while let Some((m, order)) = picker.next(&self.pos, self.h) {
            if m == excluded {
                continue;
            }
            let capture = self.pos.is_capture(m);
            // A capture of an advisor or an elephant breaks the palace, which
            // is how sacrifices mate: spared below by the SEE pruning when it
            // gives check, and never reduced, even when it loses its exchange.
            let palace = capture && breaks_palace(&self.pos, m);
            move_count += 1;
            let may_prune = pruning_node && best > -RULE_WIN;
            // Step 11. Losing captures at low depth (a good capture, with an
            // exchange >= 0, passes without a second look), except a check
            // that takes an advisor or an elephant: breaking the palace is
            // how sacrifices mate, and it loses its exchange.
            if may_prune
                && capture
                && depth <= see_capture_depth()
                && !(GOOD_CAPTURE..TT_MOVE_SCORE).contains(&order)
                && !see_ge(&self.pos, m, -see_capture_per_depth() * depth)
                && !(palace && self.pos.gives_check(m))
            {
                continue;
            }
            // Step 12. Late quiet moves, futile ones and ones with a bad
            // history at low depth, unless they give check (asked without
            // making them).
            if may_prune && !capture {
                let late = depth <= lmp_depth() && move_count > late_move_limit(depth, improving);
                let futile = depth <= futility_depth()
                    && eval + futility_base() + futility_per_depth() * depth <= alpha;
                // Quiet moves with a bad history (killers, the counter-move
                // and the hash move score far above any such threshold).
                let unpromising =
                    depth <= history_prune_depth() && order < -history_prune_per_depth() * depth;
                if (late || futile || unpromising) && !self.pos.gives_check(m) {
                    continue;
                }
            }
            // Step 13. Singular extension of the hash move.
            let extension = if order == TT_MOVE_SCORE {
                match self.singular_extension(entry, depth, beta, ply, in_check, cut_node) {
                    Ok(extension) => extension,
                    Err(score) => return score,
                }
            } else {
                0
            };
            // Set after the singular search, which counts its own moves here.
            self.stack[ply].move_count = move_count;
            let gives_check = self.play(m, ply);
            // Step 14. Principal variation search with late-move reductions.
            let new_depth = depth - 1 + extension;
            let score = if move_count == 1 {
                -self.negamax(
                    new_depth,
                    -beta,
                    -alpha,
                    ply + 1,
                    gives_check,
                    !pv_node && !cut_node,
                )
            } else {
                let mut r = 0;
                if depth >= lmr_min_depth() && cuts.null_move_and_reductions && !palace {
                    r = self.table_reduction(depth, move_count);
                    if pv_node {
                        r -= lmr_pv();
                    }
                    if !improving {
                        r += lmr_not_improving();
                    }
                    if cut_node {
                        r += lmr_cut_node();
                    }
                    // Checks, evasions and captures that do not lose
                    // material are reduced less than quiet moves.
                    if gives_check {
                        r -= lmr_check();
                    }
                    if in_check {
                        r -= lmr_evasion();
                    }
                    if capture {
                        if order >= 0 {
                            r -= lmr_capture();
                        }
                    } else if order >= LOWEST_REFUTATION {
                        r -= lmr_refutation();
                    } else {
                        r -= order / lmr_history_div();
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                // The child takes it as it begins (a reduced child's depth is
                // at least 1, so it always gets that far).
                self.stack[ply + 1].reduction = r;
                let mut s = -self.negamax(
                    new_depth - r,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    gives_check,
                    true,
                );
                if s > alpha && r > 0 {
                    // A reduced move that beats alpha is searched again at
                    // full depth: a ply deeper when it beats the best by a
                    // margin, a ply shallower when it barely does.
                    let deeper = s > best + lmr_deeper_base() + lmr_deeper_per_depth() * new_depth;
                    let shallower = s < best + lmr_shallower_margin();
                    let full = new_depth + deeper as i32 - shallower as i32;
                    if full > new_depth - r {
                        s = -self.negamax(
                            full,
                            -alpha - 1,
                            -alpha,
                            ply + 1,
                            gives_check,
                            !cut_node,
                        );
                    }
                }
                if s > alpha && s < beta {
                    s = -self.negamax(new_depth, -beta, -alpha, ply + 1, gives_check, false);
                }
                s
            };
            self.pos.unmake_move();
            if self.stopped {
                return 0;
            }
            if raise(score, m, &mut best, &mut alpha, &mut best_move) {
                self.update_pv(ply, m);
                if alpha >= beta {
                    break;
                }
            }
            if !capture {
                quiets.push(m);
            }
        }

        if move_count == 0 {
            // No legal move loses, in check or not; with a move left out,
            // that move is the only one (a fail low, so that it extends).
            return if excluded.is_null() {
                -(MATE - ply as i32)
            } else {
                alpha
            };
        }

        // Step 15. Learn from a quiet refutation, or from a fail low: the
        // quiet move into this node refuted it.
        if best >= beta && !self.pos.is_capture(best_move) {
            self.reward_quiet(ply, best_move, &quiets, depth);
        } else if best_move.is_null() && excluded.is_null() {
            self.reward_prior_quiet(ply, depth);
        }

        // Step 16. Learn the static evaluation's error where the search
        // proved it (above it with a best move, below it without one),
        // unless the best move is a capture; and remember the result (not
        // a search's that left a move out).
        if excluded.is_null() {
            let raised = !best_move.is_null();
            if !in_check
                && best.abs() < RULE_WIN
                && (best > eval) == raised
                && !(raised && self.pos.is_capture(best_move))
            {
                let per_128 = if raised {
                    corr_bonus_raised()
                } else {
                    corr_bonus_failed()
                };
                self.learn_correction(ply, (best - eval) * depth * per_128 / 128);
            }
            let bound = bound_of(best, alpha_orig, beta);
            self.tt.store(
                key,
                best_move,
                score_to_tt(best, ply),
                raw_eval,
                depth as u32,
                bound,
            );
        }
        best
    }

    /// Step 13. Singular extension of the hash move (the move of `entry`,
    /// about to be searched first from this node): when a search without it
    /// at half depth fails low by a margin, it is the only move and is
    /// searched a ply deeper (`Ok(1)`). When that search fails high above
    /// beta instead, two moves refute the node (multi-cut: `Err` with the
    /// node's score); when the hash move's stored score alone is above beta,
    /// it is searched a ply shallower (`Ok(-1)`). `Err(0)` when the search
    /// stopped.
    fn singular_extension(
        &mut self,
        entry: Option<Entry>,
        depth: i32,
        beta: i32,
        ply: usize,
        in_check: bool,
        cut_node: bool,
    ) -> Result<i32, i32> {
        let Some(e) = entry else { return Ok(0) };
        let tt_score = score_from_tt(e.score, ply);
        let applies = self.selectivity.null_move_and_reductions
            && depth >= se_min_depth()
            && self.stack[ply].excluded.is_null()
            && (ply as i32) < 2 * self.root_depth
            && e.bound != Bound::Upper
            && e.depth as i32 >= depth - se_depth_margin()
            && tt_score.abs() < RULE_WIN;
        if !applies {
            return Ok(0);
        }
        let s_beta = tt_score - se_margin_per_depth() * depth;
        self.stack[ply].excluded = e.mv;
        let s = self.negamax((depth - 1) / 2, s_beta - 1, s_beta, ply, in_check, cut_node);
        self.stack[ply].excluded = Move::NULL;
        // Its line is not this node's.
        self.pv_len[ply] = ply;
        if self.stopped {
            Err(0)
        } else if s < s_beta {
            Ok(1)
        } else if s_beta >= beta {
            Err(s_beta)
        } else {
            Ok(if tt_score >= beta { -1 } else { 0 })
        }
    }

    pub(super) fn quiesce(&mut self, mut alpha: i32, beta: i32, ply: usize, in_check: bool) -> i32 {
        if !self.enter(ply, in_check) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.static_eval(ply) };
        }
        let pv_node = beta - alpha > 1;
        let key = self.pos.key();
        let entry = self.tt.probe(key);
        if let Some(e) = entry {
            let score = score_from_tt(e.score, ply);
            let fits = match e.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if !pv_node && fits {
                return score;
            }
        }
        let (raw_eval, eval) = self.node_evals(ply, in_check, entry.map(|e| e.eval));
        let mut best = eval;
        // Stand pat (at the corrected evaluation): the side to move may
        // decline every capture. In check, every evasion is searched, not
        // just captures; none is mate (below).
        if !in_check {
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        let alpha_orig = alpha;
        let tt_move = entry.map_or(Move::NULL, |e| e.mv);
        let mut picker = MovePicker::quiescence(tt_move, in_check);
        if in_check {
            // Quiet evasions are ordered as in the tree.
            picker = picker.with_context(self.quiet_context(ply));
        }
        let mut best_move = Move::NULL;
        let mut any_move = false;
        // The square the last move went to: taking back there is always searched.
        let last_to = self.played(ply, 1).map(|f| f.mv.to());
        let (mut captures, mut quiet_evasions) = (0, 0);
        while let Some((m, order)) = picker.next(&self.pos, self.h) {
            any_move = true;
            if !in_check {
                // Losing captures are left out (they all come last).
                if order < 0 {
                    break;
                }
                // Past the first few captures, and (delta pruning) where
                // even winning the piece would not reach alpha, only a
                // recapture or a check is searched.
                captures += 1;
                if last_to != Some(m.to()) {
                    let victim = qs_value(self.pos.piece_at(m.to()).kind());
                    let futile = eval + victim + delta_margin() <= alpha;
                    if (captures > qs_capture_limit() || futile) && !self.pos.gives_check(m) {
                        continue;
                    }
                }
            } else if best > -RULE_WIN && !self.pos.is_capture(m) {
                // One evasion holds off the mate: a few quiet ones more.
                quiet_evasions += 1;
                if quiet_evasions > qs_quiet_evasions() {
                    continue;
                }
            }
            let gives_check = self.play(m, ply);
            let score = -self.quiesce(-beta, -alpha, ply + 1, gives_check);
            self.pos.unmake_move();
            if self.stopped {
                return 0;
            }
            if raise(score, m, &mut best, &mut alpha, &mut best_move) {
                self.update_pv(ply, m);
                if alpha >= beta {
                    break;
                }
            }
        }
        if in_check && !any_move {
            return -(MATE - ply as i32);
        }
        let bound = bound_of(best, alpha_orig, beta);
        self.tt
            .store(key, best_move, score_to_tt(best, ply), raw_eval, 0, bound);
        best
    }
}

/// Takes a searched move's score: raises the node's `best`, and when it
/// beats `alpha`, raises `alpha` too and makes the move the node's best.
/// Returns whether alpha was raised (the move then leads the PV).
#[inline(always)]
fn raise(score: i32, m: Move, best: &mut i32, alpha: &mut i32, best_move: &mut Move) -> bool {
    if score <= *best {
        return false;
    }
    *best = score;
    if score <= *alpha {
        return false;
    }
    *best_move = m;
    *alpha = score;
    true
}

/// What taking a piece of `kind` can gain, in the evaluation's centipawns
/// (the quiescence search's delta pruning).
#[inline(always)]
fn qs_value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::Pawn => qs_value_pawn(),
        PieceKind::Advisor | PieceKind::Elephant => qs_value_guard(),
        PieceKind::Horse => qs_value_horse(),
        PieceKind::Cannon => qs_value_cannon(),
        PieceKind::Rook => qs_value_rook(),
        PieceKind::King => 0,
    }
}

/// Whether capture `m` takes one of the palace's defenders (an advisor or
/// an elephant).
#[inline(always)]
fn breaks_palace(pos: &xiangqi::Position, m: Move) -> bool {
    matches!(
        pos.piece_at(m.to()).kind(),
        PieceKind::Advisor | PieceKind::Elephant
    )
}

/// What a node's result says of its score, searched within
/// (`alpha_orig`, `beta`).
#[inline(always)]
fn bound_of(best: i32, alpha_orig: i32, beta: i32) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if best > alpha_orig {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

#[cfg(test)]
mod tests {
    use super::super::correction::CorrectionLine;
    use super::super::history::{quiet_bonus, Heuristics};
    use super::super::tt::TranspositionTable;
    use super::super::{Shared, SEARCH_STACK};
    use super::*;
    use std::sync::atomic::{AtomicBool, AtomicU64};
    use std::time::Instant;
    use xiangqi::Position;

    /// What a singular-extension test sees: the method's answer, and the
    /// searcher's state after it at the node (ply 0), with the node's table
    /// entry before and after.
    #[derive(Debug)]
    struct Seen {
        answer: Result<i32, i32>,
        excluded: Move,
        pv_len: usize,
        entry_before: Option<Entry>,
        entry_after: Option<Entry>,
    }

    /// The depth the hash move's entry is stored at: enough for a singular
    /// extension at depth 8, and shallow enough that a store by the search
    /// without it (at depth 3) would replace it.
    const STORED_DEPTH: u32 = 6;

    /// Runs `f` with a fresh searcher for `pos` and its (empty) table, on a
    /// thread with the search's stack.
    fn with_searcher<T: Send + 'static>(
        pos: Position,
        f: impl FnOnce(&TranspositionTable, &mut Searcher<'_>) -> T + Send + 'static,
    ) -> T {
        let run = move || {
            let (shared, halt, total) =
                (Shared::default(), AtomicBool::new(false), AtomicU64::new(0));
            let tt = TranspositionTable::new(1);
            let mut h = Heuristics::new();
            let mut s = Searcher::new(pos, &shared, &halt, &tt, &mut h, &total, Instant::now());
            f(&tt, &mut s)
        };
        std::thread::Builder::new()
            .stack_size(SEARCH_STACK)
            .spawn(run)
            .expect("test thread")
            .join()
            .expect("no panic")
    }

    /// Stores `hash_move` for `fen` as a lower bound of `tt_score`,
    /// `STORED_DEPTH` plies deep, and asks for its singular extension at
    /// `depth` against `beta`.
    fn singular(fen: &str, hash_move: &str, tt_score: i32, depth: i32, beta: i32) -> Seen {
        let pos = Position::from_fen(fen).expect("test FEN");
        let m = pos.parse_move(hash_move).expect("test move");
        let (in_check, key) = (pos.in_check(), pos.key());
        with_searcher(pos, move |tt, s| {
            tt.store(key, m, tt_score, 0, STORED_DEPTH, Bound::Lower);
            let entry = tt.probe(key);
            s.root_depth = depth;
            let answer = s.singular_extension(entry, depth, beta, 0, in_check, false);
            Seen {
                answer,
                excluded: s.stack[0].excluded,
                pv_len: s.pv_len[0],
                entry_before: entry,
                entry_after: tt.probe(key),
            }
        })
    }

    /// Red, in check from the rook on e2, has one legal move: the horse
    /// takes it, and Red is then two rooks and a horse against two pawns.
    const ONE_MOVE: &str = "4k4/9/9/6R2/9/R8/6N2/4r4/3p1p3/4K4 w - - 0 1";

    #[test]
    fn the_only_legal_move_is_singular_and_never_searched() {
        let pos = Position::from_fen(ONE_MOVE).expect("test FEN");
        assert!(pos.in_check());
        assert_eq!(pos.legal_moves().len(), 1);
        // Searched, the capture would score far above the stored 0, so the
        // search without it would not fail low. It has no move left, and
        // fails low by definition.
        let seen = singular(ONE_MOVE, "g3e2", 0, 8, 50);
        assert_eq!(seen.answer, Ok(1), "{seen:?}");
        assert!(seen.excluded.is_null(), "{seen:?}");
        assert_eq!(seen.pv_len, 0, "{seen:?}");
        assert!(seen.entry_before.is_some(), "{seen:?}");
        assert_eq!(seen.entry_after, seen.entry_before, "{seen:?}");
    }

    #[test]
    fn other_moves_holding_beta_cut_the_node_or_shorten_the_hash_move() {
        let start = xiangqi::position::START_FEN;
        // Stored 0 at depth 8: the search without the central cannon, at
        // half depth, checks for a move at or above 0 - 2 * 8 = -16. The
        // other openings are about level, so they hold it.
        // Beta -200 is below that: two moves refute the node (multi-cut).
        let seen = singular(start, "h2e2", 0, 8, -200);
        assert_eq!(seen.answer, Err(-16), "{seen:?}");
        // Beta -10 is above it, but the hash move's own score holds beta:
        // it is searched a ply shallower.
        let seen = singular(start, "h2e2", 0, 8, -10);
        assert_eq!(seen.answer, Ok(-1), "{seen:?}");
        // Neither search left its move, line or result at the node.
        assert!(seen.excluded.is_null(), "{seen:?}");
        assert_eq!(seen.pv_len, 0, "{seen:?}");
        assert!(seen.entry_before.is_some(), "{seen:?}");
        assert_eq!(seen.entry_after, seen.entry_before, "{seen:?}");
    }

    /// Red mates in one by giving up a rook for an advisor: d5d9. The
    /// advisor on e8, which could take back, is pinned by the rook on e1;
    /// the king can neither take on d9, guarded by the horse, nor step to f9
    /// along the rook's rank.
    const PALACE_SACRIFICE: &str = "3ak4/4a4/2N6/9/3R5/9/9/9/4R4/5K3 w - - 0 1";

    #[test]
    fn a_mating_check_that_breaks_the_palace_is_not_pruned_as_a_losing_capture() {
        let pos = Position::from_fen(PALACE_SACRIFICE).expect("test FEN");
        let m = pos.parse_move("d5d9").expect("test move");
        // By exchange the capture loses: the threshold of depth 1 prunes it.
        assert!(!see_ge(&pos, m, -see_capture_per_depth()));
        let mut mated = pos.clone();
        mated.make_move(m);
        assert!(mated.in_check() && mated.legal_moves().is_empty());
        // A node one ply from the horizon (quiet moves come before losing
        // captures, so the SEE pruning is in force when it is reached)
        // finds the mate.
        let score = with_searcher(pos, |_, s| {
            s.negamax(1, -INFINITY, INFINITY, 0, false, false)
        });
        assert_eq!(score, MATE - 1);
    }

    /// What a move's ordering score is at `ply` (its histories there), for
    /// the learning tests below.
    fn order_at(s: &Searcher<'_>, ply: usize, m: Move) -> i32 {
        let piece = s.pos.piece_at(m.from());
        s.h.quiet_score(piece, m, s.quiet_context(ply))
    }

    /// Plays the moves of `line` from the root, each as its node's move
    /// number given beside it.
    fn play_line(s: &mut Searcher<'_>, line: &[(&str, usize)]) {
        for (ply, &(uci, number)) in line.iter().enumerate() {
            play_from(s, ply, uci, number);
        }
    }

    #[test]
    fn a_node_is_corrected_by_its_last_move_after_the_movers_moves_before_it() {
        with_searcher(Position::startpos(), |_, s| {
            let mut moves = Vec::new();
            for (ply, uci) in ["h0g2", "h9g7", "c3c4", "c6c5", "b0c2"].iter().enumerate() {
                let m = s.pos.parse_move(uci).expect("test move");
                moves.push((s.pos.piece_at(m.from()), m));
                s.play(m, ply);
            }
            let line = |last: usize, two: Option<usize>, four: Option<usize>| {
                Some(CorrectionLine::new(
                    moves[last],
                    two.map(|i| moves[i]),
                    four.map(|i| moves[i]),
                ))
            };
            // None at the root; then the plies that the line has.
            assert_eq!(s.correction_line(0), None);
            assert_eq!(s.correction_line(1), line(0, None, None));
            assert_eq!(s.correction_line(3), line(2, Some(1), None));
            // At ply 5 Black is to move: its own moves from plies 3 and 1.
            assert_eq!(s.correction_line(5), line(4, Some(3), Some(1)));
            // Black passes: no line after a null move, and none of it two
            // plies later.
            s.stack[5].mv = Move::NULL;
            s.stack[5].piece = Piece::NONE;
            s.pos.make_null_move();
            s.pass_state(5);
            assert_eq!(s.correction_line(6), None);
            let m = s.pos.parse_move("g3g4").expect("test move");
            let red = (s.pos.piece_at(m.from()), m);
            s.play(m, 6);
            let expected = CorrectionLine::new(red, None, Some(moves[3]));
            assert_eq!(s.correction_line(7), Some(expected));
        });
    }

    /// Three plies from the start: by ply 2 both continuation rows are a
    /// move's (at the root and at ply 1 some are of no move, never written).
    /// Then Black's cannon b7 can take the horse on b0 over Red's cannon.
    const LINE: [&str; 3] = ["h0g2", "h9g7", "c3c4"];

    /// What the move into ply 3 (LINE's last, Red's, played as the parent's
    /// move `number`) gains in the parent's tables when ply 3 fails low.
    fn fail_low_gain(number: usize) -> i32 {
        with_searcher(Position::startpos(), move |_, s| {
            play_line(s, &[(LINE[0], 1), (LINE[1], 1)]);
            let m = s.pos.parse_move(LINE[2]).expect("test move");
            let before = order_at(s, 2, m);
            play_from(s, 2, LINE[2], number);
            s.reward_prior_quiet(3, 6);
            s.pos.unmake_move();
            order_at(s, 2, m) - before
        })
    }

    /// What a quiet move's ordering score at `ply` gains from 0 when it
    /// learns `bonus`: its history and pawn history (half of each), its two
    /// continuation rows, and near the root its low-ply history (two thirds
    /// of the bonus, divided by the ply plus one).
    fn learnt(bonus: i32, ply: i32) -> i32 {
        3 * bonus + bonus * 2 / 3 / (ply + 1)
    }

    /// Plays `uci` from `ply` as the node's move `number`.
    fn play_from(s: &mut Searcher<'_>, ply: usize, uci: &str, number: usize) {
        let m = s.pos.parse_move(uci).expect("test move");
        s.stack[ply].move_count = number;
        s.play(m, ply);
    }

    #[test]
    fn a_fail_low_rewards_the_quiet_move_into_it_more_when_it_came_late() {
        // From 0: its history and pawn history (half of each), both
        // continuation rows, and at ply 2 a third of two thirds of the
        // bonus in the low-ply history.
        let share = |pct: i32| learnt(quiet_bonus(6) * pct / 100, 2);
        let last_early = prior_late_moves() as usize;
        assert_eq!(fail_low_gain(1), share(prior_fail_low_pct()));
        assert_eq!(fail_low_gain(last_early), share(prior_fail_low_pct()));
        assert_eq!(
            fail_low_gain(last_early + 1),
            share(prior_fail_low_late_pct())
        );
        assert!(share(prior_fail_low_pct()) > 0);
        assert!(share(prior_fail_low_late_pct()) > share(prior_fail_low_pct()));
        // A capture into the node earns nothing: it is not a quiet move.
        let capture_gain = with_searcher(Position::startpos(), |_, s| {
            play_line(s, &[("h0g2", 1), ("h9g7", 1)]);
            let m = s.pos.parse_move("b2b9").expect("test move");
            let before = order_at(s, 2, m);
            play_from(s, 2, "b2b9", 12);
            s.reward_prior_quiet(3, 6);
            s.pos.unmake_move();
            order_at(s, 2, m) - before
        });
        assert_eq!(capture_gain, 0);
    }

    #[test]
    fn a_quiet_refutation_is_rewarded_and_the_quiet_moves_tried_before_it_punished() {
        let (gains, killer, counter) = with_searcher(Position::startpos(), |_, s| {
            play_line(s, &[(LINE[0], 1), (LINE[1], 1)]);
            let moves: Vec<Move> = ["c3c4", "a0a1", "i3i4"]
                .iter()
                .map(|uci| s.pos.parse_move(uci).expect("test move"))
                .collect();
            let before: Vec<i32> = moves.iter().map(|&m| order_at(s, 2, m)).collect();
            s.reward_quiet(2, moves[0], &moves[1..], 6);
            let gains: Vec<i32> = moves
                .iter()
                .zip(before)
                .map(|(&m, b)| order_at(s, 2, m) - b)
                .collect();
            let prev = s.stack[1];
            let counter = s.h.counter(prev.piece, prev.mv);
            (
                gains,
                s.stack[2].killers[0] == moves[0],
                counter == moves[0],
            )
        });
        // Every table of the refutation gains the bonus; of each move
        // tried before it, loses it.
        let bonus = learnt(quiet_bonus(6), 2);
        assert!(bonus > 0);
        assert_eq!(gains, [bonus, -bonus, -bonus]);
        assert!(killer && counter);
    }

    /// At ply 3 (Black to move, after LINE with its last move played as the
    /// parent's move `number`), the hash move `hash` cuts the node off:
    /// what `hash` gains there, and what LINE's last move loses at ply 2.
    fn hash_cut(number: usize, hash: &'static str) -> (i32, i32) {
        with_searcher(Position::startpos(), move |_, s| {
            play_line(s, &[(LINE[0], 1), (LINE[1], 1)]);
            let into = s.pos.parse_move(LINE[2]).expect("test move");
            // Parsed where it is legal: Red's moves are not Black's.
            let red = s.pos.parse_move(hash).ok();
            let into_before = order_at(s, 2, into);
            play_from(s, 2, LINE[2], number);
            let m = red.unwrap_or_else(|| s.pos.parse_move(hash).expect("test move"));
            let hash_before = order_at(s, 3, m);
            s.reward_hash_cut(3, m, 6);
            let gain = order_at(s, 3, m) - hash_before;
            s.pos.unmake_move();
            (gain, into_before - order_at(s, 2, into))
        })
    }

    #[test]
    fn a_hash_cut_rewards_a_quiet_hash_move_and_marks_down_an_early_move_into_it() {
        let last_early = prior_early_moves() as usize;
        // Black's horse: its histories earn a refutation's bonus; Red's
        // move in, one of the first few, loses the malus in both of the
        // parent's continuation rows.
        assert_eq!(
            hash_cut(1, "b9c7"),
            (learnt(quiet_bonus(6), 3), 2 * prior_early_malus())
        );
        assert_eq!(hash_cut(last_early, "b9c7").1, 2 * prior_early_malus());
        assert_eq!(
            hash_cut(last_early + 1, "b9c7"),
            (learnt(quiet_bonus(6), 3), 0)
        );
        // Red's cannon offered as Black's hash move (a key collision) is
        // not Black's to play, and Black's capture is not a quiet move: no
        // reward, though the move in is still marked down.
        assert_eq!(hash_cut(1, "b2e2"), (0, 2 * prior_early_malus()));
        assert_eq!(hash_cut(1, "b7b0"), (0, 2 * prior_early_malus()));
        assert!(quiet_bonus(6) > 0 && prior_early_malus() > 0);
    }

    #[test]
    fn the_correction_moves_the_evaluation_and_the_table_keeps_it_raw() {
        let score = with_searcher(Position::startpos(), |tt, s| {
            let raw = s.static_eval(0);
            for _ in 0..20 {
                s.learn_correction(0, 1000);
            }
            assert!(s.corrected_eval(0, raw) > raw + 50);
            let score = s.negamax(3, -INFINITY, INFINITY, 0, false, false);
            let entry = tt.probe(s.pos.key()).expect("the root's entry");
            assert_eq!(entry.eval, raw, "stored corrected");
            score
        });
        assert!(score.abs() < RULE_WIN);
    }
}
