//! What differs between engines on the wire: the protocol (UCCI or UCI), the
//! rank numbering of move text (0–9, or 1–10 as Fairy-Stockfish prints in UCI
//! mode), the time unit (UCCI engines that do not advertise `usemillisec`
//! get seconds), option syntax, and how engine output reads.
//!
//! Everything here is pure text in, text out: the engine process module
//! owns the pipes.

use std::fmt;
use xiangqi::types::{Move, Square, FILES, RANKS};

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Ucci,
    Uci,
}

impl Protocol {
    pub fn parse(s: &str) -> Option<Protocol> {
        match s.to_ascii_lowercase().as_str() {
            "ucci" => Some(Protocol::Ucci),
            "uci" => Some(Protocol::Uci),
            _ => None,
        }
    }

    /// The command that boots the engine.
    pub fn boot(self) -> &'static str {
        match self {
            Protocol::Ucci => "ucci",
            Protocol::Uci => "uci",
        }
    }

    /// The engine's answer that ends the boot.
    pub fn boot_ok(self) -> &'static str {
        match self {
            Protocol::Ucci => "ucciok",
            Protocol::Uci => "uciok",
        }
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.boot())
    }
}

/// How ranks are numbered in the engine's move text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ranks {
    /// `h2e2`: UCCI, Pikafish, Chariot.
    FromZero,
    /// `h3e3`: Fairy-Stockfish, pyffish and ffish in UCI mode.
    FromOne,
}

/// Everything needed to talk to one engine process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dialect {
    pub protocol: Protocol,
    pub ranks: Ranks,
    /// UCCI times in milliseconds (the engine advertised `usemillisec` and was
    /// told to use it); otherwise UCCI times are whole seconds. UCI is always
    /// milliseconds.
    pub millisec: bool,
}

/// A position as the game knows it: where it started, every move since, and
/// the last capture (the position after it and how many moves preceded it).
pub struct PositionLine<'a> {
    pub start_fen: &'a str,
    pub moves: &'a [Move],
    /// FEN after the last capture, and the index in `moves` of the first move
    /// after it. `None` when no capture has been made.
    pub after_capture: Option<(&'a str, usize)>,
}

/// The limits of one `go`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoLimit {
    /// A running clock: the mover's and the opponent's remaining time and
    /// increments, in milliseconds.
    Clock {
        red_to_move: bool,
        own_ms: u64,
        own_inc_ms: u64,
        opp_ms: u64,
        opp_inc_ms: u64,
        /// Moves to the next time control, if the clock has one.
        moves_to_go: Option<u32>,
    },
    MoveTime(u64),
    Depth(u32),
    Nodes(u64),
}

impl Dialect {
    /// A move in the engine's notation.
    pub fn format_move(&self, m: Move) -> String {
        let sq = |s: Square| {
            let rank = s.rank() + usize::from(self.ranks == Ranks::FromOne);
            format!("{}{}", (b'a' + s.file() as u8) as char, rank)
        };
        format!("{}{}", sq(m.from()), sq(m.to()))
    }

    /// Reads a move in the engine's notation (syntax only; legality is the
    /// game's business). Files may be upper case, as some old engines print.
    pub fn parse_move(&self, text: &str) -> Option<Move> {
        let base = usize::from(self.ranks == Ranks::FromOne);
        let bytes = text.as_bytes();
        let mut i = 0;
        let mut square = || -> Option<Square> {
            let file = (bytes.get(i)?.to_ascii_lowercase()).checked_sub(b'a')? as usize;
            i += 1;
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() && i - start < 2 {
                i += 1;
            }
            let rank: usize = text.get(start..i)?.parse().ok()?;
            let rank = rank.checked_sub(base)?;
            (file < FILES && rank < RANKS).then(|| Square::new(file, rank))
        };
        let from = square()?;
        let to = square()?;
        (i == bytes.len() && from != to).then(|| Move::new(from, to))
    }

