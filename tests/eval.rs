//! The evaluation over seeded random playouts: symmetric under swapping the
//! colours and under mirroring the board, and its incremental state always
//! equal to a fresh computation (`psq_from_scratch` is the oracle).

mod common;

use chariot::eval::{evaluate, evaluate_fresh, psq_from_scratch, EvalState};
use common::random_position;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use xiangqi::{Color, Position};

const PLAYOUTS: usize = if cfg!(debug_assertions) { 40 } else { 400 };
const MAX_PLIES: usize = 160;

/// Runs `check` on every position of seeded random playouts (half from the
/// start, half from random sparse positions), with the evaluator's state
/// carried along incrementally as a search carries it.
fn for_each_playout_position(seed: u64, mut check: impl FnMut(&Position, &EvalState)) {
    let mut rng = StdRng::seed_from_u64(seed);
    for i in 0..2 * PLAYOUTS {
        let mut pos = if i % 2 == 0 {
            Position::startpos()
        } else {
            random_position(&mut rng)
        };
        let mut state = EvalState::new(&pos);
        for _ in 0..MAX_PLIES {
            check(&pos, &state);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[rng.random_range(0..moves.len())]);
            let change = pos.last_change().expect("a move was made");
            state.apply(&change);
        }
    }
}

#[test]
fn evaluation_is_symmetric_under_colour_flip_and_mirror() {
    for_each_playout_position(11, |pos, state| {
        let v = evaluate(pos, state);
        assert_eq!(
            v,
            evaluate_fresh(&pos.color_flipped()),
            "{pos:?} colour-flipped"
        );
        assert_eq!(v, evaluate_fresh(&pos.file_mirrored()), "{pos:?} mirrored");
    });
}

#[test]
fn incremental_material_and_piece_squares_match_a_fresh_sum() {
    for_each_playout_position(12, |pos, state| {
        for c in Color::ALL {
            assert_eq!(state.psq(c), psq_from_scratch(pos, c), "{pos:?}");
        }
    });
}
