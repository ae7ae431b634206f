//! Self-play data generation (`chariot-tools datagen`): seeded random
//! openings, then fixed-node self-play to the end by the rules, written as
//! whole games in the game-data format (`gamefile`).
//!
//! Game `g` of a run depends only on the seed and `g`, so a run is
//! reproducible, shards are disjoint (shard K of N plays the games with
//! `g % N == K - 1`), and an interrupted run resumes where its file ends.

use crate::dataset::is_training_position;
use crate::gamefile::{self, Ending, GameRecord, Outcome, RunId, UNSCORED};
use anyhow::{bail, Context, Result};
use chariot::eval::nnue::Network;
use chariot::search::{self, Job, Limits, Shared, Tables};
use chariot::xiangqi::rules::{self, MOVE_LIMIT_PLIES};
use chariot::xiangqi::types::{Color, Move};
use chariot::xiangqi::Position;
use indicatif::{ProgressBar, ProgressStyle};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Instant;

/// Games per chunk (about 40 KB); an interruption loses at most these.
pub const CHUNK_GAMES: usize = 64;
/// A side whose score stays beyond this for `WIN_PLIES` plies in a row,
/// by both sides' searches, is adjudicated the winner.
const WIN_SCORE: i32 = 1000;
const WIN_PLIES: usize = 8;
/// From this ply on, a score within `DRAW_SCORE` for `DRAW_PLIES` plies in a
/// row is adjudicated a draw.
const DRAW_MIN_PLY: usize = 200;
const DRAW_SCORE: i32 = 10;
const DRAW_PLIES: usize = 20;
/// Games still going after this many plies are drawn.
const PLY_CAP: usize = 600;
/// Hash table of each generating thread.
const HASH_MB: usize = 16;

/// How to generate.
#[derive(Clone, Debug)]
pub struct Config {
    /// Games in the whole run (all shards together).
    pub games: u64,
    pub nodes: u32,
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
    /// 1-based shard index and shard count.
    pub shard: (u16, u16),
    /// Random plies that open each game (inclusive range).
    pub random_plies: (usize, usize),
    pub out: PathBuf,
    /// The network both sides evaluate with (`None`: the classical
    /// evaluation).
    pub net: Option<Arc<Network>>,
}

impl Config {
    fn run_id(&self) -> RunId {
        RunId {
            seed: self.seed,
            nodes: self.nodes,
            shard: self.shard,
            eval: self.net.as_ref().map_or(0, |net| net.hash()),
        }
    }

    /// Games this shard plays.
    fn local_games(&self) -> u64 {
        let (k, n) = (self.shard.0 as u64, self.shard.1 as u64);
        self.games.saturating_sub(k - 1).div_ceil(n)
    }

    /// The run-wide number of this shard's game `j`.
    fn global_index(&self, j: u64) -> u64 {
        (self.shard.0 as u64 - 1) + j * self.shard.1 as u64
    }
}

/// One game and the number of training positions in it (quiet scored
/// positions: not in check, best move not a capture, no mate score).
pub struct Played {
    pub game: GameRecord,
    pub quiet: u64,
}

