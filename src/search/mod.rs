//! The search: iterative-deepening negamax alpha-beta with quiescence,
//! history-table move ordering and checkmate scoring by distance.
//!
//! This is the plain search that stands behind the protocol front end; the
//! search issue grows it into the full engine. It already honours every
//! limit the front end can set: depth, nodes, move time, clocks, mate,
//! infinite and ponder, stop, restricted root moves, MultiPV and randomness.

pub mod limits;

pub use limits::{Clock, Limits};

use crate::eval::{evaluate, VALUES};
use crate::movegen::{GenType, MoveList};
use crate::position::Position;
use crate::types::{Move, SQUARES};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Score of being mated at the root; mated in `n` plies scores `-(MATE - n)`.
pub const MATE: i32 = 10_000;
/// Scores beyond this (in absolute value) are mate scores.
pub const MATE_BOUND: i32 = MATE - 500;
const INFINITY: i32 = MATE + 1;
/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 128;
/// Deepest iteration.
pub const MAX_DEPTH: u32 = 100;

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
}

/// One line of search progress.
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based index of the line for MultiPV.
    pub multipv: usize,
    pub score: i32,
    pub nodes: u64,
    pub time_ms: u64,
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

struct Searcher<'a> {
    pos: Position,
    shared: &'a Shared,
    start: Instant,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    node_limit: u64,
    hard_ms: Option<u64>,
    /// History scores by piece and destination.
    history: Vec<i32>,
    pv: Vec<[Move; MAX_PLY]>,
    pv_len: [usize; MAX_PLY + 1],
    /// Principal variation of the previous iteration, tried first.
    prev_pv: Vec<Move>,
}

const HISTORY_MAX: i32 = 16_384;

impl Searcher<'_> {
    fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Milliseconds the clock has run (zero while pondering).
    fn clock_ms(&self) -> Option<u64> {
        if self.shared.ponder.load(Ordering::Relaxed) {
            None
        } else {
            let start = self.shared.clock_start_ms.load(Ordering::Relaxed);
            Some(self.elapsed_ms().saturating_sub(start))
        }
    }

    /// Polls the stop conditions; sets `stopped`.
    #[inline]
    fn poll(&mut self) -> bool {
        if self.nodes >= self.node_limit {
            self.stopped = true;
        } else if self.nodes & 1023 == 0 {
            if self.shared.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            } else if let (Some(hard), Some(used)) = (self.hard_ms, self.clock_ms()) {
                self.stopped = used >= hard;
            }
        }
        self.stopped
    }

    fn history_index(&self, m: Move) -> usize {
        self.pos.piece_at(m.from()).index() * SQUARES + m.to().index()
    }

    /// Orders moves: the previous PV move, captures by MVV-LVA, quiet moves by history.
    fn order(&self, moves: &mut MoveList, ply: usize) {
        let pv_move = self.prev_pv.get(ply).copied();
        let score = |m: Move| -> i32 {
            if Some(m) == pv_move {
                return i32::MAX;
            }
            let victim = self.pos.piece_at(m.to());
            if victim.is_some() {
                let attacker = self.pos.piece_at(m.from()).kind().index();
                1_000_000 + VALUES[victim.kind().index()] * 16 - VALUES[attacker] / 16
            } else {
                self.history[self.history_index(m)]
            }
        };
        moves.sort_by_cached_key(|&m| std::cmp::Reverse(score(m)));
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
    fn enter(&mut self, ply: usize) -> bool {
        self.pv_len[ply] = ply;
        self.nodes += 1;
        if self.poll() {
            return false;
        }
        self.seldepth = self.seldepth.max(ply);
        true
    }

    fn negamax(&mut self, depth: u32, alpha: i32, beta: i32, ply: usize) -> i32 {
        if !self.enter(ply) {
            return 0;
        }
        let in_check = self.pos.in_check();
        // Check extension.
        let depth = depth + in_check as u32;
        if depth == 0 || ply >= MAX_PLY - 1 {
            return self.quiesce(alpha, beta, ply);
        }
        let mut moves = self.pos.legal_moves();
        if moves.is_empty() {
            // No legal move loses, in check or not.
            return -(MATE - ply as i32);
        }
        self.order(&mut moves, ply);
        let Some((best, cutoff)) =
            self.search_moves(&moves, -INFINITY, alpha, beta, ply, |s, a, b| {
                s.negamax(depth - 1, a, b, ply + 1)
            })
        else {
            return 0;
        };
        if let Some(m) = cutoff.filter(|&m| !self.pos.is_capture(m)) {
            let bonus = (depth * depth) as i32;
            let i = self.history_index(m);
            let h = &mut self.history[i];
            *h += bonus - *h * bonus / HISTORY_MAX;
        }
        best
    }

    /// Plays each of `moves` and scores it by `child(searcher, alpha, beta)`
    /// from the opponent's side, starting from `best`. Returns the best score
    /// and the move that failed high (if one did), or `None` when stopped.
    #[inline(always)]
    fn search_moves(
        &mut self,
        moves: &[Move],
        mut best: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        child: impl Fn(&mut Self, i32, i32) -> i32,
    ) -> Option<(i32, Option<Move>)> {
        for &m in moves {
            self.pos.make_move(m);
            let score = -child(self, -beta, -alpha);
            self.pos.unmake_move();
            if self.stopped {
                return None;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        return Some((best, Some(m)));
                    }
                }
            }
        }
        Some((best, None))
    }

    fn quiesce(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if !self.enter(ply) {
            return 0;
        }
        let in_check = self.pos.in_check();
        let mut moves = MoveList::new();
        if in_check {
            self.pos.generate(GenType::All, &mut moves);
            if moves.is_empty() {
                return -(MATE - ply as i32);
            }
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(&self.pos);
        }
        let mut best = -INFINITY;
        if !in_check {
            // Stand pat: the side to move may decline every capture.
            best = evaluate(&self.pos);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
            self.pos.generate(GenType::Captures, &mut moves);
        }
        self.order(&mut moves, usize::MAX);
        self.search_moves(&moves, best, alpha, beta, ply, |s, a, b| {
            s.quiesce(a, b, ply + 1)
        })
        .map_or(0, |(best, _)| best)
    }

    /// Searches the given root moves to `depth`. Returns the best
    /// score and PV, and the score of every root move searched with a window
    /// wide enough (down to `best - margin`) to be exact within the margin.
    fn search_root(&mut self, moves: &[Move], depth: u32, margin: i32) -> Option<RootResult> {
        let mut best = -INFINITY;
        let mut best_pv = Vec::new();
        let mut scored = Vec::new();
        self.pv_len[0] = 0;
        for &m in moves {
            let alpha = if best == -INFINITY {
                -INFINITY
            } else {
                best - margin - 1
            };
            self.nodes += 1;
            self.pos.make_move(m);
            let score = -self.negamax(depth - 1, -INFINITY, -alpha, 1);
            self.pos.unmake_move();
            if self.stopped {
                return None;
            }
            scored.push((m, score));
            if score > best {
                best = score;
                self.update_pv(0, m);
                best_pv = self.pv[0][..self.pv_len[0]].to_vec();
            }
        }
        Some(RootResult {
            score: best,
            pv: best_pv,
            scored,
        })
    }
}

