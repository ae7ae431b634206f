//! Parsing of protocol lines into commands. Pure: no I/O, no engine state.
//! Both dialects' spellings are accepted in both dialects.

use std::fmt;
use xiangqi::types::truncate;

/// Which protocol the GUI speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Ucci,
    Uci,
}

pub use crate::engine::PositionSpec;

/// Numbers as sent; clamped into range by the controller. Negative values
/// are kept so they can be reported before clamping.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GoParams {
    pub ponder: bool,
    pub draw: bool,
    pub infinite: bool,
    pub depth: Option<f64>,
    pub nodes: Option<f64>,
    pub mate: Option<f64>,
    pub movetime: Option<f64>,
    /// UCCI: own clock, increment, moves to go, and the opponent's.
    pub time: Option<f64>,
    pub increment: Option<f64>,
    pub movestogo: Option<f64>,
    pub opptime: Option<f64>,
    pub oppincrement: Option<f64>,
    pub oppmovestogo: Option<f64>,
    /// UCI: clocks by colour.
    pub wtime: Option<f64>,
    pub btime: Option<f64>,
    pub winc: Option<f64>,
    pub binc: Option<f64>,
    pub searchmoves: Vec<String>,
    pub perft: Option<f64>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Handshake(Dialect),
    IsReady,
    /// `setoption` with its words after the keyword (resolved against the
    /// option table by the controller, which knows the option names).
    SetOption(Vec<String>),
    Position(PositionSpec),
    BanMoves(Vec<String>),
    Go(Box<GoParams>),
    PonderHit {
        draw: bool,
    },
    Stop,
    Probe(PositionSpec),
    Quit,
    NewGame,
    /// `debug on|off` (UCI).
    Debug(bool),
    /// `d`: print the board, FEN and key.
    Display,
    /// `bench [depth]`: the fixed benchmark search.
    Bench(Option<f64>),
}

/// Why a line was not understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    Empty,
    Unknown(String),
    Missing(&'static str),
    NotANumber { what: String, value: String },
    UnexpectedWord { command: &'static str, word: String },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => write!(f, "empty line"),
            ParseError::Unknown(w) => write!(f, "unknown command '{w}'"),
            ParseError::Missing(what) => write!(f, "missing {what}"),
            ParseError::NotANumber { what, value } => {
                write!(f, "'{what}' needs a number, got '{value}'")
            }
            ParseError::UnexpectedWord { command, word } => {
                write!(f, "{command}: unexpected word '{word}'")
            }
        }
    }
}

fn number(what: &str, value: Option<&&str>) -> Result<f64, ParseError> {
    let Some(v) = value else {
        return Err(ParseError::NotANumber {
            what: what.to_string(),
            value: String::new(),
        });
    };
    match v.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        Ok(x) if x.is_infinite() => Ok(if x > 0.0 { f64::MAX } else { f64::MIN }),
        _ => Err(ParseError::NotANumber {
            what: what.to_string(),
            value: truncate(v),
        }),
    }
}

/// Parses `[fen <fen…> | startpos] [moves m…]` (the words after `position`).
fn position_spec(words: &[&str]) -> Result<PositionSpec, ParseError> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &words[words.len()..]),
    };
    let fen = match head.first() {
        None => return Err(ParseError::Missing("'startpos' or 'fen <FEN>'")),
        Some(&"startpos") => {
            if let Some(extra) = head.get(1) {
                return Err(ParseError::UnexpectedWord {
                    command: "position",
                    word: truncate(extra),
                });
            }
            None
        }
        Some(&"fen") => {
            if head.len() < 2 {
                return Err(ParseError::Missing("FEN after 'fen'"));
            }
            Some(head[1..].join(" "))
        }
        Some(other) => {
            return Err(ParseError::UnexpectedWord {
                command: "position",
                word: truncate(other),
            })
        }
    };
    Ok(PositionSpec {
        fen,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    })
}

fn go(words: &[&str]) -> Result<GoParams, ParseError> {
    let mut g = GoParams::default();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        let next = words.get(i + 1);
        let mut num = |slot: &mut Option<f64>| -> Result<(), ParseError> {
            *slot = Some(number(w, next)?);
            i += 1;
            Ok(())
        };
        match w {
            "ponder" => g.ponder = true,
            "draw" => g.draw = true,
            "infinite" => g.infinite = true,
            "depth" if next == Some(&"infinite") => {
                g.infinite = true;
                i += 1;
            }
            "depth" => num(&mut g.depth)?,
            "nodes" => num(&mut g.nodes)?,
            "mate" => num(&mut g.mate)?,
            "movetime" => num(&mut g.movetime)?,
            "time" => num(&mut g.time)?,
            "increment" => num(&mut g.increment)?,
            "movestogo" => num(&mut g.movestogo)?,
            "opptime" => num(&mut g.opptime)?,
            "oppincrement" => num(&mut g.oppincrement)?,
            "oppmovestogo" => num(&mut g.oppmovestogo)?,
            "wtime" => num(&mut g.wtime)?,
            "btime" => num(&mut g.btime)?,
            "winc" => num(&mut g.winc)?,
            "binc" => num(&mut g.binc)?,
            "perft" => num(&mut g.perft)?,
            "searchmoves" => {
                // Moves run to the end or to the next keyword.
                while let Some(m) = words.get(i + 1) {
                    if m.len() != 4 || GO_KEYWORDS.contains(m) {
                        break;
                    }
                    g.searchmoves.push(m.to_string());
                    i += 1;
                }
            }
            other => {
                return Err(ParseError::UnexpectedWord {
                    command: "go",
                    word: truncate(other),
                })
            }
        }
        i += 1;
    }
    Ok(g)
}

