//! Opening suites: one opening per line, as a FEN, `startpos`, or either
//! followed by `moves m1 m2 …` (ICCS, ranks 0–9). `#` starts a comment; a
//! comment after an opening names it (the PGN `Opening` tag). Blank lines are
//! skipped. Every opening is checked: a valid FEN, legal moves, and a position
//! where the side to move still has a move.

use std::path::Path;
use xiangqi::rules;
use xiangqi::types::Move;
use xiangqi::{Position, START_FEN};

/// The bundled suite of balanced openings, used when no file is given.
pub const DEFAULT_SUITE: &str = include_str!("../openings/balanced.txt");
/// The name the bundled suite goes by in messages.
pub const DEFAULT_SUITE_NAME: &str = "openings/balanced.txt (built in)";

/// One opening: the position to start from and the book moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The FEN the game record starts from (normalised).
    pub fen: String,
    pub moves: Vec<Move>,
    pub name: Option<String>,
    /// Where it came from, for messages (`file:line`).
    pub source: String,
}

impl Opening {
    /// The position at the start of the game record (before the book moves).
    pub fn start(&self) -> Position {
        // The FEN was produced by `to_fen` from a valid position.
        Position::from_fen(&self.fen).unwrap_or_else(|_| Position::startpos())
    }
}

/// Parses one line; `Ok(None)` for a blank or comment line.
pub fn parse_line(line: &str) -> Result<Option<Opening>, String> {
    let (body, comment) = match line.split_once('#') {
        Some((b, c)) => (b, Some(c.trim())),
        None => (line, None),
    };
    let body = body.trim();
    if body.is_empty() {
        return Ok(None);
    }
    let (setup, moves_text) = match body.split_once(" moves") {
        Some((s, m)) if m.is_empty() || m.starts_with(char::is_whitespace) => (s.trim(), m),
        _ => (body, ""),
    };
    let setup = setup.strip_prefix("fen ").unwrap_or(setup).trim();
    let fen = if setup == "startpos" {
        START_FEN
    } else {
        setup
    };
    let mut pos = Position::from_fen(fen).map_err(|e| e.to_string())?;
    let start_fen = pos.to_fen();
    let mut moves = Vec::new();
    for text in moves_text.split_whitespace() {
        if rules::adjudicate(&pos, rules::MOVE_LIMIT_PLIES).is_some() {
            return Err(format!("the game is over before move '{text}'"));
        }
        let m = pos
            .parse_move(text)
            .map_err(|e| format!("move {} ({text}): {e}", moves.len() + 1))?;
        pos.make_move(m);
        moves.push(m);
    }
    if let Some(v) = rules::adjudicate(&pos, rules::MOVE_LIMIT_PLIES) {
        return Err(format!("the game is already over ({})", v.reason));
    }
    Ok(Some(Opening {
        fen: start_fen,
        moves,
        name: comment.filter(|c| !c.is_empty()).map(String::from),
        source: String::new(),
    }))
}

/// Parses a whole suite. Bad lines are skipped with a message naming them;
/// returns the openings and the messages.
pub fn parse_suite(text: &str, source: &str) -> (Vec<Opening>, Vec<String>) {
    let mut openings = Vec::new();
    let mut problems = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let at = format!("{source}:{}", i + 1);
        match parse_line(line) {
            Ok(Some(mut o)) => {
                o.source = at;
                openings.push(o);
            }
            Ok(None) => {}
            Err(e) => problems.push(format!("{at}: skipped: {e}")),
        }
    }
    (openings, problems)
}

