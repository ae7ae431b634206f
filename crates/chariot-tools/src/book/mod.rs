//! Opening-book curation in ElephantEye's `BOOK.DAT` format (the engine's
//! `chariot::book`): `book probe`, `book stats`, `book build`.
//!
//! - `pgn`: reading ICCS PGN (chariot-match's, and `[Format "ICCS"]`).
//! - `build`: counting games into a book; the weight formula.
//! - `stats`: describing a book and checking it.

pub mod build;
pub mod pgn;
pub mod stats;

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
    /// PGN with [Format "ICCS"]). A move played in n games scoring h
    /// half-points for its side weighs n·(2s)² with s = (h/2 + 1)/(n + 2),
    /// in tenths; a position and its mirror image are stored once.
    Build {
        /// PGN files.
        #[arg(long = "pgn", required = true, num_args = 1..)]
        pgn: Vec<PathBuf>,
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
    },
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
            pgn,
            out,
            max_ply,
            min_games,
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
