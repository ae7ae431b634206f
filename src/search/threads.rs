//! The entry point: one search to its limits, with Lazy SMP (helper
//! threads searching the same position and sharing the hash table) and the
//! optional random choice among near-best root moves ([`RootChoice`]).

use super::history::Heuristics;
use super::iterate::{iterate, Plan};
use super::{
    limits, mate_plies, Info, Job, Outcome, RootChoice, Searcher, Shared, MAX_DEPTH, SEARCH_STACK,
};
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
