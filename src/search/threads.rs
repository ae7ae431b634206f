//! The entry point: one search to its limits, with Lazy SMP (helper
//! threads searching the same position and sharing the hash table) and the
//! optional random choice among near-best root moves ([`RootChoice`]).

use super::history::Heuristics;
use super::iterate::{iterate, Plan};
use super::pool::{useful_threads, Task};
use super::{limits, mate_plies, Info, Job, Outcome, RootChoice, Searcher, Shared, MAX_DEPTH};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;
use xiangqi::types::Move;

/// Runs a search to its limits and returns the best move; `report` receives
/// one `Info` per completed iteration and MultiPV line (from the main thread).
pub fn search(job: Job, shared: &Shared, start: Instant, report: &mut dyn FnMut(Info)) -> Outcome {
    if job.root_moves.is_empty() {
        return Outcome::default();
    }
    let time = limits::plan_for(
        &job.limits,
        job.move_overhead_ms,
        job.pos.game_ply(),
        job.root_moves.len(),
    );
    let max_depth = job
        .limits
        .depth
        .unwrap_or(MAX_DEPTH)
        .min(job.limits.mate.map_or(MAX_DEPTH, |n| 2 * n.max(1) - 1))
        .clamp(1, MAX_DEPTH);
    let threads = job.threads.clamp(1, useful_threads());
    if threads < job.threads {
        log::debug!(
            "threads {}: searching with {threads}, one per hardware thread",
            job.threads
        );
    }
    let job = Arc::new(job);
    let tables = Arc::clone(&job.tables);
    tables.tt.new_search();
    let mut heuristics = tables
        .heuristics
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if heuristics.is_empty() {
        heuristics.push(Heuristics::new());
    }
    let halt = Arc::new(AtomicBool::new(false));
    let total_nodes = Arc::new(AtomicU64::new(0));
    let tasks = (1..threads)
        .map(|_| Task {
            job: Arc::clone(&job),
            halt: Arc::clone(&halt),
            total_nodes: Arc::clone(&total_nodes),
            start,
            max_depth,
            time,
        })
        .collect();
    let plan = Plan {
        job: &job,
        max_depth,
        multipv: job.multipv.clamp(1, job.root_moves.len()),
        time,
        use_unfinished: job.node_budget.is_none() && job.choice.margin() == 0,
    };
    let main_h = &mut heuristics[0];
    let ((mut outcome, last_scored), _helpers) = tables.pool.run(tasks, &halt, || {
        let mut s = Searcher::new(
            job.pos.clone(),
            shared,
            &halt,
            &tables.tt,
            main_h,
            &total_nodes,
            start,
        )
        .with_net(job.net.clone())
        .with_style(job.selectivity, job.knowledge);
        s.main = true;
        s.node_limit = job.limits.nodes.unwrap_or(u64::MAX).max(1);
        s.hard_ms = time.hard_ms;
        iterate(&mut s, &plan, 0, report)
    });

    // The choice among near-best root moves; a mate found is played as found.
    if mate_plies(outcome.score).is_none() {
        if let Some(pick) = choose(job.choice, &last_scored, outcome.score, job.seed) {
            if Some(pick) != outcome.best {
                outcome.best = Some(pick);
                outcome.ponder = None;
            }
        }
    }
    outcome.nodes = outcome.nodes.max(total_nodes.load(Ordering::Relaxed));
    // The next search's time plan compares its score with this one's.
    if outcome.depth > 0 {
        tables.set_last_score(outcome.score, job.pos.side_to_move());
    }
    outcome
}

