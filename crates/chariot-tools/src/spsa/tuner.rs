//! The algorithm: the gain schedule, the pairs (their Δ, opening and the
//! two parameter vectors they play), the update of θ, and which pairs are
//! done. Nothing here plays a game.

use super::params::Param;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::collections::BTreeSet;

/// The exponent of a_k's decay (Spall's 0.602).
pub const ALPHA: f64 = 0.602;
/// The exponent of c_k's decay (Spall's 0.101).
pub const GAMMA: f64 = 0.101;

/// The gain sequences of a run of `pairs` pairs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    pub pairs: u64,
}

impl Schedule {
    /// A = 0.1·N, the stability constant of a_k.
    pub fn stability(&self) -> f64 {
        0.1 * self.pairs as f64
    }

    /// c = c_end · N^γ.
    pub fn c(&self, p: &Param) -> f64 {
        p.c_end * (self.pairs as f64).powf(GAMMA)
    }

    /// a = r_end · c_end² · (A + N)^α.
    pub fn a(&self, p: &Param) -> f64 {
        p.r_end * p.c_end * p.c_end * (self.stability() + self.pairs as f64).powf(ALPHA)
    }

    /// c_k = c / k^γ: how far pair k moves each parameter either way.
    pub fn c_k(&self, p: &Param, k: u64) -> f64 {
        self.c(p) / (k as f64).powf(GAMMA)
    }

    /// a_k = a / (A + k)^α.
    pub fn a_k(&self, p: &Param, k: u64) -> f64 {
        self.a(p) / (self.stability() + k as f64).powf(ALPHA)
    }
}

/// Game results of θ+ (each game counted once).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    fn add(&mut self, points: f64) {
        if points > 0.5 {
            self.wins += 1;
        } else if points < 0.5 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }
}

/// One pair of games to play: θ+ against θ− from one opening, once with
/// each colour.
#[derive(Clone, Debug, PartialEq)]
pub struct Pair {
    /// Its number, from 1: the k of the schedule.
    pub k: u64,
    /// The index of its opening in the suite.
    pub opening: usize,
    /// Δ: +1 or −1 for each parameter.
    pub delta: Vec<f64>,
    /// The values θ+ and θ− play with, clamped to range and rounded.
    pub plus: Vec<i32>,
    pub minus: Vec<i32>,
}

/// What the random numbers of a pair are drawn for.
#[derive(Clone, Copy)]
enum Stream {
    Delta = 1,
    Openings = 2,
}

/// A generator that depends on the seed, the stream and an index only.
fn rng(seed: u64, stream: Stream, index: u64) -> StdRng {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    key[8..16].copy_from_slice(&(stream as u64).to_le_bytes());
    key[16..24].copy_from_slice(&index.to_le_bytes());
    StdRng::from_seed(key)
}

/// The opening of pair k among `openings`: the openings go in a seeded
/// random order, a new one for each round through them.
pub fn opening_of(seed: u64, openings: usize, k: u64) -> usize {
    let n = openings.max(1) as u64;
    let (round, at) = ((k - 1) / n, (k - 1) % n);
    let mut order: Vec<usize> = (0..openings.max(1)).collect();
    order.shuffle(&mut rng(seed, Stream::Openings, round));
    order[at as usize]
}

/// Δ of pair k: ±1 for each of `n` parameters.
pub fn delta_of(seed: u64, n: usize, k: u64) -> Vec<f64> {
    let mut rng = rng(seed, Stream::Delta, k);
    (0..n)
        .map(|_| if rng.random_bool(0.5) { 1.0 } else { -1.0 })
        .collect()
}

/// θ and the bookkeeping of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuner {
    pub params: Vec<Param>,
    pub schedule: Schedule,
    pub seed: u64,
    /// How many openings the suite has.
    pub openings: usize,
    /// The current values, one per parameter (not rounded).
    pub theta: Vec<f64>,
    /// Every pair numbered up to this one has finished.
    pub done_through: u64,
    /// The pairs numbered above `done_through` that have finished (pairs
    /// played at once can finish out of order).
    pub done_beyond: BTreeSet<u64>,
    /// The results of θ+.
    pub wdl: Wdl,
    /// Pairs handed out and not finished (not saved: an interrupted pair is
    /// played again).
    in_play: BTreeSet<u64>,
}

