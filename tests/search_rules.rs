//! The rules inside the search: what the search scores and plays when a
//! repetition, the move limit or a mate is in reach.

mod common;

use chariot::search::{mate_plies, Limits, Outcome, MATE, RULE_WIN};
use xiangqi::Position;

fn play(fen: &str, moves: &str) -> Position {
    let mut pos = Position::from_fen(fen).expect("test FEN");
    for text in moves.split_whitespace() {
        let m = pos.parse_move(text).expect("test move");
        pos.make_move(m);
    }
    pos
}

fn search_depth(pos: &Position, depth: u32) -> Outcome {
    common::search_with(
        pos,
        Limits {
            depth: Some(depth),
            ..Limits::default()
        },
    )
}

const ROOK_CHECKS: &str = "3k5/9/9/9/9/9/9/9/4R4/5K3 w - - 0 1";
const CYCLE: &str = "e1d1 d9e9 d1e1 e9d9";

#[test]
fn a_perpetual_check_is_avoided() {
    // The rook has checked on every move of two cycles; checking once more
    // repeats the position a third time and loses, so another move is played.
    let pos = play(ROOK_CHECKS, &format!("{CYCLE} {CYCLE}"));
    let out = search_depth(&pos, 6);
    let best = out.best.map(|m| m.to_string());
    assert_ne!(best.as_deref(), Some("e1d1"), "{out:?}");
    assert!(out.score > 100, "a rook up: {out:?}");
}

#[test]
fn the_perpetual_checker_is_scored_as_losing() {
    // Black to move after Red's checks: the position repeats for the third
    // time whatever the king does next and Red checked throughout, so Black,
    // the side checked, is scored as winning by the rules.
    let pos = play(ROOK_CHECKS, &format!("{CYCLE} {CYCLE} e1d1"));
    let out = search_depth(&pos, 4);
    assert_eq!(
        out.best.map(|m| m.to_string()).as_deref(),
        Some("d9e9"),
        "{out:?}"
    );
    assert!(out.score >= RULE_WIN - 10, "{out:?}");
}

#[test]
fn the_move_limit_draws_a_won_ending() {
    // A rook up but 119 plies without a capture: any move but a capture or a
    // mate ends the game drawn.
    let pos = play("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 119 100", "");
    let out = search_depth(&pos, 6);
    assert_eq!(out.score, 0, "{out:?}");
    let fresh = play("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 100", "");
    assert!(search_depth(&fresh, 6).score > 100);
}

#[test]
fn mates_are_scored_by_distance() {
    // Mate in one: the rook to the back rank (a1a9); the king is boxed in by
    // its own advisors and by the flying general on the d file. (a1e1, which
    // leaves Black no legal move, wins as fast.)
    let pos = play("4ka3/4a4/9/9/9/9/9/9/R8/3K5 w - - 0 1", "");
    let out = search_depth(&pos, 4);
    let best = out.best.map(|m| m.to_string());
    assert!(matches!(best.as_deref(), Some("a1a9" | "a1e1")), "{out:?}");
    assert_eq!(out.score, MATE - 1);
    // A deeper search keeps the shortest mate.
    assert_eq!(search_depth(&pos, 9).score, MATE - 1);
}

#[test]
fn stalemate_is_a_loss() {
    // Black to move has no legal move and is not in check: a loss.
    let pos = play("3k5/R8/9/9/9/9/9/4R4/9/5K3 b - - 0 1", "");
    assert!(pos.legal_moves().is_empty());
    // One move earlier Red finds the stalemating move as a win.
    let before = play("3k5/9/R8/9/9/9/9/4R4/9/5K3 w - - 0 1", "");
    let out = search_depth(&before, 4);
    assert!(mate_plies(out.score).is_some_and(|p| p > 0), "{out:?}");
}
