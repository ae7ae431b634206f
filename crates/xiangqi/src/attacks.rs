//! Precomputed move tables, all built at compile time.
//!
//! Leapers (king, advisor, elephant, horse, pawn) use per-square tables; the
//! elephant and horse tables are indexed by which of their four "eye"/"leg"
//! squares are blocked. Rooks and cannons use line tables indexed by the
//! occupancy of one rank (9 bits) or one file (10 bits), in the spirit of
//! ElephantEye's bit-ranks and bit-files.

use crate::bitboard::Bitboard;
use crate::types::{Color, Square, FILES, RANKS, SQUARES};

/// Marks a missing neighbour in the leg and eye tables.
pub const NO_SQUARE: u8 = 0xff;

const fn on_board(file: i32, rank: i32) -> bool {
    file >= 0 && file < FILES as i32 && rank >= 0 && rank < RANKS as i32
}

const fn idx(file: i32, rank: i32) -> usize {
    (rank * FILES as i32 + file) as usize
}

/// Whether (file, rank) lies in either palace.
pub const fn in_palace(file: i32, rank: i32) -> bool {
    file >= 3 && file <= 5 && (rank <= 2 || rank >= 7) && rank >= 0 && rank <= 9
}

/// Whether a square lies in `color`'s palace.
pub const fn in_own_palace(color: Color, sq: Square) -> bool {
    let (f, r) = (sq.file(), sq.rank());
    f >= 3
        && f <= 5
        && match color {
            Color::Red => r <= 2,
            Color::Black => r >= 7,
        }
}

/// Whether a square is on `color`'s own side of the river.
pub const fn on_own_side(color: Color, sq: Square) -> bool {
    match color {
        Color::Red => sq.rank() <= 4,
        Color::Black => sq.rank() >= 5,
    }
}

const ORTHO: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];

const fn step_table(dirs: [(i32, i32); 4], palace: bool) -> [u128; SQUARES] {
    let mut t = [0u128; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let (f, r) = ((s % FILES) as i32, (s / FILES) as i32);
        let mut d = 0;
        while d < 4 {
            let (nf, nr) = (f + dirs[d].0, r + dirs[d].1);
            // A palace step stays within the same palace (ranks never jump the river).
            if on_board(nf, nr) && (!palace || (in_palace(f, r) && in_palace(nf, nr))) {
                t[s] |= 1u128 << idx(nf, nr);
            }
            d += 1;
        }
        s += 1;
    }
    t
}

/// King steps inside the palace the square belongs to.
pub static KING_STEPS: [u128; SQUARES] = step_table(ORTHO, true);
/// Advisor steps inside the palace the square belongs to.
pub static ADVISOR_STEPS: [u128; SQUARES] = step_table(DIAG, true);

/// For each square, its four orthogonal neighbours (horse legs), or `NO_SQUARE`.
pub static ORTHO_NEIGHBOURS: [[u8; 4]; SQUARES] = neighbours(ORTHO);
/// For each square, its four diagonal neighbours (elephant eyes, and the legs
/// of horses attacking the square), or `NO_SQUARE`.
pub static DIAG_NEIGHBOURS: [[u8; 4]; SQUARES] = neighbours(DIAG);

const fn neighbours(dirs: [(i32, i32); 4]) -> [[u8; 4]; SQUARES] {
    let mut t = [[NO_SQUARE; 4]; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let (f, r) = ((s % FILES) as i32, (s / FILES) as i32);
        let mut d = 0;
        while d < 4 {
            let (nf, nr) = (f + dirs[d].0, r + dirs[d].1);
            if on_board(nf, nr) {
                t[s][d] = idx(nf, nr) as u8;
            }
            d += 1;
        }
        s += 1;
    }
    t
}

/// Horse targets by square and by mask of blocked legs (bit `d` set: the leg
/// `ORTHO_NEIGHBOURS[sq][d]` is occupied).
pub static HORSE_TARGETS: [[u128; 16]; SQUARES] = horse_targets();

const fn horse_targets() -> [[u128; 16]; SQUARES] {
    let mut t = [[0u128; 16]; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let (f, r) = ((s % FILES) as i32, (s / FILES) as i32);
        let mut mask = 0;
        while mask < 16 {
            let mut d = 0;
            while d < 4 {
                if mask & (1 << d) == 0 {
                    let (df, dr) = ORTHO[d];
                    // Two targets per leg: two steps along the leg, one aside.
                    let (bf, br) = (f + 2 * df, r + 2 * dr);
                    let (sf, sr) = (dr, df);
                    if on_board(bf + sf, br + sr) {
                        t[s][mask] |= 1u128 << idx(bf + sf, br + sr);
                    }
                    if on_board(bf - sf, br - sr) {
                        t[s][mask] |= 1u128 << idx(bf - sf, br - sr);
                    }
                }
                d += 1;
            }
            mask += 1;
        }
        s += 1;
    }
    t
}