impl Tuner {
    /// A run from the parameters' starts.
    pub fn new(params: Vec<Param>, pairs: u64, seed: u64, openings: usize) -> Tuner {
        let theta = params.iter().map(|p| p.start).collect();
        Tuner {
            params,
            schedule: Schedule { pairs },
            seed,
            openings,
            theta,
            done_through: 0,
            done_beyond: BTreeSet::new(),
            wdl: Wdl::default(),
            in_play: BTreeSet::new(),
        }
    }

    /// Pairs finished.
    pub fn finished(&self) -> u64 {
        self.done_through + self.done_beyond.len() as u64
    }

    pub fn is_complete(&self) -> bool {
        self.finished() >= self.schedule.pairs
    }

    /// The next pair to play, from θ as it is now: the lowest number neither
    /// finished nor in play. `None` when every pair is one or the other.
    pub fn next_pair(&mut self) -> Option<Pair> {
        let k = (self.done_through + 1..=self.schedule.pairs)
            .find(|k| !self.done_beyond.contains(k) && !self.in_play.contains(k))?;
        self.in_play.insert(k);
        let delta = delta_of(self.seed, self.params.len(), k);
        let side = |sign: f64| -> Vec<i32> {
            self.params
                .iter()
                .zip(&self.theta)
                .zip(&delta)
                .map(|((p, &t), &d)| {
                    let x = t + sign * self.schedule.c_k(p, k) * d;
                    x.clamp(f64::from(p.min), f64::from(p.max)).round() as i32
                })
                .collect()
        };
        let (plus, minus) = (side(1.0), side(-1.0));
        Some(Pair {
            k,
            opening: opening_of(self.seed, self.openings, k),
            delta,
            plus,
            minus,
        })
    }

