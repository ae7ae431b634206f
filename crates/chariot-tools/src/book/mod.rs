//! Opening-book curation in ElephantEye's `BOOK.DAT` format (the engine's
//! `chariot::book`).
//!
//! - `pgn`: reading ICCS PGN (chariot-match's, and `[Format "ICCS"]`).

pub mod pgn;
