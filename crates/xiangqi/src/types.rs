//! Basic value types: colours, piece kinds, pieces, squares and moves.
//!
//! Board geometry: 9 files (`a`–`i`, 0–8) by 10 ranks (0–9). Rank 0 is Red's
//! back rank. A square's index is `rank * 9 + file`, 0..90.

use std::fmt;

/// Number of files on the board.
pub const FILES: usize = 9;
/// Number of ranks on the board.
pub const RANKS: usize = 10;
/// Number of squares on the board.
pub const SQUARES: usize = FILES * RANKS;

/// The side to move. Red moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Red: moves first, starts on ranks 0–4, upper-case letters in FEN.
    Red = 0,
    /// Black: starts on ranks 5–9, lower-case letters in FEN.
    Black = 1,
}

impl Color {
    /// Both colours in index order, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// The other colour.
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for Red, 1 for Black: the index into per-colour tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Red => "Red",
            Color::Black => "Black",
        })
    }
}

/// Exchange values of each kind by `PieceKind::index` (the king has none):
/// fixed, not tuned. The chase rule compares them ("worth more than the
/// attacker"), and engines may use them for exchange evaluation (SEE) and
/// move ordering.
pub const EXCHANGE_VALUES: [i32; 7] = [0, 40, 40, 100, 200, 100, 20];

/// The seven kinds of pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// The general: one step orthogonally, never leaving its palace, and
    /// never facing the other king on an open file.
    King = 0,
    /// One step diagonally, never leaving its palace.
    Advisor = 1,
    /// Two steps diagonally unless the "eye" square between is occupied;
    /// never crosses the river.
    Elephant = 2,
    /// One step orthogonally then one diagonally outwards, unless the "leg"
    /// square next to it in that direction is occupied.
    Horse = 3,
    /// The chariot: any distance along a rank or file.
    Rook = 4,
    /// Moves like a rook but captures by jumping exactly one piece (the
    /// screen) on the line.
    Cannon = 5,
    /// One step forward; once across the river, also one step sideways.
    Pawn = 6,
}

impl PieceKind {
    /// The seven kinds in index order, king first, pawn last.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::King,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Rook,
        PieceKind::Cannon,
        PieceKind::Pawn,
    ];

    /// 0 (king) to 6 (pawn): the index into per-kind tables such as
    /// [`EXCHANGE_VALUES`].
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The most pieces of this kind one side can have.
    pub const fn max_count(self) -> u32 {
        match self {
            PieceKind::King => 1,
            PieceKind::Pawn => 5,
            _ => 2,
        }
    }

    /// Upper-case FEN letter (Red's).
    pub const fn letter(self) -> char {
        match self {
            PieceKind::King => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Horse => 'N',
            PieceKind::Rook => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Pawn => 'P',
        }
    }

    /// Parses an upper-case FEN letter, including the WXF aliases E and H.
    pub const fn from_letter(c: char) -> Option<PieceKind> {
        Some(match c {
            'K' => PieceKind::King,
            'A' => PieceKind::Advisor,
            'B' | 'E' => PieceKind::Elephant,
            'N' | 'H' => PieceKind::Horse,
            'R' => PieceKind::Rook,
            'C' => PieceKind::Cannon,
            'P' => PieceKind::Pawn,
            _ => return None,
        })
    }

    /// Lower-case English name (`"horse"`), as error messages print it.
    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::King => "king",
            PieceKind::Advisor => "advisor",
            PieceKind::Elephant => "elephant",
            PieceKind::Horse => "horse",
            PieceKind::Rook => "rook",
            PieceKind::Cannon => "cannon",
            PieceKind::Pawn => "pawn",
        }
    }
}

/// A coloured piece, or no piece. Encoding: `0` is empty; otherwise bit 3 is the
/// colour and the low three bits are `kind + 1`. Values are below 16, so a piece
/// indexes small tables directly.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Piece(u8);

impl Piece {
    /// No piece: an empty square (encoding 0).
    pub const NONE: Piece = Piece(0);

