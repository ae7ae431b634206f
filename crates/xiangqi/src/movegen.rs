//! Legal move generation.
//!
//! Pseudo-legal targets come from the tables in `attacks`. Legality is decided
//! without making moves: before generating, the position works out which of
//! our pieces might expose the king by moving ("pinned": the sole blocker in
//! front of an enemy rook or the flying general, either of the two screens in
//! front of an enemy cannon, a piece on the leg of an enemy horse) and which
//! empty squares would give an enemy cannon a screen ("danger": between the
//! king and an enemy cannon with nothing in between). Only king moves, moves
//! of pinned pieces, moves onto danger squares and all moves while in check
//! are tested one by one; every other pseudo-legal move is legal. That also
//! lets `count_legal` count most moves with a popcount.

use crate::attacks::{
    blocked_mask, file_mask, line_attacks, rank_mask, ADVISOR_STEPS, DIAG_NEIGHBOURS,
    ELEPHANT_TARGETS, HORSE_ATTACKERS, HORSE_TARGETS, KING_STEPS, NO_SQUARE, ORTHO_NEIGHBOURS,
    PAWN_STEPS,
};
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, Move, MoveTextError, Piece, PieceKind, Square, FILES, RANKS};
use std::fmt;

/// More than the most pseudo-legal moves any xiangqi position has (about 114:
/// rooks and cannons 17 each, horses 8, pawns 3, king 4, advisors 5 together,
/// elephants 6 together).
pub const MAX_MOVES: usize = 128;

/// A fixed-capacity list of moves.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list with room for `MAX_MOVES` moves.
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::NULL; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move. The capacity exceeds any position's move count, so
    /// overflowing it is a bug: it panics rather than lose a move.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }

    /// Empties the list for reuse.
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl std::ops::DerefMut for MoveList {
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Which moves to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenType {
    /// Captures and quiet moves together.
    All,
    /// Moves onto an enemy piece.
    Captures,
    /// Moves onto an empty square.
    Quiets,
}

/// How a game ends when the side to move has no legal move: it loses either way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoMoves {
    /// The side to move is in check.
    Checkmate,
    /// The side to move is not in check. Unlike in chess, this is a loss,
    /// not a draw.
    Stalemate,
}

/// What must be tested to keep the king safe (see the module comment): a
/// position's, worked out once by [`Position::legality_info`] to generate
/// its captures and later its quiet moves.
#[derive(Clone, Copy, Debug)]
pub struct Legality {
    check: bool,
    /// Pieces whose every move is tested (includes the king).
    pinned: Bitboard,
    /// Destinations that are tested for every piece.
    danger: Bitboard,
}

/// Why a move text was refused in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The text is not an ICCS move.
    Text(MoveTextError),
    /// No piece stands on the origin.
    NoPiece {
        /// The refused move.
        mv: Move,
    },
    /// The piece on the origin belongs to the side not to move.
    NotYourPiece {
        /// The refused move.
        mv: Move,
        /// The opponent's piece on the origin.
        piece: Piece,
    },
    /// The destination holds a piece of the mover's own side.
    OwnPiece {
        /// The refused move.
        mv: Move,
    },
    /// The piece does not move that way (or is blocked).
    Unreachable {
        /// The refused move.
        mv: Move,
        /// The piece on the origin.
        piece: Piece,
    },
    /// The move leaves the mover's own king attacked or the kings facing.
    ExposesKing {
        /// The refused move.
        mv: Move,
    },
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::Text(e) => write!(f, "{e}"),
            IllegalMove::NoPiece { mv } => {
                write!(f, "illegal move {mv}: no piece on {}", mv.from())
            }
            IllegalMove::NotYourPiece { mv, piece } => write!(
                f,
                "illegal move {mv}: the {} on {} is {}'s, and it is not {}'s turn",
                piece.kind().name(),
                mv.from(),
                piece.color(),
                piece.color()
            ),
            IllegalMove::OwnPiece { mv } => {
                write!(
                    f,
                    "illegal move {mv}: {} holds a piece of the same side",
                    mv.to()
                )
            }
            IllegalMove::Unreachable { mv, piece } => write!(
                f,
                "illegal move {mv}: a {} on {} cannot reach {} (rules or blocked)",
                piece.kind().name(),
                mv.from(),
                mv.to()
            ),
            IllegalMove::ExposesKing { mv } => write!(
                f,
                "illegal move {mv}: it leaves the own king in check or facing the other king"
            ),
        }
    }
}

impl std::error::Error for IllegalMove {}

