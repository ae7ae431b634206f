//! SPSA tuning of the search (`chariot-tools spsa`), as fishtest and
//! OpenBench run it: game pairs between two processes of one engine binary
//! (a `tune` build, whose search tunables are options) that differ only in
//! the tuned parameters.
//!
//! Pair k (k = 1 … N) draws Δ_i = ±1 at random for each parameter and plays
//!
//! ```text
//! θ+ = θ + c_k·Δ   against   θ− = θ − c_k·Δ
//! ```
//!
//! (each value brought into the parameter's [min, max] and rounded to a
//! whole number when sent as an option) from one opening, once with each
//! colour. With r = θ+'s points minus θ−'s over the pair (−2 to 2), it moves
//! each parameter
//!
//! ```text
//! θ_i ← clamp(θ_i + (a_k / c_k) · r · Δ_i, min_i, max_i)
//! ```
//!
//! The gains follow Spall's schedule, set up as OpenBench does it:
//!
//! ```text
//! a_k = a / (A + k)^0.602      c_k = c / k^0.101      A = 0.1·N
//! c = c_end · N^0.101          a = r_end · c_end² · (A + N)^0.602
//! ```
//!
//! so that at the last pair c_N = c_end (the step a parameter is probed
//! with) and a_N / c_N² = r_end (the learning rate; OpenBench's default is
//! 0.002). Each parameter has its own c_end (in src/search/params.rs) and
//! r_end.
//!
//! Pair k's Δ and opening depend on the seed and k only (the openings go in
//! a seeded random order, a new one for each round through them), so a run
//! is a function of its seed and its games' results (and, with more than
//! one pair at once, of the order in which they finish). With `-j N`, N pairs
//! are in play at once, each played from θ as the pairs finished before it
//! started left it (as fishtest does), and each result moves θ, with its own
//! pair's a_k, c_k and Δ, when it arrives. After every pair the state is
//! written to a file, from which a stopped run resumes exactly.
//!
//! - `params`: what is tuned: the search's tunables or an OpenBench file.
//! - `tuner`: the schedule, the pairs, θ and its update.
//! - `state`: the state file.
//! - `play`: real pairs of games, through chariot-match.
//! - `report`: the table and the lines for params.rs.
//! - `cli`: the command.

pub mod cli;
pub mod params;
pub mod play;
pub mod report;
pub mod state;
pub mod tuner;

use anyhow::Result;
use state::State;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use tuner::Pair;

/// Something that plays pairs: engines, or a stand-in in tests.
pub trait PairPlayer {
    /// Plays `pair`'s two games and returns θ+'s points in each (1, ½ or
    /// 0), or `None` when `stop` was raised before they finished.
    fn play(&mut self, pair: &Pair, stop: &AtomicBool) -> Option<[f64; 2]>;
}

