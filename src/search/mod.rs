//! The search: iterative deepening over a principal-variation alpha-beta
//! search with aspiration windows, a shared transposition table, and the
//! usual selectivity (null move, late-move reductions, futility, razoring,
//! SEE pruning), with the game's rules inside the tree: repetition judged
//! by perpetual check (and perpetual chase near the root), the 60-move rule,
//! insufficient material and "no move loses". Threads > 1 run Lazy SMP:
//! helper threads search the same position and share the table.

pub mod limits;
mod see;
pub mod tt;

pub use limits::{Clock, Limits};
pub use see::see_ge;
pub use tt::TranspositionTable;

use crate::eval::{evaluate, EvalState};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tt::{score_from_tt, score_to_tt, Bound};
use xiangqi::movegen::{GenType, MoveList, MAX_MOVES};
use xiangqi::position::Position;
use xiangqi::rules::{self, CycleVerdict, MOVE_LIMIT_PLIES};
use xiangqi::types::EXCHANGE_VALUES;
use xiangqi::types::{Move, Piece, PieceKind, SQUARES};

/// Score of being mated at the root; mated in `n` plies scores `-(MATE - n)`.
pub const MATE: i32 = 10_000;
/// Scores beyond this (in absolute value) are mate scores.
pub const MATE_BOUND: i32 = MATE - 500;
/// A game won by the rules (the opponent checked or chased perpetually):
/// decisive, but not a mate. Won `n` plies from the root scores `RULE_WIN - n`.
pub const RULE_WIN: i32 = MATE_BOUND - 500;
const INFINITY: i32 = MATE + 1;
/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 128;
/// Deepest iteration.
pub const MAX_DEPTH: u32 = 100;
/// Stack of every thread that runs a search (the tree recurses up to
/// MAX_PLY plies).
pub const SEARCH_STACK: usize = 64 << 20;
/// Repetitions are judged with the chase rule (which costs a replay of the
/// cycle) up to this ply, and by checks alone deeper.
const CHASE_PLY: usize = 2;

/// Flags shared between the search thread and the protocol thread.
#[derive(Default)]
pub struct Shared {
    /// Set to make the search return as soon as possible.
    pub stop: AtomicBool,
    /// While set, no time limit runs (the engine thinks on the opponent's time).
    pub ponder: AtomicBool,
    /// Milliseconds after the search start at which the clock started
    /// (non-zero after `ponderhit`).
    pub clock_start_ms: AtomicU64,
}

/// Move-ordering knowledge one search thread keeps between the moves of a
/// game: history scores and counter-moves, both by moving piece and
/// destination.
pub struct Heuristics {
    history: Vec<i32>,
    counters: Vec<Move>,
}

const HISTORY_MAX: i32 = 16_384;

impl Heuristics {
    pub fn new() -> Heuristics {
        Heuristics {
            history: vec![0; 16 * SQUARES],
            counters: vec![Move::NULL; 16 * SQUARES],
        }
    }

    /// Gravity update: bounded by `HISTORY_MAX`, old knowledge fades.
    fn update_history(&mut self, i: usize, bonus: i32) {
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let h = &mut self.history[i];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }
}

impl Default for Heuristics {
    fn default() -> Self {
        Heuristics::new()
    }
}

/// What lives across searches: the transposition table and each thread's
/// move-ordering tables. Cleared on a new game.
pub struct Tables {
    pub tt: TranspositionTable,
    heuristics: Mutex<Vec<Heuristics>>,
}

impl Tables {
    pub fn new(hash_mb: usize) -> Tables {
        Tables {
            tt: TranspositionTable::new(hash_mb),
            heuristics: Mutex::new(Vec::new()),
        }
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&self) {
        self.tt.clear();
        self.heuristics
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clear();
    }
}

/// Everything one search needs.
pub struct Job {
    pub pos: Position,
    pub limits: Limits,
    /// Root moves to consider (the legal moves minus banned ones, or the UCI
    /// `searchmoves`); never empty when a search runs.
    pub root_moves: Vec<Move>,
    pub multipv: usize,
    /// Moves within this many centipawns of the best may be chosen at random.
    pub randomness: i32,
    pub move_overhead_ms: u64,
    pub seed: u64,
    pub threads: usize,
    pub tables: Arc<Tables>,
}

