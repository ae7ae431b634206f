//! Properties checked over many random playouts with fixed seeds: from the
//! start position and from random sparse positions (where checks, pins and
//! facing kings are common).

mod common;

use common::{random_position, slow_legal_moves, Grid};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use xiangqi::{GenType, Move, MoveList, NoMoves, Position, Square};

/// Number of playouts of each kind (debug builds are slower: fewer there).
const PLAYOUTS: usize = if cfg!(debug_assertions) { 40 } else { 400 };
const MAX_PLIES: usize = 160;

/// Runs `check` on every position of many seeded random playouts.
fn for_each_playout_position(seed: u64, mut check: impl FnMut(&mut Position)) {
    let mut rng = StdRng::seed_from_u64(seed);
    for i in 0..2 * PLAYOUTS {
        let mut pos = if i % 2 == 0 {
            Position::startpos()
        } else {
            random_position(&mut rng)
        };
        for _ in 0..MAX_PLIES {
            check(&mut pos);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.random_range(0..moves.len())];
            pos.make_move(m);
        }
    }
}

fn sorted(list: &[Move]) -> Vec<Move> {
    let mut v = list.to_vec();
    v.sort_by_key(|m| m.raw());
    v
}

#[test]
fn make_unmake_restores_everything() {
    for_each_playout_position(1, |pos| {
        let before = pos.clone();
        let fen = pos.to_fen();
        for &m in pos.legal_moves().iter() {
            pos.make_move(m);
            assert_eq!(
                pos.key(),
                pos.compute_key(),
                "incremental key after {m} from {fen}"
            );
            if let Err(e) = pos.check_consistency() {
                panic!("after {m} from {fen}: {e}");
            }
            pos.unmake_move();
            if let Err(e) = pos.check_consistency() {
                panic!("after unmaking {m} from {fen}: {e}");
            }
            assert_eq!(*pos, before, "unmake {m} from {fen}");
            assert_eq!(
                pos.pieces_of(xiangqi::Color::Red),
                before.pieces_of(xiangqi::Color::Red)
            );
            assert_eq!(pos.occupied(), before.occupied());
            assert_eq!(pos.key(), before.key());
            assert_eq!(pos.history(), before.history());
        }
        pos.make_null_move();
        assert_eq!(
            pos.key(),
            pos.compute_key(),
            "key after null move from {fen}"
        );
        pos.unmake_move();
        assert_eq!(*pos, before, "null move undone from {fen}");
        assert_eq!(pos.key(), before.key());
        assert_eq!(pos.to_fen(), fen);
    });
}

#[test]
fn legal_moves_equal_slow_reference() {
    // The slow reference looks at all 8100 square pairs: fewer positions.
    let mut rng = StdRng::seed_from_u64(2);
    let mut checked = 0;
    let mut in_check = 0;
    for_each_playout_position(2, |pos| {
        if !rng.random_bool(0.15) {
            return;
        }
        let ours = sorted(&pos.legal_moves());
        let reference = slow_legal_moves(pos);
        assert_eq!(ours, reference, "legal moves of {}", pos.to_fen());
        checked += 1;
        in_check += pos.in_check() as usize;
    });
    assert!(checked > 500, "checked {checked}");
    assert!(in_check > 20, "only {in_check} positions in check");
}

#[test]
fn every_square_pair_is_legal_exactly_when_generated() {
    let mut rng = StdRng::seed_from_u64(3);
    for_each_playout_position(3, |pos| {
        if !rng.random_bool(0.1) {
            return;
        }
        let legal = pos.legal_moves();
        let grid = Grid::from_position(pos);
        for from in Square::all() {
            for to in Square::all() {
                let m = Move::new(from, to);
                let generated = legal.contains(&m);
                assert_eq!(pos.is_legal(m), generated, "{m} in {}", pos.to_fen());
                // Pseudo-legal moves filtered by the slow king-safety check.
                if pos.is_pseudo_legal(m) {
                    assert!(grid.can_move(common::coords(from), common::coords(to)));
                    let safe = !grid
                        .after(common::coords(from), common::coords(to))
                        .king_attacked(pos.side_to_move());
                    assert_eq!(safe, generated, "{m} in {}", pos.to_fen());
                } else {
                    assert!(!generated);
                }
            }
        }
    });
}

