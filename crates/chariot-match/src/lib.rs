//! `chariot-match`: engine-vs-engine matches for xiangqi engines, refereed by
//! the rules core (crates/xiangqi).
//!
//! - `cli`: the command line (clap) and the checked configuration.
//! - `engine`: engine processes, handshake, options, lines with deadlines.
//! - `dialect`: per-engine protocol (UCCI/UCI), move text ranks, time units.
//! - `clock`: time controls and clocks.
//! - `game`: one game: the move loop and every way a game ends.
//! - `adjudicate`: score-based resign/draw adjudication, draw offers.
//! - `openings`: opening suites, the bundled one included.
//! - `schedule`: pairings and the list of games.
//! - `shard`: a match split over many processes or machines.
//! - `results`: result files, kept per shard and resumed.
//! - `merge`: `chariot-match merge`, the shards' results as one report.
//! - `tournament`: worker threads, the collector, Ctrl-C, the SPRT stop.
//! - `pgn`, `stats`, `report`: the output.
//!
//! stdout carries the report (a line per finished game, the final table);
//! diagnostics go through `log` to stderr.

pub mod adjudicate;
pub mod cli;
pub mod clock;
pub mod dialect;
pub mod engine;
pub mod game;
pub mod merge;
pub mod openings;
pub mod pgn;
pub mod report;
pub mod results;
pub mod schedule;
pub mod shard;
pub mod stats;
pub mod tournament;

use std::ffi::OsString;

/// Runs `chariot-match` with its arguments (the program name left out); returns the exit
/// status: 0 when the match ran to its end (or the SPRT decided), 2 for bad
/// arguments or a match that cannot start, 130 when interrupted.
///
/// A first argument `merge` runs `chariot-match merge` (see `merge`).
pub fn main(args: impl IntoIterator<Item = OsString>) -> i32 {
    let mut args = args.into_iter().peekable();
    if args.peek().is_some_and(|a| a == "merge") {
        args.next();
        return merge::main(args);
    }
    let argv = std::iter::once(OsString::from("chariot-match")).chain(args);
    let cli = match cli::Cli::parse_args(argv) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    report::init_logging();
    let config = match cli.into_config() {
        Ok(c) => c,
        Err(e) => {
            log::error!("{e}");
            return 2;
        }
    };
    match tournament::run(config) {
        Ok(tournament::Outcome::Interrupted) => 130,
        Ok(_) => 0,
        Err(e) => {
            log::error!("{e}");
            2
        }
    }
}