/// One line of search progress.
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based index of the line for MultiPV.
    pub multipv: usize,
    pub score: i32,
    /// Whether `score` is only a bound (an aspiration window failed).
    pub bound: Option<Bound>,
    pub nodes: u64,
    pub time_ms: u64,
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

/// The result of a search.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
}

/// Plies to mate in a mate score (positive when we mate).
pub fn mate_plies(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some(MATE - score)
    } else if score <= -MATE_BOUND {
        Some(-(MATE + score))
    } else {
        None
    }
}

/// What one pass over the root moves found.
struct RootResult {
    score: i32,
    pv: Vec<Move>,
    /// Every root move searched, with its score (exact within the margin).
    scored: Vec<(Move, i32)>,
}

/// Per-ply state of the current line.
#[derive(Clone, Copy)]
struct Frame {
    /// Static evaluation (`-INFINITY` in check).
    eval: i32,
    /// The move played from this ply, and the piece that made it.
    mv: Move,
    piece: Piece,
    killers: [Move; 2],
    /// The evaluator's incremental state of the position at this ply.
    state: EvalState,
}

impl Default for Frame {
    fn default() -> Self {
        Frame {
            eval: -INFINITY,
            mv: Move::NULL,
            piece: Piece::NONE,
            killers: [Move::NULL; 2],
            state: EvalState::default(),
        }
    }
}

/// Late-move reductions by depth and move number.
fn reductions() -> Box<[[i32; 64]; 64]> {
    let mut t = Box::new([[0; 64]; 64]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as i32;
        }
    }
    t
}

/// Moves searched at this depth before late quiet moves are pruned.
fn late_move_limit(depth: i32, improving: bool) -> usize {
    let base = 3 + (depth * depth) as usize;
    if improving {
        base
    } else {
        base / 2
    }
}

/// Picks the best-scored move among `moves[i..]` and swaps it to `i`.
#[inline]
fn pick(moves: &mut [Move], scores: &mut [i32], i: usize) -> (Move, i32) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
    (moves[i], scores[i])
}

const TT_MOVE_SCORE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 28;
const KILLER_SCORE: i32 = 1 << 27;
const BAD_CAPTURE: i32 = -(1 << 28);

struct Searcher<'a> {
    pos: Position,
    shared: &'a Shared,
    /// Set by the main thread when it is done; helpers stop on it.
    halt: &'a AtomicBool,
    tt: &'a TranspositionTable,
    h: &'a mut Heuristics,
    /// The main thread reports, keeps the limits and decides.
    main: bool,
    start: Instant,
    nodes: u64,
    /// Nodes of this thread already added to `total_nodes`.
    published: u64,
    total_nodes: &'a AtomicU64,
    /// Nodes of the other threads, as last seen.
    others: u64,
    node_limit: u64,
    hard_ms: Option<u64>,
    stopped: bool,
    seldepth: usize,
    /// History length at the root.
    root_len: usize,
    /// Whether the side to move was in check, by position index (history length).
    checks: Vec<bool>,
    stack: Vec<Frame>,
    pv: Vec<[Move; MAX_PLY]>,
    pv_len: [usize; MAX_PLY + 1],
    lmr: Box<[[i32; 64]; 64]>,
}

impl<'a> Searcher<'a> {
    fn new(
        pos: Position,
        shared: &'a Shared,
        halt: &'a AtomicBool,
        tt: &'a TranspositionTable,
        h: &'a mut Heuristics,
        total_nodes: &'a AtomicU64,
        start: Instant,
    ) -> Searcher<'a> {
        let root_len = pos.history().len();
        let mut checks = history_checks(&pos);
        checks.resize(root_len + MAX_PLY + 2, false);
        let mut stack = vec![Frame::default(); MAX_PLY + 4];
        stack[0].state = EvalState::new(&pos);
        Searcher {
            pos,
            shared,
            halt,
            tt,
            h,
            main: false,
            start,
            nodes: 0,
            published: 0,
            total_nodes,
            others: 0,
            node_limit: u64::MAX,
            hard_ms: None,
            stopped: false,
            seldepth: 0,
            root_len,
            checks,
            stack,
            pv: vec![[Move::NULL; MAX_PLY]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            lmr: reductions(),
        }
    }

    fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Milliseconds the clock has run (`None` while pondering).
    fn clock_ms(&self) -> Option<u64> {
        if self.shared.ponder.load(Ordering::Relaxed) {
            None
        } else {
            let start = self.shared.clock_start_ms.load(Ordering::Relaxed);
            Some(self.elapsed_ms().saturating_sub(start))
        }
    }

    fn total(&self) -> u64 {
        self.nodes + self.others
    }

    /// Polls the stop conditions; sets `stopped`.
    #[inline]
    fn poll(&mut self) -> bool {
        if self.nodes & 1023 == 0 {
            let total = self
                .total_nodes
                .fetch_add(self.nodes - self.published, Ordering::Relaxed)
                + (self.nodes - self.published);
            self.published = self.nodes;
            self.others = total - self.nodes;
            if self.main {
                if self.shared.stop.load(Ordering::Relaxed) {
                    self.stopped = true;
                } else if let (Some(hard), Some(used)) = (self.hard_ms, self.clock_ms()) {
                    self.stopped |= used >= hard;
                }
            } else {
                self.stopped |= self.halt.load(Ordering::Relaxed);
            }
        }
        if self.main && self.total() >= self.node_limit {
            self.stopped = true;
        }
        self.stopped
    }

    fn history_index(&self, m: Move) -> usize {
        self.pos.piece_at(m.from()).index() * SQUARES + m.to().index()
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = m;
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// Entering a node: resets its PV, counts it and polls the limits.
    /// False when the search must stop.
    #[inline(always)]
    fn enter(&mut self, ply: usize, in_check: bool) -> bool {
        self.pv_len[ply] = ply;
        self.nodes += 1;
        if self.poll() {
            return false;
        }
        self.seldepth = self.seldepth.max(ply);
        let n = self.pos.history().len();
        self.checks[n] = in_check;
        true
    }

    /// Plays `m` from `ply`, remembering it in the line; returns whether it gives check.
    #[inline(always)]
    fn play(&mut self, m: Move, ply: usize) -> bool {
        self.stack[ply].mv = m;
        self.stack[ply].piece = self.pos.piece_at(m.from());
        self.pos.make_move(m);
        let mut state = self.stack[ply].state;
        if let Some(change) = self.pos.last_change() {
            state.apply(&change);
        }
        self.stack[ply + 1].state = state;
        self.pos.in_check()
    }

    /// The score the rules give this position, if they end the game here:
    /// a repetition (judged by perpetual check, and by chase near the root),
    /// the move limit, or insufficient material.
    fn rule_score(&self, ply: usize, in_check: bool) -> Option<i32> {
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
        let verdict = if ply <= CHASE_PLY {
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

    /// Whether the side to move has a piece that makes passing safe to assume
    /// harmless (zugzwang is rare with a rook, horse or cannon).
    fn has_big_pieces(&self) -> bool {
        let us = self.pos.side_to_move();
        (self.pos.pieces(us, PieceKind::Rook)
            | self.pos.pieces(us, PieceKind::Horse)
            | self.pos.pieces(us, PieceKind::Cannon))
        .any()
    }

    /// Scores moves for ordering: hash move, winning captures by MVV-LVA,
    /// killers, the counter-move, quiet moves by history, losing captures.
    fn score_moves(&self, moves: &[Move], tt_move: Move, ply: usize, scores: &mut [i32]) {
        let killers = self.stack[ply].killers;
        let counter = match ply.checked_sub(1).map(|p| self.stack[p]) {
            Some(prev) if !prev.mv.is_null() => {
                self.h.counters[prev.piece.index() * SQUARES + prev.mv.to().index()]
            }
            _ => Move::NULL,
        };
        for (i, &m) in moves.iter().enumerate() {
            let victim = self.pos.piece_at(m.to());
            scores[i] = if m == tt_move {
                TT_MOVE_SCORE
            } else if victim.is_some() {
                let attacker = self.pos.piece_at(m.from()).kind().index();
                let mvv_lva =
                    EXCHANGE_VALUES[victim.kind().index()] * 16 - EXCHANGE_VALUES[attacker] / 8;
                if see_ge(&self.pos, m, 0) {
                    GOOD_CAPTURE + mvv_lva
                } else {
                    BAD_CAPTURE + mvv_lva
                }
            } else if m == killers[0] {
                KILLER_SCORE
            } else if m == killers[1] {
                KILLER_SCORE - 1
            } else if m == counter {
                KILLER_SCORE - 2
            } else {
                self.h.history[self.history_index(m)]
            };
        }
    }

    /// A quiet move refuted this node: reward it, punish the quiet moves tried
    /// before it, and remember it as killer and counter-move.
    fn reward_quiet(&mut self, ply: usize, m: Move, tried: &[Move], depth: i32) {
        let bonus = (depth * depth * 16).min(HISTORY_MAX / 2);
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
                self.h.counters[prev.piece.index() * SQUARES + prev.mv.to().index()] = m;
            }
        }
    }

    fn negamax(&mut self, depth: i32, alpha: i32, beta: i32, ply: usize, in_check: bool) -> i32 {
        // Step 1. Check extension, and quiescence at the horizon.
        let mut depth = depth.max(0) + in_check as i32;
        if depth <= 0 {
            return self.quiesce(alpha, beta, ply, in_check);
        }
        let pv_node = beta - alpha > 1;
        if !self.enter(ply, in_check) {
            return 0;
        }
        // Step 2. The rules: repetition, move limit, insufficient material.
        if let Some(score) = self.rule_score(ply, in_check) {
            return score;
        }
        if ply >= MAX_PLY - 1 {
            return if in_check {
                0
            } else {
                evaluate(&self.pos, &self.stack[ply].state)
            };
        }
        // Step 3. Mate distance pruning.
        let mut alpha = alpha.max(-(MATE - ply as i32));
        let beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        // Step 4. Transposition table.
        let key = self.pos.key();
        let entry = self.tt.probe(key);
        // The hash move is only ever played when the generator produces it:
        // a wrong move from a key collision is never searched.
        let tt_move = entry.map_or(Move::NULL, |e| e.mv);
        if let Some(e) = entry {
            let score = score_from_tt(e.score, ply);
            let fits = match e.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if !pv_node && e.depth as i32 >= depth && fits {
                return score;
            }
        }

        // Step 5. Static evaluation.
        let eval = match entry {
            _ if in_check => -INFINITY,
            Some(e) => e.eval,
            None => evaluate(&self.pos, &self.stack[ply].state),
        };
        self.stack[ply].eval = eval;
        self.stack[ply + 2].killers = [Move::NULL; 2];
        let improving = !in_check && ply >= 2 && eval > self.stack[ply - 2].eval;

        if !pv_node && !in_check {
            // Step 6. Razoring: hopeless at low depth unless a capture saves it.
            if depth <= 3 && eval + 200 + 150 * depth < alpha {
                let score = self.quiesce(alpha, alpha + 1, ply, false);
                if score <= alpha {
                    return score;
                }
            }
            // Step 7. Reverse futility pruning.
            if depth <= 7 && eval.abs() < RULE_WIN && eval - 70 * (depth - improving as i32) >= beta
            {
                return eval;
            }
            // Step 8. Null move pruning.
            let last_null = ply > 0 && self.stack[ply - 1].mv.is_null();
            if depth >= 3
                && eval >= beta
                && beta.abs() < RULE_WIN
                && !last_null
                && self.has_big_pieces()
            {
                let r = 3 + depth / 4 + ((eval - beta) / 150).min(3);
                self.stack[ply].mv = Move::NULL;
                self.stack[ply].piece = Piece::NONE;
                self.pos.make_null_move();
                self.stack[ply + 1].state = self.stack[ply].state;
                let score = -self.negamax(depth - r, -beta, -beta + 1, ply + 1, false);
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
        if tt_move.is_null() && depth >= 6 && pv_node {
            depth -= 1;
        }

        // Step 10. The moves.
        let mut moves = MoveList::new();
        self.pos.generate(GenType::All, &mut moves);
        if moves.is_empty() {
            // No legal move loses, in check or not.
            return -(MATE - ply as i32);
        }
        let mut scores = [0i32; MAX_MOVES];
        self.score_moves(&moves, tt_move, ply, &mut scores);
        let alpha_orig = alpha;
        let mut best = -INFINITY;
        let mut best_move = Move::NULL;
        let mut quiets = MoveList::new();
        let mut move_count = 0;
        for i in 0..moves.len() {
            let (m, order) = pick(&mut moves, &mut scores, i);
            let capture = self.pos.is_capture(m);
            move_count += 1;
            let may_prune = best > -RULE_WIN && !in_check;
            // Step 11. Losing captures at low depth.
            if may_prune && capture && depth <= 4 && !see_ge(&self.pos, m, -100 * depth) {
                continue;
            }
            let gives_check = self.play(m, ply);
            // Step 12. Late quiet moves and futile ones at low depth.
            if may_prune && !capture && !gives_check {
                let late = depth <= 5 && move_count > late_move_limit(depth, improving);
                let futile = depth <= 6 && eval + 100 + 80 * depth <= alpha;
                if late || futile {
                    self.pos.unmake_move();
                    continue;
                }
            }
            // Step 13. Principal variation search with late-move reductions.
            let new_depth = depth - 1;
            let score = if move_count == 1 {
                -self.negamax(new_depth, -beta, -alpha, ply + 1, gives_check)
            } else {
                let mut r = 0;
                if depth >= 3 && (!capture || order < 0) && !in_check && !gives_check {
                    r = self.lmr[(depth as usize).min(63)][move_count.min(63)];
                    r -= pv_node as i32;
                    r += !improving as i32;
                    if order >= KILLER_SCORE - 2 {
                        r -= 1;
                    } else if !capture {
                        r -= order / 8192;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                let mut s = -self.negamax(new_depth - r, -alpha - 1, -alpha, ply + 1, gives_check);
                if s > alpha && r > 0 {
                    s = -self.negamax(new_depth, -alpha - 1, -alpha, ply + 1, gives_check);
                }
                if s > alpha && s < beta {
                    s = -self.negamax(new_depth, -beta, -alpha, ply + 1, gives_check);
                }
                s
            };
            self.pos.unmake_move();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        break;
                    }
                }
            }
            if !capture {
                quiets.push(m);
            }
        }

        // Step 14. Learn from a quiet refutation.
        if best >= beta && !self.pos.is_capture(best_move) {
            self.reward_quiet(ply, best_move, &quiets, depth);
        }

        // Step 15. Remember the result.
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            best_move,
            score_to_tt(best, ply),
            eval,
            depth as u32,
            bound,
        );
        best
    }

    fn quiesce(&mut self, mut alpha: i32, beta: i32, ply: usize, in_check: bool) -> i32 {
        if !self.enter(ply, in_check) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return if in_check {
                0
            } else {
                evaluate(&self.pos, &self.stack[ply].state)
            };
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
        let mut moves = MoveList::new();
        let eval;
        let mut best;
        if in_check {
            // Every evasion, not just captures.
            self.pos.generate(GenType::All, &mut moves);
            if moves.is_empty() {
                return -(MATE - ply as i32);
            }
            eval = -INFINITY;
            best = -INFINITY;
        } else {
            // Stand pat: the side to move may decline every capture.
            eval = entry.map_or_else(|| evaluate(&self.pos, &self.stack[ply].state), |e| e.eval);
            best = eval;
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
            self.pos.generate(GenType::Captures, &mut moves);
        }
        let alpha_orig = alpha;
        let mut scores = [0i32; MAX_MOVES];
        let tt_move = entry.map_or(Move::NULL, |e| e.mv);
        self.score_moves(&moves, tt_move, ply, &mut scores);
        let mut best_move = Move::NULL;
        for i in 0..moves.len() {
            let (m, order) = pick(&mut moves, &mut scores, i);
            if !in_check {
                // Delta pruning: even winning the piece would not reach alpha.
                let victim = EXCHANGE_VALUES[self.pos.piece_at(m.to()).kind().index()];
                if eval + victim + 150 <= alpha || order < 0 {
                    continue;
                }
            }
            let gives_check = self.play(m, ply);
            let score = -self.quiesce(-beta, -alpha, ply + 1, gives_check);
            self.pos.unmake_move();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, best_move, score_to_tt(best, ply), eval, 0, bound);
        best
    }

    /// Searches the given root moves to `depth` within (alpha, beta).
    /// Returns the best score and PV, and the score of every root move
    /// searched; with a `margin`, moves are searched with a window wide enough
    /// (down to `best - margin`) for their scores to be exact within it.
    fn search_root(
        &mut self,
        moves: &[Move],
        depth: i32,
        mut alpha: i32,
        beta: i32,
        margin: i32,
    ) -> Option<RootResult> {
        let in_check = self.pos.in_check();
        if !self.enter(0, in_check) {
            return None;
        }
        let mut best = -INFINITY;
        let mut best_pv = Vec::new();
        let mut scored = Vec::new();
        for (i, &m) in moves.iter().enumerate() {
            let gives_check = self.play(m, 0);
            let score = if i == 0 {
                -self.negamax(depth - 1, -beta, -alpha, 1, gives_check)
            } else if margin > 0 {
                let low = (best - margin - 1).max(-INFINITY);
                -self.negamax(depth - 1, -beta, -low, 1, gives_check)
            } else {
                let s = -self.negamax(depth - 1, -alpha - 1, -alpha, 1, gives_check);
                if s > alpha && s < beta {
                    -self.negamax(depth - 1, -beta, -alpha, 1, gives_check)
                } else {
                    s
                }
            };
            self.pos.unmake_move();
            if self.stopped {
                return None;
            }
            scored.push((m, score));
            if score > best {
                best = score;
                self.update_pv(0, m);
                best_pv = self.pv[0][..self.pv_len[0]].to_vec();
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        Some(RootResult {
            score: best,
            pv: best_pv,
            scored,
        })
    }
}

/// Whether the side to move was in check in each position of the game so far
/// (indexed by history length; only the reversible tail is computed).
fn history_checks(pos: &Position) -> Vec<bool> {
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

/// What the iterations of one thread share with the driver.
struct Plan<'j> {
    job: &'j Job,
    max_depth: u32,
    multipv: usize,
    time: limits::TimePlan,
}

/// Iterative deepening in one thread. The main thread reports through
/// `report` and decides when to stop; helpers search until halted, starting
/// at staggered depths so that the threads spread over the tree.
fn iterate(
    s: &mut Searcher,
    plan: &Plan,
    helper_id: usize,
    report: &mut dyn FnMut(Info),
) -> (Outcome, Vec<(Move, i32)>) {
    let job = plan.job;
    let mut outcome = Outcome {
        best: job.root_moves.first().copied(),
        ..Outcome::default()
    };
    let mut root_order = job.root_moves.clone();
    let mut last_scored: Vec<(Move, i32)> = Vec::new();
    let mut stability = 0;
    let mut prev_score = None;
    let first_depth = 1 + (helper_id % 2) as u32;

    for depth in first_depth..=plan.max_depth {
        s.seldepth = 0;
        let mut lines: Vec<(i32, Vec<Move>)> = Vec::new();
        let mut remaining = root_order.clone();
        let mut scored_all = Vec::new();
        for line in 0..plan.multipv {
            // Later lines exclude the moves of earlier ones.
            let found = if line == 0 {
                aspiration(
                    s,
                    &remaining,
                    depth as i32,
                    prev_score,
                    job.randomness,
                    report,
                    depth,
                )
            } else {
                s.search_root(&remaining, depth as i32, -INFINITY, INFINITY, 0)
            };
            let Some(RootResult { score, pv, scored }) = found else {
                break;
            };
            if line == 0 {
                scored_all = scored;
            }
            if let Some(&first) = pv.first() {
                remaining.retain(|&m| m != first);
            }
            lines.push((score, pv));
            if remaining.is_empty() {
                break;
            }
        }
        if s.stopped && lines.is_empty() {
            break;
        }
        let complete = !s.stopped;
        if s.main {
            let time_ms = s.elapsed_ms();
            for (i, (score, pv)) in lines.iter().enumerate() {
                report(Info {
                    depth,
                    seldepth: s.seldepth.max(depth as usize) as u32,
                    multipv: i + 1,
                    score: *score,
                    bound: None,
                    nodes: s.total(),
                    time_ms,
                    hashfull: s.tt.hashfull(),
                    pv: pv.clone(),
                });
            }
        }
        if let Some((score, pv)) = lines.first() {
            let best = pv.first().copied();
            stability = if best == outcome.best {
                stability + 1
            } else {
                0
            };
            let dropped = prev_score.is_some_and(|p| *score < p - 40);
            prev_score = Some(*score);
            outcome = Outcome {
                best,
                ponder: pv.get(1).copied(),
                score: *score,
                depth,
                nodes: s.total(),
            };
            // Next iteration starts from this one's best moves.
            let firsts: Vec<Move> = lines
                .iter()
                .filter_map(|(_, pv)| pv.first().copied())
                .collect();
            root_order.retain(|m| !firsts.contains(m));
            root_order.splice(0..0, firsts);
            if complete {
                last_scored = scored_all;
                // The root's result, for the next search and for `probe`.
                if let Some(&best) = pv.first() {
                    s.tt.store(
                        s.pos.key(),
                        best,
                        score_to_tt(*score, 0),
                        evaluate(&s.pos, &s.stack[0].state),
                        depth,
                        Bound::Exact,
                    );
                }
            }
            if s.main && !s.stopped && should_stop(s, plan, depth, &outcome, stability, dropped) {
                break;
            }
        }
        if s.stopped {
            break;
        }
    }
    outcome.nodes = s.total();
    (outcome, last_scored)
}

/// Searches the first line within a window around the previous score,
/// widening it on a fail high or low.
fn aspiration(
    s: &mut Searcher,
    moves: &[Move],
    depth: i32,
    prev: Option<i32>,
    margin: i32,
    report: &mut dyn FnMut(Info),
    iteration: u32,
) -> Option<RootResult> {
    let use_window = depth >= 4 && margin == 0 && prev.is_some_and(|p| p.abs() < RULE_WIN);
    let Some(center) = prev.filter(|_| use_window) else {
        return s.search_root(moves, depth, -INFINITY, INFINITY, margin);
    };
    let mut delta = 25;
    let (mut alpha, mut beta) = (center - delta, center + delta);
    loop {
        let r = s.search_root(moves, depth, alpha, beta, 0)?;
        let bound = if r.score <= alpha {
            beta = (alpha + beta) / 2;
            alpha = (r.score - delta).max(-INFINITY);
            Bound::Upper
        } else if r.score >= beta {
            beta = (r.score + delta).min(INFINITY);
            Bound::Lower
        } else {
            return Some(r);
        };
        if s.main && s.elapsed_ms() > 1000 {
            report(Info {
                depth: iteration,
                seldepth: s.seldepth as u32,
                multipv: 1,
                score: r.score,
                bound: Some(bound),
                nodes: s.total(),
                time_ms: s.elapsed_ms(),
                hashfull: s.tt.hashfull(),
                pv: r.pv.clone(),
            });
        }
        delta += delta / 2 + 10;
        if delta > 1000 {
            alpha = -INFINITY;
            beta = INFINITY;
        }
    }
}

/// The main thread's decision after a completed iteration.
fn should_stop(
    s: &Searcher,
    plan: &Plan,
    depth: u32,
    outcome: &Outcome,
    stability: u32,
    dropped: bool,
) -> bool {
    let limits = &plan.job.limits;
    let mate = mate_plies(outcome.score);
    if let Some(n) = limits.mate {
        if mate.is_some_and(|p| p > 0 && p < 2 * n as i32) {
            return true;
        }
    }
    if limits.infinite || s.shared.ponder.load(Ordering::Relaxed) {
        return false;
    }
    // A proven mate needs no deeper search (unless a depth or node count was asked).
    let mate_found = mate.is_some_and(|p| p.unsigned_abs() <= depth);
    if mate_found && limits.depth.is_none() && limits.nodes.is_none() {
        return true;
    }
    if let (Some(soft), Some(used)) = (plan.time.soft_ms, s.clock_ms()) {
        // A best move that keeps changing, or a falling score, earns more time.
        let mut scale = match stability {
            0 => 1.4,
            1 => 1.15,
            2 => 1.0,
            _ => 0.8,
        };
        if dropped {
            scale *= 1.3;
        }
        if used as f64 >= soft as f64 * scale {
            return true;
        }
    }
    false
}

/// Runs a search to its limits and returns the best move; `report` receives
/// one `Info` per completed iteration and MultiPV line (from the main thread).
pub fn search(job: Job, shared: &Shared, start: Instant, report: &mut dyn FnMut(Info)) -> Outcome {
    if job.root_moves.is_empty() {
        return Outcome::default();
    }
    let time = limits::plan(&job.limits, job.move_overhead_ms);
    let max_depth = job
        .limits
        .depth
        .unwrap_or(MAX_DEPTH)
        .min(job.limits.mate.map_or(MAX_DEPTH, |n| 2 * n.max(1) - 1))
        .clamp(1, MAX_DEPTH);
    let plan = Plan {
        job: &job,
        max_depth,
        multipv: job.multipv.clamp(1, job.root_moves.len()),
        time,
    };
    let tables = &*job.tables;
    tables.tt.new_search();
    let mut heuristics = tables
        .heuristics
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let threads = job.threads.max(1);
    heuristics.resize_with(threads, Heuristics::new);
    let halt = AtomicBool::new(false);
    let total_nodes = AtomicU64::new(0);
    let Some((main_h, helper_hs)) = heuristics.split_first_mut() else {
        return Outcome::default();
    };

    let (mut outcome, last_scored) = std::thread::scope(|scope| {
        for (id, h) in helper_hs.iter_mut().enumerate() {
            let pos = job.pos.clone();
            let (plan, halt, total_nodes) = (&plan, &halt, &total_nodes);
            let spawned = std::thread::Builder::new()
                .name(format!("helper{}", id + 1))
                .stack_size(SEARCH_STACK)
                .spawn_scoped(scope, move || {
                    let mut s = Searcher::new(pos, shared, halt, &tables.tt, h, total_nodes, start);
                    iterate(&mut s, plan, id + 1, &mut |_| {});
                });
            if let Err(e) = spawned {
                log::warn!("cannot start helper thread {}: {e}", id + 1);
                break;
            }
        }
        let mut s = Searcher::new(
            job.pos.clone(),
            shared,
            &halt,
            &tables.tt,
            main_h,
            &total_nodes,
            start,
        );
        s.main = true;
        s.node_limit = job.limits.nodes.unwrap_or(u64::MAX).max(1);
        s.hard_ms = time.hard_ms;
        let result = iterate(&mut s, &plan, 0, report);
        halt.store(true, Ordering::Relaxed);
        result
    });

    // Randomness: pick among root moves scored within the margin of the best.
    if job.randomness > 0 && mate_plies(outcome.score).is_none() {
        let mut rng = StdRng::seed_from_u64(job.seed);
        let best = outcome.score;
        let candidates: Vec<Move> = last_scored
            .iter()
            .filter(|(_, sc)| *sc >= best - job.randomness)
            .map(|&(m, _)| m)
            .collect();
        if candidates.len() > 1 {
            let pick = candidates[rng.random_range(0..candidates.len())];
            if Some(pick) != outcome.best {
                outcome.best = Some(pick);
                outcome.ponder = None;
            }
        }
    }
    outcome.nodes = outcome.nodes.max(total_nodes.load(Ordering::Relaxed));
    outcome
}
