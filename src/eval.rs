//! Static evaluation: material, with pawns worth more across the river.
//!
//! Scores are from the side to move's point of view; 100 is about one horse
//! or cannon (the UCCI convention). This is the plain evaluation that stands
//! behind the first search; the evaluation issue replaces it.

use crate::position::Position;
use crate::types::{Color, PieceKind};

/// Material value of each kind, king excluded.
pub const VALUES: [i32; 7] = [0, 40, 40, 100, 200, 100, 20];
/// Extra value of a pawn that has crossed the river.
const CROSSED_PAWN_BONUS: i32 = 25;

/// Sum of one side's material.
pub fn material(pos: &Position, color: Color) -> i32 {
    let mut total = 0;
    for kind in PieceKind::ALL {
        total += VALUES[kind.index()] * pos.pieces(color, kind).count() as i32;
    }
    let crossed = pos
        .pieces(color, PieceKind::Pawn)
        .filter(|&sq| !crate::attacks::on_own_side(color, sq))
        .count() as i32;
    total + crossed * CROSSED_PAWN_BONUS
}

/// Evaluation for the side to move.
pub fn evaluate(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    material(pos, us) - material(pos, us.flip())
}