/// Squares from which a horse attacks the square, by mask of blocked diagonal
/// neighbours (bit `d` set: `DIAG_NEIGHBOURS[sq][d]` is occupied). A horse's
/// leg is orthogonally next to the horse and diagonally next to its target.
pub static HORSE_ATTACKERS: [[u128; 16]; SQUARES] = horse_attackers();

const fn horse_attackers() -> [[u128; 16]; SQUARES] {
    let mut t = [[0u128; 16]; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let (f, r) = ((s % FILES) as i32, (s / FILES) as i32);
        let mut mask = 0;
        while mask < 16 {
            let mut d = 0;
            while d < 4 {
                let (df, dr) = DIAG[d];
                if mask & (1 << d) == 0 && on_board(f + df, r + dr) {
                    if on_board(f + 2 * df, r + dr) {
                        t[s][mask] |= 1u128 << idx(f + 2 * df, r + dr);
                    }
                    if on_board(f + df, r + 2 * dr) {
                        t[s][mask] |= 1u128 << idx(f + df, r + 2 * dr);
                    }
                }
                d += 1;
            }
            mask += 1;
        }
        s += 1;
    }
    t
}

/// Elephant targets by square and mask of blocked eyes (bit `d`:
/// `DIAG_NEIGHBOURS[sq][d]` occupied). Elephants never cross the river.
pub static ELEPHANT_TARGETS: [[u128; 16]; SQUARES] = elephant_targets();

const fn elephant_targets() -> [[u128; 16]; SQUARES] {
    let mut t = [[0u128; 16]; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let (f, r) = ((s % FILES) as i32, (s / FILES) as i32);
        let mut mask = 0;
        while mask < 16 {
            let mut d = 0;
            while d < 4 {
                let (df, dr) = DIAG[d];
                let (tf, tr) = (f + 2 * df, r + 2 * dr);
                let same_side = (r <= 4) == (tr <= 4);
                if mask & (1 << d) == 0 && on_board(tf, tr) && same_side {
                    t[s][mask] |= 1u128 << idx(tf, tr);
                }
                d += 1;
            }
            mask += 1;
        }
        s += 1;
    }
    t
}

/// Pawn moves by colour and square: forward, plus sideways once across the river.
pub static PAWN_STEPS: [[u128; SQUARES]; 2] = [pawn_steps(Color::Red), pawn_steps(Color::Black)];

const fn pawn_steps(color: Color) -> [u128; SQUARES] {
    let mut t = [0u128; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let (f, r) = ((s % FILES) as i32, (s / FILES) as i32);
        let (fwd, crossed) = match color {
            Color::Red => (1, r >= 5),
            Color::Black => (-1, r <= 4),
        };
        if on_board(f, r + fwd) {
            t[s] |= 1u128 << idx(f, r + fwd);
        }
        if crossed {
            if on_board(f - 1, r) {
                t[s] |= 1u128 << idx(f - 1, r);
            }
            if on_board(f + 1, r) {
                t[s] |= 1u128 << idx(f + 1, r);
            }
        }
        s += 1;
    }
    t
}

/// Squares from which a pawn of the given colour attacks the square.
pub static PAWN_ATTACKERS: [[u128; SQUARES]; 2] =
    [pawn_attackers(Color::Red), pawn_attackers(Color::Black)];

const fn pawn_attackers(color: Color) -> [u128; SQUARES] {
    let steps = pawn_steps(color);
    let mut t = [0u128; SQUARES];
    let mut from = 0;
    while from < SQUARES {
        let mut to = 0;
        while to < SQUARES {
            if steps[from] & (1u128 << to) != 0 {
                t[to] |= 1u128 << from;
            }
            to += 1;
        }
        from += 1;
    }
    t
}

/// What a rook and a cannon reach along one line, as bit masks of that line.
#[derive(Clone, Copy)]
pub struct Slide {
    /// Empty squares up to and including the first piece in each direction.
    pub rook: u16,
    /// The second piece in each direction (a cannon's capture over one screen).
    pub cannon: u16,
}

const fn slide_line<const N: usize, const OCC: usize>() -> [[Slide; OCC]; N] {
    let mut t = [[Slide { rook: 0, cannon: 0 }; OCC]; N];
    let mut pos = 0;
    while pos < N {
        let mut occ = 0;
        while occ < OCC {
            let mut rook = 0u16;
            let mut cannon = 0u16;
            let mut dir = 0;
            while dir < 2 {
                let step: i32 = if dir == 0 { 1 } else { -1 };
                let mut p = pos as i32 + step;
                let mut screens = 0;
                while p >= 0 && p < N as i32 {
                    let occupied = occ & (1 << p) != 0;
                    if screens == 0 {
                        rook |= 1 << p;
                    }
                    if occupied {
                        screens += 1;
                        if screens == 2 {
                            cannon |= 1 << p;
                            break;
                        }
                    }
                    p += step;
                }
                dir += 1;
            }
            t[pos][occ] = Slide { rook, cannon };
            occ += 1;
        }
        pos += 1;
    }
    t
}