/// Plays game `index` of a run: deterministic in (seed, index, nodes).
pub fn play_game(seed: u64, index: u64, cfg: &Config, tables: &Arc<Tables>) -> Played {
    let mut rng = StdRng::seed_from_u64(seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let start = Position::startpos();
    let mut pos = start.clone();
    tables.clear();
    let opening = rng.random_range(cfg.random_plies.0..=cfg.random_plies.1);
    let shared = Shared::default();
    let mut moves = Vec::new();
    let mut red_scores: Vec<i32> = Vec::new();
    let mut quiet = 0;
    let (outcome, ending) = loop {
        if let Some(v) = rules::adjudicate(&pos, MOVE_LIMIT_PLIES) {
            break (Outcome::from_winner(v.winner), Ending::from_rules(v.reason));
        }
        if moves.len() >= PLY_CAP {
            break (Outcome::Draw, Ending::PlyCap);
        }
        let legal = pos.legal_moves();
        if moves.len() < opening {
            let m = legal[rng.random_range(0..legal.len())];
            moves.push((m, UNSCORED));
            pos.make_move(m);
            continue;
        }
        let (best, score) = search_nodes(&pos, &legal, cfg.nodes, tables, &cfg.net, &shared);
        if is_training_position(&pos, best, score as i16) {
            quiet += 1;
        }
        red_scores.push(match pos.side_to_move() {
            Color::Red => score,
            Color::Black => -score,
        });
        moves.push((best, score as i16));
        pos.make_move(best);
        if let Some(result) = adjudicate_by_score(&red_scores, moves.len()) {
            break result;
        }
    };
    Played {
        game: GameRecord::new(&start, outcome, ending, moves),
        quiet,
    }
}

/// One search of `pos` (whose legal moves are `legal`, not empty) to
/// `nodes` nodes with one thread: the best move and its score (side to
/// move's view, within the `i16` range), deterministic for the same tables.
pub fn search_nodes(
    pos: &Position,
    legal: &[Move],
    nodes: u32,
    tables: &Arc<Tables>,
    net: &Option<Arc<Network>>,
    shared: &Shared,
) -> (Move, i32) {
    let limits = Limits {
        nodes: Some(u64::from(nodes)),
        ..Limits::default()
    };
    let job = Job::new(
        pos.clone(),
        legal.to_vec(),
        limits,
        Arc::clone(tables),
        net.clone(),
    );
    let out = search::search(job, shared, Instant::now(), &mut |_| {});
    let best = out.best.unwrap_or(legal[0]);
    (best, out.score.clamp(-(i16::MAX as i32), i16::MAX as i32))
}

/// A verdict from the searches' scores (Red's side, one per searched ply),
/// after `plies` plies of the game.
fn adjudicate_by_score(red_scores: &[i32], plies: usize) -> Option<(Outcome, Ending)> {
    let last = |n: usize| red_scores.get(red_scores.len().wrapping_sub(n)..);
    if let Some(tail) = last(WIN_PLIES) {
        if tail.iter().all(|&s| s >= WIN_SCORE) {
            return Some((Outcome::RedWins, Ending::AdjudicatedWin));
        }
        if tail.iter().all(|&s| s <= -WIN_SCORE) {
            return Some((Outcome::BlackWins, Ending::AdjudicatedWin));
        }
    }
    if plies >= DRAW_MIN_PLY {
        if let Some(tail) = last(DRAW_PLIES) {
            if tail.iter().all(|s| s.abs() <= DRAW_SCORE) {
                return Some((Outcome::Draw, Ending::AdjudicatedDraw));
            }
        }
    }
    None
}

/// How far an existing output file got: games kept and their positions.
struct Resume {
    games: u64,
    quiet: u64,
}

/// Checks an existing output file of this run, cuts off a damaged tail (an
/// interrupted write), and says where to go on.
fn resume(cfg: &Config) -> Result<Resume> {
    let path = &cfg.out;
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Resume { games: 0, quiet: 0 })
        }
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let (chunks, damage) = gamefile::read_chunks(&bytes);
    let mut next = 0u64;
    let mut good_end = 0;
    let mut quiet = 0;
    let run = cfg.run_id();
    for c in &chunks {
        if c.header.run != run {
            bail!(
                "{} was made by another run ({:?}); give another --out or the same settings",
                path.display(),
                c.header.run
            );
        }
        if c.header.first_game as u64 != next {
            bail!(
                "{}: chunk at byte {} starts at game {}, expected {next}",
                path.display(),
                c.offset,
                c.header.first_game
            );
        }
        next += c.header.games as u64;
        good_end = c.offset + c.len;
        quiet += c.games.iter().map(count_quiet).sum::<u64>();
    }
    if let Some(d) = damage.iter().find(|d| d.offset < good_end) {
        bail!(
            "{}: {d} before the last good chunk; repair it by hand",
            path.display()
        );
    }
    if let Some(d) = damage.first() {
        eprintln!(
            "datagen: {}: {d}; cutting it off and going on from game {next}",
            path.display()
        );
        let f = OpenOptions::new().write(true).open(path)?;
        f.set_len(good_end as u64)?;
    }
    Ok(Resume { games: next, quiet })
}

