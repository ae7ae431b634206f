//! FEN reading and writing, and the validation of a position read from it.

use super::Position;
use crate::attacks::{in_own_palace, on_own_side};
use crate::types::{truncate, Color, Piece, PieceKind, Square, FILES, RANKS};
use std::fmt;

/// The standard starting position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Largest half-move clock kept; larger values are clamped (the game is long
/// over by the 60-move rule anyway).
const MAX_HALFMOVE: u32 = 10_000;
/// Largest move number kept; larger values are clamped.
const MAX_FULLMOVE: u32 = 1_000_000;

/// A position read by [`Position::from_fen_lenient`], with the fields it
/// ignored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LenientFen {
    /// The position.
    pub position: Position,
    /// The fields after the sixth, as given; empty when there were none.
    pub ignored: Vec<String>,
}

/// Why a FEN string was rejected. Every message names the field, rank,
/// character or square at fault. Ranks are board ranks (9 = Black's back rank,
/// the first in the FEN).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Not between 2 and 6 space-separated fields (at least 2 for
    /// [`Position::from_fen_lenient`]).
    FieldCount(usize),
    /// The board field does not have 10 ranks.
    RankCount(usize),
    /// A rank does not add up to 9 files.
    RankWidth {
        /// The board rank at fault.
        rank: usize,
        /// The files it covers, counted up to where it first passed 9.
        files: usize,
    },
    /// A character that is neither a piece letter nor a digit 1–9.
    UnknownPiece {
        /// The board rank holding the character.
        rank: usize,
        /// The character itself.
        ch: char,
    },
    /// The side-to-move field is not `w`, `r`, `b`, `red` or `black`.
    Side(String),
    /// A field after the side to move looks like a move (`h2e2`): most
    /// likely a move list that lost its `moves` keyword.
    MoveInFen {
        /// The field's number, from 1.
        field: usize,
        /// The field's text.
        text: String,
    },
    /// A side has no king or several.
    KingCount {
        /// The side at fault.
        color: Color,
        /// How many kings it has.
        count: u32,
    },
    /// A king stands outside its palace.
    KingOutsidePalace {
        /// The king's side.
        color: Color,
        /// Where the king stands.
        square: Square,
    },
    /// More pieces of a kind than a side starts with.
    TooMany {
        /// The side at fault.
        color: Color,
        /// The kind there are too many of.
        kind: PieceKind,
        /// How many there are (more than `PieceKind::max_count`).
        count: u32,
    },
    /// An advisor, elephant or pawn on a square it can never reach.
    Unreachable {
        /// The misplaced piece.
        piece: Piece,
        /// The square it cannot reach.
        square: Square,
    },
    /// The kings face each other on an open file.
    KingsFacing,
    /// The side to move could capture the enemy king.
    OpponentInCheck {
        /// The side to move.
        side: Color,
    },
    /// The half-move clock or move number is neither a number nor `-`.
    Counter {
        /// Which field, such as `half-move clock (field 5)`.
        field: &'static str,
        /// The field's text, shortened to 40 characters.
        value: String,
    },
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use FenError::*;
        match self {
            FieldCount(0) => write!(f, "FEN is empty"),
            FieldCount(1) => write!(
                f,
                "FEN has only the board; the side to move (w or b) must follow it"
            ),
            FieldCount(n) => write!(
                f,
                "FEN has {n} field(s); expected 2 to 6 (board, side to move, -, -, half-move clock, move number)"
            ),
            RankCount(n) => write!(f, "FEN board has {n} rank(s); expected 10 separated by '/'"),
            RankWidth { rank, files } => {
                write!(f, "FEN rank {rank} covers {files} files; expected 9")
            }
            UnknownPiece { rank, ch } => write!(
                f,
                "FEN rank {rank} has unknown character '{}'; expected KABNRCP/kabnrcp (E/H aliases) or 1-9",
                ch.escape_debug()
            ),
            Side(s) => write!(f, "FEN side to move '{s}' is not w, r or b"),
            MoveInFen { field, text } => write!(
                f,
                "FEN field {field} '{text}' looks like a move; a move list must follow the word 'moves'"
            ),
            KingCount { color, count } => {
                write!(f, "FEN has {count} {} king(s); expected exactly 1", color)
            }
            KingOutsidePalace { color, square } => {
                write!(f, "FEN puts the {} king on {square}, outside its palace", color)
            }
            TooMany { color, kind, count } => write!(
                f,
                "FEN has {count} {} {}s; at most {} allowed",
                color,
                kind.name(),
                kind.max_count()
            ),
            Unreachable { piece, square } => write!(
                f,
                "FEN puts a {} {} on {square}, a square it can never reach",
                piece.color(),
                piece.kind().name()
            ),
            KingsFacing => write!(f, "FEN kings face each other on an open file"),
            OpponentInCheck { side } => write!(
                f,
                "FEN side to move ({}) could capture the enemy king",
                side
            ),
            Counter { field, value } => write!(f, "FEN {field} '{value}' is not a number"),
        }
    }
}

