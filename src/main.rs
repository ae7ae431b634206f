//! The `chariot` binary: with no arguments it serves a GUI over stdin/stdout
//! (UCCI or UCI); with a command (`chariot perft 5`) it runs it and exits.

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use std::io::Write;
use std::sync::atomic::AtomicBool;
use xiangqi::perft::PerftReport;
use xiangqi::Position;

/// A xiangqi (Chinese chess) engine for UCCI and UCI GUIs.
///
/// With no command, Chariot serves a GUI on stdin/stdout: send `ucci` or
/// `uci` first. Diagnostics go to stderr (`RUST_LOG=debug chariot`).
#[derive(Parser)]
#[command(name = "chariot", version = chariot::version(), about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Counts the legal move paths of a given length from a position.
    Perft {
        /// Plies to count.
        #[arg(value_parser = clap::value_parser!(u32).range(0..=xiangqi::perft::MAX_DEPTH as i64))]
        depth: u32,
        /// The position: a FEN (quoted or as separate words), `startpos`, or
        /// nothing for the start position.
        #[arg(allow_hyphen_values = true, trailing_var_arg = true)]
        position: Vec<String>,
    },
    /// Runs the fixed benchmark search; its node count is the search's
    /// signature (the `Bench:` line of commits).
    Bench {
        /// Search depth for each bench position.
        #[arg(value_parser = clap::value_parser!(u32).range(1..=chariot::bench::MAX_DEPTH as i64),
              default_value_t = chariot::bench::DEFAULT_DEPTH)]
        depth: u32,
        /// The evaluation: `<built-in>`, `<classical>` or a net file.
        #[arg(long, default_value = chariot::eval::BUILTIN_NAME)]
        evalfile: String,
    },
}

fn init_logging() {
    let mut builder = env_logger::Builder::new();
    builder.target(env_logger::Target::Stderr);
    match std::env::var("RUST_LOG") {
        Ok(filter) => {
            builder.parse_filters(&filter).init();
        }
        Err(_) => {
            // Everything up to debug may be switched on later by the GUI's
            // `debug` option; warnings and errors show by default.
            builder.filter_level(log::LevelFilter::Debug).init();
            log::set_max_level(log::LevelFilter::Warn);
        }
    }
}

fn main() {
    let cli = Cli::parse();
    init_logging();
    let result = match cli.command {
        None => std::process::exit(chariot::protocol::run()),
        Some(Command::Perft { depth, position }) => cmd_perft(depth, &position),
        Some(Command::Bench { depth, evalfile }) => cmd_bench(depth, &evalfile),
    };
    if let Err(e) = result {
        eprintln!("error: {e:#}");
        std::process::exit(2);
    }
}

/// Parses the position given as words (one quoted FEN, the FEN's words,
/// `startpos`, or nothing for the start position).
fn position_from_words(words: &[String]) -> Result<Position> {
    let text = words.join(" ");
    let text = text.trim();
    if text.is_empty() || text == "startpos" {
        return Ok(Position::startpos());
    }
    let text = text.strip_prefix("fen ").unwrap_or(text);
    Position::from_fen(text).context("bad position")
}

/// `chariot bench [<depth>] [--evalfile <net>]`: searches the bench
/// positions and prints the node count and speed.
fn cmd_bench(depth: u32, evalfile: &str) -> Result<()> {
    let eval = chariot::eval::Evaluation::from_name(evalfile)
        .map_err(|e| anyhow::anyhow!("evalfile '{evalfile}' refused: {e}"))?;
    log::info!("bench with {}", eval.describe());
    let report = chariot::bench::run(depth, eval.net, &chariot::search::Shared::default());
    print_lines(&report.lines())
}

/// `chariot perft <depth> [<fen>]`: one line per root move, then the total,
/// the time and the speed.
fn cmd_perft(depth: u32, words: &[String]) -> Result<()> {
    let mut pos = position_from_words(words)?;
    let report = PerftReport::run(&mut pos, depth, &AtomicBool::new(false));
    print_lines(&report.lines())
}

fn print_lines(lines: &[impl AsRef<str>]) -> Result<()> {
    let mut out = std::io::stdout().lock();
    for line in lines {
        writeln!(out, "{}", line.as_ref())?;
    }
    out.flush()?;
    Ok(())
}