/// Training positions of a stored game, counted by replaying it.
pub fn count_quiet(game: &GameRecord) -> u64 {
    let Ok(mut pos) = game.start_position() else {
        return 0;
    };
    let mut n = 0;
    for &(m, score) in &game.moves {
        if is_training_position(&pos, m, score) {
            n += 1;
        }
        pos.make_move(m);
    }
    n
}

/// Runs (or resumes) a generation run. `stop` ends it early: games in play
/// are finished and written.
pub fn generate(cfg: &Config, stop: &AtomicBool) -> Result<()> {
    let total = cfg.local_games();
    let done = resume(cfg)?;
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&cfg.out)
        .with_context(|| format!("cannot write {}", cfg.out.display()))?;
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} games, {msg}, eta {eta_precise}",
        )
        .context("progress bar template")?
        .progress_chars("=> "),
    );
    bar.set_position(done.games);
    bar.reset_eta();
    let quiet = AtomicU64::new(done.quiet);
    let started = Instant::now();
    let made_here = AtomicU64::new(0);
    let show = |bar: &ProgressBar| {
        let secs = started.elapsed().as_secs_f64().max(1e-3);
        bar.set_message(format!(
            "{} positions ({:.0}/s)",
            quiet.load(Ordering::Relaxed),
            made_here.load(Ordering::Relaxed) as f64 / secs
        ));
    };
    show(&bar);
    let next_job = AtomicU64::new(done.games);
    let (tx, rx) = mpsc::channel::<(u64, Played)>();
    let result = std::thread::scope(|scope| -> Result<u64> {
        for _ in 0..cfg.threads.max(1) {
            let tx = tx.clone();
            let next_job = &next_job;
            std::thread::Builder::new()
                .stack_size(search::SEARCH_STACK)
                .spawn_scoped(scope, move || {
                    let tables = Arc::new(Tables::new(HASH_MB));
                    while !stop.load(Ordering::Relaxed) {
                        let j = next_job.fetch_add(1, Ordering::Relaxed);
                        if j >= total {
                            break;
                        }
                        let played = play_game(cfg.seed, cfg.global_index(j), cfg, &tables);
                        if tx.send((j, played)).is_err() {
                            break;
                        }
                    }
                })
                .context("cannot start a generating thread")?;
        }
        drop(tx);
        // Games arrive out of order; they are written in order, a chunk at a
        // time, and whatever is contiguous at the end.
        let mut pending: BTreeMap<u64, GameRecord> = BTreeMap::new();
        let mut written = done.games;
        let run = cfg.run_id();
        let mut flush = |pending: &mut BTreeMap<u64, GameRecord>, all: bool| -> Result<()> {
            loop {
                let ready = (written..)
                    .take_while(|j| pending.contains_key(j))
                    .take(CHUNK_GAMES)
                    .count();
                if ready == 0 || (ready < CHUNK_GAMES && !all) {
                    return Ok(());
                }
                let games: Vec<GameRecord> = (written..written + ready as u64)
                    .filter_map(|j| pending.remove(&j))
                    .collect();
                let first = u32::try_from(written).context("too many games for one shard")?;
                file.write_all(&gamefile::encode_chunk(run, first, &games))?;
                file.flush()?;
                written += ready as u64;
                if bar.is_hidden() {
                    // No terminal for the bar (a log file): a line per chunk.
                    eprintln!(
                        "datagen: {written}/{total} games, {} ({}s)",
                        bar.message(),
                        started.elapsed().as_secs()
                    );
                }
            }
        };
        for (j, played) in rx {
            quiet.fetch_add(played.quiet, Ordering::Relaxed);
            made_here.fetch_add(played.quiet, Ordering::Relaxed);
            pending.insert(j, played.game);
            flush(&mut pending, false)?;
            bar.inc(1);
            show(&bar);
        }
        flush(&mut pending, true)?;
        Ok(written)
    });
    bar.abandon();
    let written = result?;
    file.sync_all()?;
    eprintln!(
        "datagen: {written} of {total} games of shard {}/{} in {}, {} positions",
        cfg.shard.0,
        cfg.shard.1,
        cfg.out.display(),
        quiet.load(Ordering::Relaxed)
    );
    Ok(())
}
