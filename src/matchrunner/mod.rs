//! `chariot match`: engine-vs-engine matches for xiangqi engines, built on
//! Chariot's own rules code.
//!
//! - `dialect`: per-engine protocol (UCCI/UCI), move text ranks, time units.
//! - `clock`: time controls and clocks.
//! - `adjudicate`: score-based resign/draw adjudication, draw offers.
//! - `stats`: Elo, LOS, pentanomial statistics and the SPRT.

pub mod adjudicate;
pub mod clock;
pub mod dialect;
pub mod stats;
