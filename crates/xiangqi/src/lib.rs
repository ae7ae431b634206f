//! The rules of xiangqi (Chinese chess), fast enough for an engine and
//! plain enough for a referee.
//!
//! - [`Position`]: the board (bitboards beside a mailbox), side to move,
//!   counters, Zobrist key and the undo history; FEN in and out.
//! - Legal move generation ([`Position::legal_moves`], staged by
//!   [`GenType`]), legality of a single move, check and checkmate.
//! - [`perft`]: move-path counting, the standard test of a generator.
//! - [`rules`]: how games end other than by having no move: repetition
//!   judged by perpetual check and perpetual chase, the move limit and
//!   insufficient material, and [`rules::adjudicate`] for a game in play.
//!
//! The crate knows nothing of evaluation or search. What a move changed on
//! the board ([`Position::last_change`]) is what an evaluator needs to keep
//! its own incremental state.
//!
//! ```
//! use xiangqi::{Position, Move};
//! let mut pos = Position::startpos();
//! assert_eq!(pos.legal_moves().len(), 44);
//! pos.make_move(Move::parse_iccs("h2e2").unwrap());
//! assert_eq!(pos.to_fen(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
//! ```
//!
//! The rules as this crate reads them, with perft reference numbers, are in
//! the repository's docs/RULES.md.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod attacks;
pub mod bitboard;
pub mod movegen;
pub mod perft;
pub mod position;
pub mod rules;
pub mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use movegen::{GenType, IllegalMove, MoveList, NoMoves};
pub use position::{FenError, LenientFen, MoveChange, Position, START_FEN};
pub use types::{Color, Move, Piece, PieceKind, Square};
