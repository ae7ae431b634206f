//! Iterative deepening in one thread: the root search, aspiration windows,
//! polling the limits during the search, and the main thread's decision to
//! stop between iterations.

use super::params::*;
use super::tt::{score_to_tt, Bound};
use super::{decisive, limits, mate_plies, Info, Job, Outcome, Searcher, INFINITY, RULE_WIN};
use std::sync::atomic::Ordering;
use xiangqi::types::Move;

/// What one pass over the root moves found.
pub(super) struct RootResult {
    pub score: i32,
    pub pv: Vec<Move>,
    /// Every root move searched, with its score (exact within the margin).
    pub scored: Vec<(Move, i32)>,
    /// The search was stopped before every move was searched: `score` is a
    /// lower bound, and `pv` the best line of the moves searched.
    pub unfinished: bool,
}

impl Searcher<'_> {
    pub(super) fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Milliseconds the clock has run (`None` while pondering).
    pub(super) fn clock_ms(&self) -> Option<u64> {
        if self.shared.ponder.load(Ordering::Relaxed) {
            None
        } else {
            let start = self.shared.clock_start_ms.load(Ordering::Relaxed);
            Some(self.elapsed_ms().saturating_sub(start))
        }
    }

    /// Polls the stop conditions; sets `stopped`.
    #[inline]
    pub(super) fn poll(&mut self) -> bool {
        if self.nodes & POLL_MASK == 0 {
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

    /// Searches the given root moves to `depth` within (alpha, beta).
    /// Returns the best score and PV, and the score of every root move
    /// searched; with a `margin`, moves are searched with a window wide enough
    /// (down to `best - margin`) for their scores to be exact within it.
    /// Stopped, it returns `None`, or with `keep_unfinished` the moves
    /// searched so far when one of them raised alpha (an unfinished result).
    pub(super) fn search_root(
        &mut self,
        moves: &[Move],
        depth: i32,
        mut alpha: i32,
        beta: i32,
        margin: i32,
        keep_unfinished: bool,
    ) -> Option<RootResult> {
        let alpha_at_entry = alpha;
        let in_check = self.pos.in_check();
        if !self.enter(0, in_check) {
            return None;
        }
        let mut best = -INFINITY;
        let mut best_pv = Vec::new();
        let mut scored = Vec::new();
        for (i, &m) in moves.iter().enumerate() {
            let nodes_before = self.nodes;
            let capture = self.pos.is_capture(m);
            self.stack[0].move_count = i + 1;
            let gives_check = self.play(m, 0);
            let score = if i == 0 {
                -self.negamax(depth - 1, -beta, -alpha, 1, gives_check, false)
            } else if margin > 0 {
                let low = (best - margin - 1).max(-INFINITY);
                -self.negamax(depth - 1, -beta, -low, 1, gives_check, false)
            } else {
                // Late quiet root moves are searched reduced first (not
                // when the `pruning` option turned reductions off).
                let mut r = 0;
                if depth >= lmr_min_depth()
                    && self.selectivity.null_move_and_reductions
                    && i as i32 >= lmr_root_from()
                    && !gives_check
                    && !capture
                {
                    r = (self.table_reduction(depth, i + 1) - lmr_root_less()).clamp(0, depth - 2);
                }
                self.stack[1].reduction = r;
                let mut s = -self.negamax(depth - 1 - r, -alpha - 1, -alpha, 1, gives_check, true);
                if s > alpha && r > 0 {
                    s = -self.negamax(depth - 1, -alpha - 1, -alpha, 1, gives_check, false);
                }
                if s > alpha && s < beta {
                    -self.negamax(depth - 1, -beta, -alpha, 1, gives_check, false)
                } else {
                    s
                }
            };
            self.pos.unmake_move();
            self.add_root_effort(m, self.nodes - nodes_before);
            if self.stopped {
                return (keep_unfinished && best > alpha_at_entry).then_some(RootResult {
                    score: best,
                    pv: best_pv,
                    scored,
                    unfinished: true,
                });
            }
            scored.push((m, score));
            if score > best {
                if i > 0 && score > alpha {
                    self.root_changes += 1;
                }
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
            unfinished: false,
        })
    }

    fn add_root_effort(&mut self, m: Move, nodes: u64) {
        match self.root_effort.iter_mut().find(|(r, _)| *r == m) {
            Some((_, n)) => *n += nodes,
            None => self.root_effort.push((m, nodes)),
        }
    }

    /// The share of this thread's nodes spent below root move `m`, in
    /// per mille.
    pub(super) fn effort_permille(&self, m: Move) -> u64 {
        let spent = self
            .root_effort
            .iter()
            .find(|(r, _)| *r == m)
            .map_or(0, |(_, n)| *n);
        spent * 1000 / self.nodes.max(1)
    }
}

/// What the iterations of one thread share with the driver.
pub(super) struct Plan<'j> {
    pub job: &'j Job,
    pub max_depth: u32,
    pub multipv: usize,
    pub time: limits::TimePlan,
    /// Whether a stopped iteration's best move is played once one root move
    /// has been searched (the main thread's, unless the move is drawn among
    /// near-best ones or a strength level's node budget binds).
    pub use_unfinished: bool,
}

