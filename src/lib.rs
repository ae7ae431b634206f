//! Chariot: a xiangqi (Chinese chess) engine.
//!
//! The library holds everything; the `chariot` binary is a thin front end.

// One measured exception, with its SAFETY argument and test: the hash
// table's zeroed allocation (search/tt.rs).
#![deny(unsafe_code)]

pub mod attacks;
pub mod bench;
pub mod bitboard;
pub mod eval;
pub mod matchrunner;
pub mod movegen;
pub mod perft;
pub mod position;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod tune;
pub mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use movegen::{GenType, IllegalMove, MoveList, NoMoves};
pub use position::{FenError, Position, START_FEN};
pub use types::{Color, Move, Piece, PieceKind, Square};

/// Engine name and version, as `id name` reports it.
pub const ENGINE_NAME: &str = concat!("Chariot ", env!("CARGO_PKG_VERSION"));
