//! The `chariot` binary: with no arguments it serves a GUI over stdin/stdout;
//! with arguments it runs one command (`chariot perft 5`) and exits.

use anyhow::{bail, Context, Result};
use chariot::perft::perft_divide;
use chariot::Position;
use std::io::Write;
use std::time::Instant;

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        None => {
            log::error!("the protocol front end is not built yet; try `chariot perft 5`");
            std::process::exit(2);
        }
        Some("perft") => cmd_perft(&args[1..]),
        Some(other) => Err(anyhow::anyhow!(
            "unknown command '{other}'; usage: chariot [perft <depth> [<fen>]]"
        )),
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

/// `chariot perft <depth> [<fen>]`: one line per root move, then the total,
/// the time and the speed.
fn cmd_perft(args: &[String]) -> Result<()> {
    let Some(depth) = args.first() else {
        bail!("usage: chariot perft <depth> [<fen>]");
    };
    let depth: u32 = depth
        .parse()
        .with_context(|| format!("perft depth '{depth}' is not a non-negative whole number"))?;
    let mut pos = position_from_words(&args[1..])?;
    let start = Instant::now();
    let mut divide = perft_divide(&mut pos, depth);
    let elapsed = start.elapsed();
    divide.sort_by_key(|(m, _)| m.to_string());
    let total: u64 = if depth == 0 {
        1
    } else {
        divide.iter().map(|(_, n)| n).sum()
    };
    let mut out = std::io::stdout().lock();
    for (m, n) in &divide {
        writeln!(out, "{m}: {n}")?;
    }
    let ms = elapsed.as_millis();
    let nps = (total as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    writeln!(out)?;
    writeln!(out, "Nodes searched: {total}")?;
    writeln!(out, "Time: {ms} ms")?;
    writeln!(out, "Nodes/second: {nps}")?;
    out.flush()?;
    Ok(())
}