#[test]
fn captures_and_quiets_partition_all_moves() {
    for_each_playout_position(4, |pos| {
        let all = pos.legal_moves();
        let mut captures = MoveList::new();
        pos.generate(GenType::Captures, &mut captures);
        let mut quiets = MoveList::new();
        pos.generate(GenType::Quiets, &mut quiets);
        assert!(captures.iter().all(|&m| pos.is_capture(m)));
        assert!(quiets.iter().all(|&m| !pos.is_capture(m)));
        let mut union: Vec<Move> = captures.iter().chain(quiets.iter()).copied().collect();
        union.sort_by_key(|m| m.raw());
        let before = union.len();
        union.dedup();
        assert_eq!(union.len(), before, "captures and quiets overlap");
        assert_eq!(union, sorted(&all), "in {}", pos.to_fen());
        assert_eq!(pos.count_legal(), all.len() as u64);
    });
}

#[test]
fn gives_check_agrees_with_making_the_move() {
    let mut checks = 0;
    for_each_playout_position(7, |pos| {
        for m in pos.legal_moves().iter().copied() {
            let predicted = pos.gives_check(m);
            pos.make_move(m);
            let actual = pos.in_check();
            pos.unmake_move();
            assert_eq!(predicted, actual, "{m} in {}", pos.to_fen());
            checks += actual as usize;
        }
    });
    assert!(checks > 1000, "too few checking moves: {checks}");
}

#[test]
fn no_legal_move_is_a_loss_either_way() {
    let (mut mates, mut stalemates) = (0, 0);
    for_each_playout_position(5, |pos| match pos.no_moves() {
        None => assert!(!pos.legal_moves().is_empty()),
        Some(kind) => {
            assert!(pos.legal_moves().is_empty());
            assert_eq!(kind == NoMoves::Checkmate, pos.in_check());
            if kind == NoMoves::Checkmate {
                mates += 1;
            } else {
                stalemates += 1;
            }
        }
    });
    assert!(mates > 0, "no checkmate reached");
    assert!(stalemates > 0, "no stalemate reached");
}

#[test]
fn fen_and_move_text_round_trip() {
    for_each_playout_position(6, |pos| {
        let fen = pos.to_fen();
        let back = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(back, *pos);
        assert_eq!(back.key(), pos.key());
        assert_eq!(back.to_fen(), fen);
        for &m in pos.legal_moves().iter() {
            let text = m.to_string();
            assert_eq!(text.len(), 4);
            assert_eq!(pos.parse_move(&text), Ok(m));
            assert_eq!(Move::parse_iccs(&text), Ok(m));
            assert_eq!(Move::from_raw(m.raw()), Some(m));
        }
    });
}

#[test]
fn colour_flip_and_mirror_map_moves() {
    for_each_playout_position(7, |pos| {
        let flip = |m: Move| Move::new(m.from().flip_rank(), m.to().flip_rank());
        let mirror = |m: Move| Move::new(m.from().flip_file(), m.to().flip_file());
        let flipped: Vec<Move> = pos.legal_moves().iter().map(|&m| flip(m)).collect();
        assert_eq!(sorted(&flipped), sorted(&pos.color_flipped().legal_moves()));
        let mirrored: Vec<Move> = pos.legal_moves().iter().map(|&m| mirror(m)).collect();
        assert_eq!(
            sorted(&mirrored),
            sorted(&pos.file_mirrored().legal_moves())
        );
        assert_eq!(pos.in_check(), pos.color_flipped().in_check());
    });
}
