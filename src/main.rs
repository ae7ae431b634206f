//! The `chariot` binary: with no arguments it serves a GUI over stdin/stdout
//! (UCCI or UCI); with arguments it runs one command (`chariot perft 5`) and
//! exits.

use anyhow::{bail, Context, Result};
use xiangqi::perft::PerftReport;
use xiangqi::Position;
use std::io::Write;
use std::sync::atomic::AtomicBool;

const USAGE: &str = "usage: chariot                      serve UCCI/UCI on stdin/stdout\n       \
                     chariot perft <depth> [<fen>]   count legal move paths\n       \
                     chariot bench [<depth>]         the fixed benchmark search (signature)";

/// Deepest perft accepted (perft 9 from the start already takes hours).
const MAX_PERFT_DEPTH: u32 = 20;
/// Deepest bench accepted.
const MAX_BENCH_DEPTH: u32 = 30;

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
    init_logging();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        None => std::process::exit(chariot::protocol::run()),
        Some("perft") => cmd_perft(&args[1..]),
        Some("bench") => cmd_bench(&args[1..]),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(anyhow::anyhow!("unknown command '{other}'\n{USAGE}")),
    };
    if let Err(e) = result {
        eprintln!("error: {e:#}");
        std::process::exit(2);
    }
}

/// Parses the position given as the remaining words (one quoted FEN, the FEN's
/// words, `startpos`, or nothing for the start position).
fn position_from_words(words: &[String]) -> Result<Position> {
    let text = words.join(" ");
    let text = text.trim();
    if text.is_empty() || text == "startpos" {
        return Ok(Position::startpos());
    }
    let text = text.strip_prefix("fen ").unwrap_or(text);
    Position::from_fen(text).context("bad position")
}

/// `chariot bench [<depth>]`: searches the bench positions and prints the
/// node count and speed.
fn cmd_bench(args: &[String]) -> Result<()> {
    let depth = match args {
        [] => chariot::bench::DEFAULT_DEPTH,
        [d] => d
            .parse::<u32>()
            .ok()
            .filter(|d| (1..=MAX_BENCH_DEPTH).contains(d))
            .with_context(|| {
                format!("bench depth '{d}' must be a whole number from 1 to {MAX_BENCH_DEPTH}")
            })?,
        _ => bail!("{USAGE}"),
    };
    let report = chariot::bench::run(depth, &chariot::search::Shared::default());
    let mut out = std::io::stdout().lock();
    for line in report.lines() {
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    Ok(())
}

/// `chariot perft <depth> [<fen>]`: one line per root move, then the total,
/// the time and the speed.
fn cmd_perft(args: &[String]) -> Result<()> {
    let Some(depth) = args.first() else {
        bail!("{USAGE}");
    };
    let depth: u32 = depth
        .parse()
        .with_context(|| format!("perft depth '{depth}' is not a non-negative whole number"))?;
    if depth > MAX_PERFT_DEPTH {
        bail!("perft depth {depth} is absurd: at most {MAX_PERFT_DEPTH}");
    }
    let mut pos = position_from_words(&args[1..])?;
    let report = PerftReport::run(&mut pos, depth, &AtomicBool::new(false));
    let mut out = std::io::stdout().lock();
    for line in report.lines() {
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    Ok(())
}