/// Plays pairs with `players`, one thread each, until every pair of the run
/// is done, `limit` pairs have been started, or `stop` is raised (pairs in
/// play are then dropped, to be played again when the run resumes). Each
/// result updates θ as it arrives, before its player takes another pair
/// (so that one player plays the pairs strictly in turn); then `finished`
/// is called on this thread with the pair and θ+'s points, and an error
/// from it stops the run and is returned.
pub fn drive<P: PairPlayer + Send>(
    state: &mut State,
    players: Vec<P>,
    limit: Option<u64>,
    stop: &AtomicBool,
    mut finished: impl FnMut(&State, &Pair, [f64; 2]) -> Result<()>,
) -> Result<()> {
    /// The state, and how many more pairs may start.
    struct Shared<'s> {
        state: &'s mut State,
        left: Option<u64>,
    }
    let shared = Mutex::new(Shared { state, left: limit });
    let lock = || shared.lock().unwrap_or_else(|e| e.into_inner());
    // Each finished pair, with θ+'s points.
    let (tx, rx) = mpsc::channel::<(Pair, [f64; 2])>();
    let mut outcome = Ok(());
    std::thread::scope(|scope| {
        for mut player in players {
            let tx = tx.clone();
            let lock = &lock;
            scope.spawn(move || {
                while !stop.load(Ordering::SeqCst) {
                    let pair = {
                        let mut s = lock();
                        if s.left == Some(0) {
                            None
                        } else {
                            s.left = s.left.map(|n| n - 1);
                            s.state.tuner.next_pair()
                        }
                    };
                    let Some(pair) = pair else { break };
                    let Some(points) = player.play(&pair, stop) else {
                        break;
                    };
                    lock().state.tuner.finish(&pair, points);
                    if tx.send((pair, points)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (pair, points) in rx {
            if let Err(e) = finished(lock().state, &pair, points) {
                outcome = Err(e);
                stop.store(true, Ordering::SeqCst);
                break;
            }
        }
    });
    outcome
}

#[cfg(test)]
mod tests {
    use super::tuner::tests::{nearer_wins, params};
    use super::tuner::Tuner;
    use super::*;
    use std::path::PathBuf;

    /// Stand-in games: the nearer to a hidden target wins. After
    /// `interrupt_after` pairs it raises `stop` in the middle of a pair, as
    /// Ctrl-C would.
    struct Fake {
        target: Vec<f64>,
        interrupt_after: Option<usize>,
        played: usize,
    }

    impl Fake {
        fn new(interrupt_after: Option<usize>) -> Fake {
            Fake {
                target: vec![321.0, 3.0, 150.0],
                interrupt_after,
                played: 0,
            }
        }
    }

    impl PairPlayer for Fake {
        fn play(&mut self, pair: &Pair, stop: &AtomicBool) -> Option<[f64; 2]> {
            if Some(self.played) == self.interrupt_after {
                stop.store(true, Ordering::SeqCst);
                return None;
            }
            self.played += 1;
            let ps = params(&[
                (200.0, 0, 600, 20.0),
                (2.0, 1, 3, 0.5),
                (100.0, 0, 300, 10.0),
            ]);
            Some(nearer_wins(&ps, &self.target, pair))
        }
    }

    fn run() -> State {
        let ps = params(&[
            (200.0, 0, 600, 20.0),
            (2.0, 1, 3, 0.5),
            (100.0, 0, 300, 10.0),
        ]);
        State {
            settings: vec!["limit 1000 nodes".into()],
            tuner: Tuner::new(ps, 400, 5, 64),
        }
    }

    fn temp_state(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("chariot-spsa-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("run.state")
    }

    /// A run interrupted twice (by a limit, then by a stop in the middle of
    /// a pair) and resumed from its file each time ends with exactly the θ
    /// of a run that never stopped.
    #[test]
    fn a_resumed_run_ends_exactly_where_an_uninterrupted_one_does() {
        let stop = AtomicBool::new(false);
        let mut whole = run();
        let mut calls = 0;
        drive(&mut whole, vec![Fake::new(None)], None, &stop, |_, _, _| {
            calls += 1;
            Ok(())
        })
        .unwrap();
        assert_eq!((whole.tuner.finished(), calls), (400, 400));

        let path = temp_state("resume");
        let save = |s: &State, _: &Pair, _| s.save(&path);
        let mut first = run();
        drive(&mut first, vec![Fake::new(None)], Some(150), &stop, save).unwrap();
        assert_eq!(first.tuner.finished(), 150);

        let mut second = State::load(&path).unwrap().unwrap();
        assert_eq!(second.differs_from(&run()), None);
        drive(&mut second, vec![Fake::new(Some(100))], None, &stop, save).unwrap();
        assert!(stop.load(Ordering::SeqCst));
        // Pair 251 was in play when the stop came: it is not counted.
        assert_eq!(second.tuner.finished(), 250);
        assert_eq!(State::load(&path).unwrap().unwrap().tuner.finished(), 250);

        stop.store(false, Ordering::SeqCst);
        let mut third = State::load(&path).unwrap().unwrap();
        drive(&mut third, vec![Fake::new(None)], None, &stop, save).unwrap();
        assert_eq!(third.tuner.finished(), 400);
        assert_eq!(third.tuner.theta, whole.tuner.theta);
        assert_eq!(third.tuner.wdl, whole.tuner.wdl);
        assert_eq!(
            State::load(&path).unwrap().unwrap().render(),
            third.render()
        );
        assert!((whole.tuner.theta[0] - 200.0).abs() > 20.0, "θ moved");
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn pairs_played_at_once_are_each_counted_once() {
        let stop = AtomicBool::new(false);
        let mut s = run();
        let players = (0..3).map(|_| Fake::new(None)).collect();
        drive(&mut s, players, None, &stop, |_, _, _| Ok(())).unwrap();
        let t = &s.tuner;
        assert_eq!((t.finished(), t.done_through), (400, 400));
        assert_eq!(t.wdl.wins + t.wdl.draws + t.wdl.losses, 800);
    }

    #[test]
    fn an_error_after_a_pair_stops_the_run() {
        let stop = AtomicBool::new(false);
        let mut s = run();
        let e = drive(&mut s, vec![Fake::new(None)], None, &stop, |s, _, _| {
            if s.tuner.finished() >= 3 {
                anyhow::bail!("disk full")
            }
            Ok(())
        })
        .unwrap_err();
        assert_eq!(e.to_string(), "disk full");
        // The players are told to stop (this one, playing instantly, may
        // have finished more pairs meanwhile).
        assert!(stop.load(Ordering::SeqCst));
        assert!(s.tuner.finished() >= 3);
    }
}
