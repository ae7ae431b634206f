//! Opening-book curation in ElephantEye's `BOOK.DAT` format (the engine's
//! `chariot::book`): `book probe`, `book stats`.
//!
//! - `pgn`: reading ICCS PGN (chariot-match's, and `[Format "ICCS"]`).
//! - `stats`: describing a book and checking it.

pub mod pgn;
pub mod stats;

use anyhow::{Context, Result};
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
    }
}