    /// Takes the result of `pair`, θ+'s points in its two games:
    /// θ_i += (a_k / c_k) · r · Δ_i, with r = θ+'s points minus θ−'s.
    pub fn finish(&mut self, pair: &Pair, points: [f64; 2]) {
        let r = 2.0 * (points[0] + points[1]) - 2.0;
        for ((p, t), d) in self.params.iter().zip(&mut self.theta).zip(&pair.delta) {
            let step = self.schedule.a_k(p, pair.k) / self.schedule.c_k(p, pair.k) * r * d;
            *t = (*t + step).clamp(f64::from(p.min), f64::from(p.max));
        }
        for p in points {
            self.wdl.add(p);
        }
        self.in_play.remove(&pair.k);
        self.done_beyond.insert(pair.k);
        while self.done_beyond.remove(&(self.done_through + 1)) {
            self.done_through += 1;
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Parameters with the numbers of `(start, min, max, c_end)`.
    pub(crate) fn params(specs: &[(f64, i32, i32, f64)]) -> Vec<Param> {
        specs
            .iter()
            .enumerate()
            .map(|(i, &(start, min, max, c_end))| Param {
                name: format!("p{i}"),
                start,
                min,
                max,
                c_end,
                r_end: 0.002,
            })
            .collect()
    }

    /// A stand-in for games: θ+ wins a game when its values are nearer to
    /// `target` (squared distance in units of c_end), loses when farther, and
    /// draws a tie. The same result twice makes the pair.
    pub(crate) fn nearer_wins(params: &[Param], target: &[f64], pair: &Pair) -> [f64; 2] {
        let distance = |values: &[i32]| -> f64 {
            values
                .iter()
                .zip(target)
                .zip(params)
                .map(|((&v, &t), p)| ((f64::from(v) - t) / p.c_end).powi(2))
                .sum()
        };
        let (plus, minus) = (distance(&pair.plus), distance(&pair.minus));
        let points = if plus < minus {
            1.0
        } else if plus > minus {
            0.0
        } else {
            0.5
        };
        [points, points]
    }

    #[test]
    fn the_schedule_ends_at_c_end_and_r_end() {
        let p = &params(&[(200.0, 0, 600, 20.0)])[0];
        let s = Schedule { pairs: 10_000 };
        let (a_big, n) = (1000.0, 10_000.0_f64);
        let c = 20.0 * n.powf(0.101);
        let a = 0.002 * 400.0 * (a_big + n).powf(0.602);
        assert_eq!(s.stability(), a_big);
        assert!((s.c(p) - c).abs() < 1e-12);
        assert!((s.a(p) - a).abs() < 1e-9);
        // k = 1.
        assert!((s.c_k(p, 1) - c).abs() < 1e-12);
        assert!((s.a_k(p, 1) - a / (a_big + 1.0).powf(0.602)).abs() < 1e-12);
        // k = N: the probe is c_end and a/c² is r_end.
        assert!(
            (s.c_k(p, 10_000) - 20.0).abs() < 1e-9,
            "{}",
            s.c_k(p, 10_000)
        );
        let r = s.a_k(p, 10_000) / s.c_k(p, 10_000).powi(2);
        assert!((r - 0.002).abs() < 1e-12, "{r}");
        // The gains shrink as k grows.
        assert!(s.c_k(p, 5000) < s.c_k(p, 10) && s.a_k(p, 5000) < s.a_k(p, 10));
        // Worked out by hand: c = 20·10000^0.101 = 50.703, a = 0.002·20²·11000^0.602
        // = 216.775.
        assert!((s.c(p) - 50.703).abs() < 0.001, "{}", s.c(p));
        assert!((s.a(p) - 216.775).abs() < 0.001, "{}", s.a(p));
    }

    #[test]
    fn a_pair_probes_both_sides_and_the_update_follows_its_result() {
        let mut t = Tuner::new(
            params(&[(200.0, 0, 600, 20.0), (2.0, 1, 3, 0.5)]),
            100,
            7,
            64,
        );
        let pair = t.next_pair().unwrap();
        assert_eq!(pair.k, 1);
        assert_eq!(pair.delta, delta_of(7, 2, 1));
        let c0 = t.schedule.c_k(&t.params[0], 1);
        let expect = |sign: f64| (200.0 + sign * c0 * pair.delta[0]).round() as i32;
        assert_eq!((pair.plus[0], pair.minus[0]), (expect(1.0), expect(-1.0)));
        // The small range: 2 ± 0.5·100^0.101 (0.79) rounds to 3 and 1.
        let c1 = t.schedule.c_k(&t.params[1], 1);
        assert!(c1 > 0.5 && c1 < 1.0, "{c1}");
        assert_eq!(pair.plus[1] + pair.minus[1], 4);
        assert_eq!((pair.plus[1] - pair.minus[1]).abs(), 2);
        // θ+ wins both games: θ moves by 2·a_1/c_1 along Δ.
        t.finish(&pair, [1.0, 1.0]);
        for i in 0..2 {
            let p = &t.params[i];
            let step = 2.0 * t.schedule.a_k(p, 1) / t.schedule.c_k(p, 1) * pair.delta[i];
            assert!((t.theta[i] - (p.start + step)).abs() < 1e-12);
        }
        assert_eq!(
            t.wdl,
            Wdl {
                wins: 2,
                draws: 0,
                losses: 0
            }
        );
        // A split pair (a win and a loss, or two draws) leaves θ alone.
        let before = t.theta.clone();
        let pair = t.next_pair().unwrap();
        t.finish(&pair, [1.0, 0.0]);
        let pair = t.next_pair().unwrap();
        t.finish(&pair, [0.5, 0.5]);
        assert_eq!(t.theta, before);
        assert_eq!(
            t.wdl,
            Wdl {
                wins: 3,
                draws: 2,
                losses: 1
            }
        );
    }

    #[test]
    fn theta_and_the_values_played_stay_in_range() {
        // Both start at an end of their range, and the games always favour
        // going beyond it.
        let mut t = Tuner::new(params(&[(0.0, 0, 3, 0.5), (600.0, 0, 600, 20.0)]), 50, 1, 4);
        for _ in 0..50 {
            let pair = t.next_pair().unwrap();
            for (i, p) in t.params.iter().enumerate() {
                assert!((p.min..=p.max).contains(&pair.plus[i]));
                assert!((p.min..=p.max).contains(&pair.minus[i]));
            }
            let points = if pair.delta[0] < 0.0 && pair.delta[1] > 0.0 {
                1.0
            } else if pair.delta[0] > 0.0 && pair.delta[1] < 0.0 {
                0.0
            } else {
                0.5
            };
            t.finish(&pair, [points, points]);
        }
        assert_eq!((t.theta[0], t.theta[1]), (0.0, 600.0));
        assert!(t.is_complete() && t.next_pair().is_none());
    }

    #[test]
    fn pairs_are_a_function_of_the_seed_and_k() {
        let ps = params(&[(200.0, 0, 600, 20.0); 8]);
        assert_eq!(delta_of(5, 8, 3), delta_of(5, 8, 3));
        assert_ne!(
            (1..=20).map(|k| delta_of(5, 8, k)).collect::<Vec<_>>(),
            (1..=20).map(|k| delta_of(6, 8, k)).collect::<Vec<_>>()
        );
        // Each round through the openings plays every one once, in an order
        // that changes from round to round.
        let round =
            |r: u64| -> Vec<usize> { (1..=10).map(|k| opening_of(9, 10, r * 10 + k)).collect() };
        let mut first = round(0);
        assert_ne!(first, round(1));
        first.sort_unstable();
        assert_eq!(first, (0..10).collect::<Vec<_>>());
        // Same seed, same θ: the same pairs.
        let mut a = Tuner::new(ps.clone(), 10, 5, 10);
        let mut b = Tuner::new(ps, 10, 5, 10);
        assert_eq!(a.next_pair(), b.next_pair());
    }

    #[test]
    fn pairs_finishing_out_of_order_are_counted_once() {
        let mut t = Tuner::new(params(&[(200.0, 0, 600, 20.0)]), 5, 1, 8);
        let p1 = t.next_pair().unwrap();
        let p2 = t.next_pair().unwrap();
        let p3 = t.next_pair().unwrap();
        assert_eq!((p1.k, p2.k, p3.k), (1, 2, 3));
        t.finish(&p3, [0.5, 0.5]);
        t.finish(&p1, [0.5, 0.5]);
        assert_eq!((t.done_through, t.finished()), (1, 2));
        assert_eq!(t.done_beyond, BTreeSet::from([3]));
        // Pair 2 is still in play; the next one handed out is 4.
        assert_eq!(t.next_pair().unwrap().k, 4);
        t.finish(&p2, [0.5, 0.5]);
        assert_eq!((t.done_through, t.finished()), (3, 3));
        assert!(t.done_beyond.is_empty());
    }

    /// Over a few thousand pairs of a stand-in game in which nearer the
    /// target wins, θ goes from far off to near the target.
    #[test]
    fn theta_converges_to_the_target_of_a_fake_game() {
        let ps = params(&[
            (200.0, 0, 600, 20.0),
            (100.0, 20, 200, 7.0),
            (4.0, 1, 8, 0.5),
            (16384.0, 4096, 65536, 1500.0),
        ]);
        let target = [320.0, 60.0, 6.0, 9000.0];
        let mut t = Tuner::new(ps.clone(), 4000, 11, 64);
        while let Some(pair) = t.next_pair() {
            let points = nearer_wins(&ps, &target, &pair);
            t.finish(&pair, points);
        }
        for (i, p) in ps.iter().enumerate() {
            let (start, now) = ((p.start - target[i]).abs(), (t.theta[i] - target[i]).abs());
            assert!(
                now < 0.15 * start && now < 2.0 * p.c_end,
                "{}: from {} to {:.2}, target {}",
                p.name,
                p.start,
                t.theta[i],
                target[i]
            );
        }
    }
}
