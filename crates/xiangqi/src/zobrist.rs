//! Zobrist keys from a fixed seed, built at compile time so that hash keys (and
//! therefore search behaviour) are identical on every run and machine.

use crate::types::{Piece, Square, SQUARES};

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

const SEED: u64 = 0x0c4a_710e_5eed_2026;

const fn piece_keys() -> [[u64; SQUARES]; 16] {
    let mut keys = [[0u64; SQUARES]; 16];
    let mut state = SEED;
    let mut p = 1; // piece code 0 is "no piece" and keeps zero keys
    while p < 16 {
        let mut s = 0;
        while s < SQUARES {
            let (next, k) = splitmix64(state);
            state = next;
            keys[p][s] = k;
            s += 1;
        }
        p += 1;
    }
    keys
}

static PIECE_KEYS: [[u64; SQUARES]; 16] = piece_keys();

/// Key toggled when Black is to move.
pub const SIDE_KEY: u64 = splitmix64(SEED ^ 0x5eed_0000_0000_51de).1;

/// Key of a piece standing on a square (zero for `Piece::NONE`).
#[inline(always)]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    PIECE_KEYS[piece.index()][sq.index()]
}
