//! The game-data format and the generator: round trips, damage of every
//! kind reported (never a panic) with the good chunks kept, determinism for
//! a seed, disjoint shards, resuming an interrupted run, and merging shards
//! into the unsharded run's file byte for byte, refusing what does not fit.

use chariot::eval::nnue::{Network, HIDDEN, INPUTS};
use chariot::xiangqi::{Move, Position};
use chariot_tools::datagen::{self, Config, CHUNK_GAMES};
use chariot_tools::gamefile::{
    encode_chunk, read_chunks, Damage, Ending, GameRecord, Outcome, RunId, HEADER_LEN, UNSCORED,
    V1_HEADER_LEN,
};
use chariot_tools::merge::merge;
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

const RUN: RunId = RunId {
    seed: 7,
    nodes: 100,
    shard: (1, 1),
    eval: 0x0123_4567_89ab_cdef,
};

/// A random legal game from the start (or from a position reached by a few
/// random moves), with made-up scores.
fn random_game(rng: &mut StdRng) -> GameRecord {
    let mut start = Position::startpos();
    for _ in 0..rng.random_range(0..6) {
        let moves = start.legal_moves();
        start.make_move(moves[rng.random_range(0..moves.len())]);
    }
    start.clear_history();
    let mut pos = start.clone();
    let mut moves: Vec<(Move, i16)> = Vec::new();
    for _ in 0..rng.random_range(0..120) {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.random_range(0..legal.len())];
        let score = if rng.random_bool(0.1) {
            UNSCORED
        } else {
            rng.random_range(-10_000..=10_000)
        };
        moves.push((m, score));
        pos.make_move(m);
    }
    let outcome = [Outcome::RedWins, Outcome::Draw, Outcome::BlackWins][rng.random_range(0..3)];
    GameRecord::new(&start, outcome, Ending::AdjudicatedWin, moves)
}

fn random_file(seed: u64, chunks: usize) -> (Vec<u8>, Vec<Vec<GameRecord>>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut bytes = Vec::new();
    let mut all = Vec::new();
    let mut first = 0;
    for _ in 0..chunks {
        let games: Vec<GameRecord> = (0..rng.random_range(1..6))
            .map(|_| random_game(&mut rng))
            .collect();
        bytes.extend(encode_chunk(RUN, first, &games));
        first += games.len() as u32;
        all.push(games);
    }
    (bytes, all)
}

#[test]
fn games_round_trip_and_files_concatenate() {
    let (a, games_a) = random_file(1, 3);
    let (b, games_b) = random_file(2, 2);
    let (chunks, damage) = read_chunks(&[a.clone(), b].concat());
    assert!(damage.is_empty(), "{damage:?}");
    let read: Vec<Vec<GameRecord>> = chunks.into_iter().map(|c| c.games).collect();
    assert_eq!(read, [games_a, games_b].concat());
    // Every stored game replays legally from its start position.
    for game in read.iter().flatten() {
        let mut pos = game.start_position().expect("a valid start");
        for &(m, _) in &game.moves {
            assert!(pos.is_legal(m), "{m} in {}", pos.to_fen());
            pos.make_move(m);
        }
    }
}

#[test]
fn a_truncated_file_keeps_every_whole_chunk() {
    let (bytes, games) = random_file(3, 4);
    let ends: Vec<usize> = read_chunks(&bytes)
        .0
        .iter()
        .map(|c| c.offset + c.len)
        .collect();
    for cut in 0..bytes.len() {
        let (chunks, damage) = read_chunks(&bytes[..cut]);
        let whole = ends.iter().filter(|&&e| e <= cut).count();
        assert_eq!(chunks.len(), whole, "cut at {cut}");
        for (c, g) in chunks.iter().zip(&games) {
            assert_eq!(&c.games, g);
        }
        let torn = cut > 0 && !ends.contains(&cut);
        assert_eq!(damage.len(), usize::from(torn), "cut at {cut}: {damage:?}");
        if torn {
            assert_eq!(damage[0].damage, Damage::Truncated, "cut at {cut}");
        }
    }
}

