//! The entry point: one search to its limits, with Lazy SMP (helper
//! threads searching the same position and sharing the hash table) and the
//! optional random choice among near-best root moves.

use super::history::Heuristics;
use super::iterate::{iterate, Plan};
use super::{limits, mate_plies, Info, Job, Outcome, Searcher, Shared, MAX_DEPTH, SEARCH_STACK};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;
use xiangqi::types::Move;

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
            let (plan, halt, total_nodes, net) = (&plan, &halt, &total_nodes, &job.net);
            let (selectivity, knowledge) = (job.selectivity, job.knowledge);
            let spawned = std::thread::Builder::new()
                .name(format!("helper{}", id + 1))
                .stack_size(SEARCH_STACK)
                .spawn_scoped(scope, move || {
                    let mut s = Searcher::new(pos, shared, halt, &tables.tt, h, total_nodes, start)
                        .with_net(net.clone())
                        .with_style(selectivity, knowledge);
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
        )
        .with_net(job.net.clone())
        .with_style(job.selectivity, job.knowledge);
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