    /// `setoption` in the protocol's syntax; `None` for a button.
    pub fn setoption(&self, name: &str, value: Option<&str>) -> String {
        match (self.protocol, value) {
            (Protocol::Ucci, Some(v)) => format!("setoption {name} {v}"),
            (Protocol::Ucci, None) => format!("setoption {name}"),
            (Protocol::Uci, Some(v)) => format!("setoption name {name} value {v}"),
            (Protocol::Uci, None) => format!("setoption name {name}"),
        }
    }

    /// The `position` command. UCCI engines get the position after the last
    /// capture and the moves since (as the UCCI league runner sends it: all
    /// they need to see repetitions); UCI engines get the whole game.
    pub fn position(&self, line: &PositionLine) -> String {
        let (fen, moves) = match (self.protocol, line.after_capture) {
            (Protocol::Ucci, Some((fen, from))) => (fen, &line.moves[from.min(line.moves.len())..]),
            _ => (line.start_fen, line.moves),
        };
        let mut s = format!("position fen {fen}");
        if !moves.is_empty() {
            s.push_str(" moves");
            for &m in moves {
                s.push(' ');
                s.push_str(&self.format_move(m));
            }
        }
        s
    }

    /// A time in the engine's unit: milliseconds, or whole seconds for a UCCI
    /// engine without `usemillisec` (never 0 for a positive time).
    fn time(&self, ms: u64) -> u64 {
        if self.protocol == Protocol::Ucci && !self.millisec {
            if ms == 0 {
                0
            } else {
                (ms / 1000).max(1)
            }
        } else {
            ms
        }
    }

    /// The `go` command. `draw_offered` tells a UCCI engine that its opponent
    /// offers a draw (`go draw …`); UCI has no draw offers.
    pub fn go(&self, limit: GoLimit, draw_offered: bool) -> String {
        let mut s = String::from("go");
        if draw_offered && self.protocol == Protocol::Ucci {
            s.push_str(" draw");
        }
        match (self.protocol, limit) {
            (
                Protocol::Ucci,
                GoLimit::Clock {
                    own_ms,
                    own_inc_ms,
                    opp_ms,
                    opp_inc_ms,
                    moves_to_go,
                    ..
                },
            ) => {
                // UCCI gives `movestogo` or `increment`, not both.
                let (own, opp) = match moves_to_go {
                    Some(n) => (format!("movestogo {n}"), String::new()),
                    None => (
                        format!("increment {}", self.time(own_inc_ms)),
                        format!(" oppincrement {}", self.time(opp_inc_ms)),
                    ),
                };
                s.push_str(&format!(
                    " time {} {own} opptime {}{opp}",
                    self.time(own_ms),
                    self.time(opp_ms),
                ));
            }
            (
                Protocol::Uci,
                GoLimit::Clock {
                    red_to_move,
                    own_ms,
                    own_inc_ms,
                    opp_ms,
                    opp_inc_ms,
                    moves_to_go,
                },
            ) => {
                let (w, b, wi, bi) = if red_to_move {
                    (own_ms, opp_ms, own_inc_ms, opp_inc_ms)
                } else {
                    (opp_ms, own_ms, opp_inc_ms, own_inc_ms)
                };
                s.push_str(&format!(" wtime {w} btime {b} winc {wi} binc {bi}"));
                if let Some(n) = moves_to_go {
                    s.push_str(&format!(" movestogo {n}"));
                }
            }
            // UCCI has no `movetime`: one move left on the clock means the same.
            (Protocol::Ucci, GoLimit::MoveTime(ms)) => {
                s.push_str(&format!(" time {} movestogo 1", self.time(ms)));
            }
            (Protocol::Uci, GoLimit::MoveTime(ms)) => s.push_str(&format!(" movetime {ms}")),
            (_, GoLimit::Depth(d)) => s.push_str(&format!(" depth {d}")),
            (_, GoLimit::Nodes(n)) => s.push_str(&format!(" nodes {n}")),
        }
        s
    }