    /// The piece of `color` and `kind`.
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece(((color as u8) << 3) | (kind as u8 + 1))
    }

    /// Whether this is `Piece::NONE` (an empty square).
    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// Whether this is a real piece.
    #[inline(always)]
    pub const fn is_some(self) -> bool {
        self.0 != 0
    }

    /// Colour of a real piece (meaningless for `NONE`).
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 & 8 == 0 {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// Kind of a real piece (meaningless for `NONE`).
    #[inline(always)]
    pub const fn kind(self) -> PieceKind {
        PieceKind::ALL[((self.0 & 7) as usize).wrapping_sub(1) % 7]
    }

    /// Table index below 16.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// FEN letter: upper case for Red, lower case for Black.
    pub const fn letter(self) -> char {
        if self.is_none() {
            return '.';
        }
        let c = self.kind().letter();
        match self.color() {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// Parses a FEN letter (either case; E/H aliases accepted).
    pub const fn from_letter(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        match PieceKind::from_letter(c.to_ascii_uppercase()) {
            Some(kind) => Some(Piece::new(color, kind)),
            None => None,
        }
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A square, `rank * 9 + file`, always below 90.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Square(u8);

impl Square {
    /// Builds a square; `file < 9`, `rank < 10`.
    #[inline(always)]
    pub const fn new(file: usize, rank: usize) -> Square {
        debug_assert!(file < FILES && rank < RANKS);
        Square((rank * FILES + file) as u8)
    }

    /// Builds a square from its index, if below 90.
    #[inline(always)]
    pub const fn from_index(i: usize) -> Option<Square> {
        if i < SQUARES {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// Builds a square from an index known to be below 90.
    #[inline(always)]
    pub(crate) const fn from_index_unchecked(i: usize) -> Square {
        debug_assert!(i < SQUARES);
        Square(i as u8)
    }

    /// The index `rank * 9 + file`, 0..90: the bit in a bitboard and the
    /// index into per-square tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 (`a`) to 8 (`i`), left to right as Red sees the board.
    #[inline(always)]
    pub const fn file(self) -> usize {
        self.0 as usize % FILES
    }

    /// The rank, 0 (Red's back rank) to 9 (Black's back rank).
    #[inline(always)]
    pub const fn rank(self) -> usize {
        self.0 as usize / FILES
    }

    /// The same square seen from the other side (rank mirrored).
    pub const fn flip_rank(self) -> Square {
        Square::new(self.file(), RANKS - 1 - self.rank())
    }

    /// The same square mirrored left to right.
    pub const fn flip_file(self) -> Square {
        Square::new(FILES - 1 - self.file(), self.rank())
    }

    /// Iterator over all 90 squares.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES).map(|i| Square(i as u8))
    }

    /// Parses two characters `a`–`i` and `0`–`9`.
    pub fn parse(s: &str) -> Option<Square> {
        let mut chars = s.chars();
        let (f, r) = (chars.next()?, chars.next()?);
        if chars.next().is_some() {
            return None;
        }
        Square::from_chars(f, r)
    }

    fn from_chars(f: char, r: char) -> Option<Square> {
        let file = (f as u32).wrapping_sub('a' as u32) as usize;
        let rank = (r as u32).wrapping_sub('0' as u32) as usize;
        (file < FILES && rank < RANKS).then(|| Square::new(file, rank))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file() as u8) as char,
            (b'0' + self.rank() as u8) as char
        )
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A move: origin in bits 0–6, destination in bits 7–13. `Move::NULL` (a1a1)
/// is never a legal move; it stands for "no move" and for the null move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    /// The null move, a1a1 (raw 0): "no move", or a pass by the side to move.
    pub const NULL: Move = Move(0);

    /// The move from `from` to `to`; nothing about legality is checked.
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 7)
    }

    /// The origin square.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square((self.0 & 0x7f) as u8)
    }

    /// The destination square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square((self.0 >> 7) as u8)
    }

    /// Whether this is `Move::NULL`.
    #[inline(always)]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// The raw 14-bit encoding (for hash tables).
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// Rebuilds a move from `raw()`, if both squares are on the board.
    pub const fn from_raw(raw: u16) -> Option<Move> {
        let m = Move(raw);
        if raw >> 14 == 0 && m.from().index() < SQUARES && m.to().index() < SQUARES {
            Some(m)
        } else {
            None
        }
    }

    /// Parses 4-character ICCS text such as `h2e2`, without checking legality.
    /// Upper-case files (`H2E2`, as some old GUIs send) are accepted.
    pub fn parse_iccs(s: &str) -> Result<Move, MoveTextError> {
        let chars: Vec<char> = s.chars().take(5).collect();
        if chars.len() != 4 {
            return Err(MoveTextError::Length(truncate(s)));
        }
        let lower = |c: char| c.to_ascii_lowercase();
        let from = Square::from_chars(lower(chars[0]), chars[1])
            .ok_or_else(|| MoveTextError::Square(truncate(s)))?;
        let to = Square::from_chars(lower(chars[2]), chars[3])
            .ok_or_else(|| MoveTextError::Square(truncate(s)))?;
        if from == to {
            return Err(MoveTextError::SameSquare(truncate(s)));
        }
        Ok(Move::new(from, to))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Shortens arbitrary input for an error message (lines may be megabytes
/// long): at most 40 characters, with an ellipsis when cut.
pub fn truncate(s: &str) -> String {
    const MAX: usize = 40;
    let mut out: String = s.chars().take(MAX).collect();
    if s.chars().nth(MAX).is_some() {
        out.push('…');
    }
    out
}

/// Why a move text is not a well-formed ICCS move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveTextError {
    /// Not exactly four characters.
    Length(String),
    /// A square is not `a`–`i` followed by `0`–`9`.
    Square(String),
    /// Origin and destination are the same square.
    SameSquare(String),
}

impl fmt::Display for MoveTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveTextError::Length(s) => {
                write!(f, "move '{s}' is not 4 characters like h2e2")
            }
            MoveTextError::Square(s) => {
                write!(f, "move '{s}' has a square outside files a-i and ranks 0-9")
            }
            MoveTextError::SameSquare(s) => {
                write!(f, "move '{s}' starts and ends on the same square")
            }
        }
    }
}

impl std::error::Error for MoveTextError {}
