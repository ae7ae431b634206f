//! Merging the shards of a datagen run (`chariot-tools merge`) into the one
//! file an unsharded run writes.
//!
//! Shard K of N of a run holds the run's games `g = K − 1 + j·N` (its game
//! `j`); every game depends only on the run's seed, its number and the
//! nodes per move. The merge checks every chunk's header and checksum, that
//! all files are of one run (seed, nodes, the evaluation that played: the
//! net's hash, 0 for the classical one), that each file is one shard with
//! its games from 0 on, that no shard is given twice and no game is in two
//! files, and that the games together are the run's first G games with
//! none missing. It then writes them in run order, in chunks of 64 games
//! marked shard 1/1, exactly as `datagen --games G --shard 1/1` writes
//! them: the bytes are equal.
//!
//! The chunks do not record the build that played, only the evaluation:
//! shards of the same seed and net from two builds whose searches differ
//! are not told apart.

use crate::datagen::CHUNK_GAMES;
use crate::gamefile::{self, GameRecord, RunId};
use anyhow::{bail, Result};
use std::collections::BTreeMap;

/// What a merge made.
#[derive(Debug)]
pub struct Merged {
    /// The merged file's bytes.
    pub bytes: Vec<u8>,
    /// The run (marked shard 1/1).
    pub run: RunId,
    pub games: u64,
}

/// One input: its name for messages and its bytes.
pub type Input = (String, Vec<u8>);

/// The run's name in messages: seed, nodes, evaluation.
fn describe(run: &RunId) -> String {
    let eval = if run.eval == 0 {
        "the classical evaluation".to_string()
    } else {
        format!("net {}", &format!("{:016x}", run.eval)[..12])
    };
    format!("seed {}, {} nodes, {eval}", run.seed, run.nodes)
}

/// Merges the shards' files, or says in one line why not.
pub fn merge(inputs: &[Input]) -> Result<Merged> {
    let mut run: Option<(RunId, &str)> = None;
    let mut shards: BTreeMap<(u16, u16), &str> = BTreeMap::new();
    // Run-wide game number → the game and the file it came from.
    let mut games: BTreeMap<u64, (GameRecord, &str, (u16, u16))> = BTreeMap::new();
    for (name, bytes) in inputs {
        let (chunks, damage) = gamefile::read_chunks(bytes);
        if let Some(d) = damage.first() {
            bail!(
                "{name}: {d}; a torn tail is cut off by running its datagen shard again with the same arguments"
            );
        }
        let Some(first) = chunks.first() else {
            eprintln!("merge: {name} holds no games");
            continue;
        };
        let shard = first.header.run.shard;
        let (k, n) = (u64::from(shard.0), u64::from(shard.1));
        if k == 0 || k > n {
            bail!("{name}: shard {}/{} is not a shard", shard.0, shard.1);
        }
        match run {
            None => run = Some((first.header.run, name)),
            Some((r, other)) => {
                let this = first.header.run;
                if (r.seed, r.nodes, r.eval) != (this.seed, this.nodes, this.eval) {
                    let what = if r.eval != this.eval {
                        "played by different evaluations"
                    } else {
                        "of different runs"
                    };
                    bail!(
                        "{other} and {name} are {what}: {} against {}",
                        describe(&r),
                        describe(&this)
                    );
                }
            }
        }
        if let Some(other) = shards.insert(shard, name) {
            bail!(
                "shard {}/{} is given twice: {other} and {name}",
                shard.0,
                shard.1
            );
        }
        let mut next = 0u64;
        for c in &chunks {
            if c.header.run != first.header.run {
                bail!(
                    "{name}: the chunk at byte {} is of another run or shard ({}, shard {}/{})",
                    c.offset,
                    describe(&c.header.run),
                    c.header.run.shard.0,
                    c.header.run.shard.1
                );
            }
            if u64::from(c.header.first_game) != next {
                bail!(
                    "{name}: the chunk at byte {} starts at the shard's game {}, expected {next}",
                    c.offset,
                    c.header.first_game
                );
            }
            for g in &c.games {
                let number = (k - 1) + next * n;
                if let Some((_, other, s)) = games.get(&number) {
                    bail!(
                        "game {number} of the run is in both {other} (shard {}/{}) and {name} (shard {k}/{n}): the shards overlap",
                        s.0,
                        s.1
                    );
                }
                games.insert(number, (g.clone(), name, shard));
                next += 1;
            }
        }
    }
    let Some((run, _)) = run else {
        bail!("no games in the files given");
    };
    let total = games.keys().next_back().map_or(0, |&last| last + 1);
    let missing: Vec<u64> = (0..total).filter(|g| !games.contains_key(g)).collect();
    if !missing.is_empty() {
        bail!(
            "{} of the run's first {total} games are missing: {}",
            missing.len(),
            by_shard(&missing, &shards)
        );
    }
    let run = RunId {
        shard: (1, 1),
        ..run
    };
    let all: Vec<GameRecord> = games.into_values().map(|(g, _, _)| g).collect();
    let mut bytes = Vec::new();
    for (i, chunk) in all.chunks(CHUNK_GAMES).enumerate() {
        let first = u32::try_from(i * CHUNK_GAMES)
            .map_err(|_| anyhow::anyhow!("more games than one file can number"))?;
        bytes.extend_from_slice(&gamefile::encode_chunk(run, first, chunk));
    }
    Ok(Merged {
        bytes,
        run,
        games: total,
    })
}

/// Missing game numbers, by the shard that plays them when the files agree
/// on the shard count: `shard 2/4 (given): 5, 9; shard 3/4 (no file): 2-6`.
fn by_shard(missing: &[u64], shards: &BTreeMap<(u16, u16), &str>) -> String {
    let counts: Vec<u16> = shards.keys().map(|s| s.1).collect();
    let Some(&n) = counts.first().filter(|&&n| counts.iter().all(|&m| m == n)) else {
        return ranges(missing);
    };
    let mut parts = Vec::new();
    for k in 1..=n {
        let mine: Vec<u64> = missing
            .iter()
            .copied()
            .filter(|g| g % u64::from(n) == u64::from(k - 1))
            .collect();
        if mine.is_empty() {
            continue;
        }
        let state = match shards.get(&(k, n)) {
            Some(name) => format!("{name} stops short"),
            None => "no file given".to_string(),
        };
        parts.push(format!("shard {k}/{n} ({state}): {}", ranges(&mine)));
    }
    parts.join("; ")
}

/// Numbers as short ranges: `5, 9-12, 20`.
fn ranges(numbers: &[u64]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < numbers.len() {
        let mut j = i;
        while j + 1 < numbers.len() && numbers[j + 1] == numbers[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            numbers[i].to_string()
        } else {
            format!("{}-{}", numbers[i], numbers[j])
        });
        i = j + 1;
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_ranges() {
        assert_eq!(ranges(&[1, 2, 3, 5, 8, 9]), "1-3, 5, 8-9");
        assert_eq!(ranges(&[]), "");
        let shards: BTreeMap<(u16, u16), &str> = [((1, 3), "a"), ((2, 3), "b")].into();
        assert_eq!(
            by_shard(&[1, 2, 4, 5, 8], &shards),
            "shard 2/3 (b stops short): 1, 4; shard 3/3 (no file given): 2, 5, 8"
        );
        let mixed: BTreeMap<(u16, u16), &str> = [((1, 3), "a"), ((2, 4), "b")].into();
        assert_eq!(by_shard(&[1, 2, 3], &mixed), "1-3");
    }
}