    /// The command that tells the engine a new game starts, given whether it
    /// advertised the UCCI `newgame` button.
    pub fn newgame(&self, has_newgame_option: bool) -> Option<String> {
        match self.protocol {
            Protocol::Uci => Some("ucinewgame".to_string()),
            Protocol::Ucci if has_newgame_option => Some(self.setoption("newgame", None)),
            Protocol::Ucci => None,
        }
    }

    /// Reads one line of engine output.
    pub fn parse_line(&self, line: &str) -> EngineLine {
        let mut tokens = line.split_whitespace();
        match tokens.next() {
            Some("info") => EngineLine::Info(parse_info(self.protocol, tokens)),
            Some("nobestmove") => EngineLine::NoBestMove,
            Some("bestmove") => {
                let Some(mv) = tokens.next() else {
                    return EngineLine::NoBestMove;
                };
                if matches!(mv, "(none)" | "none" | "null" | "0000" | "nomove") {
                    return EngineLine::NoBestMove;
                }
                let (mut draw, mut resign) = (false, false);
                let mut rest = tokens.peekable();
                while let Some(t) = rest.next() {
                    match t {
                        "ponder" => {
                            rest.next();
                        }
                        "draw" => draw = true,
                        "resign" => resign = true,
                        _ => {}
                    }
                }
                EngineLine::BestMove {
                    mv: mv.to_string(),
                    draw,
                    resign,
                }
            }
            _ => EngineLine::Other,
        }
    }
}

/// A score from the mover's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns (UCCI: 100 = a horse or a cannon's worth in ElephantEye's scale).
    Cp(i32),
    /// Mate in this many moves; negative when the mover is mated.
    Mate(i32),
}

impl Score {
    /// A value for comparisons: mates are beyond any centipawn score.
    pub fn value(self) -> i64 {
        match self {
            Score::Cp(cp) => i64::from(cp),
            Score::Mate(m) if m >= 0 => 1_000_000 - i64::from(m),
            Score::Mate(m) => -1_000_000 - i64::from(m),
        }
    }
}

impl fmt::Display for Score {
    /// As a PGN comment shows it: pawns with two decimals, or `+M5` / `-M3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Cp(cp) => {
                let sign = if cp < 0 { '-' } else { '+' };
                let a = cp.unsigned_abs();
                write!(f, "{sign}{}.{:02}", a / 100, a % 100)
            }
            Score::Mate(m) if m >= 0 => write!(f, "+M{m}"),
            Score::Mate(m) => write!(f, "-M{}", m.unsigned_abs()),
        }
    }
}

/// The parts of an `info` line the runner uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Info {
    pub depth: Option<u32>,
    pub score: Option<Score>,
}

/// One line of engine output, classified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineLine {
    Info(Info),
    BestMove {
        mv: String,
        draw: bool,
        resign: bool,
    },
    /// `nobestmove`, or a `bestmove` without a move (`(none)`, `0000`, …).
    NoBestMove,
    Other,
}

/// ElephantEye-style UCCI mate scores are ±(10000 − plies); anything this
/// large is read as a mate.
const UCCI_MATE: i32 = 10_000;
const UCCI_MATE_BOUND: i32 = 9_000;

fn parse_info<'a>(protocol: Protocol, mut tokens: impl Iterator<Item = &'a str>) -> Info {
    let mut info = Info::default();
    while let Some(t) = tokens.next() {
        match t {
            "depth" => info.depth = tokens.next().and_then(|d| d.parse().ok()),
            "score" => {
                let Some(first) = tokens.next() else { break };
                info.score = match first {
                    "cp" => tokens.next().and_then(|v| v.parse().ok()).map(Score::Cp),
                    "mate" => tokens.next().and_then(|v| v.parse().ok()).map(Score::Mate),
                    bare => bare.parse::<i32>().ok().map(|v| {
                        if protocol == Protocol::Ucci && v.abs() >= UCCI_MATE_BOUND {
                            let plies = (UCCI_MATE - v.abs()).max(0);
                            let moves = (plies + 1) / 2;
                            Score::Mate(if v > 0 { moves } else { -moves })
                        } else {
                            Score::Cp(v)
                        }
                    }),
                };
            }
            // The pv runs to the end of the line.
            "pv" | "string" | "message" => break,
            _ => {}
        }
    }
    info
}