/// The move `choice` draws, with `seed`, among the root moves `scored`
/// within its margin of the `best` score; `None` when there is nothing to
/// choose (no randomness, or a single candidate).
fn choose(choice: RootChoice, scored: &[(Move, i32)], best: i32, seed: u64) -> Option<Move> {
    let margin = choice.margin();
    if margin <= 0 {
        return None;
    }
    let candidates: Vec<(Move, i32)> = scored
        .iter()
        .copied()
        .filter(|&(_, score)| score >= best - margin)
        .collect();
    if candidates.len() < 2 {
        return None;
    }
    let mut rng = StdRng::seed_from_u64(seed);
    match choice {
        RootChoice::Best => None,
        RootChoice::Uniform { .. } => Some(candidates[rng.random_range(0..candidates.len())].0),
        RootChoice::Weighted { temperature, .. } => {
            let t = f64::from(temperature.max(1));
            let weights: Vec<f64> = candidates
                .iter()
                .map(|&(_, score)| (f64::from(score - best) / t).exp())
                .collect();
            let mut x = rng.random::<f64>() * weights.iter().sum::<f64>();
            for (&(m, _), w) in candidates.iter().zip(&weights) {
                if x < *w {
                    return Some(m);
                }
                x -= w;
            }
            candidates.last().map(|&(m, _)| m)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi::Position;

    /// Start-position moves with made-up scores.
    fn scored(scores: &[i32]) -> Vec<(Move, i32)> {
        Position::startpos()
            .legal_moves()
            .iter()
            .copied()
            .zip(scores.iter().copied())
            .collect()
    }

    #[test]
    fn helper_threads_are_started_once_not_per_search() {
        let tables = Arc::new(super::super::Tables::new(1));
        let pos = Position::startpos();
        let go = |depth| {
            let mut job = Job::new(
                pos.clone(),
                pos.legal_moves().iter().copied().collect(),
                super::super::Limits {
                    depth: Some(depth),
                    ..Default::default()
                },
                Arc::clone(&tables),
                None,
            );
            job.threads = 2;
            search(job, &Shared::default(), Instant::now(), &mut |_| {})
        };
        for depth in 1..=6 {
            let o = go(depth);
            assert!(o.best.is_some() && o.depth >= depth, "{o:?}");
        }
        assert_eq!(tables.helpers_started(), useful_threads().min(2) - 1);
    }

    /// A one-thread search of `pos` to `limits` with the classical
    /// evaluation, and the lines it reported.
    fn search_to(pos: &Position, limits: super::super::Limits) -> (Outcome, Vec<Info>) {
        let job = Job::new(
            pos.clone(),
            pos.legal_moves().iter().copied().collect(),
            limits,
            Arc::new(super::super::Tables::new(1)),
            None,
        );
        let mut infos = Vec::new();
        let o = search(job, &Shared::default(), Instant::now(), &mut |i| {
            infos.push(i)
        });
        (o, infos)
    }

    #[test]
    fn a_single_legal_move_on_the_clock_is_searched_on_its_short_plan() {
        // The king's only move: either advisor's would leave the kings
        // facing each other, or is blocked by the other.
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1").expect("test FEN");
        assert_eq!(pos.legal_moves().len(), 1);
        let only = pos.parse_move("e0f0").expect("legal");
        let clock = Some(super::super::Clock {
            time_ms: 60_000,
            ..Default::default()
        });
        let limits = super::super::Limits {
            clock,
            ..Default::default()
        };
        // Searched past the first iteration, for a real score (how long,
        // `limits::plan_for` says: 30 ms here, where the clock's plan is
        // more than a second); this bare ending draws at once.
        let (o, _) = search_to(&pos, limits);
        assert_eq!(o.best, Some(only));
        assert!(o.depth > 1, "{o:?}");
        // A depth asked is still reached, with or without a clock.
        for clock in [None, clock] {
            let limits = super::super::Limits {
                depth: Some(5),
                clock,
                ..Default::default()
            };
            let (o, _) = search_to(&pos, limits);
            assert_eq!((o.best, o.depth), (Some(only), 5), "{clock:?}");
        }
    }

    #[test]
    fn a_stopped_iteration_plays_its_best_move_once_one_is_searched() {
        // Each opening is searched once to find the iterations that change
        // the best move, then again with node limits that stop inside them
        // (a one-thread search to a node limit repeats the first nodes of a
        // longer one exactly), where the move a stopped iteration plays is
        // most often not the last complete one's.
        let openings: [&[&str]; 4] = [&[], &["c3c4", "g6g5"], &["h2e2", "h9g7"], &["b0c2", "c6c5"]];
        let (mut unfinished, mut changed) = (0, 0);
        for line in openings {
            let mut pos = Position::startpos();
            for m in line {
                let m = pos.parse_move(m).expect("legal");
                pos.make_move(m);
            }
            let nodes = |n| super::super::Limits {
                nodes: Some(n),
                ..Default::default()
            };
            let (_, reference) = search_to(&pos, nodes(600_000));
            let complete: Vec<&Info> = reference.iter().filter(|i| i.bound.is_none()).collect();
            for pair in complete.windows(2) {
                let (before, after) = (pair[0], pair[1]);
                if before.pv.first() == after.pv.first() {
                    continue;
                }
                for k in 1..=6 {
                    let limit = before.nodes + (after.nodes - before.nodes) * k / 7;
                    let (o, infos) = search_to(&pos, nodes(limit));
                    let at = format!("{line:?} {limit} nodes");
                    // The last complete iteration's line, then at most the
                    // stopped one's, a lower bound a ply deeper.
                    let complete = infos
                        .iter()
                        .rev()
                        .find(|i| i.bound.is_none())
                        .expect("a complete iteration");
                    assert_eq!(complete.depth, o.depth, "{at}");
                    let Some(last) = infos.last().filter(|i| i.bound.is_some()) else {
                        assert_eq!(o.best, complete.pv.first().copied(), "{at}");
                        continue;
                    };
                    assert_eq!(last.bound, Some(super::super::Bound::Lower), "{at}");
                    assert_eq!(last.depth, o.depth + 1, "{at}");
                    assert_eq!(o.best, last.pv.first().copied(), "{at}");
                    assert_eq!(o.score, complete.score, "{at}");
                    unfinished += 1;
                    changed += usize::from(o.best != complete.pv.first().copied());
                }
            }
        }
        assert!(unfinished >= 20, "{unfinished} searches stopped part-way");
        assert!(changed >= 5, "{changed} of {unfinished} changed the move");
    }

    #[test]
    fn the_weighted_choice_keeps_to_the_margin_and_favours_the_best() {
        let moves = scored(&[50, 40, 20, -60, -200]);
        let choice = RootChoice::Weighted {
            margin: 100,
            temperature: 20,
        };
        let mut counts = [0; 5];
        for seed in 0..4000 {
            let pick = choose(choice, &moves, 50, seed).unwrap_or(moves[0].0);
            let i = moves
                .iter()
                .position(|&(m, _)| m == pick)
                .expect("a root move");
            counts[i] += 1;
        }
        // Weights 1, e^-0.5, e^-1.5 (sum 1.83); 110 and 250 below: never.
        assert_eq!(&counts[3..], [0, 0], "{counts:?}");
        assert!(counts[0] > counts[1] && counts[1] > counts[2], "{counts:?}");
        assert!((2000..2400).contains(&counts[0]), "{counts:?}");
        // The same seed, the same move; nothing to choose, no choice.
        assert_eq!(choose(choice, &moves, 50, 9), choose(choice, &moves, 50, 9));
        assert_eq!(choose(choice, &scored(&[50, -60]), 50, 9), None);
        assert_eq!(choose(RootChoice::Best, &moves, 50, 9), None);
    }
}
