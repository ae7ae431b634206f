//! The helper threads of Lazy SMP, started on the first search that wants
//! them and kept with the tables (a new game or hash size starts them
//! afresh): a `go` hands each helper its task and waits for its result,
//! and spawns nothing. Each helper keeps its own move-ordering and
//! correction tables.

use super::history::Heuristics;
use super::iterate::{iterate, Plan};
use super::{Job, Outcome, Searcher, Shared, SEARCH_STACK};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

/// One helper's share of a search.
pub(super) struct Task {
    pub job: Arc<Job>,
    pub halt: Arc<AtomicBool>,
    pub total_nodes: Arc<AtomicU64>,
    pub start: Instant,
    pub max_depth: u32,
    pub time: super::limits::TimePlan,
}

struct Helper {
    tasks: Sender<Task>,
    results: Receiver<Outcome>,
    handle: Option<JoinHandle<()>>,
}

/// The helper threads; empty until a search asks for more than one thread.
#[derive(Default)]
pub struct Pool {
    helpers: Mutex<Vec<Helper>>,
    /// Helper threads ever started by this pool.
    started: AtomicUsize,
}

/// The most search threads worth running: one per hardware thread. More
/// only share the same cores, and on a loaded machine delay every stop.
pub fn useful_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

impl Pool {
    /// Runs `main` (the main thread's search) while `tasks` helpers search
    /// beside it, then halts them and returns the main result with the
    /// helpers' outcomes. Helpers are started on first need and kept.
    pub(super) fn run<T>(
        &self,
        tasks: Vec<Task>,
        halt: &AtomicBool,
        main: impl FnOnce() -> T,
    ) -> (T, Vec<Outcome>) {
        let mut helpers = self.helpers.lock().unwrap_or_else(|p| p.into_inner());
        while helpers.len() < tasks.len() {
            match spawn(helpers.len() + 1) {
                Ok(h) => {
                    helpers.push(h);
                    self.started.fetch_add(1, Ordering::Relaxed);
                }
                Err(e) => {
                    log::warn!("cannot start helper thread {}: {e}", helpers.len() + 1);
                    break;
                }
            }
        }
        let mut busy = Vec::new();
        for (h, task) in helpers.iter().zip(tasks) {
            if h.tasks.send(task).is_ok() {
                busy.push(h);
            }
        }
        let result = main();
        halt.store(true, Ordering::Relaxed);
        let outcomes = busy.iter().filter_map(|h| h.results.recv().ok()).collect();
        (result, outcomes)
    }

    /// Helper threads ever started.
    pub fn started(&self) -> usize {
        self.started.load(Ordering::Relaxed)
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        let helpers = std::mem::take(self.helpers.get_mut().unwrap_or_else(|p| p.into_inner()));
        for mut h in helpers {
            drop(h.tasks);
            if let Some(handle) = h.handle.take() {
                let _ = handle.join();
            }
        }
    }
}

/// Starts helper `id`: it waits for tasks until its pool is dropped.
fn spawn(id: usize) -> std::io::Result<Helper> {
    let (tasks, inbox) = channel::<Task>();
    let (outbox, results) = channel();
    let handle = std::thread::Builder::new()
        .name(format!("helper{id}"))
        .stack_size(SEARCH_STACK)
        .spawn(move || {
            let mut heuristics = Heuristics::new();
            for task in inbox {
                let outcome = help(&task, &mut heuristics, id);
                // The task (and with it the last hold on the tables, which
                // own this pool) is let go before the result is sent.
                drop(task);
                if outbox.send(outcome).is_err() {
                    break;
                }
            }
        })?;
    Ok(Helper {
        tasks,
        results,
        handle: Some(handle),
    })
}

/// A helper's search of its task.
fn help(task: &Task, heuristics: &mut Heuristics, id: usize) -> Outcome {
    let plan = Plan {
        job: &task.job,
        max_depth: task.max_depth,
        multipv: 1,
        time: task.time,
        use_unfinished: false,
    };
    // Helpers stop on `halt` alone: the protocol's flags are the main
    // thread's to read.
    let shared = Shared::default();
    let mut s = Searcher::new(
        task.job.pos.clone(),
        &shared,
        &task.halt,
        &task.job.tables.tt,
        heuristics,
        &task.total_nodes,
        task.start,
    )
    .with_net(task.job.net.clone())
    .with_style(task.job.selectivity, task.job.knowledge);
    iterate(&mut s, &plan, id, &mut |_| {}).0
}
