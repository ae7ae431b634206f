//! Perft from the data file tests/perft.txt (numbers cross-checked against
//! fairy-stockfish and pyffish by scripts/oracles/crosscheck_perft.py).

use xiangqi::perft::perft;
use xiangqi::{GenType, MoveList, Position};

struct Row {
    line: usize,
    name: String,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn rows() -> Vec<Row> {
    let text = include_str!("perft.txt");
    let mut rows = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parts: Vec<&str> = line.split(';').map(str::trim).collect();
        assert_eq!(
            parts.len(),
            3,
            "perft.txt line {}: want name ; fen ; counts",
            i + 1
        );
        let counts = parts[2]
            .split_whitespace()
            .map(|c| {
                let (d, n) = c.split_once('=').expect("depth=count");
                (d.parse().expect("depth"), n.parse().expect("count"))
            })
            .collect();
        rows.push(Row {
            line: i + 1,
            name: parts[0].to_string(),
            fen: parts[1].to_string(),
            counts,
        });
    }
    rows
}

/// Largest count run by the bulk-counting perft; release builds have no
/// limit and run every count.
const BULK_LIMIT: Option<u64> = if cfg!(debug_assertions) {
    Some(2_000_000)
} else {
    None
};

/// Largest count run by the list-based perft that plays every leaf.
const FULL_LIMIT: u64 = if cfg!(debug_assertions) {
    100_000
} else {
    5_000_000
};

#[test]
fn perft_file_is_well_formed() {
    let rows = rows();
    assert!(rows.len() >= 23, "the suite has {} rows", rows.len());
    let mut names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), rows.len(), "row names are unique");
    for r in &rows {
        let pos = Position::from_fen(&r.fen)
            .unwrap_or_else(|e| panic!("line {} {}: {e}", r.line, r.name));
        assert_eq!(pos.to_fen(), r.fen, "line {}: FEN round-trips", r.line);
    }
}

#[test]
fn perft_bulk_counting() {
    let mut ran = 0;
    for r in rows() {
        let mut pos = Position::from_fen(&r.fen).expect("valid FEN");
        for &(depth, expected) in &r.counts {
            if BULK_LIMIT.is_some_and(|limit| expected > limit) {
                continue;
            }
            let got = perft(&mut pos, depth);
            assert_eq!(got, expected, "line {} {} depth {depth}", r.line, r.name);
            ran += 1;
        }
        assert_eq!(
            pos.to_fen(),
            r.fen,
            "{}: perft restores the position",
            r.name
        );
    }
    assert!(ran > 100, "only {ran} perft counts ran");
}

/// Perft that plays every move, leaves included, from captures and quiet
/// moves generated separately: checks list generation and make/unmake, not
/// just counting.
fn perft_split(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.generate(GenType::Captures, &mut list);
    let captures = list.len();
    pos.generate(GenType::Quiets, &mut list);
    let mut nodes = 0;
    for (i, &m) in list.iter().enumerate() {
        assert_eq!(pos.is_capture(m), i < captures, "{m} in {pos:?}");
        let key = pos.key();
        pos.make_move(m);
        assert_eq!(pos.key(), pos.compute_key());
        nodes += perft_split(pos, depth - 1);
        pos.unmake_move();
        assert_eq!(pos.key(), key);
    }
    nodes
}

#[test]
fn perft_split_generation() {
    let mut ran = 0;
    for r in rows() {
        let mut pos = Position::from_fen(&r.fen).expect("valid FEN");
        for &(depth, expected) in &r.counts {
            if expected > FULL_LIMIT {
                continue;
            }
            let got = perft_split(&mut pos, depth);
            assert_eq!(got, expected, "line {} {} depth {depth}", r.line, r.name);
            ran += 1;
        }
    }
    assert!(ran > 80, "only {ran} perft counts ran");
}

#[test]
fn perft_is_colour_and_mirror_symmetric() {
    for r in rows() {
        let mut pos = Position::from_fen(&r.fen).expect("valid FEN");
        let Some(&(depth, expected)) = r.counts.iter().rfind(|(_, n)| *n <= 200_000) else {
            continue;
        };
        let mut flipped = pos.color_flipped();
        let mut mirrored = pos.file_mirrored();
        assert_eq!(
            perft(&mut flipped, depth),
            expected,
            "{} colour-flipped",
            r.name
        );
        assert_eq!(perft(&mut mirrored, depth), expected, "{} mirrored", r.name);
        assert_eq!(perft(&mut pos, depth), expected, "{}", r.name);
    }
}

#[test]
fn rows_without_moves_end_the_game_as_named() {
    use xiangqi::NoMoves;
    let mut seen = 0;
    for r in rows() {
        let pos = Position::from_fen(&r.fen).expect("valid FEN");
        let expected = if r.name.starts_with("stalemate") {
            Some(NoMoves::Stalemate)
        } else if r.name.starts_with("checkmate") {
            Some(NoMoves::Checkmate)
        } else {
            None
        };
        assert_eq!(pos.no_moves(), expected, "{}", r.name);
        seen += expected.is_some() as usize;
    }
    assert!(seen >= 3, "stalemate and checkmate rows are in the file");
}