/// Line moves along a rank: `RANK_SLIDE[file][rank occupancy]`.
pub static RANK_SLIDE: [[Slide; 1 << FILES]; FILES] = slide_line::<FILES, { 1 << FILES }>();
/// Line moves along a file: `FILE_SLIDE[rank][file occupancy]`.
pub static FILE_SLIDE: [[Slide; 1 << RANKS]; RANKS] = slide_line::<RANKS, { 1 << RANKS }>();

/// Spreads a 10-bit file mask onto file `a` of a bitboard (bit `r` → square
/// `r * 9`); shift left by the file to place it.
pub static FILE_SPREAD: [u128; 1 << RANKS] = file_spread();

const fn file_spread() -> [u128; 1 << RANKS] {
    let mut t = [0u128; 1 << RANKS];
    let mut m = 0;
    while m < 1 << RANKS {
        let mut r = 0;
        while r < RANKS {
            if m & (1 << r) != 0 {
                t[m] |= 1u128 << (r * FILES);
            }
            r += 1;
        }
        m += 1;
    }
    t
}

/// All squares of a rank.
pub const fn rank_mask(rank: usize) -> Bitboard {
    Bitboard(0x1ffu128 << (rank * FILES))
}

/// All squares of a file.
pub const fn file_mask(file: usize) -> Bitboard {
    Bitboard(FILE_SPREAD[(1 << RANKS) - 1] << file)
}

/// Rook and cannon targets from `sq` given the occupancy of its rank (9 bits)
/// and of its file (10 bits). Returns (rook reach incl. first blockers,
/// cannon capture squares).
#[inline(always)]
pub fn line_attacks(sq: Square, rank_occ: usize, file_occ: usize) -> (Bitboard, Bitboard) {
    let (f, r) = (sq.file(), sq.rank());
    let rs = RANK_SLIDE[f][rank_occ];
    let fs = FILE_SLIDE[r][file_occ];
    let shift = r * FILES;
    let rook = ((rs.rook as u128) << shift) | (FILE_SPREAD[fs.rook as usize] << f);
    let cannon = ((rs.cannon as u128) << shift) | (FILE_SPREAD[fs.cannon as usize] << f);
    (Bitboard(rook), Bitboard(cannon))
}

/// Mask of blocked neighbours (bit `d` set when `table[sq][d]` is occupied),
/// without a branch: an off-board neighbour (`NO_SQUARE`) reads bit 127,
/// above the board's squares, which no occupancy has, so it reads as empty
/// (its targets are off the board anyway).
#[inline(always)]
pub fn blocked_mask(table: &[[u8; 4]; SQUARES], sq: Square, occ: Bitboard) -> usize {
    const _: () = assert!((NO_SQUARE & 127) as usize >= SQUARES);
    debug_assert_eq!(
        occ.0 >> SQUARES,
        0,
        "an occupancy has only the board's squares"
    );
    let n = &table[sq.index()];
    let bit = |d: usize| (((occ.0 >> (n[d] & 127)) & 1) as usize) << d;
    bit(0) | bit(1) | bit(2) | bit(3)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).expect("test square")
    }

    #[test]
    fn horse_in_the_open_has_eight_targets() {
        assert_eq!(HORSE_TARGETS[sq("e4").index()][0].count_ones(), 8);
        assert_eq!(HORSE_TARGETS[sq("a0").index()][0].count_ones(), 2);
    }

    #[test]
    fn horse_attackers_mirror_horse_targets() {
        for (s, targets) in HORSE_TARGETS.iter().enumerate() {
            for (t, attackers) in HORSE_ATTACKERS.iter().enumerate() {
                let fwd = targets[0] >> t & 1;
                let back = attackers[0] >> s & 1;
                assert_eq!(fwd, back, "{s} {t}");
            }
        }
    }

    #[test]
    fn elephant_stays_home() {
        let t = ELEPHANT_TARGETS[sq("c4").index()][0];
        assert_eq!(Bitboard(t).count(), 2); // a2 and e2, not across the river
    }

    #[test]
    fn slide_tables() {
        // Rook on e0 with pieces on b0 and h0 and g0.
        let occ = (1 << 1) | (1 << 4) | (1 << 6) | (1 << 7);
        let s = RANK_SLIDE[4][occ];
        assert_eq!(s.rook, (1 << 1) | (1 << 2) | (1 << 3) | (1 << 5) | (1 << 6));
        assert_eq!(s.cannon, 1 << 7);
        assert_eq!(file_mask(8).count(), 10);
        assert_eq!(rank_mask(9).count(), 9);
    }
}