#[test]
fn a_flipped_byte_loses_only_its_chunk() {
    let (bytes, games) = random_file(4, 3);
    let chunks = read_chunks(&bytes).0;
    let mut rng = StdRng::seed_from_u64(5);
    for _ in 0..300 {
        let at = rng.random_range(0..bytes.len());
        let mut bad = bytes.clone();
        bad[at] ^= 1 << rng.random_range(0..8);
        let hit = chunks
            .iter()
            .position(|c| (c.offset..c.offset + c.len).contains(&at))
            .expect("every byte is in a chunk");
        let (read, damage) = read_chunks(&bad);
        assert!(!damage.is_empty(), "flip at {at} went unnoticed");
        let kept: Vec<&Vec<GameRecord>> = read.iter().map(|c| &c.games).collect();
        let expected: Vec<&Vec<GameRecord>> = games
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != hit)
            .map(|(_, g)| g)
            .collect();
        // A flip in a payload length may swallow what follows; never more
        // than the good chunks are returned, and never a damaged one.
        assert!(kept.len() <= expected.len(), "flip at {at}");
        for k in &kept {
            assert!(expected.contains(k), "flip at {at} returned a bad chunk");
        }
        if at >= chunks[hit].offset + HEADER_LEN {
            // A payload byte: only that chunk is lost.
            assert_eq!(kept, expected, "flip at {at}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, rng_seed: proptest::test_runner::RngSeed::Fixed(11), ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        let (chunks, damage) = read_chunks(&bytes);
        prop_assert!(chunks.is_empty());
        prop_assert_eq!(damage.is_empty(), bytes.is_empty());
    }

    #[test]
    fn garbage_around_good_chunks_is_skipped(
        before in proptest::collection::vec(any::<u8>(), 0..200),
        after in proptest::collection::vec(any::<u8>(), 0..200),
    ) {
        let (good, games) = random_file(6, 1);
        let bytes = [before, good, after].concat();
        let (chunks, _) = read_chunks(&bytes);
        prop_assert_eq!(chunks.len(), 1);
        prop_assert_eq!(&chunks[0].games, &games[0]);
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-data-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn config(out: PathBuf, games: u64, shard: (u16, u16), threads: usize) -> Config {
    Config {
        games,
        nodes: 60,
        seed: 3,
        threads,
        shard,
        random_plies: (4, 10),
        out,
        net: None,
    }
}

fn games_of(path: &PathBuf) -> Vec<GameRecord> {
    let bytes = std::fs::read(path).unwrap();
    let (chunks, damage) = read_chunks(&bytes);
    assert!(damage.is_empty(), "{damage:?}");
    chunks.into_iter().flat_map(|c| c.games).collect()
}

#[test]
fn datagen_is_deterministic_sharded_and_resumable() {
    let dir = scratch("gen");
    let stop = AtomicBool::new(false);
    let whole = dir.join("whole.cxgd");
    datagen::generate(&config(whole.clone(), 6, (1, 1), 2), &stop).unwrap();
    let games = games_of(&whole);
    assert_eq!(games.len(), 6);
    // The tuner reads the same quiet positions that datagen counts.
    let quiet: u64 = games.iter().map(datagen::count_quiet).sum();
    let samples = chariot_tools::tune::fit::load_games(&std::fs::read(&whole).unwrap()).unwrap();
    assert_eq!(samples.len() as u64, quiet);
    for g in &games {
        assert!(g.moves.len() >= 4, "a game shorter than its opening");
        assert!(g.moves[..4].iter().all(|&(_, s)| s == UNSCORED));
    }
    // One thread or two: the same bytes.
    let again = dir.join("again.cxgd");
    datagen::generate(&config(again.clone(), 6, (1, 1), 1), &stop).unwrap();
    assert_eq!(
        std::fs::read(&whole).unwrap(),
        std::fs::read(&again).unwrap()
    );
    // Shards: disjoint, and together the whole run.
    let mut parts = Vec::new();
    for k in 1..=3 {
        let p = dir.join(format!("part{k}.cxgd"));
        datagen::generate(&config(p.clone(), 6, (k, 3), 1), &stop).unwrap();
        parts.push(games_of(&p));
    }
    for (j, g) in games.iter().enumerate() {
        assert_eq!(&parts[j % 3][j / 3], g, "game {j}");
    }
    // An interrupted run (a torn chunk at the end) resumes to the same games.
    let torn = dir.join("torn.cxgd");
    datagen::generate(&config(torn.clone(), 4, (1, 1), 1), &stop).unwrap();
    let bytes = std::fs::read(&torn).unwrap();
    let mut cut = bytes.clone();
    cut.extend_from_slice(&encode_chunk(RUN, 4, &games[4..])[..30]);
    std::fs::write(&torn, &cut).unwrap();
    datagen::generate(&config(torn.clone(), 6, (1, 1), 1), &stop).unwrap();
    assert_eq!(games_of(&torn), games);
    // A file of another run is refused, not mixed.
    let other = Config {
        seed: 4,
        ..config(torn.clone(), 8, (1, 1), 1)
    };
    assert!(datagen::generate(&other, &stop).is_err());
    // So is one made by another evaluation: a net's games go to their own
    // file, whose chunks carry the net's hash.
    let flat = Arc::new(Network {
        hidden_weights: vec![0; INPUTS * HIDDEN],
        hidden_bias: vec![1; HIDDEN],
        output_weights: vec![1; 2 * HIDDEN],
        output_bias: vec![0],
    });
    let by_net = |out: PathBuf| Config {
        net: Some(Arc::clone(&flat)),
        ..config(out, 2, (1, 1), 1)
    };
    assert!(datagen::generate(&by_net(torn.clone()), &stop).is_err());
    let net_file = dir.join("net.cxgd");
    datagen::generate(&by_net(net_file.clone()), &stop).unwrap();
    let chunks = read_chunks(&std::fs::read(&net_file).unwrap()).0;
    assert_eq!(chunks[0].header.run.eval, flat.hash());
    assert_eq!(chunks[0].games.len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn version_1_chunks_are_read_as_classical_self_play() {
    let (v2, games) = random_file(8, 1);
    // The same chunk as version 1 wrote it: a 44-byte header without the
    // evaluation, its checksum over bytes 0..40.
    let mut v1 = v2[..40].to_vec();
    v1[4..6].copy_from_slice(&1u16.to_le_bytes());
    v1[6..8].copy_from_slice(&(V1_HEADER_LEN as u16).to_le_bytes());
    let crc = crc32fast::hash(&v1);
    v1.extend_from_slice(&crc.to_le_bytes());
    v1.extend_from_slice(&v2[HEADER_LEN..]);
    let (chunks, damage) = read_chunks(&[v1.clone(), v2].concat());
    assert!(damage.is_empty(), "{damage:?}");
    assert_eq!(chunks.len(), 2);
    assert_eq!(chunks[0].games, games[0]);
    assert_eq!(chunks[0].header.run, RunId { eval: 0, ..RUN });
    assert_eq!(chunks[1].header.run, RUN);
    assert_eq!(chunks[1].offset, v1.len());
}

/// Shard `k` of `n` of `games` as datagen writes it: the shard's games
/// `k - 1 + j n`, in chunks of 64 counted from the shard's first game.
fn shard_bytes(run: RunId, games: &[GameRecord], k: u16, n: u16) -> Vec<u8> {
    let mine: Vec<GameRecord> = games
        .iter()
        .skip(usize::from(k - 1))
        .step_by(usize::from(n))
        .cloned()
        .collect();
    let run = RunId {
        shard: (k, n),
        ..run
    };
    mine.chunks(CHUNK_GAMES)
        .enumerate()
        .flat_map(|(i, c)| encode_chunk(run, (i * CHUNK_GAMES) as u32, c))
        .collect()
}

fn input(name: &str, bytes: Vec<u8>) -> (String, Vec<u8>) {
    (name.to_string(), bytes)
}

#[test]
fn shards_merge_into_the_unsharded_file_byte_for_byte() {
    // Real runs: three shards of a 7-game run, merged, are the whole run.
    let dir = scratch("merge");
    let stop = AtomicBool::new(false);
    let whole = dir.join("whole.cxgd");
    datagen::generate(&config(whole.clone(), 7, (1, 1), 1), &stop).unwrap();
    let mut inputs = Vec::new();
    for k in [3, 1, 2] {
        let p = dir.join(format!("part{k}.cxgd"));
        datagen::generate(&config(p.clone(), 7, (k, 3), 1), &stop).unwrap();
        inputs.push(input(&p.display().to_string(), std::fs::read(&p).unwrap()));
    }
    let merged = merge(&inputs).unwrap();
    assert_eq!(merged.games, 7);
    assert_eq!(merged.bytes, std::fs::read(&whole).unwrap());
    let _ = std::fs::remove_dir_all(&dir);

    // Many chunks: 300 games in 7 shards, in chunks of 64 as datagen
    // writes them, merge into the chunks an unsharded run writes.
    let mut rng = StdRng::seed_from_u64(11);
    let games: Vec<GameRecord> = (0..300).map(|_| random_game(&mut rng)).collect();
    let inputs: Vec<_> = (1..=7)
        .map(|k| input(&format!("s{k}"), shard_bytes(RUN, &games, k, 7)))
        .collect();
    assert_eq!(
        merge(&inputs).unwrap().bytes,
        shard_bytes(RUN, &games, 1, 1)
    );
}

#[test]
fn merge_refuses_shards_that_do_not_fit_in_one_line() {
    let mut rng = StdRng::seed_from_u64(12);
    let games: Vec<GameRecord> = (0..40).map(|_| random_game(&mut rng)).collect();
    let part = |k, n| shard_bytes(RUN, &games, k, n);
    let refused = |inputs: Vec<(String, Vec<u8>)>, needle: &str| {
        let e = format!("{:#}", merge(&inputs).unwrap_err());
        assert!(!e.contains('\n') && e.contains(needle), "{e}");
    };
    // Another seed, other nodes, another net.
    for (other, needle) in [
        (RunId { seed: 8, ..RUN }, "s1 and s2 are of different runs: seed 7, 100 nodes, net 0123456789ab against seed 8"),
        (RunId { nodes: 200, ..RUN }, "of different runs"),
        (RunId { eval: 0, ..RUN }, "played by different evaluations: seed 7, 100 nodes, net 0123456789ab against seed 7, 100 nodes, the classical evaluation"),
    ] {
        refused(
            vec![input("s1", part(1, 2)), input("s2", shard_bytes(other, &games, 2, 2))],
            needle,
        );
    }
    // A shard given twice.
    refused(
        vec![
            input("a", part(1, 2)),
            input("b", part(2, 2)),
            input("c", part(1, 2)),
        ],
        "shard 1/2 is given twice: a and c",
    );
    // Overlapping games: shard 1/2 holds the even games, 3/4 games 2, 6, …
    refused(
        vec![input("half", part(1, 2)), input("quarter", part(3, 4))],
        "game 2 of the run is in both half (shard 1/2) and quarter (shard 3/4): the shards overlap",
    );
    // Missing games: a shard left out, or one that stops short.
    refused(
        vec![input("a", part(1, 3)), input("c", part(3, 3))],
        "13 of the run's first 40 games are missing: shard 2/3 (no file given): 1, 4, 7",
    );
    let mut short = part(2, 3);
    let chunks = read_chunks(&short).0;
    assert_eq!(chunks.len(), 1);
    let cut: Vec<GameRecord> = chunks[0].games[..5].to_vec();
    short = encode_chunk(
        RunId {
            shard: (2, 3),
            ..RUN
        },
        0,
        &cut,
    );
    refused(
        vec![
            input("a", part(1, 3)),
            input("b", short),
            input("c", part(3, 3)),
        ],
        "shard 2/3 (b stops short): 16, 19",
    );
    // A damaged chunk: its checksum fails.
    let mut damaged = part(2, 2);
    let last = damaged.len() - 1;
    damaged[last] ^= 0x55;
    refused(
        vec![input("a", part(1, 2)), input("b", damaged)],
        "b: a chunk whose games fail their checksum at byte 0",
    );
    // A file whose chunks are of two shards.
    let mixed = [part(1, 2), shard_bytes(RUN, &games, 2, 2)].concat();
    refused(vec![input("m", mixed)], "m: the chunk at byte");
}
