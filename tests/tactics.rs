//! The tactics suite: tests/tactics.txt holds positions mined from
//! fairy-stockfish games, with the moves fairy-stockfish proves best (made and
//! re-checked by scripts/data/make_tactics.py). Chariot searches each one with one
//! thread and a fixed node budget; a position is solved when the best move is
//! among the accepted ones and, for `mate N`, the score proves the win (a mate,
//! or a win by rule when the defender's only way out is a perpetual check).
//!
//! Line format: `<FEN> ; <kind> ; <accepted ICCS moves> ; <note>`, kind
//! `mate N` (N = 1..7) or `win`; `#` starts a comment line.

mod common;

use chariot::search::{mate_plies, Limits, MATE_BOUND, MAX_PLY, RULE_WIN};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;
use xiangqi::Position;

/// Node budget of each search.
const NODES: u64 = 2_000_000;
/// Share of the suite that must be solved, in percent.
const REQUIRED_PERCENT: usize = 95;
/// The suite's size and the per-kind minimums the script also enforces.
const MIN_POSITIONS: usize = 70;

const SUITE: &str = include_str!("tactics.txt");

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// The side to move mates in this many moves.
    Mate(u32),
    /// The side to move wins material.
    Win,
}

struct Case {
    line: usize,
    fen: String,
    kind: Kind,
    accepted: Vec<String>,
    note: String,
}

fn parse_kind(text: &str) -> Result<Kind, String> {
    if text == "win" {
        return Ok(Kind::Win);
    }
    let n = text
        .strip_prefix("mate ")
        .and_then(|n| n.parse::<u32>().ok())
        .filter(|n| (1..=7).contains(n))
        .ok_or_else(|| format!("kind {text:?} is neither `mate N` (N = 1..7) nor `win`"))?;
    Ok(Kind::Mate(n))
}

/// Parses the suite, checking every FEN and accepted move with Chariot's own
/// rules (fairy-stockfish and pyffish check them in the script).
fn parse_suite(text: &str) -> Result<Vec<Case>, String> {
    let mut cases = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let raw = raw.trim();
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = raw.split(" ; ").map(str::trim).collect();
        let [fen, kind, moves, note] = fields[..] else {
            return Err(format!("line {line}: {} fields, expected 4", fields.len()));
        };
        let pos = Position::from_fen(fen).map_err(|e| format!("line {line}: {e}"))?;
        let kind = parse_kind(kind).map_err(|e| format!("line {line}: {e}"))?;
        let accepted: Vec<String> = moves.split_whitespace().map(str::to_owned).collect();
        if accepted.is_empty() {
            return Err(format!("line {line}: no accepted move"));
        }
        for m in &accepted {
            pos.parse_move(m)
                .map_err(|e| format!("line {line}: accepted move {m}: {e}"))?;
        }
        cases.push(Case {
            line,
            fen: fen.to_owned(),
            kind,
            accepted,
            note: note.to_owned(),
        });
    }
    Ok(cases)
}

fn suite() -> Vec<Case> {
    parse_suite(SUITE).unwrap_or_else(|e| panic!("tests/tactics.txt: {e}"))
}

/// What a search answered.
struct Answer {
    best: Option<String>,
    /// Plies to mate (positive when the side to move mates), if a mate score.
    mate_plies: Option<i32>,
    score: i32,
}

/// One thread, `nodes` nodes, no time limit, fresh tables.
fn think(pos: &Position, nodes: u64) -> Answer {
    let outcome = common::search_with(
        pos,
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        },
    );
    Answer {
        best: outcome.best.map(|m| m.to_string()),
        mate_plies: mate_plies(outcome.score),
        score: outcome.score,
    }
}

impl Answer {
    /// The search proved a win for the side to move: a mate, or a win by
    /// rule (the defender's only escape from the mate is a perpetual check,
    /// which loses; the positions come without history, so nothing else can
    /// make a rule win here).
    fn proves_win(&self) -> bool {
        self.mate_plies.is_some_and(|p| p > 0)
            || (RULE_WIN - MAX_PLY as i32..MATE_BOUND).contains(&self.score)
    }
}