/// Runs a search to its limits and returns the best move; `report` receives
/// one `Info` per completed iteration and MultiPV line.
pub fn search(job: Job, shared: &Shared, start: Instant, report: &mut dyn FnMut(Info)) -> Outcome {
    let plan = limits::plan(&job.limits, job.move_overhead_ms);
    let mut s = Searcher {
        pos: job.pos,
        shared,
        start,
        nodes: 0,
        seldepth: 0,
        stopped: false,
        node_limit: job.limits.nodes.unwrap_or(u64::MAX).max(1),
        hard_ms: plan.hard_ms,
        history: vec![0; 16 * SQUARES],
        pv: vec![[Move::NULL; MAX_PLY]; MAX_PLY + 1],
        pv_len: [0; MAX_PLY + 1],
        prev_pv: Vec::new(),
    };
    let mut rng = StdRng::seed_from_u64(job.seed);
    let mut outcome = Outcome {
        best: job.root_moves.first().copied(),
        ..Outcome::default()
    };
    if job.root_moves.is_empty() {
        return outcome;
    }
    let max_depth = job
        .limits
        .depth
        .unwrap_or(MAX_DEPTH)
        .min(job.limits.mate.map_or(MAX_DEPTH, |n| 2 * n.max(1) - 1))
        .clamp(1, MAX_DEPTH);
    let multipv = job.multipv.clamp(1, job.root_moves.len());
    let mut root_order = job.root_moves.clone();
    let mut last_scored: Vec<(Move, i32)> = Vec::new();

    for depth in 1..=max_depth {
        s.seldepth = 0;
        let mut lines: Vec<(i32, Vec<Move>)> = Vec::new();
        let mut remaining = root_order.clone();
        let mut scored_all = Vec::new();
        for _ in 0..multipv {
            // Later lines exclude the moves of earlier ones.
            let Some(RootResult { score, pv, scored }) =
                s.search_root(&remaining, depth, job.randomness)
            else {
                break;
            };
            if lines.is_empty() {
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
        let time_ms = s.elapsed_ms();
        for (i, (score, pv)) in lines.iter().enumerate() {
            report(Info {
                depth,
                seldepth: s.seldepth.max(depth as usize) as u32,
                multipv: i + 1,
                score: *score,
                nodes: s.nodes,
                time_ms,
                pv: pv.clone(),
            });
        }
        if let Some((score, pv)) = lines.first() {
            outcome = Outcome {
                best: pv.first().copied(),
                ponder: pv.get(1).copied(),
                score: *score,
                depth,
                nodes: s.nodes,
            };
            s.prev_pv = pv.clone();
            // Next iteration starts from this one's best moves.
            let firsts: Vec<Move> = lines
                .iter()
                .filter_map(|(_, pv)| pv.first().copied())
                .collect();
            root_order.retain(|m| !firsts.contains(m));
            root_order.splice(0..0, firsts);
        }
        if complete {
            last_scored = scored_all;
        }
        if s.stopped {
            break;
        }
        // A proven mate needs no deeper search (unless told to keep thinking).
        let mate_found = mate_plies(outcome.score).is_some_and(|p| p > 0 && p <= depth as i32);
        if let Some(n) = job.limits.mate {
            if mate_plies(outcome.score).is_some_and(|p| p > 0 && p < 2 * n as i32) {
                break;
            }
        }
        if !job.limits.infinite && !shared.ponder.load(Ordering::Relaxed) {
            if mate_found && job.limits.depth.is_none() && job.limits.nodes.is_none() {
                break;
            }
            if let (Some(soft), Some(used)) = (plan.soft_ms, s.clock_ms()) {
                if used >= soft {
                    break;
                }
            }
        }
    }
    outcome.nodes = s.nodes;

    // Randomness: pick among root moves scored within the margin of the best.
    if job.randomness > 0 && mate_plies(outcome.score).is_none() {
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
    outcome
}