impl std::error::Error for FenError {}

/// Whether an advisor, elephant or pawn of its colour can ever stand on `sq`.
fn reachable(piece: Piece, sq: Square) -> bool {
    let color = piece.color();
    // Work from Red's point of view.
    let rel = match color {
        Color::Red => sq,
        Color::Black => sq.flip_rank(),
    };
    let (f, r) = (rel.file(), rel.rank());
    match piece.kind() {
        PieceKind::Advisor => in_own_palace(color, sq) && (f + r) % 2 == 1,
        PieceKind::Elephant => {
            on_own_side(color, sq) && f % 2 == 0 && r % 2 == 0 && (f / 2 + r / 2) % 2 == 1
        }
        PieceKind::Pawn => r >= 5 || (r >= 3 && f % 2 == 0),
        _ => true,
    }
}

/// Whether a FEN field reads as an ICCS move (`h2e2`, any case).
fn looks_like_move(s: &str) -> bool {
    let file = |b: u8| (b'a'..=b'i').contains(&b.to_ascii_lowercase());
    matches!(s.as_bytes(), &[f1, r1, f2, r2]
        if file(f1) && r1.is_ascii_digit() && file(f2) && r2.is_ascii_digit())
}

/// Reads a counter field; `-` (as some clients send) means `default`.
fn parse_counter(field: &'static str, s: &str, default: u32) -> Result<u32, FenError> {
    let err = || FenError::Counter {
        field,
        value: truncate(s),
    };
    if s == "-" {
        return Ok(default);
    }
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(err());
    }
    // All digits: only overflow can fail, and an overflow is an absurd number to clamp.
    Ok(s.parse::<u64>()
        .map_or(u32::MAX, |v| v.min(u32::MAX as u64) as u32))
}

