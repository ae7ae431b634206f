//! Shards: one match split over many processes or machines (Slurm array
//! tasks, GNU parallel jobs), each playing its share of the one schedule.
//!
//! Shard K of N plays the game pairs whose index in the schedule is K − 1
//! modulo N. A pair is the two games of one opening with colours swapped
//! (one game when `--games` is odd and the pair is the last), so a pair is
//! never split across shards, and every shard gets about the same number of
//! games of every pairing. A game keeps its number, opening, colours and
//! everything else it has in the unsharded schedule: the union of the N
//! shards is that schedule, and nothing is played twice.
//!
//! Under Slurm the share can come from the array job's environment instead
//! of `--shard`: K = SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN + 1 and
//! N = SLURM_ARRAY_TASK_COUNT, so `--array=0-3` and `--array=1-4` both give
//! shards 1/4 … 4/4. The array must be a plain range (step 1, no list):
//! anything else makes some K fall outside 1..=N, which is refused. A
//! whole match inside an array task is `--shard 1/1`.

use super::schedule::GameSpec;
use std::fmt;

/// Shard `k` of `n` (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shard {
    pub k: u32,
    pub n: u32,
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl Shard {
    /// The whole match.
    pub const WHOLE: Shard = Shard { k: 1, n: 1 };

    /// Parses `K/N` with 1 ≤ K ≤ N.
    pub fn parse(s: &str) -> Result<Shard, String> {
        let bad = || format!("shard '{s}' must be K/N with 1 <= K <= N, like 2/8");
        let (k, n) = s.trim().split_once('/').ok_or_else(bad)?;
        let (k, n): (u32, u32) = (k.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
        if k == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }

    /// The shard of a Slurm array task, from the variables `get` returns;
    /// `Ok(None)` when the process is not an array task.
    pub fn from_slurm(get: impl Fn(&str) -> Option<String>) -> Result<Option<Shard>, String> {
        let Some(id) = get("SLURM_ARRAY_TASK_ID") else {
            return Ok(None);
        };
        let Some(count) = get("SLURM_ARRAY_TASK_COUNT") else {
            return Err(
                "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not: give --shard K/N"
                    .to_string(),
            );
        };
        let number = |name: &str, v: &str| {
            v.trim()
                .parse::<u64>()
                .map_err(|_| format!("{name}={v} is not a number; give --shard K/N"))
        };
        let id = number("SLURM_ARRAY_TASK_ID", &id)?;
        let count = number("SLURM_ARRAY_TASK_COUNT", &count)?;
        let min =
            match get("SLURM_ARRAY_TASK_MIN") {
                Some(v) => number("SLURM_ARRAY_TASK_MIN", &v)?,
                None => return Err(
                    "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_MIN is not: give --shard K/N"
                        .to_string(),
                ),
            };
        if let Some(step) = get("SLURM_ARRAY_TASK_STEP") {
            if number("SLURM_ARRAY_TASK_STEP", &step)? != 1 {
                return Err(format!(
                    "SLURM_ARRAY_TASK_STEP={step}: a sharded match needs a plain array range like --array=1-{count}"
                ));
            }
        }
        let k = id.checked_sub(min).map(|d| d + 1);
        match k {
            Some(k) if k <= count && count <= u64::from(u32::MAX) => Ok(Some(Shard {
                k: k as u32,
                n: count as u32,
            })),
            _ => Err(format!(
                "SLURM_ARRAY_TASK_ID={id} with SLURM_ARRAY_TASK_MIN={min} and SLURM_ARRAY_TASK_COUNT={count} is no shard K/N: use a plain array range like --array=1-{count}, or give --shard"
            )),
        }
    }

    /// This shard's games of the full `schedule`, in schedule order.
    pub fn select(&self, schedule: &[GameSpec]) -> Vec<GameSpec> {
        pair_index(schedule)
            .into_iter()
            .zip(schedule)
            .filter(|(unit, _)| unit % self.n as usize == (self.k - 1) as usize)
            .map(|(_, g)| *g)
            .collect()
    }
}

/// For each game of the schedule, the index of its pair: games of the same
/// pairing and pair number stand next to each other in the schedule.
fn pair_index(schedule: &[GameSpec]) -> Vec<usize> {
    let mut out = Vec::with_capacity(schedule.len());
    let mut unit = 0;
    for (i, g) in schedule.iter().enumerate() {
        if i > 0 {
            let prev = &schedule[i - 1];
            if (prev.pairing, prev.pair) != (g.pairing, g.pair) {
                unit += 1;
            }
        }
        out.push(unit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedule::{schedule, Format};
    use std::collections::HashMap;

    #[test]
    fn parse_shards() {
        assert_eq!(Shard::parse("2/8"), Ok(Shard { k: 2, n: 8 }));
        assert_eq!(Shard::parse("1/1"), Ok(Shard::WHOLE));
        for bad in ["0/4", "5/4", "4", "a/b", "1/0", "-1/4", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Shard { k: 3, n: 4 }.to_string(), "3/4");
    }

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn slurm_arrays_from_zero_or_one() {
        let from = |vars: &[(&str, &str)]| Shard::from_slurm(env(vars));
        assert_eq!(from(&[]), Ok(None));
        let zero = [
            ("SLURM_ARRAY_TASK_ID", "0"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert_eq!(from(&zero), Ok(Some(Shard { k: 1, n: 4 })));
        let one = [
            ("SLURM_ARRAY_TASK_ID", "4"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "4"),
            ("SLURM_ARRAY_TASK_STEP", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert_eq!(from(&one), Ok(Some(Shard { k: 4, n: 4 })));
        // A list (--array=1,3,5) or a step (--array=0-8:2) is no shard.
        for (vars, needle) in [
            (
                vec![
                    ("SLURM_ARRAY_TASK_ID", "5"),
                    ("SLURM_ARRAY_TASK_MIN", "1"),
                    ("SLURM_ARRAY_TASK_COUNT", "3"),
                ],
                "plain array range",
            ),
            (
                vec![
                    ("SLURM_ARRAY_TASK_ID", "2"),
                    ("SLURM_ARRAY_TASK_MIN", "0"),
                    ("SLURM_ARRAY_TASK_STEP", "2"),
                    ("SLURM_ARRAY_TASK_COUNT", "5"),
                ],
                "SLURM_ARRAY_TASK_STEP=2",
            ),
            (
                vec![
                    ("SLURM_ARRAY_TASK_ID", "2"),
                    ("SLURM_ARRAY_TASK_COUNT", "5"),
                ],
                "SLURM_ARRAY_TASK_MIN is not",
            ),
            (
                vec![("SLURM_ARRAY_TASK_ID", "2")],
                "SLURM_ARRAY_TASK_COUNT is not",
            ),
            (
                vec![
                    ("SLURM_ARRAY_TASK_ID", "x"),
                    ("SLURM_ARRAY_TASK_MIN", "0"),
                    ("SLURM_ARRAY_TASK_COUNT", "5"),
                ],
                "not a number",
            ),
        ] {
            match from(&vars) {
                Err(e) => assert!(e.contains(needle), "{e}"),
                Ok(s) => panic!("{vars:?} gave {s:?}"),
            }
        }
    }

    /// For every format, engine count, game count and shard count: the
    /// shards are disjoint, their union is the unsharded schedule game for
    /// game, and the two games of a pair are in the same shard.
    #[test]
    fn shards_partition_the_schedule_and_keep_pairs_whole() {
        let orders: [&[usize]; 3] = [&[0], &[3, 1, 2], &[5, 4, 3, 2, 1, 0, 9]];
        for format in [Format::RoundRobin, Format::Gauntlet] {
            for engines in 2..=5 {
                for games in [1, 2, 3, 7, 10, 33] {
                    for order in orders {
                        let full = schedule(format, engines, games, order);
                        for n in 1..=9 {
                            let mut seen: HashMap<usize, u32> = HashMap::new();
                            let mut union = Vec::new();
                            for k in 1..=n {
                                let part = Shard { k, n }.select(&full);
                                for g in &part {
                                    assert!(
                                        seen.insert(g.number, k).is_none(),
                                        "game {} twice",
                                        g.number
                                    );
                                }
                                // Each shard's games in schedule order.
                                assert!(part.windows(2).all(|w| w[0].number < w[1].number));
                                union.extend(part);
                            }
                            union.sort_by_key(|g| g.number);
                            assert_eq!(union, full, "{format:?} {engines} {games} {n}");
                            for g in &full {
                                let mate = full.iter().find(|h| {
                                    h.number != g.number
                                        && (h.pairing, h.pair) == (g.pairing, g.pair)
                                });
                                if let Some(h) = mate {
                                    assert_eq!(seen[&g.number], seen[&h.number]);
                                }
                            }
                            // Shards differ by at most one pair.
                            if games % 2 == 0 {
                                let sizes: Vec<usize> = (1..=n)
                                    .map(|k| Shard { k, n }.select(&full).len())
                                    .collect();
                                let most = sizes.iter().max().copied().unwrap_or(0);
                                let least = sizes.iter().min().copied().unwrap_or(0);
                                assert!(most - least <= 2, "{sizes:?}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_small_table() {
        // 2 engines, 8 games: pairs (1,2) (3,4) (5,6) (7,8).
        let full = schedule(Format::Gauntlet, 2, 8, &[0, 1, 2, 3]);
        let numbers = |k, n| -> Vec<usize> {
            Shard { k, n }
                .select(&full)
                .iter()
                .map(|g| g.number)
                .collect()
        };
        assert_eq!(numbers(1, 4), [1, 2]);
        assert_eq!(numbers(4, 4), [7, 8]);
        assert_eq!(numbers(1, 3), [1, 2, 7, 8]);
        assert_eq!(numbers(3, 3), [5, 6]);
        assert_eq!(numbers(2, 5), [3, 4]);
        assert!(numbers(5, 5).is_empty());
        assert_eq!(numbers(1, 1), (1..=8).collect::<Vec<_>>());
    }
}
