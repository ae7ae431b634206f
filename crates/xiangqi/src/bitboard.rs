//! A set of squares as a `u128`: bit `rank * 9 + file`. Only the low 90 bits
//! are ever set.

use crate::types::{Square, FILES, RANKS, SQUARES};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of board squares: bit `rank * 9 + file` of the `u128` is set when
/// that square is in the set (rank 0 is Red's back rank, file 0 is `a`).
/// Only the low 90 bits are ever set. As an iterator it yields its squares
/// from the lowest index up, removing each as it goes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

/// The 90 board squares.
pub const BOARD_MASK: u128 = (1u128 << SQUARES) - 1;

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 90 squares.
    pub const FULL: Bitboard = Bitboard(BOARD_MASK);

    /// The set holding only `sq`.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    /// Whether `sq` is in the set.
    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        (self.0 >> sq.index()) & 1 != 0
    }

    /// Whether the set holds no square.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set holds at least one square.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// The number of squares in the set (a popcount).
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Adds `sq` to the set.
    #[inline(always)]
    pub fn set(&mut self, sq: Square) {
        self.0 |= 1u128 << sq.index();
    }

    /// Removes `sq` from the set.
    #[inline(always)]
    pub fn clear(&mut self, sq: Square) {
        self.0 &= !(1u128 << sq.index());
    }

    /// Adds `sq` if it is absent, removes it if present.
    #[inline(always)]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= 1u128 << sq.index();
    }

    /// The lowest square, if any.
    #[inline(always)]
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(
                self.0.trailing_zeros() as usize
            ))
        }
    }

    /// The nine bits of one rank, file `a` lowest.
    #[inline(always)]
    pub const fn rank_bits(self, rank: usize) -> usize {
        ((self.0 >> (rank * FILES)) as usize) & 0x1ff
    }

    /// The ten bits of one file, rank 0 lowest.
    #[inline]
    pub fn file_bits(self, file: usize) -> usize {
        let mut bits = 0;
        for rank in 0..RANKS {
            bits |= (((self.0 >> (rank * FILES + file)) & 1) as usize) << rank;
        }
        bits
    }

    /// Mirrors ranks (0 ↔ 9), the board seen from the other side.
    pub fn flip_ranks(self) -> Bitboard {
        self.into_iter()
            .map(|sq| Bitboard::from_square(sq.flip_rank()))
            .fold(Bitboard::EMPTY, |a, b| a | b)
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::from_index_unchecked(self.0.trailing_zeros() as usize);
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl BitXor for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    /// Complement within the 90 board squares.
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & BOARD_MASK)
    }
}

impl BitAndAssign for Bitboard {
    #[inline(always)]
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}

impl BitOrAssign for Bitboard {
    #[inline(always)]
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}

impl BitXorAssign for Bitboard {
    #[inline(always)]
    fn bitxor_assign(&mut self, rhs: Bitboard) {
        self.0 ^= rhs.0;
    }
}

impl std::fmt::Debug for Bitboard {
    /// Draws the board, rank 9 at the top.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for rank in (0..10).rev() {
            for file in 0..FILES {
                let c = if self.has(Square::new(file, rank)) {
                    'x'
                } else {
                    '.'
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