impl Position {
    /// Pseudo-legal targets of our piece of `kind` on `sq` within `target`
    /// (the squares allowed for non-cannon moves), with cannons using
    /// `quiet` for moves and `capture` for captures.
    #[inline(always)]
    fn targets(
        &self,
        kind: PieceKind,
        sq: Square,
        target: Bitboard,
        quiet: Bitboard,
        capture: Bitboard,
    ) -> Bitboard {
        let i = sq.index();
        let occ = self.occupied;
        match kind {
            PieceKind::King => Bitboard(KING_STEPS[i]) & target,
            PieceKind::Advisor => Bitboard(ADVISOR_STEPS[i]) & target,
            PieceKind::Elephant => {
                Bitboard(ELEPHANT_TARGETS[i][blocked_mask(&DIAG_NEIGHBOURS, sq, occ)]) & target
            }
            PieceKind::Horse => {
                Bitboard(HORSE_TARGETS[i][blocked_mask(&ORTHO_NEIGHBOURS, sq, occ)]) & target
            }
            PieceKind::Rook => {
                let rank_occ = occ.rank_bits(sq.rank());
                let (reach, _) = line_attacks(sq, rank_occ, self.file_occ[sq.file()] as usize);
                reach & target
            }
            PieceKind::Cannon => {
                let rank_occ = occ.rank_bits(sq.rank());
                let (reach, caps) = line_attacks(sq, rank_occ, self.file_occ[sq.file()] as usize);
                (reach & quiet) | (caps & capture)
            }
            PieceKind::Pawn => Bitboard(PAWN_STEPS[self.side.index()][i]) & target,
        }
    }

    /// Calls `f(from, targets)` for every piece of the side to move with its
    /// pseudo-legal targets of the requested type.
    #[inline(always)]
    fn for_each_piece<F: FnMut(Square, Bitboard)>(&self, gen: GenType, mut f: F) {
        let us = self.side.index();
        let enemy = self.by_color[1 - us];
        let empty = !self.occupied;
        let (quiet, capture) = match gen {
            GenType::All => (empty, enemy),
            GenType::Captures => (Bitboard::EMPTY, enemy),
            GenType::Quiets => (empty, Bitboard::EMPTY),
        };
        let target = quiet | capture;
        for kind in PieceKind::ALL {
            for sq in self.pieces[us][kind.index()] {
                f(sq, self.targets(kind, sq, target, quiet, capture));
            }
        }
    }

    /// Works out what needs testing for legality in this position (for
    /// [`Position::generate_with`]: valid for this position only).
    pub fn legality_info(&self) -> Legality {
        self.legality_for(self.side, self.in_check())
    }

    /// [`Position::legality_info`] for a caller that already knows whether
    /// the side to move is in check (a search node does), which spares the
    /// attack test. Debug builds verify `in_check`.
    pub fn legality_info_given(&self, in_check: bool) -> Legality {
        debug_assert_eq!(
            in_check,
            self.in_check(),
            "legality_info_given: wrong check flag"
        );
        self.legality_for(self.side, in_check)
    }

    /// Pieces of `color` (king excluded) that might expose their king by
    /// moving: pinned by a rook, a cannon (either screen) or the flying
    /// general, or standing on the leg of a horse aimed at the king.
    pub fn pinned(&self, color: Color) -> Bitboard {
        let mut pinned = self.legality_for(color, false).pinned;
        pinned.clear(self.king[color.index()]);
        pinned
    }

    /// The legality tests as if `us` were to move, with `check` as given
    /// (`pinned` wants the pins only and passes false).
    #[inline(always)]
    fn legality_for(&self, us: Color, check: bool) -> Legality {
        let them = us.flip();
        let ksq = self.king[us.index()];
        let mut pinned = Bitboard::from_square(ksq);
        let mut danger = Bitboard::EMPTY;
        let enemy = &self.pieces[them.index()];
        let (kf, kr) = (ksq.file() as i32, ksq.rank() as i32);

        // Lines: only worth walking when an enemy rook, cannon or king shares one.
        let lines = rank_mask(ksq.rank()) | file_mask(ksq.file());
        let sliders = enemy[PieceKind::Rook.index()]
            | enemy[PieceKind::Cannon.index()]
            | enemy[PieceKind::King.index()];
        if (lines & sliders).any() {
            for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                let mut seen = [Square::default(); 3];
                let mut n = 0;
                let mut between = Bitboard::EMPTY;
                let (mut f, mut r) = (kf + df, kr + dr);
                while (0..FILES as i32).contains(&f) && (0..RANKS as i32).contains(&r) {
                    let sq = Square::new(f as usize, r as usize);
                    if self.board[sq.index()].is_some() {
                        seen[n] = sq;
                        n += 1;
                        if n == 3 {
                            break;
                        }
                    } else if n == 0 {
                        between.set(sq);
                    }
                    f += df;
                    r += dr;
                }
                let piece = |i: usize| self.board[seen[i].index()];
                let is = |p: Piece, kind: PieceKind| {
                    p.is_some() && p.color() == them && p.kind() == kind
                };
                let ours = |i: usize| piece(i).color() == us;
                // Rook, or the flying general along the file, behind one of ours.
                if n >= 2
                    && ours(0)
                    && (is(piece(1), PieceKind::Rook) || (df == 0 && is(piece(1), PieceKind::King)))
                {
                    pinned.set(seen[0]);
                }
                if n >= 1 && is(piece(0), PieceKind::Cannon) {
                    danger |= between;
                }
                if n == 3 && is(piece(2), PieceKind::Cannon) {
                    for &screen in &seen[..2] {
                        if self.board[screen.index()].color() == us {
                            pinned.set(screen);
                        }
                    }
                }
            }
        }

