//! Opening-book curation in ElephantEye's `BOOK.DAT` format (the engine's
//! `chariot::book`): `book probe`, `book stats`, `book build`.
//!
//! - `build`: counting games into a book; the weight formula.
//! - `analyse`: expanding a book from Chariot's own MultiPV searches.
//! - `stats`: describing a book and checking it.

pub mod analyse;
pub mod build;
pub mod stats;

use crate::pgn;
use anyhow::{bail, Context, Result};
use chariot::book::Book;
use chariot::xiangqi::{Position, START_FEN};
use clap::Subcommand;
use std::path::{Path, PathBuf};

/// `chariot-tools book …`.
#[derive(Subcommand)]
pub enum Command {
    /// The book moves of a position, with weights and shares.
    Probe {
        /// Book file.
        file: PathBuf,
        /// The position: a FEN (quoted or not) or `startpos`.
        #[arg(required = true, num_args = 1..)]
        fen: Vec<String>,
    },
    /// Records, positions, moves, weights, and sanity checks (exit status 1
    /// when the file is damaged: truncated, unsorted, bad move codes).
    Stats {
        /// Book file.
        file: PathBuf,
    },
    /// Builds a book from PGN games with ICCS moves (chariot-match's PGN, or
    /// PGN with [Format "ICCS"]), or from Chariot's own analysis
    /// (--analyse). From games, a move played in n games scoring h
    /// half-points for its side weighs n·(2s)² with s = (h/2 + 1)/(n + 2),
    /// in tenths. From analysis, every position reached by at least
    /// --min-share of book games is searched with MultiPV, and its moves
    /// within --margin of the best weigh exp(-(best - score)/--temperature).
    /// A position and its mirror image are stored once.
    Build {
        /// PGN files.
        #[arg(long = "pgn", num_args = 1.., required_unless_present = "analyse", conflicts_with = "analyse")]
        pgn: Vec<PathBuf>,
        /// Build from Chariot's own analysis, starting at the standard start.
        #[arg(long)]
        analyse: bool,
        /// Output book file.
        #[arg(long)]
        out: PathBuf,
        /// Moves of the first this many plies (from the standard start) go
        /// into the book.
        #[arg(long, default_value_t = 16)]
        max_ply: u32,
        /// A move needs at least this many games.
        #[arg(long, default_value_t = 1)]
        min_games: u32,
        #[command(flatten)]
        analysis: AnalysisArgs,
    },
}

/// Settings of `book build --analyse`.
#[derive(clap::Args)]
pub struct AnalysisArgs {
    /// Search depth per position.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: u32,
    /// Lines searched per position.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=32))]
    multipv: u32,
    /// Moves within this many centipawns of the best are kept.
    #[arg(long, default_value_t = 25, value_parser = clap::value_parser!(u32).range(0..=1000))]
    margin: u32,
    /// Centipawns of score that divide a move's weight by e.
    #[arg(long, default_value_t = 12.0)]
    temperature: f64,
    /// A position is expanded while at least this share of book games
    /// reaches it.
    #[arg(long, default_value_t = 0.002)]
    min_share: f64,
    /// At most this many positions are searched.
    #[arg(long, default_value_t = 3000)]
    max_positions: usize,
    /// Positions searched at once.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Hash table of each search, in MB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=4096))]
    hash: u32,
}

fn read_book(file: &Path) -> Result<Vec<u8>> {
    std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))
}

/// The probe's report.
pub fn render_probe(book: &Book, pos: &Position) -> String {
    let moves = book.probe(pos);
    let mut out = format!("{}\n", pos.to_fen());
    if moves.is_empty() {
        out.push_str("not in the book\n");
        return out;
    }
    let direct = !book.entries(chariot::book::lock(pos)).is_empty();
    out.push_str(&format!(
        "{} book moves{}\n",
        moves.len(),
        if direct {
            ""
        } else {
            " (stored as the mirror image)"
        }
    ));
    let total: u64 = moves.iter().map(|&(_, w)| u64::from(w)).sum();
    out.push_str("move   weight   share\n");
    for (m, w) in moves {
        let share = if total == 0 {
            0.0
        } else {
            100.0 * f64::from(w) / total as f64
        };
        out.push_str(&format!("{m}  {w:>7}  {share:>6.2}%\n"));
    }
    out
}

