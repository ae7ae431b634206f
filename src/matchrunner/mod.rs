//! `chariot match`: engine-vs-engine matches for xiangqi engines, built on
//! Chariot's own rules code.
//!
//! - `engine`: engine processes, handshake, options, lines with deadlines.
//! - `dialect`: per-engine protocol (UCCI/UCI), move text ranks, time units.
//! - `clock`: time controls and clocks.
//! - `game`: one game: the move loop and every way a game ends.
//! - `adjudicate`: score-based resign/draw adjudication, draw offers.
//! - `openings`: opening suites, the bundled one included.
//! - `pgn`: the game records.
//! - `stats`: Elo, LOS, pentanomial statistics and the SPRT.

pub mod adjudicate;
pub mod clock;
pub mod dialect;
pub mod engine;
pub mod game;
pub mod openings;
pub mod pgn;
pub mod stats;