/// Iterative deepening in one thread. The main thread reports through
/// `report` and decides when to stop; helpers search until halted, starting
/// at staggered depths so that the threads spread over the tree.
pub(super) fn iterate(
    s: &mut Searcher,
    plan: &Plan,
    helper_id: usize,
    report: &mut dyn FnMut(Info),
) -> (Outcome, Vec<(Move, i32)>) {
    let job = plan.job;
    s.h.new_search();
    let mut outcome = Outcome {
        best: job.root_moves.first().copied(),
        ..Outcome::default()
    };
    let mut root_order = job.root_moves.clone();
    let mut last_scored: Vec<(Move, i32)> = Vec::new();
    let mut stability = 0;
    let mut prev_score = None;
    let mut clock = ClockView::new(job.tables.last_score(job.pos.side_to_move()));
    let first_depth = 1 + (helper_id % 2) as u32;

    for depth in first_depth..=plan.max_depth {
        s.seldepth = 0;
        // The iteration's depth, even where an aspiration pass searches
        // shallower.
        s.root_depth = depth as i32;
        let mut lines: Vec<(i32, Vec<Move>)> = Vec::new();
        let mut remaining = root_order.clone();
        let mut scored_all = Vec::new();
        let mut lines_bound = None;
        for line in 0..plan.multipv {
            // Later lines exclude the moves of earlier ones.
            let found = if line == 0 {
                aspiration(s, &remaining, depth as i32, prev_score, plan, report, depth)
            } else {
                // An unfinished later line is dropped.
                s.search_root(&remaining, depth as i32, -INFINITY, INFINITY, 0, false)
            };
            let Some(RootResult {
                score,
                pv,
                scored,
                unfinished,
            }) = found
            else {
                break;
            };
            if unfinished {
                lines_bound = Some(Bound::Lower);
            }
            if line == 0 {
                scored_all = scored;
            }
            if let Some(&first) = pv.first() {
                remaining.retain(|&m| m != first);
            }
            lines.push((score, pv));
            if unfinished || remaining.is_empty() {
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
                    bound: if i == 0 { lines_bound } else { None },
                    nodes: s.total(),
                    time_ms,
                    hashfull: s.tt.hashfull(),
                    pv: pv.clone(),
                });
            }
        }
        if lines_bound.is_some() {
            // An unfinished iteration: its best move, which the searched
            // moves' scores prefer, is played, and the score and depth
            // stay the last complete iteration's.
            if let Some((_, pv)) = lines.first() {
                outcome.best = pv.first().copied().or(outcome.best);
                outcome.ponder = pv.get(1).copied();
            }
            break;
        }
        if let Some((score, pv)) = lines.first() {
            let best = pv.first().copied();
            stability = if best == outcome.best {
                stability + 1
            } else {
                0
            };
            clock.iteration_done(s, *score, prev_score);
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
                // A strength level's budget binds from now on.
                if let (true, Some(budget)) = (s.main, job.node_budget) {
                    s.node_limit = s.node_limit.min(budget.max(1));
                }
                // The root's result, for the next search and for `probe`.
                if let Some(&best) = pv.first() {
                    s.tt.store(
                        s.pos.key(),
                        best,
                        score_to_tt(*score, 0),
                        s.static_eval(0),
                        depth,
                        Bound::Exact,
                    );
                }
            }
            if s.main && !s.stopped {
                if should_stop(s, plan, depth, &outcome, stability, &clock) {
                    break;
                }
                // Our mate or decisive gain, found on this move and not yet
                // made sure of (or the search would have stopped), may run
                // on to the stretched hard limit.
                s.hard_ms = if clock.resolving(*score) {
                    plan.time.stretch_ms
                } else {
                    plan.time.hard_ms
                };
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
    plan: &Plan,
    report: &mut dyn FnMut(Info),
    iteration: u32,
) -> Option<RootResult> {
    let margin = plan.job.choice.margin();
    let keep = plan.use_unfinished;
    let use_window =
        depth >= aspiration_min_depth() && margin == 0 && prev.is_some_and(|p| p.abs() < RULE_WIN);
    // Wider where the score is larger: it moves more between iterations
    // (open at once where that is past the limit).
    let window = prev
        .filter(|_| use_window)
        .map(|center| {
            (
                center,
                aspiration_delta() + center * center / aspiration_sq_div(),
            )
        })
        .filter(|&(_, delta)| delta <= aspiration_max_delta());
    let Some((center, mut delta)) = window else {
        return s.search_root(moves, depth, -INFINITY, INFINITY, margin, keep);
    };
    let (mut alpha, mut beta) = (center - delta, center + delta);
    // The last pass that failed high since the last fail low: its move is
    // better than the window, which a stopped re-search may not yet show.
    let mut high: Option<RootResult> = None;
    // Fail highs since the last fail low: each re-search after one is a ply
    // shallower, to confirm the better line sooner (the next iteration
    // searches it at full depth).
    let mut failed_high = 0;
    loop {
        let pass_depth = (depth - failed_high).max(1);
        let Some(r) = s.search_root(moves, pass_depth, alpha, beta, 0, keep) else {
            return high.map(|h| RootResult {
                unfinished: true,
                ..h
            });
        };
        if r.unfinished {
            return match high {
                Some(h) if h.score > r.score => Some(RootResult {
                    unfinished: true,
                    ..h
                }),
                _ => Some(r),
            };
        }
        let bound = if r.score <= alpha {
            beta = (alpha + beta) / 2;
            alpha = (r.score - delta).max(-INFINITY);
            high = None;
            failed_high = 0;
            Bound::Upper
        } else if r.score >= beta {
            beta = (r.score + delta).min(INFINITY);
            // Not once a pass finds a win (a shallower one may not see
            // it), nor in a search without reductions.
            if r.score >= RULE_WIN {
                failed_high = 0;
            } else if s.selectivity.null_move_and_reductions {
                failed_high += 1;
            }
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
        if bound == Bound::Lower && keep {
            high = Some(r);
        }
        delta += delta / 2 + aspiration_growth();
        if delta > aspiration_max_delta() {
            alpha = -INFINITY;
            beta = INFINITY;
        }
    }
}

/// What the time plan reads from the iterations so far (main thread).
struct ClockView {
    /// Changes of best move at the root, halved at each iteration.
    changes: f64,
    /// The last four iterations' scores, by depth modulo 4 (the last
    /// search's score until they are searched).
    iter_scores: [Option<i32>; 4],
    /// The score of the search before this one.
    last_search: Option<i32>,
    /// How far this iteration's score fell against the last search's and
    /// against four iterations ago (centipawns, clamped).
    fall_last: i32,
    fall_iter: i32,
    /// The score moved more than `tm_jump` since the last iteration.
    jumped: bool,
}

impl ClockView {
    fn new(last_search: Option<i32>) -> ClockView {
        ClockView {
            changes: 0.0,
            iter_scores: [last_search; 4],
            last_search,
            fall_last: 0,
            fall_iter: 0,
            jumped: false,
        }
    }

    /// Takes in a completed iteration (its root changes, its score).
    fn iteration_done(&mut self, s: &mut Searcher, score: i32, prev_iteration: Option<i32>) {
        self.changes = self.changes / 2.0 + f64::from(std::mem::take(&mut s.root_changes));
        // A fall measured within a few pawns: mate scores would swamp it.
        let fall = |from: Option<i32>| from.map_or(0, |f| (f - score).clamp(-1000, 1000));
        let slot = (s.root_depth.max(0) % 4) as usize;
        self.fall_last = fall(self.last_search);
        self.fall_iter = fall(self.iter_scores[slot]);
        self.iter_scores[slot] = Some(score);
        self.jumped = prev_iteration.is_some_and(|p| (score - p).abs() > tm_jump());
    }

    /// Whether `score` is our mate, or a decisive gain, found on this move:
    /// deeper iterations may still shorten the mate, or turn the gain into
    /// one, and a fast clock's limits would cut its proof off a few plies
    /// short.
    /// - A mate is new when the last search had none: one it had found is
    ///   being played out (a mate in ten or more is never made sure of on a
    ///   fast clock, and stretching each of its moves would spend most of
    ///   the clock).
    /// - A decisive gain is a score of `tm_gain` or more, short of a win by
    ///   the rules (nothing to resolve there), that jumped by `tm_gain_jump`
    ///   or more since the last search: a won game whose score drifts about
    ///   `tm_gain` is not stretched move after move.
    fn resolving(&self, score: i32) -> bool {
        let ours = |s: i32| mate_plies(s).is_some_and(|p| p > 0);
        let new_mate = ours(score) && !self.last_search.is_some_and(ours);
        let new_gain = score >= tm_gain()
            && !decisive(score)
            && self
                .last_search
                .is_none_or(|last| score - last >= tm_gain_jump());
        new_mate || new_gain
    }

    /// The factor the soft limit is stretched by after an iteration whose
    /// best move has not changed for `stability` iterations and took
    /// `effort` per mille of the nodes and scored `score`, whose mate, if it
    /// is one, deeper iterations may still change.
    fn scale(&self, stability: u32, effort: u64, depth: u32, score: i32) -> f64 {
        let pct = |x: i32| f64::from(x) / 100.0;
        let stable = [tm_stable_0(), tm_stable_1(), tm_stable_2(), tm_stable_3()];
        let mut scale = pct(stable[(stability as usize).min(3)]);
        scale *= 1.0 + pct(tm_changes_x100()) * self.changes;
        let falling = 1000 + tm_fall_last() * self.fall_last + tm_fall_iter() * self.fall_iter;
        scale *= (f64::from(falling) / 1000.0).clamp(pct(tm_fall_min()), pct(tm_fall_max()));
        if depth >= 10 && effort >= tm_effort_share() as u64 {
            scale *= pct(tm_effort_scale());
        }
        // Our mate or decisive gain found on this move: much more, and
        // never less for a stable move or a rising score (the proof is
        // what is unstable); any other mate, or a jump of the score: more.
        if self.resolving(score) {
            scale = scale.max(1.0) * pct(tm_resolving());
        } else if mate_plies(score).is_some() || self.jumped {
            scale *= pct(tm_unresolved());
        }
        scale
    }
}

/// The main thread's decision after a completed iteration.
fn should_stop(
    s: &Searcher,
    plan: &Plan,
    depth: u32,
    outcome: &Outcome,
    stability: u32,
    clock: &ClockView,
) -> bool {
    let limits = &plan.job.limits;
    let mate = mate_plies(outcome.score);
    if let Some(n) = limits.mate {
        if mate.is_some_and(|p| p > 0 && p < 2 * n as i32) {
            return true;
        }
    }
    if limits.infinite {
        return false;
    }
    if s.shared.ponder.load(Ordering::Relaxed) {
        return false;
    }
    // A mate needs no deeper search once the search is deep enough to have
    // seen any shorter one through its reductions: twice the mate's length
    // and two plies more (unless a depth or node count was asked). Before
    // that, the time limits rule, and deeper iterations may shorten it.
    let mate_found = mate.is_some_and(|p| 2 * p.unsigned_abs() + 2 <= depth);
    if mate_found && limits.depth.is_none() && limits.nodes.is_none() {
        return true;
    }
    if let (Some(soft), Some(used)) = (plan.time.soft_ms, s.clock_ms()) {
        // A best move that keeps changing, a falling score or a mate still
        // to be made sure of earns more time, our mate or decisive gain
        // found on this move much more; one move that takes most of the
        // nodes and stays best, less. A single legal move's soft limit,
        // already short, is kept as it is (`limits::TimePlan::single_move`).
        let effort = outcome.best.map_or(0, |m| s.effort_permille(m));
        let scale = if plan.time.single_move {
            1.0
        } else {
            clock.scale(stability, effort, depth, outcome.score)
        };
        if used as f64 >= soft as f64 * scale {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::super::MATE;
    use super::*;

    fn view(changes: f64, fall_last: i32, fall_iter: i32, jumped: bool) -> ClockView {
        ClockView {
            changes,
            fall_last,
            fall_iter,
            jumped,
            ..ClockView::new(None)
        }
    }

    #[test]
    fn the_time_plans_factors_stretch_and_shorten_as_documented() {
        let pct = |x: i32| f64::from(x) / 100.0;
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        let calm = view(0.0, 0, 0, false);
        // Stability alone, with nothing else to say.
        assert!(close(calm.scale(0, 0, 12, 0), pct(tm_stable_0())));
        assert!(close(calm.scale(7, 0, 12, 0), pct(tm_stable_3())));
        // Changes of best move stretch it.
        let unstable = view(1.5, 0, 0, false);
        let want = pct(tm_stable_3()) * (1.0 + pct(tm_changes_x100()) * 1.5);
        assert!(close(unstable.scale(3, 0, 12, 0), want));
        // A falling score stretches it, a rising one shortens it, both
        // within their bounds.
        let fell = view(0.0, 20, 10, false).scale(3, 0, 12, 0);
        let rose = view(0.0, -20, -10, false).scale(3, 0, 12, 0);
        assert!(fell > pct(tm_stable_3()) && rose < pct(tm_stable_3()));
        let collapsed = view(0.0, 1000, 1000, false).scale(3, 0, 12, 0);
        assert!(close(collapsed, pct(tm_stable_3()) * pct(tm_fall_max())));
        let soared = view(0.0, -1000, -1000, false).scale(3, 0, 12, 0);
        assert!(close(soared, pct(tm_stable_3()) * pct(tm_fall_min())));
        // One move taking most of the nodes, from depth 10 only.
        let share = tm_effort_share() as u64;
        let base = pct(tm_stable_3());
        assert!(close(
            calm.scale(3, share, 12, 0),
            base * pct(tm_effort_scale())
        ));
        assert!(close(calm.scale(3, share, 9, 0), base));
        assert!(close(calm.scale(3, share - 1, 12, 0), base));
        // A mate not yet made sure of, or a jump, earns more.
        let more = base * pct(tm_unresolved());
        assert!(close(calm.scale(3, 0, 12, -(MATE - 9)), more));
        assert!(close(view(0.0, 0, 0, true).scale(3, 0, 12, 0), more));
        // Our mate found on this move, much more (in place of the above),
        // and the factors that shorten the limit (here the stable move's)
        // count for no less than 1; those that stretch it still do. One
        // the last search had found already is played out with no more
        // than any unresolved mate.
        let resolving = pct(tm_resolving());
        assert!(base < 1.0);
        assert!(close(
            unstable.scale(3, 0, 12, MATE - 9),
            want * pct(tm_resolving())
        ));
        assert!(close(
            view(0.0, -1000, -1000, false).scale(3, share, 12, MATE - 9),
            resolving
        ));
        assert!(close(calm.scale(3, 0, 12, MATE - 9), resolving));
        assert!(close(
            view(0.0, 0, 0, true).scale(3, 0, 12, MATE - 9),
            resolving
        ));
        assert!(resolving > 2.0 * more);
        let playing_out = ClockView::new(Some(MATE - 11));
        assert!(!playing_out.resolving(MATE - 9));
        assert!(close(playing_out.scale(3, 0, 12, MATE - 9), more));
        // After the opponent's mate or none, ours is new; after a gain,
        // ours is new too.
        assert!(ClockView::new(Some(-(MATE - 8))).resolving(MATE - 9));
        assert!(ClockView::new(Some(300)).resolving(MATE - 9));
        assert!(ClockView::new(Some(tm_gain() + 500)).resolving(MATE - 9));
        // A decisive gain found on this move, the same: with no search
        // before, or a jump of tm_gain_jump since the last.
        assert!(close(calm.scale(3, 0, 12, tm_gain()), resolving));
        let before = tm_gain() - tm_gain_jump();
        assert!(ClockView::new(Some(before)).resolving(tm_gain()));
        assert!(ClockView::new(Some(-(MATE - 8))).resolving(tm_gain()));
        // A gain drifting up past tm_gain, one the last search had found,
        // and less than decisive are neither.
        assert!(!ClockView::new(Some(before + 1)).resolving(tm_gain()));
        let won = ClockView::new(Some(tm_gain() + 200));
        assert!(!won.resolving(tm_gain() + 100));
        assert!(close(won.scale(3, 0, 12, tm_gain() + 100), base));
        assert!(close(calm.scale(3, 0, 12, tm_gain() - 1), base));
        // A win by the rules has nothing to resolve: a jump, no more.
        let rule_win = RULE_WIN - 7;
        assert!(mate_plies(rule_win).is_none() && !calm.resolving(rule_win));
        assert!(close(calm.scale(3, 0, 12, rule_win), base));
    }
}
