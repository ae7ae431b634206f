//! Reading xiangqi PGN whose moves are ICCS coordinates, for the book
//! builder and for turning match games into game data (`import`).
//!
//! Two dialects are read:
//!
//! - chariot-match's PGN: `[Variant "xiangqi"]`, the start position in
//!   `[FEN]`, moves like `h2e2` with move numbers, `{…}` comments after
//!   moves, the result last.
//! - xqbase-style PGN (ElephantEye's tools, XQ Studio and others) with
//!   `[Format "ICCS"]`: moves like `H2-E2`.
//!
//! Anything else is refused with a message naming the file's line: PGN
//! whose `[Format]` is `WXF` or `Chinese` (the default of xqbase-style PGN,
//! and what ElephantEye's league runner writes), or whose first move of a
//! game is not ICCS text. Variations `( … )`, NAGs (`$1`) and `!?`-style
//! suffixes are skipped; a comment right after a move is kept with it (where
//! chariot-match writes the engine's score), other comments are skipped.
//! Text after a game's result is ignored up to the next tag line (xqbase
//! files carry a banner there).
//!
//! Inside a readable file a game is skipped, with its reason, when its FEN
//! is bad, a move is illegal or not ICCS text, or it has no result (`*`).

use chariot::xiangqi::{Color, Move, Position};
use std::fmt;

/// How a game ended, as the PGN says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `1-0`.
    RedWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
}

impl Outcome {
    fn parse(s: &str) -> Option<Outcome> {
        match s {
            "1-0" => Some(Outcome::RedWins),
            "0-1" => Some(Outcome::BlackWins),
            "1/2-1/2" => Some(Outcome::Draw),
            _ => None,
        }
    }

    /// Half-points for `side`: 2 for a win, 1 for a draw, 0 for a loss.
    pub fn half_points(self, side: Color) -> u32 {
        match (self, side) {
            (Outcome::Draw, _) => 1,
            (Outcome::RedWins, Color::Red) | (Outcome::BlackWins, Color::Black) => 2,
            _ => 0,
        }
    }
}

/// A game read in full.
#[derive(Clone, Debug)]
pub struct Game {
    /// 1-based number of the game in its file.
    pub number: usize,
    /// The line it starts on.
    pub line: usize,
    /// The start position.
    pub start: Position,
    /// The moves, all legal.
    pub moves: Vec<Move>,
    /// The comment right after each move, if any (one per move).
    pub comments: Vec<Option<String>>,
    /// The result.
    pub outcome: Outcome,
    /// The `[Termination]` tag, if any.
    pub termination: Option<String>,
}

/// A game that could not be used, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// 1-based number of the game in its file.
    pub number: usize,
    /// The line it starts on.
    pub line: usize,
    /// Why it was skipped.
    pub reason: String,
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {} (line {}): {}",
            self.number, self.line, self.reason
        )
    }
}

/// Why a file is not readable as ICCS PGN at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// The line of the offending text.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for FormatError {}

/// The games of a file: those read, and those skipped with reasons.
#[derive(Clone, Debug, Default)]
pub struct PgnFile {
    /// Games read in full.
    pub games: Vec<Game>,
    /// Games that could not be used.
    pub skipped: Vec<Skipped>,
}

const NOT_ICCS_HELP: &str = "only ICCS move text is read (h2e2 as chariot-match writes it, \
     or H2-E2 under [Format \"ICCS\"]); convert Chinese or WXF notation to ICCS first";

/// Parses ICCS move text: `h2e2`, `H2E2`, `h2-e2`, `H2-E2`, with any
/// `+#!?` suffix.
fn iccs(token: &str) -> Option<Move> {
    let t = token.trim_end_matches(['+', '#', '!', '?']);
    let b = t.as_bytes();
    let text = match b.len() {
        4 => t.to_string(),
        5 if b[2] == b'-' => format!("{}{}", &t[..2], &t[3..]),
        _ => return None,
    };
    Move::parse_iccs(&text).ok()
}

/// One game while its text is read.
struct Pending {
    number: usize,
    line: usize,
    tags: usize,
    fen: Option<String>,
    result_tag: Option<String>,
    terminator: Option<String>,
    termination: Option<String>,
    /// Move text, its line, and the comment right after it.
    moves: Vec<(String, usize, Option<String>)>,
}

