//! `chariot match`: engine-vs-engine matches for xiangqi engines, built on
//! Chariot's own rules code.
//!
//! - `engine`: engine processes, handshake, options, lines with deadlines.
//! - `dialect`: per-engine protocol (UCCI/UCI), move text ranks, time units.
//! - `clock`: time controls and clocks.
//! - `adjudicate`: score-based resign/draw adjudication, draw offers.
//! - `openings`: opening suites, the bundled one included.
//! - `stats`: Elo, LOS, pentanomial statistics and the SPRT.

pub mod adjudicate;
pub mod clock;
pub mod dialect;
pub mod engine;
pub mod openings;
pub mod stats;
