//! Training positions from Chariot's own games: seeded random openings, then
//! fixed-node self-play to the end by the rules. Every quiet position (not in
//! check, the search's best move not a capture, no mate in sight) is written
//! with the game's result.

use anyhow::{Context, Result};
use chariot::search::{self, mate_plies, Job, Limits, Shared, Tables};
use chariot::xiangqi::rules::{self, MOVE_LIMIT_PLIES};
use chariot::xiangqi::types::Color;
use chariot::xiangqi::Position;
use indicatif::{ProgressBar, ProgressStyle};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// How to generate.
#[derive(Clone, Debug)]
pub struct GenConfig {
    pub games: usize,
    /// Nodes per move.
    pub nodes: u64,
    pub seed: u64,
    pub threads: usize,
    /// Random plies that open each game.
    pub random_plies: (usize, usize),
    /// Games longer than this are drawn.
    pub max_plies: usize,
}

/// One finished game: its quiet positions (FEN) and Red's score (1, ½, 0).
struct Game {
    fens: Vec<String>,
    red_score: f32,
}

/// Plays game number `index`; deterministic in (seed, index).
fn play(cfg: &GenConfig, index: usize, tables: &Arc<Tables>) -> Game {
    let mut rng =
        StdRng::seed_from_u64(cfg.seed ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut pos = Position::startpos();
    tables.clear();
    let opening = rng.random_range(cfg.random_plies.0..=cfg.random_plies.1);
    let mut fens = Vec::new();
    let shared = Shared::default();
    for ply in 0..cfg.max_plies {
        if let Some(v) = rules::adjudicate(&pos, MOVE_LIMIT_PLIES) {
            let red_score = match v.winner {
                Some(Color::Red) => 1.0,
                Some(Color::Black) => 0.0,
                None => 0.5,
            };
            return Game { fens, red_score };
        }
        let moves = pos.legal_moves();
        let m = if ply < opening {
            moves[rng.random_range(0..moves.len())]
        } else {
            let job = Job {
                pos: pos.clone(),
                limits: Limits {
                    nodes: Some(cfg.nodes),
                    ..Limits::default()
                },
                root_moves: moves.to_vec(),
                multipv: 1,
                randomness: 0,
                move_overhead_ms: 0,
                seed: 0,
                threads: 1,
                tables: Arc::clone(tables),
            };
            let out = search::search(job, &shared, Instant::now(), &mut |_| {});
            let best = out.best.unwrap_or(moves[0]);
            let quiet = !pos.in_check() && !pos.is_capture(best) && mate_plies(out.score).is_none();
            if quiet && out.score.abs() < search::RULE_WIN {
                fens.push(pos.to_fen());
            }
            best
        };
        pos.make_move(m);
    }
    Game {
        fens,
        red_score: 0.5,
    }
}

/// Plays `cfg.games` games on `cfg.threads` threads and writes
/// `<FEN> ; <Red's score>` lines to `out`, in game order. Returns the number
/// of positions written.
pub fn generate(cfg: &GenConfig, out: &mut dyn Write) -> Result<usize> {
    let bar = ProgressBar::new(cfg.games as u64);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} games, eta {eta}")
            .context("progress bar template")?
            .progress_chars("=> "),
    );
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Game>>> = Mutex::new((0..cfg.games).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..cfg.threads.max(1) {
            scope.spawn(|| {
                let tables = Arc::new(Tables::new(8));
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= cfg.games {
                        break;
                    }
                    let game = play(cfg, i, &tables);
                    if let Ok(mut r) = results.lock() {
                        r[i] = Some(game);
                    }
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish();
    let results = results.into_inner().unwrap_or_else(|p| p.into_inner());
    let mut written = 0;
    for game in results.into_iter().flatten() {
        for fen in &game.fens {
            writeln!(out, "{fen} ; {}", game.red_score)?;
            written += 1;
        }
    }
    Ok(written)
}