#[cfg(test)]
mod tests {
    use super::*;

    const UCCI: Dialect = Dialect {
        protocol: Protocol::Ucci,
        ranks: Ranks::FromZero,
        millisec: true,
    };
    const FSF_UCI: Dialect = Dialect {
        protocol: Protocol::Uci,
        ranks: Ranks::FromOne,
        millisec: true,
    };

    fn mv(s: &str) -> Move {
        Move::parse_iccs(s).unwrap()
    }

    #[test]
    fn move_text_per_rank_base() {
        assert_eq!(UCCI.format_move(mv("h2e2")), "h2e2");
        assert_eq!(FSF_UCI.format_move(mv("h2e2")), "h3e3");
        assert_eq!(FSF_UCI.format_move(mv("h9g7")), "h10g8");
        assert_eq!(FSF_UCI.parse_move("h10g8"), Some(mv("h9g7")));
        assert_eq!(FSF_UCI.parse_move("a1a2"), Some(mv("a0a1")));
        assert_eq!(UCCI.parse_move("H2E2"), Some(mv("h2e2")));
        for bad in ["", "h2", "h2e", "h2e2x", "j2e2", "h2h2", "h10e2", "a0a1 "] {
            assert_eq!(UCCI.parse_move(bad), None, "{bad}");
        }
        for bad in ["a0a1", "h11g8", "h10g"] {
            assert_eq!(FSF_UCI.parse_move(bad), None, "{bad}");
        }
    }

    #[test]
    fn position_commands() {
        let moves = [mv("h2e2"), mv("h7e7"), mv("e2e6"), mv("e9f9")];
        let line = PositionLine {
            start_fen: "START",
            moves: &moves,
            after_capture: Some(("CAPTURED", 3)),
        };
        assert_eq!(UCCI.position(&line), "position fen CAPTURED moves e9f9");
        assert_eq!(
            FSF_UCI.position(&line),
            "position fen START moves h3e3 h8e8 e3e7 e10f10"
        );
        let line = PositionLine {
            start_fen: "START",
            moves: &moves[..0],
            after_capture: None,
        };
        assert_eq!(UCCI.position(&line), "position fen START");
    }

    #[test]
    fn go_commands_in_each_dialect_and_unit() {
        let clock = GoLimit::Clock {
            red_to_move: false,
            own_ms: 9_500,
            own_inc_ms: 100,
            opp_ms: 8_250,
            opp_inc_ms: 100,
            moves_to_go: None,
        };
        assert_eq!(
            UCCI.go(clock, true),
            "go draw time 9500 increment 100 opptime 8250 oppincrement 100"
        );
        let seconds = Dialect {
            millisec: false,
            ..UCCI
        };
        assert_eq!(
            seconds.go(clock, false),
            "go time 9 increment 1 opptime 8 oppincrement 1"
        );
        assert_eq!(
            FSF_UCI.go(clock, true),
            "go wtime 8250 btime 9500 winc 100 binc 100"
        );
        let control = GoLimit::Clock {
            red_to_move: true,
            own_ms: 60_000,
            own_inc_ms: 0,
            opp_ms: 50_000,
            opp_inc_ms: 0,
            moves_to_go: Some(12),
        };
        assert_eq!(
            UCCI.go(control, false),
            "go time 60000 movestogo 12 opptime 50000"
        );
        assert_eq!(
            FSF_UCI.go(control, false),
            "go wtime 60000 btime 50000 winc 0 binc 0 movestogo 12"
        );
        assert_eq!(
            UCCI.go(GoLimit::MoveTime(250), false),
            "go time 250 movestogo 1"
        );
        assert_eq!(FSF_UCI.go(GoLimit::MoveTime(250), false), "go movetime 250");
        assert_eq!(UCCI.go(GoLimit::Depth(7), false), "go depth 7");
        assert_eq!(FSF_UCI.go(GoLimit::Nodes(5000), false), "go nodes 5000");
    }

