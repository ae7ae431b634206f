//! The rules inside the search: what the search scores and plays when a
//! repetition, the move limit or a mate is in reach.

mod common;

use chariot::eval::Knowledge;
use chariot::search::{mate_plies, Limits, Outcome, Selectivity, MATE, RULE_WIN};
use chariot::settings::Level;
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

const MATE_IN_3: &str = "2r1kaR2/3na4/1R6c/3Np3p/9/C1P3B1P/P3P4/9/4A4/3A1KB2 w - - 0 1";
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

#[test]
fn a_soldiers_mate_is_not_pruned_away() {
    // Red mates in 6 with two soldiers (tests/tactics.txt line 77, case
    // 48 of scripts/measure/tactics_clock.py:
    // d7d8 d9e9 f5f6 e8d7 f6e6 e9f9 e6e7 f9e9 e7d7 e9f9 d8e8). Neither side
    // has a rook, a horse or a cannon, so no move is pruned, and the
    // soldiers' quiet moves late in the order are searched: the mate is
    // seen at its length, 11 plies. Pruned as in the middlegame, it was
    // seen only at depth 13, as a mate in 7.
    let pos = play("3k5/4a4/3P5/9/5P3/2B6/9/4B4/3KA4/9 w - - 0 1", "");
    let out = search_depth(&pos, 11);
    assert_eq!(out.score, MATE - 11, "{out:?}");
    assert_eq!(
        out.best.map(|m| m.to_string()).as_deref(),
        Some("d7d8"),
        "{out:?}"
    );
}

/// The `pruning` levels (UCCI's option) as the engine maps them.
fn levels() -> Vec<(&'static str, Selectivity)> {
    Level::ALL
        .into_iter()
        .map(|l| (l.name(), l.selectivity()))
        .collect()
}

fn search_cut(pos: &Position, depth: u32, cuts: Selectivity) -> Outcome {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    common::search_styled(pos, limits, cuts, Knowledge::Full)
}

#[test]
fn each_pruning_level_cuts_less_than_the_next_and_all_find_the_mate() {
    // Over a spread of the bench positions (every fifth: openings,
    // middlegames, endgames), every level that cuts more searches fewer
    // nodes to the same depth. One position alone does not show it at a
    // shallow depth: from the start, at depth 6 and 7, "medium" searches
    // more nodes than "small" (since the linear history bonus); at depth 8
    // fewer.
    let positions: Vec<Position> = chariot::bench::POSITIONS
        .iter()
        .step_by(5)
        .map(|fen| Position::from_fen(fen).expect("bench position"))
        .collect();
    let nodes: Vec<(&str, u64)> = levels()
        .iter()
        .map(|&(name, cuts)| {
            let per_position = positions.iter().map(|p| search_cut(p, 6, cuts).nodes);
            (name, per_position.sum())
        })
        .collect();
    for pair in nodes.windows(2) {
        assert!(pair[0].1 > pair[1].1, "{nodes:?}");
    }
    // A mate in 3 (from the tactics suite) is found at every level: by the
    // full-width search at its exact depth (5 plies), by the selective
    // ones by depth 24, where their cuts no longer hide it. How deep they
    // need depends on the net, the ordering and the pruning; its history
    // is in docs/history/search.md, "The depth that finds the mate in 3".
    let pos = play(MATE_IN_3, "");
    for (name, cuts) in levels() {
        let depth = if cuts == Selectivity::NONE { 5 } else { 24 };
        let out = search_cut(&pos, depth, cuts);
        assert_eq!(mate_plies(out.score), Some(5), "pruning {name}: {out:?}");
    }
}

#[test]
fn every_knowledge_level_sees_a_rook_up() {
    let pos = play(
        "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "",
    );
    for knowledge in [Knowledge::Material, Knowledge::PieceSquare, Knowledge::Full] {
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        let out = common::search_styled(&pos, limits, Selectivity::FULL, knowledge);
        assert!(out.score > 300, "{knowledge:?}: {out:?}");
    }
}