impl Position {
    /// Reads a FEN string with 2 to 6 fields: the board and the side to move
    /// (`w`, `r` or `b` in either case, or the words `red` and `black`), then
    /// optionally two ignored fields (usually `-`), the half-move clock and the
    /// move number (either may be `-`: 0 and 1). Any run of whitespace
    /// separates fields, so a trailing `\r` is harmless. A field after the side
    /// to move that looks like a move (`h2e2`) is refused: it is a move list
    /// that lost its `moves` keyword, not part of a FEN.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() > 6 {
            return Err(FenError::FieldCount(fields.len()));
        }
        Position::from_fields(&fields)
    }

    /// Reads a FEN as [`Position::from_fen`] does, but ignores the fields
    /// after the sixth and says which they were. UCCI league runners send
    /// `position fen <FEN> - - 0 1`: ten fields. Extra fields that look like
    /// moves are still refused ([`FenError::MoveInFen`]).
    ///
    /// ```
    /// use xiangqi::{Position, START_FEN};
    /// let read = Position::from_fen_lenient(&format!("{START_FEN} - - 0 1")).unwrap();
    /// assert_eq!(read.position.to_fen(), START_FEN);
    /// assert_eq!(read.ignored, ["-", "-", "0", "1"]);
    /// ```
    pub fn from_fen_lenient(fen: &str) -> Result<LenientFen, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let (kept, ignored) = fields.split_at(fields.len().min(6));
        if let Some((i, text)) = ignored.iter().enumerate().find(|(_, t)| looks_like_move(t)) {
            return Err(FenError::MoveInFen {
                field: 7 + i,
                text: truncate(text),
            });
        }
        Ok(LenientFen {
            position: Position::from_fields(kept)?,
            ignored: ignored.iter().map(|f| f.to_string()).collect(),
        })
    }

    /// Reads the 2 to 6 fields of a FEN.
    fn from_fields(fields: &[&str]) -> Result<Position, FenError> {
        if fields.len() < 2 {
            return Err(FenError::FieldCount(fields.len()));
        }
        if let Some((i, text)) = fields
            .iter()
            .enumerate()
            .skip(2)
            .find(|(_, t)| looks_like_move(t))
        {
            return Err(FenError::MoveInFen {
                field: i + 1,
                text: truncate(text),
            });
        }
        let mut pos = Position::empty();

        let ranks: Vec<&str> = fields[0].split('/').take(RANKS + 1).collect();
        if ranks.len() != RANKS {
            let n = if ranks.len() > RANKS {
                fields[0].split('/').count()
            } else {
                ranks.len()
            };
            return Err(FenError::RankCount(n));
        }
        for (i, text) in ranks.iter().enumerate() {
            let rank = RANKS - 1 - i;
            let mut file = 0usize;
            for ch in text.chars() {
                if let Some(d) = ch.to_digit(10).filter(|d| (1..=9).contains(d)) {
                    file += d as usize;
                } else if let Some(piece) = Piece::from_letter(ch) {
                    if file < FILES {
                        pos.put(piece, Square::new(file, rank));
                    }
                    file += 1;
                } else {
                    return Err(FenError::UnknownPiece { rank, ch });
                }
                if file > FILES {
                    return Err(FenError::RankWidth { rank, files: file });
                }
            }
            if file != FILES {
                return Err(FenError::RankWidth { rank, files: file });
            }
        }

        let side = match fields[1].to_ascii_lowercase().as_str() {
            "w" | "r" | "red" => Color::Red,
            "b" | "black" => Color::Black,
            _ => return Err(FenError::Side(truncate(fields[1]))),
        };
        let halfmove = match fields.get(4) {
            Some(s) => parse_counter("half-move clock (field 5)", s, 0)?,
            None => 0,
        };
        let fullmove = match fields.get(5) {
            Some(s) => parse_counter("move number (field 6)", s, 1)?,
            None => 1,
        };
        pos.finish_setup(
            side,
            halfmove.min(MAX_HALFMOVE),
            fullmove.clamp(1, MAX_FULLMOVE),
        );
        pos.validate()?;
        Ok(pos)
    }

    /// Checks that the position could arise in a game as far as a legal move
    /// generator cares.
    fn validate(&self) -> Result<(), FenError> {
        for color in Color::ALL {
            let kings = self.pieces(color, PieceKind::King);
            if kings.count() != 1 {
                return Err(FenError::KingCount {
                    color,
                    count: kings.count(),
                });
            }
            for kind in PieceKind::ALL {
                let count = self.pieces(color, kind).count();
                if count > kind.max_count() {
                    return Err(FenError::TooMany { color, kind, count });
                }
            }
            let ksq = self.king_square(color);
            if !in_own_palace(color, ksq) {
                return Err(FenError::KingOutsidePalace { color, square: ksq });
            }
            for sq in self.pieces_of(color) {
                let piece = self.piece_at(sq);
                if !reachable(piece, sq) {
                    return Err(FenError::Unreachable { piece, square: sq });
                }
            }
        }
        let them = self.side.flip();
        if self.king_in_danger(them) {
            let (rk, bk) = (self.king_square(Color::Red), self.king_square(Color::Black));
            let between = (rk.rank() + 1..bk.rank())
                .any(|r| self.piece_at(Square::new(rk.file(), r)).is_some());
            if rk.file() == bk.file() && !between {
                return Err(FenError::KingsFacing);
            }
            return Err(FenError::OpponentInCheck { side: self.side });
        }
        Ok(())
    }

    /// Writes the position as a 6-field FEN.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(96);
        for rank in (0..RANKS).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                let p = self.piece_at(Square::new(file, rank));
                if p.is_none() {
                    empty += 1;
                } else {
                    if empty > 0 {
                        s.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    s.push(p.letter());
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let side = match self.side {
            Color::Red => 'w',
            Color::Black => 'b',
        };
        s.push_str(&format!(" {side} - - {} {}", self.halfmove, self.fullmove));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(fen: &str) -> FenError {
        match Position::from_fen(fen) {
            Err(e) => e,
            Ok(p) => panic!("accepted {fen}: {p:?}"),
        }
    }

    #[test]
    fn start_round_trips() {
        let p = Position::from_fen(START_FEN).expect("start");
        assert_eq!(p.to_fen(), START_FEN);
    }

    #[test]
    fn accepts_what_clients_send() {
        let short = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r";
        assert_eq!(
            Position::from_fen(short).expect("2 fields").to_fen(),
            START_FEN
        );
        let wxf = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1\r";
        assert_eq!(
            Position::from_fen(wxf).expect("WXF letters").to_fen(),
            START_FEN
        );
        let board = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
        let black = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1";
        for (fen, want) in [
            // Side letters in either case, and the words.
            (format!("{board} W"), START_FEN),
            (format!("{board} R - - 0 1"), START_FEN),
            (format!("{board} red"), START_FEN),
            (format!("{board} B"), black),
            (format!("{board} Black - - 0 1"), black),
            // `-` for the counters, missing counters, odd whitespace.
            (format!("{board} w - - - -"), START_FEN),
            (format!("{board} w - -"), START_FEN),
            (format!("{board} w -"), START_FEN),
            (format!("\t{board}\tw  -\t- 0 1 \r"), START_FEN),
            (
                format!("{board} b - - - 7\r\n"),
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 7",
            ),
        ] {
            let p = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen:?}: {e}"));
            assert_eq!(p.to_fen(), want, "{fen:?}");
        }
    }

    #[test]
    fn lenient_reading_ignores_fields_after_the_sixth() {
        // What UCCI league runners send: a 6-field FEN and `- - 0 1`.
        let league = format!("{START_FEN} - - 0 1");
        assert_eq!(err(&league), FenError::FieldCount(10));
        let read = Position::from_fen_lenient(&league).expect("lenient");
        assert_eq!(read.position.to_fen(), START_FEN);
        assert_eq!(read.ignored, ["-", "-", "0", "1"]);
        // Up to six fields nothing is ignored, and the reading is the strict one.
        for fen in [
            START_FEN,
            "3k5/9/9/9/9/9/9/9/9/4K4 b",
            "3k5/9/9/9/9/9/9/9/9/4K4 b - - 3",
        ] {
            let read = Position::from_fen_lenient(fen).expect(fen);
            assert!(read.ignored.is_empty());
            assert_eq!(Ok(read.position), Position::from_fen(fen));
        }
        // Real errors stay errors.
        for (fen, want) in [
            ("", FenError::FieldCount(0)),
            ("3k5/9/9/9/9/9/9/9/9/4K4", FenError::FieldCount(1)),
            (
                "3k5/9/9/9/9/9/9/9/9/4K4 x - - 0 1 - - 0 1",
                FenError::Side("x".into()),
            ),
        ] {
            assert_eq!(Position::from_fen_lenient(fen), Err(want), "{fen:?}");
        }
    }

    #[test]
    fn a_move_list_without_its_keyword_is_refused() {
        let moves_in = |fen: &str| match Position::from_fen_lenient(fen) {
            Err(FenError::MoveInFen { field, text }) => (field, text),
            other => panic!("{fen}: {other:?}"),
        };
        let board = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
        assert_eq!(
            moves_in(&format!("{board} w h2e2 h9g7")),
            (3, "h2e2".into())
        );
        assert_eq!(
            moves_in(&format!("{board} w - - 0 1 H2E2")),
            (7, "H2E2".into())
        );
        assert_eq!(
            moves_in(&format!("{board} w - - 0 1 - - 0 1 b0c2")),
            (11, "b0c2".into())
        );
        assert!(matches!(
            err(&format!("{board} w - - h2e2 1")),
            FenError::MoveInFen { field: 5, .. }
        ));
        // The board itself and counters that merely have four characters are no moves.
        assert!(Position::from_fen(&format!("{board} w - - 1000 1")).is_ok());
    }

    #[test]
    fn precise_errors() {
        assert_eq!(err("rnbakabnr"), FenError::FieldCount(1));
        assert_eq!(err("9/9 w"), FenError::RankCount(2));
        assert!(matches!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w"),
            FenError::RankWidth { rank: 0, files: 8 }
        ));
        assert!(matches!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w"),
            FenError::UnknownPiece { rank: 0, ch: 'X' }
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/9/4K4 x"),
            FenError::Side(_)
        ));
        assert_eq!(
            err("3k5/9/9/9/9/9/9/9/9/3RK4 w"),
            FenError::OpponentInCheck { side: Color::Red }
        );
        assert_eq!(err("4k4/9/9/9/9/9/9/9/9/4K4 w"), FenError::KingsFacing);
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/9/9 w"),
            FenError::KingCount {
                color: Color::Red,
                count: 0
            }
        ));
        assert!(matches!(
            err("3k5/9/9/9/9/9/9/9/9/K8 w"),
            FenError::KingOutsidePalace {
                color: Color::Red,
                ..
            }
        ));
        assert!(matches!(
            err("3k5/9/9/9/9/9/9/9/9/RRR1K4 w"),
            FenError::TooMany {
                kind: PieceKind::Rook,
                count: 3,
                ..
            }
        ));
        assert!(matches!(
            err("3k5/9/9/9/9/9/9/9/9/A3K4 w"),
            FenError::Unreachable { .. }
        ));
        assert!(matches!(
            err("3k5/9/9/9/9/9/9/9/9/4K4 w - - x 1"),
            FenError::Counter { .. }
        ));
        assert!(matches!(
            err("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 -3"),
            FenError::Counter { .. }
        ));
    }

    #[test]
    fn messages_name_what_is_wrong() {
        let msg = |fen: &str| err(fen).to_string();
        assert_eq!(msg("a b c d e f g h"), "FEN has 8 field(s); expected 2 to 6 (board, side to move, -, -, half-move clock, move number)");
        assert!(
            msg("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w")
                .contains("rank 0 covers 8 files")
        );
        assert!(
            msg("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w")
                .contains("rank 0 has unknown character 'X'")
        );
        assert!(msg("3k5/9/9/9/9/9/9/9/9/K8 w").contains("Red king on a0, outside its palace"));
        assert!(
            msg("3k5/9/9/9/9/9/9/9/9/4K4 w - - 1x 1").contains("half-move clock (field 5) '1x'")
        );
        assert!(msg("3k5/9/9/9/9/9/9/9/9/A3K4 w").contains("Red advisor on a0"));
        assert!(msg("4k4/9/9/9/9/9/9/9/9/4K4 x").contains("side to move 'x'"));
        assert_eq!(
            msg("3k5/9/9/9/9/9/9/9/9/4K4"),
            "FEN has only the board; the side to move (w or b) must follow it"
        );
        assert_eq!(
            msg("3k5/9/9/9/9/9/9/9/9/4K4 w a0a1"),
            "FEN field 3 'a0a1' looks like a move; a move list must follow the word 'moves'"
        );
    }

    #[test]
    fn absurd_counters_are_clamped() {
        let p = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 99999999999999999999 0")
            .expect("clamped");
        assert_eq!(p.halfmove_clock(), MAX_HALFMOVE);
        assert_eq!(p.fullmove_number(), 1);
    }

    #[test]
    fn the_game_ply_counts_from_red_at_move_one() {
        let ply = |fen: &str| Position::from_fen(fen).expect("test FEN").game_ply();
        assert_eq!(ply("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"), 0);
        assert_eq!(ply("3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1"), 1);
        assert_eq!(ply("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 81"), 160);
        // A move number of 0 reads as 1.
        assert_eq!(ply("3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 0"), 1);
        let mut p = Position::startpos();
        for uci in ["h2e2", "h9g7", "h0g2"] {
            let m = p.parse_move(uci).expect("test move");
            p.make_move(m);
        }
        assert_eq!(p.game_ply(), 3);
    }

    #[test]
    fn reachable_squares() {
        let count = |kind, color| {
            Square::all()
                .filter(|&s| reachable(Piece::new(color, kind), s))
                .count()
        };
        for c in Color::ALL {
            assert_eq!(count(PieceKind::Advisor, c), 5);
            assert_eq!(count(PieceKind::Elephant, c), 7);
            assert_eq!(count(PieceKind::Pawn, c), 45 + 10);
        }
    }
}
