//! Helpers shared by the engine's integration tests: the rules core's slow
//! reference and random positions, and a one-call search.
#![allow(dead_code)]

#[path = "../../crates/xiangqi/tests/common/mod.rs"]
mod reference;

#[allow(unused_imports)]
pub use reference::*;

use chariot::eval::Knowledge;
use chariot::search::{self, Job, Limits, Outcome, Selectivity, Shared, Tables, SEARCH_STACK};
use std::sync::Arc;
use std::time::Instant;
use xiangqi::Position;

/// Searches `pos` as the engine does for one `go`: the built-in evaluation,
/// one thread, fresh 16 MB tables, no time limit unless `limits` sets one,
/// on a thread with the engine's search stack.
pub fn search_with(pos: &Position, limits: Limits) -> Outcome {
    search_styled(pos, limits, Selectivity::FULL, Knowledge::Full)
}

/// [`search_with`] with these cuts and this much evaluation knowledge.
pub fn search_styled(
    pos: &Position,
    limits: Limits,
    selectivity: Selectivity,
    knowledge: Knowledge,
) -> Outcome {
    let job = Job {
        pos: pos.clone(),
        limits,
        root_moves: pos.legal_moves().to_vec(),
        multipv: 1,
        randomness: 0,
        move_overhead_ms: 0,
        seed: 0,
        threads: 1,
        tables: Arc::new(Tables::new(16)),
        // Lighter knowledge is the classical evaluation's (the search drops
        // the net for it).
        net: chariot::nets::builtin_net(),
        selectivity,
        knowledge,
    };
    std::thread::Builder::new()
        .stack_size(SEARCH_STACK)
        .spawn(move || search::search(job, &Shared::default(), Instant::now(), &mut |_| {}))
        .expect("spawn the search thread")
        .join()
        .expect("the search panicked")
}
