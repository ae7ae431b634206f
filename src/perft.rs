//! Perft: counts the leaf nodes of the legal move tree, the standard proof of
//! a move generator.

use crate::position::Position;
use crate::types::Move;

/// Number of legal move paths of length `depth` from `pos`.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    #[cfg(debug_assertions)]
    if let Err(e) = pos.check_consistency() {
        panic!("inconsistent position {pos:?}: {e}");
    }
    match depth {
        0 => 1,
        // Bulk counting: the last ply is counted, not played.
        1 => pos.count_legal(),
        _ => {
            let moves = pos.legal_moves();
            let mut nodes = 0;
            for &m in moves.iter() {
                pos.make_move(m);
                nodes += perft(pos, depth - 1);
                pos.unmake_move();
            }
            nodes
        }
    }
}

/// Perft split by root move ("divide"), in generation order.
pub fn perft_divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = pos.legal_moves();
    moves
        .iter()
        .map(|&m| {
            pos.make_move(m);
            let n = perft(pos, depth - 1);
            pos.unmake_move();
            (m, n)
        })
        .collect()
}
