//! PGN for finished games: the seven-tag roster with `Red`/`Black` for
//! White/Black (as xiangqi PGN has it), `FEN`/`SetUp` for the start position,
//! `TimeControl` (`RedTimeControl` and `BlackTimeControl` under time odds),
//! `Termination`, and the moves in ICCS coordinates (`h2e2`, ranks 0–9)
//! with each engine's score, depth and time to the millisecond as a comment
//! (`{+0.35/12 0.512s}`, as cutechess writes it; mates as `+M5`/`-M3`,
//! opening moves as `{book}`).

use super::game::GameRecord;
use std::fmt::Write;
use xiangqi::types::Color;
use xiangqi::Position;

/// The tags a game is written with besides the ones the record implies.
#[derive(Clone, Debug)]
pub struct Tags<'a> {
    pub event: &'a str,
    pub site: &'a str,
    /// `YYYY.MM.DD`.
    pub date: &'a str,
    pub round: &'a str,
    pub red: &'a str,
    pub black: &'a str,
    /// Each side's `TimeControl` tag, Red's first: one `TimeControl` tag
    /// when they are equal, else `RedTimeControl` and `BlackTimeControl`
    /// (cutechess-cli writes `WhiteTimeControl`/`BlackTimeControl` so).
    pub time_control: [&'a str; 2],
}