    #[test]
    fn options_and_newgame() {
        assert_eq!(
            UCCI.setoption("hashsize", Some("64")),
            "setoption hashsize 64"
        );
        assert_eq!(
            FSF_UCI.setoption("Skill Level", Some("3")),
            "setoption name Skill Level value 3"
        );
        assert_eq!(
            FSF_UCI.setoption("Clear Hash", None),
            "setoption name Clear Hash"
        );
        assert_eq!(UCCI.newgame(true).as_deref(), Some("setoption newgame"));
        assert_eq!(UCCI.newgame(false), None);
        assert_eq!(FSF_UCI.newgame(false).as_deref(), Some("ucinewgame"));
    }

    #[test]
    fn engine_output() {
        let line = |d: &Dialect, s: &str| d.parse_line(s);
        assert_eq!(
            line(
                &UCCI,
                "info depth 12 seldepth 20 score -35 nodes 1 pv h2e2 h9g7"
            ),
            EngineLine::Info(Info {
                depth: Some(12),
                score: Some(Score::Cp(-35))
            })
        );
        // ElephantEye's mate convention and Fairy-Stockfish's keywords in UCCI mode.
        assert_eq!(
            line(&UCCI, "info depth 9 score 9995 pv a0a1"),
            EngineLine::Info(Info {
                depth: Some(9),
                score: Some(Score::Mate(3))
            })
        );
        assert_eq!(
            line(&UCCI, "info depth 9 score -9996"),
            EngineLine::Info(Info {
                depth: Some(9),
                score: Some(Score::Mate(-2))
            })
        );
        assert_eq!(
            line(
                &UCCI,
                "info depth 5 seldepth 5 multipv 1 score cp -123 nodes 1621"
            ),
            EngineLine::Info(Info {
                depth: Some(5),
                score: Some(Score::Cp(-123))
            })
        );
        assert_eq!(
            line(&FSF_UCI, "info depth 3 score mate -4 pv a1a2"),
            EngineLine::Info(Info {
                depth: Some(3),
                score: Some(Score::Mate(-4))
            })
        );
        assert_eq!(
            line(&UCCI, "bestmove h2e2 ponder h9g7 draw"),
            EngineLine::BestMove {
                mv: "h2e2".into(),
                draw: true,
                resign: false
            }
        );
        assert_eq!(
            line(&UCCI, "bestmove h2e2 resign"),
            EngineLine::BestMove {
                mv: "h2e2".into(),
                draw: false,
                resign: true
            }
        );
        assert_eq!(line(&UCCI, "nobestmove"), EngineLine::NoBestMove);
        assert_eq!(line(&FSF_UCI, "bestmove (none)"), EngineLine::NoBestMove);
        assert_eq!(line(&FSF_UCI, "bestmove"), EngineLine::NoBestMove);
        assert_eq!(line(&UCCI, "Fairy-Stockfish 11.1 LB 64"), EngineLine::Other);
        assert_eq!(line(&UCCI, ""), EngineLine::Other);
    }

    #[test]
    fn score_text() {
        assert_eq!(Score::Cp(35).to_string(), "+0.35");
        assert_eq!(Score::Cp(-5).to_string(), "-0.05");
        assert_eq!(Score::Cp(-123).to_string(), "-1.23");
        assert_eq!(Score::Cp(0).to_string(), "+0.00");
        assert_eq!(Score::Mate(5).to_string(), "+M5");
        assert_eq!(Score::Mate(-3).to_string(), "-M3");
        assert!(Score::Mate(-1).value() < Score::Cp(-30_000).value());
        assert!(Score::Mate(1).value() > Score::Mate(2).value());
    }
}