        // Horse legs: a piece of ours on the leg of an enemy horse aimed at the king.
        let horses = enemy[PieceKind::Horse.index()];
        if horses.any() {
            for (d, &leg) in DIAG_NEIGHBOURS[ksq.index()].iter().enumerate() {
                if leg != NO_SQUARE && self.by_color[us.index()].0 >> leg & 1 != 0 {
                    let via_leg = Bitboard(HORSE_ATTACKERS[ksq.index()][0b1111 ^ (1 << d)]);
                    if (via_leg & horses).any() {
                        pinned.set(Square::from_index_unchecked(leg as usize));
                    }
                }
            }
        }
        Legality {
            check,
            pinned,
            danger,
        }
    }

    /// Appends the legal moves of the given type to `list`.
    pub fn generate(&self, gen: GenType, list: &mut MoveList) {
        self.generate_with(&self.legality_info(), gen, list);
    }

    /// `generate` with the position's `legality_info`, worked out once for
    /// several kinds of moves.
    pub fn generate_with(&self, info: &Legality, gen: GenType, list: &mut MoveList) {
        self.for_each_piece(gen, |from, targets| {
            let test_all = info.check || info.pinned.has(from);
            for to in targets {
                let needs_test = test_all || info.danger.has(to);
                if !needs_test || self.move_is_safe(from, to) {
                    list.push(Move::new(from, to));
                }
            }
        });
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(GenType::All, &mut list);
        list
    }

    /// The number of legal moves, faster than generating them.
    pub fn count_legal(&self) -> u64 {
        let info = self.legality_info();
        let mut n = 0u64;
        self.for_each_piece(GenType::All, |from, targets| {
            let tested = if info.check || info.pinned.has(from) {
                targets
            } else {
                n += (targets & !info.danger).count() as u64;
                targets & info.danger
            };
            for to in tested {
                n += self.move_is_safe(from, to) as u64;
            }
        });
        n
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        // A full count costs about as much as one generation (popcounts).
        self.count_legal() > 0
    }

    /// If the side to move has no legal move, how it lost.
    pub fn no_moves(&self) -> Option<NoMoves> {
        if self.has_legal_move() {
            None
        } else if self.in_check() {
            Some(NoMoves::Checkmate)
        } else {
            Some(NoMoves::Stalemate)
        }
    }

    /// Whether `m` is a pseudo-legal move of the side to move: our piece on the
    /// origin, and the destination among its targets.
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        self.check_pseudo_legal(m).is_ok()
    }

    fn check_pseudo_legal(&self, m: Move) -> Result<(), IllegalMove> {
        let (from, to) = (m.from(), m.to());
        let piece = self.board[from.index()];
        if piece.is_none() {
            return Err(IllegalMove::NoPiece { mv: m });
        }
        if piece.color() != self.side {
            return Err(IllegalMove::NotYourPiece { mv: m, piece });
        }
        let own = self.by_color[self.side.index()];
        if own.has(to) {
            return Err(IllegalMove::OwnPiece { mv: m });
        }
        let (quiet, capture) = (!self.occupied, self.by_color[self.side.flip().index()]);
        if self
            .targets(piece.kind(), from, quiet | capture, quiet, capture)
            .has(to)
        {
            Ok(())
        } else {
            Err(IllegalMove::Unreachable { mv: m, piece })
        }
    }

    /// Whether `m` is legal in this position (any 14-bit move may be asked).
    pub fn is_legal(&self, m: Move) -> bool {
        self.check_legal(m).is_ok()
    }

    fn check_legal(&self, m: Move) -> Result<(), IllegalMove> {
        self.check_pseudo_legal(m)?;
        if self.move_is_safe(m.from(), m.to()) {
            Ok(())
        } else {
            Err(IllegalMove::ExposesKing { mv: m })
        }
    }

    /// Parses ICCS move text and checks that the move is legal here.
    pub fn parse_move(&self, text: &str) -> Result<Move, IllegalMove> {
        let m = Move::parse_iccs(text.trim()).map_err(IllegalMove::Text)?;
        self.check_legal(m)?;
        Ok(m)
    }

    /// Whether `m` (legal) captures a piece.
    #[inline(always)]
    pub fn is_capture(&self, m: Move) -> bool {
        self.board[m.to().index()].is_some()
    }
}