/// Escapes a tag value.
fn quote(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A comment's text must neither close the comment nor look nested.
fn comment(s: &str) -> String {
    s.replace('{', "(").replace('}', ")")
}

/// The game as PGN text, ending with a blank line.
pub fn write_game(tags: &Tags, game: &GameRecord) -> String {
    let mut out = String::new();
    let result = game.result();
    let mut tag = |name: &str, value: &str| {
        let _ = writeln!(out, "[{name} \"{}\"]", quote(value));
    };
    tag("Event", tags.event);
    tag("Site", tags.site);
    tag("Date", tags.date);
    tag("Round", tags.round);
    tag("Red", tags.red);
    tag("Black", tags.black);
    tag("Result", result);
    tag("Variant", "xiangqi");
    tag("FEN", &game.start_fen);
    tag("SetUp", "1");
    match tags.time_control {
        [red, black] if red == black => tag("TimeControl", red),
        [red, black] => {
            tag("RedTimeControl", red);
            tag("BlackTimeControl", black);
        }
    }
    tag("Termination", game.end.pgn());
    tag("PlyCount", &game.moves.len().to_string());
    if let Some(name) = &game.opening_name {
        tag("Opening", name);
    }
    out.push('\n');

    // Move numbers follow the start position's side and move number.
    let (mut side, mut number) = match Position::from_fen(&game.start_fen) {
        Ok(p) => (p.side_to_move(), p.fullmove_number()),
        Err(_) => (Color::Red, 1),
    };
    let mut tokens: Vec<String> = Vec::new();
    for (i, m) in game.moves.iter().enumerate() {
        if side == Color::Red {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(m.mv.to_string());
        if m.book {
            tokens.push("{book}".to_string());
        } else {
            let score = m.score.map_or_else(|| "-".to_string(), |s| s.to_string());
            let depth = m.depth.map_or_else(String::new, |d| format!("/{d}"));
            let secs = m.elapsed_ms as f64 / 1000.0;
            tokens.push(format!("{{{score}{depth} {secs:.3}s}}"));
        }
        if side == Color::Black {
            number += 1;
        }
        side = side.flip();
    }
    tokens.push(format!("{{{}}}", comment(&game.reason)));
    tokens.push(result.to_string());

    // Lines of at most 79 characters, breaking between tokens (a comment may
    // be broken at its spaces).
    let mut line = String::new();
    for token in tokens.iter().flat_map(|t| t.split(' ')) {
        if !line.is_empty() && line.len() + 1 + token.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(token);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// Today's date (UTC) as `YYYY.MM.DD`.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Days since 1970-01-01 to a calendar date (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::Score;
    use crate::game::{EndKind, Fault, PlayedMove};
    use xiangqi::types::Move;
    use xiangqi::START_FEN;

    fn played(
        s: &str,
        book: bool,
        score: Option<Score>,
        depth: Option<u32>,
        ms: u64,
    ) -> PlayedMove {
        PlayedMove {
            mv: Move::parse_iccs(s).unwrap(),
            book,
            score,
            depth,
            elapsed_ms: ms,
        }
    }

    fn tags() -> Tags<'static> {
        Tags {
            event: "Test \"match\"",
            site: "here",
            date: "2026.11.21",
            round: "3",
            red: "Chariot 1.0.0 (net d738824c3562)",
            black: "fsf",
            time_control: ["10+0.1"; 2],
        }
    }

    #[test]
    fn a_whole_game() {
        let game = GameRecord {
            start_fen: START_FEN.to_string(),
            opening_name: Some("Central cannon".to_string()),
            moves: vec![
                played("h2e2", true, None, None, 0),
                played("h9g7", true, None, None, 0),
                played("h0g2", false, Some(Score::Cp(35)), Some(12), 510),
                played("i9h9", false, Some(Score::Cp(-120)), Some(9), 1234),
                played("i0h0", false, Some(Score::Mate(5)), Some(20), 5),
                played("h7h3", false, None, None, 77),
            ],
            winner: Some(Color::Black),
            end: EndKind::TimeForfeit,
            reason: "Red (Chariot) loses on time {really}".to_string(),
            fault: Some((Color::Red, Fault::TimeForfeit)),
        };
        let pgn = write_game(&tags(), &game);
        let expected = "[Event \"Test \\\"match\\\"\"]\n\
[Site \"here\"]\n\
[Date \"2026.11.21\"]\n\
[Round \"3\"]\n\
[Red \"Chariot 1.0.0 (net d738824c3562)\"]\n\
[Black \"fsf\"]\n\
[Result \"0-1\"]\n\
[Variant \"xiangqi\"]\n\
[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]\n\
[SetUp \"1\"]\n\
[TimeControl \"10+0.1\"]\n\
[Termination \"time forfeit\"]\n\
[PlyCount \"6\"]\n\
[Opening \"Central cannon\"]\n\
\n\
1. h2e2 {book} h9g7 {book} 2. h0g2 {+0.35/12 0.510s} i9h9 {-1.20/9 1.234s} 3.\n\
i0h0 {+M5/20 0.005s} h7h3 {- 0.077s} {Red (Chariot) loses on time (really)} 0-1\n\
\n";
        assert_eq!(pgn, expected);
        for line in pgn.lines() {
            assert!(line.len() <= 79, "{line}");
        }
    }

    #[test]
    fn black_to_move_start_and_a_draw() {
        let game = GameRecord {
            start_fen: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 7"
                .to_string(),
            opening_name: None,
            moves: vec![played("h9g7", false, Some(Score::Cp(0)), Some(1), 1000)],
            winner: None,
            end: EndKind::Normal,
            reason: "draw agreed".to_string(),
            fault: None,
        };
        let pgn = write_game(&tags(), &game);
        assert!(pgn.contains("[Result \"1/2-1/2\"]"));
        assert!(!pgn.contains("[Opening"));
        // Time odds: each side's clock in its own tag, and no common one.
        let odds = Tags {
            time_control: ["1+0.01", "10+0.1"],
            ..tags()
        };
        let pgn = write_game(&odds, &game);
        assert!(
            pgn.contains("[RedTimeControl \"1+0.01\"]\n[BlackTimeControl \"10+0.1\"]\n"),
            "{pgn}"
        );
        assert!(!pgn.contains("[TimeControl"), "{pgn}");
        assert!(
            pgn.ends_with("7... h9g7 {+0.00/1 1.000s} {draw agreed} 1/2-1/2\n\n"),
            "{pgn}"
        );
    }

    #[test]
    fn calendar() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_778), (2026, 11, 21));
        assert_eq!(today().len(), 10);
    }
}
