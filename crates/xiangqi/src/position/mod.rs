//! The position: board, side to move, counters, Zobrist key, and the undo
//! stack that make/unmake use.

mod fen;

pub use fen::{FenError, LenientFen, START_FEN};

use crate::attacks::{
    blocked_mask, line_attacks, ADVISOR_STEPS, DIAG_NEIGHBOURS, ELEPHANT_TARGETS, HORSE_ATTACKERS,
    KING_STEPS, PAWN_ATTACKERS,
};
use crate::bitboard::Bitboard;
use crate::types::{Color, Move, Piece, PieceKind, Square, FILES, RANKS, SQUARES};
use crate::zobrist::{piece_key, SIDE_KEY};
use std::fmt;

/// What make_move must remember to undo a move exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    /// The move played (`Move::NULL` for a null move).
    pub mv: Move,
    /// The piece captured, or `Piece::NONE`.
    pub captured: Piece,
    /// Key before the move.
    pub key: u64,
    /// Half-move clock before the move.
    pub halfmove: u32,
    /// Move number before the move.
    pub fullmove: u32,
}

/// What one move changed on the board: the piece that moved, from where to
/// where, and what it captured (`Piece::NONE` if nothing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveChange {
    /// The piece that moved.
    pub piece: Piece,
    /// Where it stood.
    pub from: Square,
    /// Where it went.
    pub to: Square,
    /// The piece it captured, or `Piece::NONE`.
    pub captured: Piece,
}

/// A xiangqi position: a 90-square mailbox kept in step with bitboards by
/// colour and kind, by colour, of all pieces and of each file's occupancy;
/// the king squares, side to move, half-move clock, move number and Zobrist
/// key; and the undo history of the moves made since setup. Build one with
/// [`Position::startpos`] or [`Position::from_fen`].
#[derive(Clone)]
pub struct Position {
    pub(crate) board: [Piece; SQUARES],
    /// Pieces by colour and kind.
    pub(crate) pieces: [[Bitboard; 7]; 2],
    /// Pieces by colour.
    pub(crate) by_color: [Bitboard; 2],
    /// All pieces.
    pub(crate) occupied: Bitboard,
    /// Occupancy of each file, bit `rank` set when occupied.
    pub(crate) file_occ: [u16; FILES],
    pub(crate) king: [Square; 2],
    pub(crate) side: Color,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) key: u64,
    pub(crate) history: Vec<Undo>,
}

impl Position {
    fn empty() -> Position {
        Position {
            board: [Piece::NONE; SQUARES],
            pieces: [[Bitboard::EMPTY; 7]; 2],
            by_color: [Bitboard::EMPTY; 2],
            occupied: Bitboard::EMPTY,
            file_occ: [0; FILES],
            king: [Square::default(); 2],
            side: Color::Red,
            halfmove: 0,
            fullmove: 1,
            key: 0,
            history: Vec::with_capacity(256),
        }
    }

    /// The standard starting position.
    pub fn startpos() -> Position {
        match Position::from_fen(START_FEN) {
            Ok(p) => p,
            Err(e) => unreachable!("start FEN is valid: {e}"),
        }
    }

    // ----- Accessors -------------------------------------------------------