#[test]
fn suite_is_well_formed() {
    let cases = suite();
    assert!(
        cases.len() >= MIN_POSITIONS,
        "{} positions, want at least {MIN_POSITIONS}",
        cases.len()
    );
    // The minimums scripts/data/make_tactics.py enforces (MIN_COUNTS).
    let least = |kind: Kind| match kind {
        Kind::Mate(1..=3) => 5,
        Kind::Mate(_) => 1,
        Kind::Win => 20,
    };
    for kind in (1..=7).map(Kind::Mate).chain([Kind::Win]) {
        let n = cases.iter().filter(|c| c.kind == kind).count();
        assert!(
            n >= least(kind),
            "{n} positions of kind {kind:?}, want {}",
            least(kind)
        );
    }
}

#[test]
fn parser_rejects_bad_lines() {
    let start = xiangqi::START_FEN;
    for bad in [
        format!("{start} ; mate 1"),
        format!("{start} ; mate 8 ; h2e2 ; x"),
        format!("{start} ; draw ; h2e2 ; x"),
        format!("{start} ; win ; h2e9 ; x"),
        format!("{start} ; win ;  ; x"),
        "9/9 w ; win ; h2e2 ; x".to_owned(),
    ] {
        assert!(parse_suite(&bad).is_err(), "accepted {bad:?}");
    }
    assert!(parse_suite(&format!("# c\n\n{start} ; win ; h2e2 b2e2 ; x\n")).is_ok());
}

/// Only meaningful with optimisations: a debug build searches about ten times
/// slower, and the budget is in nodes, so it would only make the run long.
#[test]
#[cfg_attr(debug_assertions, ignore)]
fn tactics_suite() {
    let cases = suite();
    let start = Instant::now();
    // Each position is one single-threaded search with fresh tables, so its
    // answer does not depend on what runs beside it: as many positions at
    // once as there are cores.
    let workers = std::thread::available_parallelism().map_or(1, usize::from);
    let next = AtomicUsize::new(0);
    let mut answers: Vec<(usize, Answer)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(case) = cases.get(i) else {
                            return mine;
                        };
                        let Ok(pos) = Position::from_fen(&case.fen) else {
                            panic!("line {}: bad FEN (parse_suite checked it)", case.line);
                        };
                        mine.push((i, think(&pos, NODES)));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a tactics worker panicked"))
            .collect()
    });
    answers.sort_by_key(|&(i, _)| i);
    let mut failures = Vec::new();
    for (case, (_, answer)) in cases.iter().zip(answers) {
        let in_list = answer
            .best
            .as_ref()
            .is_some_and(|m| case.accepted.contains(m));
        let solved = match case.kind {
            Kind::Mate(_) => in_list && answer.proves_win(),
            Kind::Win => in_list,
        };
        if !solved {
            let score = match answer.mate_plies {
                Some(p) => format!("mate in {p} plies"),
                None => format!("score {}", answer.score),
            };
            let mut why = format!(
                "line {} ({}): played {} ({score}), accepted {}",
                case.line,
                match case.kind {
                    Kind::Mate(n) => format!("mate {n}"),
                    Kind::Win => "win".to_owned(),
                },
                answer.best.as_deref().unwrap_or("none"),
                case.accepted.join(" "),
            );
            if let (Kind::Mate(n), Some(p)) = (case.kind, answer.mate_plies) {
                if !in_list && p > 0 && p < 2 * n as i32 {
                    why.push_str(" [claims a mate within the bound: check the data]");
                }
            }
            why.push_str(&format!("\n      {} | {}", case.fen, case.note));
            failures.push((case.kind, why));
        }
    }
    let solved = cases.len() - failures.len();
    println!(
        "tactics: solved {solved}/{} ({} nodes each, {:.1} s on {workers} threads)",
        cases.len(),
        NODES,
        start.elapsed().as_secs_f64()
    );
    for kind in [1, 2, 3, 4, 5, 6, 7]
        .map(Kind::Mate)
        .into_iter()
        .chain([Kind::Win])
    {
        let all = cases.iter().filter(|c| c.kind == kind).count();
        let failed = failures.iter().filter(|(k, _)| *k == kind).count();
        println!("  {kind:?}: {}/{all}", all - failed);
    }
    for (_, f) in &failures {
        println!("  FAILED {f}");
    }
    assert!(
        solved * 100 >= cases.len() * REQUIRED_PERCENT,
        "tactics: solved {solved}/{}, below {REQUIRED_PERCENT}%",
        cases.len()
    );
}