/// Loads the suite from `path`, or the bundled one. Logs a warning for every
/// bad line; fails when no opening is left.
pub fn load(path: Option<&Path>) -> Result<Vec<Opening>, String> {
    let (text, source) = match path {
        Some(p) => (
            std::fs::read(p)
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .map_err(|e| format!("cannot read opening file {}: {e}", p.display()))?,
            p.display().to_string(),
        ),
        None => (DEFAULT_SUITE.to_string(), DEFAULT_SUITE_NAME.to_string()),
    };
    let (openings, problems) = parse_suite(&text, &source);
    for p in &problems {
        log::warn!("{p}");
    }
    if openings.is_empty() {
        return Err(format!("no usable opening in {source}"));
    }
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_forms() {
        let o = parse_line("startpos moves h2e2 h9g7 # Central cannon")
            .unwrap()
            .unwrap();
        assert_eq!(o.fen, START_FEN);
        assert_eq!(o.moves.len(), 2);
        assert_eq!(o.name.as_deref(), Some("Central cannon"));
        let o = parse_line(&format!("fen {START_FEN} moves c3c4"))
            .unwrap()
            .unwrap();
        assert_eq!(o.moves, vec![Move::parse_iccs("c3c4").unwrap()]);
        let o = parse_line("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b")
            .unwrap()
            .unwrap();
        assert_eq!(
            o.fen,
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1"
        );
        assert!(o.moves.is_empty() && o.name.is_none());
        assert_eq!(parse_line("   # just a comment"), Ok(None));
        assert_eq!(parse_line(""), Ok(None));
    }

    #[test]
    fn bad_lines_are_named_and_skipped() {
        let text = "startpos moves h2e2\n\
                    startpos moves h2e3\n\
                    not a fen\n\
                    \n\
                    startpos moves h2e2 h2e2\n\
                    3k5/9/9/9/9/9/9/9/9/4K4 w moves e0e1\n\
                    3k5/3R5/3R5/9/9/9/9/9/9/4K4 b\n\
                    startpos moves b2b9 # black's horse\n";
        let (openings, problems) = parse_suite(text, "suite.txt");
        assert_eq!(openings.len(), 2, "{problems:?}");
        assert_eq!(openings[0].source, "suite.txt:1");
        assert_eq!(openings[1].source, "suite.txt:8");
        assert_eq!(problems.len(), 5, "{problems:?}");
        assert!(problems[0].starts_with("suite.txt:2: skipped: move 1 (h2e3)"));
        assert!(problems[1].starts_with("suite.txt:3: skipped: FEN"));
        assert!(problems[2].starts_with("suite.txt:5: skipped: move 2 (h2e2)"));
        // Bare kings: insufficient material from the start.
        assert!(problems[3].contains("is over"), "{}", problems[3]);
        // Checkmated.
        assert!(problems[4].contains("checkmate"), "{}", problems[4]);
    }

    #[test]
    fn an_empty_or_missing_suite_fails() {
        let dir = std::env::temp_dir().join(format!("chariot-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bad = dir.join("bad.txt");
        std::fs::write(&bad, "garbage\n# nothing\n").unwrap();
        assert!(load(Some(&bad)).unwrap_err().contains("no usable opening"));
        assert!(load(Some(&dir.join("missing.txt")))
            .unwrap_err()
            .contains("cannot read"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The bundled suite: at least 50 openings, every one legal, no two alike,
    /// each with book moves and a name, none over.
    #[test]
    fn bundled_suite_is_sound() {
        let (openings, problems) = parse_suite(DEFAULT_SUITE, DEFAULT_SUITE_NAME);
        assert!(problems.is_empty(), "{problems:#?}");
        assert!(openings.len() >= 50, "only {} openings", openings.len());
        let mut seen = std::collections::HashSet::new();
        for o in &openings {
            assert!(
                (4..=10).contains(&o.moves.len()),
                "{}: {} plies",
                o.source,
                o.moves.len()
            );
            assert!(o.name.is_some(), "{} has no name", o.source);
            let mut pos = o.start();
            for &m in &o.moves {
                pos.make_move(m);
            }
            assert!(
                seen.insert(pos.to_fen()),
                "{} repeats an earlier opening",
                o.source
            );
        }
    }

    /// The wide suite for long matches (`chariot-tools openings`, seed 1):
    /// 4,000 openings, each a bundled one and 2-4 plies more, all distinct.
    #[test]
    fn wide_suite_is_sound() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("openings/wide-4000.txt");
        let text = std::fs::read_to_string(&path).expect("the wide suite");
        let (openings, problems) = parse_suite(&text, "wide-4000.txt");
        assert!(problems.is_empty(), "{problems:#?}");
        assert_eq!(openings.len(), 4000);
        let (bundled, _) = parse_suite(DEFAULT_SUITE, DEFAULT_SUITE_NAME);
        let mut seen = std::collections::HashSet::new();
        for o in &openings {
            let from = bundled.iter().find(|b| {
                b.fen == o.fen
                    && o.moves.starts_with(&b.moves)
                    && (2..=4).contains(&(o.moves.len() - b.moves.len()))
            });
            assert!(
                from.is_some(),
                "{}: no bundled opening and 2-4 plies",
                o.source
            );
            let mut pos = o.start();
            for &m in &o.moves {
                pos.make_move(m);
            }
            assert!(!pos.in_check(), "{} starts in check", o.source);
            assert!(seen.insert(pos.to_fen()), "{} repeats", o.source);
        }
    }
}