/// Four-letter `go` keywords, which end a `searchmoves` list.
const GO_KEYWORDS: [&str; 5] = ["time", "mate", "binc", "winc", "draw"];

/// Whether a line, understood or not, is meant to set the position (so that
/// refusing it must leave no position to search).
pub fn sets_position(line: &str) -> bool {
    matches!(
        line.split_whitespace().next(),
        Some("position" | "fen" | "startpos")
    )
}

/// Parses one line. Tokens are separated by any run of spaces or tabs; a
/// trailing `\r` is ignored.
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&first, rest)) = words.split_first() else {
        return Err(ParseError::Empty);
    };
    Ok(match first {
        "ucci" => Command::Handshake(Dialect::Ucci),
        "uci" => Command::Handshake(Dialect::Uci),
        "isready" => Command::IsReady,
        "setoption" => {
            if rest.is_empty() {
                return Err(ParseError::Missing("option name after 'setoption'"));
            }
            Command::SetOption(rest.iter().map(|w| w.to_string()).collect())
        }
        "position" => Command::Position(position_spec(rest)?),
        // Bare `fen …` / `startpos …` lines, as some clients send.
        "fen" | "startpos" => Command::Position(position_spec(&words)?),
        "banmoves" => Command::BanMoves(rest.iter().map(|w| w.to_string()).collect()),
        "go" => Command::Go(Box::new(go(rest)?)),
        "ponderhit" => Command::PonderHit {
            draw: rest.first() == Some(&"draw"),
        },
        "stop" => Command::Stop,
        "probe" => Command::Probe(position_spec(rest)?),
        "quit" => Command::Quit,
        "ucinewgame" => Command::NewGame,
        "debug" => Command::Debug(rest.first() != Some(&"off")),
        "d" => Command::Display,
        "bench" => Command::Bench(match rest.first() {
            Some(w) => Some(number("bench", Some(w))?),
            None => None,
        }),
        other => return Err(ParseError::Unknown(truncate(other))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions() {
        let c = parse("position fen 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1 moves e0d0 e9d9").unwrap();
        let Command::Position(p) = c else { panic!() };
        assert_eq!(p.fen.as_deref(), Some("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"));
        assert_eq!(p.moves, vec!["e0d0", "e9d9"]);
        assert_eq!(
            parse("startpos moves h2e2\r").unwrap(),
            Command::Position(PositionSpec {
                fen: None,
                moves: vec!["h2e2".into()]
            })
        );
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert!(parse("position banana").is_err());
    }

    #[test]
    fn go_modes() {
        let Command::Go(g) = parse("go ponder draw time 1000 increment 10 opptime 900").unwrap()
        else {
            panic!()
        };
        assert!(g.ponder && g.draw);
        assert_eq!(
            (g.time, g.increment, g.opptime),
            (Some(1000.0), Some(10.0), Some(900.0))
        );
        let Command::Go(g) = parse("go depth infinite").unwrap() else {
            panic!()
        };
        assert!(g.infinite);
        let Command::Go(g) = parse("go searchmoves h2e2 b2e2 wtime 5 btime 6").unwrap() else {
            panic!()
        };
        assert_eq!(g.searchmoves, vec!["h2e2", "b2e2"]);
        assert_eq!((g.wtime, g.btime), (Some(5.0), Some(6.0)));
        assert!(matches!(
            parse("go depth x"),
            Err(ParseError::NotANumber { .. })
        ));
        assert!(matches!(
            parse("go depth"),
            Err(ParseError::NotANumber { .. })
        ));
        assert!(matches!(
            parse("go sideways"),
            Err(ParseError::UnexpectedWord { .. })
        ));
        let Command::Go(g) = parse("go depth -5 nodes 1e400").unwrap() else {
            panic!()
        };
        assert_eq!(g.depth, Some(-5.0));
        assert_eq!(g.nodes, Some(f64::MAX));
    }

    #[test]
    fn odd_lines() {
        assert_eq!(parse("  \t "), Err(ParseError::Empty));
        assert!(matches!(parse("xyzzy"), Err(ParseError::Unknown(_))));
        assert_eq!(
            parse("ponderhit draw"),
            Ok(Command::PonderHit { draw: true })
        );
        assert_eq!(parse("isready\r"), Ok(Command::IsReady));
    }
}