/// Runs a `book` command.
pub fn run(command: Command) -> Result<()> {
    match command {
        Command::Probe { file, fen } => {
            let fen = fen.join(" ");
            let fen = if fen.trim() == "startpos" {
                START_FEN.to_string()
            } else {
                fen
            };
            let pos = Position::from_fen(&fen).map_err(|e| anyhow::anyhow!("bad FEN: {e}"))?;
            let bytes = read_book(&file)?;
            let book = Book::from_bytes(&bytes).with_context(|| {
                format!(
                    "{} is not a usable book (`chariot-tools book stats` describes it)",
                    file.display()
                )
            })?;
            print!("{}", render_probe(&book, &pos));
            Ok(())
        }
        Command::Stats { file } => {
            let bytes = read_book(&file)?;
            let s = stats::compute(&bytes);
            print!("{}", s.render(&file.display().to_string()));
            if !s.errors().is_empty() {
                std::process::exit(1);
            }
            Ok(())
        }
        Command::Build {
            pgn: _,
            analyse: true,
            out,
            max_ply,
            analysis: a,
            ..
        } => {
            if !(a.temperature > 0.0 && (0.0..=1.0).contains(&a.min_share)) {
                bail!("--temperature must be above 0 and --min-share within 0..1");
            }
            let cfg = analyse::Config {
                max_ply,
                depth: a.depth,
                multipv: a.multipv as usize,
                margin: a.margin as i32,
                temperature: a.temperature,
                min_share: a.min_share,
                max_positions: a.max_positions,
                threads: a.threads.clamp(1, 1024),
                hash_mb: a.hash as usize,
            };
            let (book, report) = analyse::build(&Position::startpos(), &cfg, &mut |line| {
                eprintln!("book build: {line}")
            })
            .context("cannot start the analysis threads")?;
            if book.is_empty() {
                bail!(
                    "no book moves: nothing was searched (--max-positions {})",
                    a.max_positions
                );
            }
            write_atomically(&out, &book.to_bytes())?;
            println!(
                "{}: {} positions, {} records from {} searched positions ({} nodes); \
                 per ply {:?}; {} left out by --max-positions, {} dropped for lock collisions",
                out.display(),
                report.positions,
                report.records,
                report.searched,
                report.nodes,
                report.per_ply,
                report.over_budget,
                report.dropped_collisions
            );
            Ok(())
        }
        Command::Build {
            pgn,
            out,
            max_ply,
            min_games,
            ..
        } => {
            let mut collector = build::Collector::new(build::Config { max_ply, min_games });
            let mut skipped = 0usize;
            for path in &pgn {
                let bytes = std::fs::read(path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                let text = String::from_utf8_lossy(&bytes);
                let file = pgn::read(&text)
                    .with_context(|| format!("{} is not PGN with ICCS moves", path.display()))?;
                if file.games.is_empty() && file.skipped.is_empty() {
                    bail!("{}: no games found", path.display());
                }
                for s in &file.skipped {
                    eprintln!("book build: {}: skipped {s}", path.display());
                }
                skipped += file.skipped.len();
                for g in &file.games {
                    collector.add_game(g);
                }
                eprintln!(
                    "book build: {}: {} games read, {} skipped",
                    path.display(),
                    file.games.len(),
                    file.skipped.len()
                );
            }
            let (book, report) = collector.finish();
            if book.is_empty() {
                bail!(
                    "no book moves: {} games, none with a move of {} games or more below ply {max_ply}",
                    report.games,
                    min_games.max(1)
                );
            }
            write_atomically(&out, &book.to_bytes())?;
            println!(
                "{}: {} positions, {} records from {} games ({} skipped), {} moves below ply {max_ply}",
                out.display(),
                report.positions,
                report.records,
                report.games,
                skipped,
                report.moves
            );
            println!(
                "  {} positions seen (mirror images as one), {} moves below --min-games {}, \
                 {} positions dropped for lock collisions, {} shadowed mirror images",
                report.positions_seen,
                report.below_min_games,
                min_games.max(1),
                report.dropped_collisions,
                report.shadowed
            );
            Ok(())
        }
    }
}

/// Writes through a temporary file in the same directory, so that a
/// reader never sees half a book.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, bytes).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))
}