    /// The piece on `sq`, or `Piece::NONE` if it is empty.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Piece {
        self.board[sq.index()]
    }

    /// The side whose turn it is.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The Zobrist key of the position (pieces and side to move).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Plies since the last capture.
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The move number (FEN field 6): starts at 1 and goes up after each
    /// Black move.
    #[inline(always)]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// Plies played since the game's start, by the move number and the
    /// side to move (Red moves first): 0 at move 1 with Red to move.
    #[inline(always)]
    pub fn game_ply(&self) -> u32 {
        let side = u32::from(self.side == Color::Black);
        (self.fullmove.saturating_sub(1))
            .saturating_mul(2)
            .saturating_add(side)
    }

    /// The squares of `color`'s pieces of `kind`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.pieces[color.index()][kind.index()]
    }

    /// The squares of `color`'s rooks, horses and cannons: the pieces that
    /// mate and press without the king's help.
    #[inline(always)]
    pub fn majors(&self, color: Color) -> Bitboard {
        self.pieces(color, PieceKind::Rook)
            | self.pieces(color, PieceKind::Horse)
            | self.pieces(color, PieceKind::Cannon)
    }

    /// The squares of all of `color`'s pieces.
    #[inline(always)]
    pub fn pieces_of(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares holding a piece of either colour.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// Where `color`'s king stands (a valid position has exactly one).
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        self.king[color.index()]
    }

    /// Occupancy of one file, bit `rank` set when occupied.
    #[inline(always)]
    pub fn file_occupancy(&self, file: usize) -> usize {
        self.file_occ[file] as usize
    }

    /// The moves made since the position was set up, with what they captured and
    /// the keys before them (oldest first).
    pub fn history(&self) -> &[Undo] {
        &self.history
    }

    /// What the last move changed on the board, or `None` at the root and
    /// after a null move. Evaluators that keep incremental state read this
    /// after `make_move`.
    #[inline]
    pub fn last_change(&self) -> Option<MoveChange> {
        let u = self.history.last()?;
        if u.mv.is_null() {
            return None;
        }
        Some(MoveChange {
            piece: self.board[u.mv.to().index()],
            from: u.mv.from(),
            to: u.mv.to(),
            captured: u.captured,
        })
    }

    /// Forgets the undo history: the current position becomes the root.
    pub fn clear_history(&mut self) {
        self.history.clear();
    }

    // ----- Piece placement (keeps every redundant structure in step) -------

    #[inline(always)]
    fn put(&mut self, piece: Piece, sq: Square) {
        let (c, k) = (piece.color().index(), piece.kind().index());
        self.board[sq.index()] = piece;
        self.pieces[c][k].set(sq);
        self.by_color[c].set(sq);
        self.occupied.set(sq);
        self.file_occ[sq.file()] |= 1 << sq.rank();
        self.key ^= piece_key(piece, sq);
    }

    #[inline(always)]
    fn take(&mut self, sq: Square) -> Piece {
        let piece = self.board[sq.index()];
        let (c, k) = (piece.color().index(), piece.kind().index());
        self.board[sq.index()] = Piece::NONE;
        self.pieces[c][k].clear(sq);
        self.by_color[c].clear(sq);
        self.occupied.clear(sq);
        self.file_occ[sq.file()] &= !(1 << sq.rank());
        self.key ^= piece_key(piece, sq);
        piece
    }

    // ----- Make / unmake ---------------------------------------------------

    /// Plays a move that is legal in this position (see `is_legal`). Playing
    /// anything else leaves the position unspecified.
    #[inline]
    pub fn make_move(&mut self, m: Move) {
        let (from, to) = (m.from(), m.to());
        let captured = self.board[to.index()];
        self.history.push(Undo {
            mv: m,
            captured,
            key: self.key,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
        });
        if captured.is_some() {
            self.take(to);
            self.halfmove = 0;
        } else {
            self.halfmove = self.halfmove.saturating_add(1);
        }
        let piece = self.take(from);
        self.put(piece, to);
        if piece.kind() == PieceKind::King {
            self.king[piece.color().index()] = to;
        }
        if self.side == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.flip();
        self.key ^= SIDE_KEY;
    }

    /// Takes back the last move (or null move). Does nothing at the root.
    #[inline]
    pub fn unmake_move(&mut self) {
        let Some(u) = self.history.pop() else {
            return;
        };
        self.side = self.side.flip();
        if !u.mv.is_null() {
            let (from, to) = (u.mv.from(), u.mv.to());
            let piece = self.take(to);
            self.put(piece, from);
            if piece.kind() == PieceKind::King {
                self.king[piece.color().index()] = from;
            }
            if u.captured.is_some() {
                self.put(u.captured, to);
            }
        }
        self.key = u.key;
        self.halfmove = u.halfmove;
        self.fullmove = u.fullmove;
    }

    /// Passes the move (for null-move pruning). Undo with `unmake_move`.
    pub fn make_null_move(&mut self) {
        self.history.push(Undo {
            mv: Move::NULL,
            captured: Piece::NONE,
            key: self.key,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
        });
        self.halfmove = self.halfmove.saturating_add(1);
        if self.side == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.flip();
        self.key ^= SIDE_KEY;
    }

    // ----- Attacks -----------------------------------------------------------

    /// Whether a king of colour `us` standing on `ksq` would be attacked, given
    /// an occupancy `occ`, the occupancy `file_bits` of `ksq`'s file in it, and a
    /// square `gone` whose enemy piece (if any) no longer counts (it was just
    /// captured). The enemy king counts as a rook along the file: the flying
    /// general rule.
    #[inline(always)]
    pub(crate) fn king_attacked_with(
        &self,
        ksq: Square,
        us: Color,
        occ: Bitboard,
        file_bits: usize,
        gone: Bitboard,
    ) -> bool {
        let them = self.pieces[us.flip().index()];
        let keep = !gone;
        let (rook_reach, cannon_caps) = line_attacks(ksq, occ.rank_bits(ksq.rank()), file_bits);
        let rooks = them[PieceKind::Rook.index()] | them[PieceKind::King.index()];
        if (rook_reach & rooks & keep).any()
            || (cannon_caps & them[PieceKind::Cannon.index()] & keep).any()
        {
            return true;
        }
        let horses =
            Bitboard(HORSE_ATTACKERS[ksq.index()][blocked_mask(&DIAG_NEIGHBOURS, ksq, occ)]);
        let pawns = Bitboard(PAWN_ATTACKERS[us.flip().index()][ksq.index()]);
        (horses & them[PieceKind::Horse.index()] & keep).any()
            || (pawns & them[PieceKind::Pawn.index()] & keep).any()
    }

    /// Pieces of colour `by` among `occ` that attack `sq` (could capture on it)
    /// when the board's occupancy is `occ`. Palace and river limits come from
    /// the tables; pins are not considered, nor the flying general.
    pub fn attackers_to(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        let them = &self.pieces[by.index()];
        let i = sq.index();
        let (rook_reach, cannon_caps) =
            line_attacks(sq, occ.rank_bits(sq.rank()), occ.file_bits(sq.file()));
        let diag = blocked_mask(&DIAG_NEIGHBOURS, sq, occ);
        let attackers = (rook_reach & them[PieceKind::Rook.index()])
            | (cannon_caps & them[PieceKind::Cannon.index()])
            | (Bitboard(HORSE_ATTACKERS[i][diag]) & them[PieceKind::Horse.index()])
            | (Bitboard(ELEPHANT_TARGETS[i][diag]) & them[PieceKind::Elephant.index()])
            | (Bitboard(ADVISOR_STEPS[i]) & them[PieceKind::Advisor.index()])
            | (Bitboard(KING_STEPS[i]) & them[PieceKind::King.index()])
            | (Bitboard(PAWN_ATTACKERS[by.index()][i]) & them[PieceKind::Pawn.index()]);
        attackers & occ
    }

    /// Whether `color`'s king is attacked in the current position.
    #[inline]
    pub fn king_in_danger(&self, color: Color) -> bool {
        let ksq = self.king[color.index()];
        self.king_attacked_with(
            ksq,
            color,
            self.occupied,
            self.file_occ[ksq.file()] as usize,
            Bitboard::EMPTY,
        )
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.king_in_danger(self.side)
    }

    /// Whether playing `from`→`to` (a pseudo-legal move of the side to move)
    /// leaves its own king safe. Works without making the move.
    #[inline(always)]
    pub(crate) fn move_is_safe(&self, from: Square, to: Square) -> bool {
        let us = self.side;
        let ksq = if from == self.king[us.index()] {
            to
        } else {
            self.king[us.index()]
        };
        let to_bb = Bitboard::from_square(to);
        let occ = Bitboard((self.occupied.0 & !(1u128 << from.index())) | to_bb.0);
        let kf = ksq.file();
        let mut file_bits = self.file_occ[kf] as usize;
        if from.file() == kf {
            file_bits &= !(1 << from.rank());
        }
        if to.file() == kf {
            file_bits |= 1 << to.rank();
        }
        !self.king_attacked_with(ksq, us, occ, file_bits, to_bb)
    }

    /// Whether `m`, a legal move of the side to move, gives check: the
    /// same answer as `in_check` after `make_move(m)`, without making it.
    /// The moved piece may check from its destination, and the piece
    /// leaving its origin may uncover a rook or give a cannon its screen
    /// (as may the piece arriving on the destination).
    #[inline]
    pub fn gives_check(&self, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        let us = self.side;
        let them = us.flip();
        let ksq = self.king[them.index()];
        let kf = ksq.file();
        // Most moves are far from the king: a check needs the origin or the
        // destination on its rank or file (rooks, cannons and their screens,
        // pawns, which check from next to it), the destination among the
        // squares a horse checks from, or the origin on a horse's leg (a
        // square diagonally next to the king).
        let on_lines = |sq: Square| sq.file() == kf || sq.rank() == ksq.rank();
        let on_leg = from.file().abs_diff(kf) == 1 && from.rank().abs_diff(ksq.rank()) == 1;
        let horse_squares = Bitboard(HORSE_ATTACKERS[ksq.index()][0]);
        if !(on_lines(from) || on_lines(to) || on_leg || horse_squares.has(to)) {
            return false;
        }
        let occ = Bitboard((self.occupied.0 & !(1u128 << from.index())) | (1u128 << to.index()));
        let mut file_bits = self.file_occ[kf] as usize;
        if from.file() == kf {
            file_bits &= !(1 << from.rank());
        }
        if to.file() == kf {
            file_bits |= 1 << to.rank();
        }
        let direct = match self.board[from.index()].kind() {
            PieceKind::Rook => line_attacks(ksq, occ.rank_bits(ksq.rank()), file_bits)
                .0
                .has(to),
            PieceKind::Cannon => line_attacks(ksq, occ.rank_bits(ksq.rank()), file_bits)
                .1
                .has(to),
            PieceKind::Horse => {
                Bitboard(HORSE_ATTACKERS[ksq.index()][blocked_mask(&DIAG_NEIGHBOURS, ksq, occ)])
                    .has(to)
            }
            PieceKind::Pawn => Bitboard(PAWN_ATTACKERS[us.index()][ksq.index()]).has(to),
            // A king facing the other one would be an illegal move; advisors
            // and elephants never leave their own side.
            PieceKind::King | PieceKind::Advisor | PieceKind::Elephant => false,
        };
        // Every other piece of ours, with the new occupancy.
        direct || self.king_attacked_with(ksq, them, occ, file_bits, Bitboard::from_square(from))
    }

    // ----- Checks of the redundant state (tests and debug builds) ----------

    /// The key recomputed from scratch.
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for sq in Square::all() {
            key ^= piece_key(self.board[sq.index()], sq);
        }
        if self.side == Color::Black {
            key ^= SIDE_KEY;
        }
        key
    }

    /// Checks that every redundant structure agrees with the mailbox; returns a
    /// description of the first disagreement.
    pub fn check_consistency(&self) -> Result<(), String> {
        let mut pieces = [[Bitboard::EMPTY; 7]; 2];
        let mut files = [0u16; FILES];
        for sq in Square::all() {
            let p = self.board[sq.index()];
            if p.is_some() {
                pieces[p.color().index()][p.kind().index()].set(sq);
                files[sq.file()] |= 1 << sq.rank();
            }
        }
        if pieces != self.pieces {
            return Err("piece bitboards disagree with the board".into());
        }
        for c in Color::ALL {
            let all = pieces[c.index()]
                .iter()
                .fold(Bitboard::EMPTY, |a, &b| a | b);
            if all != self.by_color[c.index()] {
                return Err(format!("{c:?} occupancy disagrees with the board"));
            }
            if self.pieces(c, PieceKind::King) != Bitboard::from_square(self.king[c.index()]) {
                return Err(format!("{c:?} king square is stale"));
            }
        }
        if self.by_color[0] | self.by_color[1] != self.occupied {
            return Err("occupancy disagrees with the board".into());
        }
        if files != self.file_occ {
            return Err("file occupancy disagrees with the board".into());
        }
        if self.compute_key() != self.key {
            return Err("incremental key differs from the recomputed key".into());
        }
        Ok(())
    }

    /// The position with colours swapped and the board turned around (Red's
    /// pieces become Black's on the mirrored ranks, and the other side moves).
    pub fn color_flipped(&self) -> Position {
        let mut p = Position::empty();
        for sq in Square::all() {
            let pc = self.board[sq.index()];
            if pc.is_some() {
                p.put(Piece::new(pc.color().flip(), pc.kind()), sq.flip_rank());
            }
        }
        p.finish_setup(self.side.flip(), self.halfmove, self.fullmove);
        p
    }

    /// The position mirrored left to right.
    pub fn file_mirrored(&self) -> Position {
        let mut p = Position::empty();
        for sq in Square::all() {
            let pc = self.board[sq.index()];
            if pc.is_some() {
                p.put(pc, sq.flip_file());
            }
        }
        p.finish_setup(self.side, self.halfmove, self.fullmove);
        p
    }

    fn finish_setup(&mut self, side: Color, halfmove: u32, fullmove: u32) {
        self.side = side;
        if side == Color::Black {
            self.key ^= SIDE_KEY;
        }
        self.halfmove = halfmove;
        self.fullmove = fullmove.max(1);
        for c in Color::ALL {
            if let Some(k) = self.pieces(c, PieceKind::King).first() {
                self.king[c.index()] = k;
            }
        }
    }
}

impl PartialEq for Position {
    /// Two positions are equal when board, side and counters are equal
    /// (history is not compared).
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.side == other.side
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
    }
}

impl Eq for Position {}

impl fmt::Display for Position {
    /// A readable board, Black at the top, followed by the FEN and the key.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "   +-------------------+")?;
        for rank in (0..RANKS).rev() {
            write!(f, " {rank} |")?;
            for file in 0..FILES {
                let p = self.board[Square::new(file, rank).index()];
                write!(f, " {}", p.letter())?;
            }
            writeln!(f, " |")?;
            if rank == 5 {
                writeln!(f, "   |~~~~~~ river ~~~~~~|")?;
            }
        }
        writeln!(f, "   +-------------------+")?;
        writeln!(f, "     a b c d e f g h i")?;
        writeln!(f, "Fen: {}", self.to_fen())?;
        write!(f, "Key: {:016X}", self.key)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}