impl Pending {
    fn new(number: usize, line: usize) -> Pending {
        Pending {
            number,
            line,
            tags: 0,
            fen: None,
            result_tag: None,
            terminator: None,
            termination: None,
            moves: Vec::new(),
        }
    }

    fn is_empty(&self) -> bool {
        self.tags == 0 && self.terminator.is_none() && self.moves.is_empty()
    }

    /// Replays the game, or says why it cannot be used.
    fn finish(self, out: &mut PgnFile) -> Result<(), FormatError> {
        let skip = |reason: String| Skipped {
            number: self.number,
            line: self.line,
            reason,
        };
        // The first move decides whether this is ICCS at all.
        if let Some((text, line, _)) = self.moves.first() {
            if iccs(text).is_none() {
                return Err(FormatError {
                    line: *line,
                    message: format!(
                        "game {}: '{}' is not an ICCS move: {NOT_ICCS_HELP}",
                        self.number,
                        xiangqi_truncate(text)
                    ),
                });
            }
        }
        let start = match &self.fen {
            Some(f) => match Position::from_fen(f) {
                Ok(p) => p,
                Err(e) => {
                    out.skipped
                        .push(skip(format!("bad FEN '{}': {e}", xiangqi_truncate(f))));
                    return Ok(());
                }
            },
            None => Position::startpos(),
        };
        let outcome = self
            .result_tag
            .as_deref()
            .and_then(Outcome::parse)
            .or_else(|| self.terminator.as_deref().and_then(Outcome::parse));
        let Some(outcome) = outcome else {
            out.skipped
                .push(skip("no result (1-0, 0-1 or 1/2-1/2)".to_string()));
            return Ok(());
        };
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(self.moves.len());
        for (i, (text, line, _)) in self.moves.iter().enumerate() {
            let Some(m) = iccs(text) else {
                out.skipped.push(skip(format!(
                    "move {} '{}' (line {line}) is not ICCS text",
                    i + 1,
                    xiangqi_truncate(text)
                )));
                return Ok(());
            };
            if !pos.is_legal(m) {
                out.skipped.push(skip(format!(
                    "move {} {m} (line {line}) is illegal in {}",
                    i + 1,
                    pos.to_fen()
                )));
                return Ok(());
            }
            pos.make_move(m);
            moves.push(m);
        }
        out.games.push(Game {
            number: self.number,
            line: self.line,
            start,
            moves,
            comments: self.moves.into_iter().map(|(_, _, c)| c).collect(),
            outcome,
            termination: self.termination,
        });
        Ok(())
    }
}

fn xiangqi_truncate(s: &str) -> String {
    chariot::xiangqi::types::truncate(s)
}

/// A tag line `[Name "value"]`: name and unescaped value.
fn parse_tag(text: &str) -> Option<(String, String)> {
    let inner = text.trim().strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let rest = rest.trim().strip_prefix('"')?;
    let mut value = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.extend(chars.next()),
            '"' => return Some((name.to_string(), value)),
            c => value.push(c),
        }
    }
    None
}

/// Reads every game of a PGN text. A [`FormatError`] means the file is not
/// ICCS PGN and nothing of it should be used.
pub fn read(text: &str) -> Result<PgnFile, FormatError> {
    let mut out = PgnFile::default();
    let mut number = 1;
    let mut game = Pending::new(number, 1);
    let mut after_result = false;
    // How deep inside ( … ) variations, and whether inside a { … } comment.
    let mut depth = 0usize;
    let mut in_comment = false;
    // While in a comment that directly follows a move: its text so far
    // (lines joined by a space). `None` in any other comment.
    let mut note: Option<String> = None;

    for (i, raw_line) in text.lines().enumerate() {
        let line_no = i + 1;
        let trimmed = raw_line.trim();
        if !in_comment && depth == 0 && trimmed.starts_with('[') {
            // A tag: after moves or a result it starts the next game.
            if !game.moves.is_empty() || game.terminator.is_some() {
                let done = std::mem::replace(&mut game, Pending::new(number + 1, line_no));
                done.finish(&mut out)?;
                number += 1;
            }
            if game.is_empty() {
                game.line = line_no;
            }
            game.tags += 1;
            after_result = false;
            let Some((name, value)) = parse_tag(trimmed) else {
                return Err(FormatError {
                    line: line_no,
                    message: format!(
                        "'{}' is not a PGN tag like [Name \"value\"]",
                        xiangqi_truncate(trimmed)
                    ),
                });
            };
            match name.to_ascii_lowercase().as_str() {
                "fen" => game.fen = Some(value),
                "result" => game.result_tag = Some(value),
                "termination" => game.termination = Some(value),
                "format" if !value.eq_ignore_ascii_case("iccs") => {
                    return Err(FormatError {
                        line: line_no,
                        message: format!(
                            "[Format \"{}\"]: {NOT_ICCS_HELP}",
                            xiangqi_truncate(&value)
                        ),
                    });
                }
                "variant"
                    if !["xiangqi", "chinese chess"]
                        .contains(&value.to_ascii_lowercase().as_str()) =>
                {
                    return Err(FormatError {
                        line: line_no,
                        message: format!(
                            "[Variant \"{}\"] is not xiangqi",
                            xiangqi_truncate(&value)
                        ),
                    });
                }
                _ => {}
            }
            continue;
        }
        if after_result || trimmed.starts_with('%') {
            continue;
        }
        // Movetext: split into tokens, skipping comments and variations.
        let mut chars = raw_line.char_indices().peekable();
        while let Some((start, c)) = chars.next() {
            if in_comment {
                if c == '}' {
                    in_comment = false;
                    if let (Some(text), Some(last)) = (note.take(), game.moves.last_mut()) {
                        last.2 = Some(text.trim().to_string());
                    }
                } else if let Some(text) = &mut note {
                    text.push(c);
                }
                continue;
            }
            match c {
                '{' => {
                    in_comment = true;
                    // Kept when it is the first comment after a move.
                    note = (depth == 0 && game.moves.last().is_some_and(|m| m.2.is_none()))
                        .then(String::new);
                }
                ';' if depth == 0 => break,
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                c if c.is_whitespace() => {}
                _ => {
                    let mut end = start + c.len_utf8();
                    while let Some(&(j, d)) = chars.peek() {
                        if d.is_whitespace() || "{}();".contains(d) {
                            break;
                        }
                        end = j + d.len_utf8();
                        chars.next();
                    }
                    if depth > 0 {
                        continue;
                    }
                    let token = &raw_line[start..end];
                    if game.is_empty() {
                        game.line = line_no;
                    }
                    if matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") {
                        game.terminator = Some(token.to_string());
                        after_result = true;
                        break;
                    }
                    // Move numbers (`12.`, `12...`), possibly glued to a move.
                    let token = token.trim_start_matches(|c: char| c.is_ascii_digit());
                    let token = if token.len() < raw_line[start..end].len() {
                        token.trim_start_matches('.')
                    } else {
                        token
                    };
                    if token.is_empty() || token.starts_with('$') {
                        continue;
                    }
                    if token.chars().all(|c| "!?+#".contains(c)) {
                        continue;
                    }
                    game.moves.push((token.to_string(), line_no, None));
                }
            }
        }
        // A comment broken across lines reads as one, the break a space.
        if let (true, Some(text)) = (in_comment, &mut note) {
            text.push(' ');
        }
    }
    if !game.is_empty() {
        game.finish(&mut out)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iccs_forms() {
        let h2e2 = Move::parse_iccs("h2e2").unwrap();
        for t in ["h2e2", "H2E2", "h2-e2", "H2-E2", "h2e2+", "H2-E2!?"] {
            assert_eq!(iccs(t), Some(h2e2), "{t}");
        }
        for t in ["C2.5", "C2=5", "h2e", "h2_e2", "炮二平五", "h2e2e", "j2e2"] {
            assert_eq!(iccs(t), None, "{t}");
        }
    }

    #[test]
    fn an_xqbase_iccs_game_with_a_banner() {
        let text = "[Game \"Chinese Chess\"]\r\n[Event \"x\"]\r\n[Result \"0-1\"]\r\n\
                    [Format \"ICCS\"]\r\n  1. H2-E2  H9-G7\r\n  2. H0-G2 {note} I9-H9\r\n 0-1\r\n\
                    ============================\r\n banner text 1. junk\r\n\
                    [Game \"Chinese Chess\"]\r\n[Result \"1-0\"]\r\n[Format \"ICCS\"]\r\n\
                    1. C3-C4 1-0\r\n";
        let f = read(text).unwrap();
        assert_eq!(f.skipped, vec![]);
        assert_eq!(f.games.len(), 2);
        assert_eq!(f.games[0].moves.len(), 4);
        assert_eq!(f.games[0].outcome, Outcome::BlackWins);
        assert_eq!(f.games[1].moves, vec![Move::parse_iccs("c3c4").unwrap()]);
        assert_eq!(f.games[1].outcome, Outcome::RedWins);
        assert_eq!(f.games[1].number, 2);
        assert_eq!(f.games[1].line, 10);
    }

    #[test]
    fn refusals_name_the_line() {
        let chinese = "[Game \"Chinese Chess\"]\n[Result \"0-1\"]\n  1. 炮八平五 马２进３\n 0-1\n";
        let e = read(chinese).unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("not an ICCS move"), "{e}");
        let wxf = "[Format \"WXF\"]\n1. C2.5 H8+7 *\n";
        let e = read(wxf).unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.message.contains("WXF"), "{e}");
        let chess = "[Variant \"standard\"]\n1. e4 e5 1-0\n";
        assert!(read(chess).unwrap_err().message.contains("not xiangqi"));
        assert!(read("\u{0}\u{1}binary").is_err());
    }

    #[test]
    fn bad_games_are_skipped_with_reasons() {
        let text = "[Result \"*\"]\n1. h2e2 *\n\n[Result \"1-0\"]\n1. h2e2 h2e2 1-0\n\n\
                    [FEN \"bad\"]\n[Result \"1-0\"]\n1. h2e2 1-0\n\n[Result \"1/2-1/2\"]\n\
                    1. h2e2 (1. c3c4 c6c5) h9g7 ; rest of line\n2. h0g2 $1 1/2-1/2\n";
        let f = read(text).unwrap();
        let reasons: Vec<String> = f.skipped.iter().map(|s| s.reason.clone()).collect();
        assert_eq!(f.skipped.len(), 3, "{reasons:?}");
        assert!(reasons[0].contains("no result"));
        assert!(reasons[1].contains("move 2 h2e2 (line 5) is illegal"));
        assert!(reasons[2].contains("bad FEN"));
        assert_eq!(f.games.len(), 1);
        assert_eq!(f.games[0].moves.len(), 3);
        assert_eq!(f.games[0].outcome, Outcome::Draw);
    }

    #[test]
    fn the_comment_after_each_move_is_kept() {
        // As chariot-match writes it: a comment broken across lines, the
        // reason for the result as a second comment after the last move.
        let text = "[Event \"m\"]\n[Result \"1-0\"]\n[Variant \"xiangqi\"]\n\
                    [Termination \"normal\"]\n\n1. h2e2 {book} h9g7 {book} 2. h0g2 {+0.35/12\n\
                    0.51s} i9h9 3. i0h0 {-M3/9 0.02s} {Black resigns} 1-0\n";
        let f = read(text).unwrap();
        let g = &f.games[0];
        assert_eq!(g.moves.len(), 5);
        let comments: Vec<Option<&str>> = g.comments.iter().map(|c| c.as_deref()).collect();
        assert_eq!(
            comments,
            [
                Some("book"),
                Some("book"),
                Some("+0.35/12 0.51s"),
                None,
                Some("-M3/9 0.02s")
            ]
        );
        assert_eq!(g.termination.as_deref(), Some("normal"));
        assert_eq!(g.outcome, Outcome::RedWins);
    }

    #[test]
    fn half_points() {
        assert_eq!(Outcome::RedWins.half_points(Color::Red), 2);
        assert_eq!(Outcome::RedWins.half_points(Color::Black), 0);
        assert_eq!(Outcome::Draw.half_points(Color::Black), 1);
        assert_eq!(Outcome::BlackWins.half_points(Color::Black), 2);
    }
}
