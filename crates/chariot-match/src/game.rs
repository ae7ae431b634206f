//! One game between two engine processes: getting them ready, the move loop
//! with the clocks, and every way a game ends. The rules (mate, stalemate,
//! repetition with perpetual check and chase, the move limit, insufficient
//! material) are judged by `xiangqi::rules`, the same code the search uses.

use super::adjudicate::{DrawOffers, DrawRule, ResignRule, ScoreAdjudicator, ScoreVerdict};
use super::clock::{Deadlines, TimeControl};
use super::dialect::{EngineLine, GoLimit, Info, PositionLine, Score};
use super::engine::{Engine, EngineError, EngineSpec, Recv, SetOption};
use super::openings::Opening;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use xiangqi::rules::{self, Termination};
use xiangqi::types::{Color, Move};
use xiangqi::Position;

/// A participant: how to start its engine, and the options to give it.
#[derive(Clone, Debug)]
pub struct Player {
    pub name: String,
    pub spec: EngineSpec,
    pub options: Vec<SetOption>,
}

/// How games are played and ended.
#[derive(Clone, Debug)]
pub struct GameConfig {
    pub tc: TimeControl,
    /// After `stop`, how long an engine has to answer before it forfeits.
    pub grace: Duration,
    /// Under depth and node limits: how long a move may take before the
    /// engine is stopped and counted as hung.
    pub hang_timeout: Duration,
    /// Bound on the handshake and on `isready`.
    pub ready_timeout: Duration,
    /// Plies without a capture that draw (the 60-move rule is 120).
    pub move_limit_plies: u32,
    /// Plies after which the game is adjudicated a draw (book moves count).
    pub max_plies: Option<u32>,
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
}

/// Engine failures, counted per engine. Each loses the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Exited, closed its pipes, or could not be started.
    Crash,
    /// Overran its clock (or the fixed move time) by more than the grace.
    TimeForfeit,
    /// Played an illegal or unreadable move.
    Illegal,
    /// No answer to `isready`, or under depth/node limits no move within the
    /// hang timeout.
    Hang,
}

/// The PGN `Termination` tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndKind {
    Normal,
    Adjudication,
    TimeForfeit,
    RulesInfraction,
    Abandoned,
}

impl EndKind {
    pub fn pgn(self) -> &'static str {
        match self {
            EndKind::Normal => "normal",
            EndKind::Adjudication => "adjudication",
            EndKind::TimeForfeit => "time forfeit",
            EndKind::RulesInfraction => "rules infraction",
            EndKind::Abandoned => "abandoned",
        }
    }
}

/// A move of the game record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    pub mv: Move,
    /// From the opening, not played by an engine.
    pub book: bool,
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub elapsed_ms: u64,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub start_fen: String,
    pub opening_name: Option<String>,
    pub moves: Vec<PlayedMove>,
    /// `None` for a draw.
    pub winner: Option<Color>,
    pub end: EndKind,
    /// Why it ended, for people.
    pub reason: String,
    pub fault: Option<(Color, Fault)>,
}

impl GameRecord {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::Red) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// Points scored by `side`: 1, ½ or 0.
    pub fn points(&self, side: Color) -> f64 {
        match self.winner {
            None => 0.5,
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
        }
    }
}

/// The limit `player` plays under: its own (`depth=`, `nodes=`, `tc=`) or
/// the match's.
pub fn limit_of(cfg: &GameConfig, player: &Player) -> TimeControl {
    player.spec.limit.unwrap_or(cfg.tc)
}

/// How a rules verdict reads.
fn rules_reason(reason: Termination, winner: Option<Color>, move_limit: u32) -> String {
    let loser = winner.map(Color::flip);
    match (reason, winner, loser) {
        (Termination::Checkmate, Some(w), _) => format!("{w} mates"),
        (Termination::Stalemate, Some(w), Some(l)) => {
            format!("{w} wins: {l} has no legal move (stalemate)")
        }
        (Termination::PerpetualCheck, _, Some(l)) => format!("{l} loses by perpetual check"),
        (Termination::PerpetualChase, _, Some(l)) => format!("{l} loses by perpetual chase"),
        (Termination::MoveLimit, ..) => format!(
            "draw by the move limit ({} moves without a capture)",
            move_limit / 2
        ),
        (Termination::InsufficientMaterial, ..) => "draw by insufficient material".to_string(),
        (Termination::Repetition, ..) => "draw by repetition".to_string(),
        (other, ..) => format!("{other}"),
    }
}

/// The side's engine slot, ready for a new game: started if needed (and
/// restarted once if it fails to get ready).
fn get_ready(
    cfg: &GameConfig,
    player: &Player,
    slot: &mut Option<Engine>,
) -> Result<(), EngineError> {
    if let Some(engine) = slot.as_mut() {
        match engine.new_game(cfg.ready_timeout) {
            Ok(()) => return Ok(()),
            Err(e) => {
                log::warn!("{e}; restarting it");
                *slot = None;
            }
        }
    }
    let mut engine = Engine::start(
        &player.spec,
        &player.name,
        &player.options,
        cfg.ready_timeout,
    )?;
    engine.new_game(cfg.ready_timeout)?;
    *slot = Some(engine);
    Ok(())
}

/// How often a waiting game looks at the stop flag.
const POLL: Duration = Duration::from_millis(50);

/// What came back from one `go`.
enum Answer {
    Move {
        text: String,
        draw: bool,
        resign: bool,
        at: Instant,
    },
    NoMove,
    Silent,
    Died(EngineError),
    Aborted,
}

/// The game's state besides the position.
struct Line {
    start_fen: String,
    moves: Vec<Move>,
    after_capture: Option<(String, usize)>,
}

impl Line {
    fn push(&mut self, pos: &mut Position, m: Move) {
        let capture = pos.is_capture(m);
        pos.make_move(m);
        self.moves.push(m);
        if capture {
            self.after_capture = Some((pos.to_fen(), self.moves.len()));
        }
    }

    fn view(&self) -> PositionLine<'_> {
        PositionLine {
            start_fen: &self.start_fen,
            moves: &self.moves,
            after_capture: self.after_capture.as_ref().map(|(f, i)| (f.as_str(), *i)),
        }
    }
}

/// Plays one game, Red's player and engine first. Returns `None` when `stop`
/// was raised before it finished. Engines that crashed or hung are dropped
/// from their slots (killed), to be restarted for the next game.
pub fn play(
    cfg: &GameConfig,
    players: [&Player; 2],
    slots: [&mut Option<Engine>; 2],
    opening: &Opening,
    stop: &AtomicBool,
) -> Option<GameRecord> {
    let [red_slot, black_slot] = slots;
    let slots = [red_slot, black_slot];
    let mut pos = opening.start();
    let mut line = Line {
        start_fen: opening.fen.clone(),
        moves: Vec::new(),
        after_capture: None,
    };
    let mut record = GameRecord {
        start_fen: opening.fen.clone(),
        opening_name: opening.name.clone(),
        moves: Vec::new(),
        winner: None,
        end: EndKind::Normal,
        reason: String::new(),
        fault: None,
    };
    for &m in &opening.moves {
        line.push(&mut pos, m);
        record.moves.push(PlayedMove {
            mv: m,
            book: true,
            score: None,
            depth: None,
            elapsed_ms: 0,
        });
    }
    let finish = |mut record: GameRecord,
                  winner: Option<Color>,
                  end: EndKind,
                  reason: String,
                  fault: Option<(Color, Fault)>| {
        record.winner = winner;
        record.end = end;
        record.reason = reason;
        record.fault = fault;
        Some(record)
    };

    for side in Color::ALL {
        let i = side.index();
        if let Err(e) = get_ready(cfg, players[i], slots[i]) {
            log::warn!("{e}");
            let fault = match e {
                EngineError::Timeout(_) => Fault::Hang,
                _ => Fault::Crash,
            };
            return finish(
                record,
                Some(side.flip()),
                EndKind::Abandoned,
                format!("{side} ({}) forfeits: {e}", players[i].name),
                Some((side, fault)),
            );
        }
    }

    // Each side's clock: the match's, or the engine's own (`tc=`, time odds).
    let mut clocks = match (
        limit_of(cfg, players[0]).clock(),
        limit_of(cfg, players[1]).clock(),
    ) {
        (Some(red), Some(black)) => Some([red, black]),
        _ => None,
    };
    let mut offers = DrawOffers::default();
    let mut scores = ScoreAdjudicator::new(cfg.resign, cfg.draw);
    // An end decided by the last move, applied once the rules had their say.
    let mut pending: Option<(Option<Color>, EndKind, String)> = None;

    loop {
        if let Some(v) = rules::adjudicate(&pos, cfg.move_limit_plies) {
            let reason = rules_reason(v.reason, v.winner, cfg.move_limit_plies);
            return finish(record, v.winner, EndKind::Normal, reason, None);
        }
        if let Some((winner, end, reason)) = pending.take() {
            return finish(record, winner, end, reason, None);
        }
        if cfg
            .max_plies
            .is_some_and(|m| record.moves.len() as u32 >= m)
        {
            let reason = format!(
                "draw by adjudication: {} moves played",
                record.moves.len() / 2
            );
            return finish(record, None, EndKind::Adjudication, reason, None);
        }
        if stop.load(Ordering::Relaxed) {
            return None;
        }

        let side = pos.side_to_move();
        let i = side.index();
        let name = players[i].name.clone();
        let Some(engine) = slots[i].as_mut() else {
            // get_ready filled both slots, and a slot is only emptied as a
            // game ends; keep going safely all the same.
            let reason = format!("{side} ({name}) has no running engine");
            return finish(
                record,
                Some(side.flip()),
                EndKind::Abandoned,
                reason,
                Some((side, Fault::Crash)),
            );
        };
        // An engine's own limit (a `depth=`/`nodes=` word) replaces the
        // match's, which is then a per-move limit too; its own clock (`tc=`)
        // is already the side's clock (the CLI checks).
        let tc = limit_of(cfg, players[i]);
        let limit = match (tc, clocks.as_ref()) {
            (TimeControl::Clock { .. }, Some(c)) => GoLimit::Clock {
                red_to_move: side == Color::Red,
                own_ms: c[i].announced_ms(),
                own_inc_ms: c[i].inc_ms(),
                opp_ms: c[1 - i].announced_ms(),
                opp_inc_ms: c[1 - i].inc_ms(),
                moves_to_go: c[i].moves_to_go(),
            },
            (TimeControl::MoveTime(ms), _) => GoLimit::MoveTime(ms),
            (TimeControl::Depth(d), _) => GoLimit::Depth(d),
            (TimeControl::Nodes(n), _) => GoLimit::Nodes(n),
            (TimeControl::Clock { .. }, None) => GoLimit::MoveTime(1000),
        };
        let allowance = match (clocks.as_ref(), cfg.tc) {
            (Some(c), _) => c[i].allowance(),
            (None, TimeControl::MoveTime(ms)) => Duration::from_millis(ms),
            _ => cfg.hang_timeout,
        };
        let dialect = engine.dialect;
        let position = dialect.position(&line.view());
        let go = dialect.go(limit, offers.offered_to(side));
        let sent = if engine.drain() {
            engine.send(&position).and_then(|_| engine.send(&go))
        } else {
            Err(engine.died("between moves"))
        };
        let started = Instant::now();
        let (answer, info) = match sent {
            Err(e) => (Answer::Died(e), Info::default()),
            Ok(()) => {
                let (answer, info, stop_sent) =
                    wait_for_move(engine, started, allowance, cfg.grace, stop);
                // A move that crossed our `stop` on the wire leaves the
                // engine answering that `stop` while idle (UCCI: with a
                // `nobestmove`). Synchronise, so that the late line cannot
                // answer the next `go`.
                if stop_sent && matches!(answer, Answer::Move { .. }) {
                    if let Err(e) = engine.sync(cfg.ready_timeout) {
                        log::warn!("{e}");
                    }
                }
                (answer, info)
            }
        };

        let timed = clocks.is_some() || matches!(cfg.tc, TimeControl::MoveTime(_));
        let (text, draw, resign, at) = match answer {
            Answer::Aborted => return None,
            Answer::Died(e) => {
                log::warn!("{e}");
                *slots[i] = None;
                let reason = format!("{side} ({name}) crashed: {e}");
                return finish(
                    record,
                    Some(side.flip()),
                    EndKind::Abandoned,
                    reason,
                    Some((side, Fault::Crash)),
                );
            }
            Answer::Silent => {
                // Stopped and still silent after the grace: the engine is in
                // an unknown state, so it is killed and restarted next game.
                *slots[i] = None;
                let waited = (allowance + cfg.grace).as_secs_f64();
                if timed {
                    log::warn!(
                        "{name}: no move {waited:.2} s after 'go' ({} given); loses on time",
                        fmt_allowance(allowance)
                    );
                    let reason =
                        format!("{side} ({name}) loses on time: no move within {waited:.2} s");
                    return finish(
                        record,
                        Some(side.flip()),
                        EndKind::TimeForfeit,
                        reason,
                        Some((side, Fault::TimeForfeit)),
                    );
                }
                log::warn!("{name}: no move {waited:.1} s after '{go}'; counted as hung");
                let reason = format!("{side} ({name}) hangs: no move within {waited:.1} s");
                return finish(
                    record,
                    Some(side.flip()),
                    EndKind::Abandoned,
                    reason,
                    Some((side, Fault::Hang)),
                );
            }
            Answer::NoMove => {
                let reason = format!(
                    "{side} ({name}) resigns (no move given in a position with legal moves)"
                );
                return finish(record, Some(side.flip()), EndKind::Normal, reason, None);
            }
            Answer::Move {
                text,
                draw,
                resign,
                at,
            } => (text, draw, resign, at),
        };
        let elapsed = at.saturating_duration_since(started);

        // The clock first: a late move loses whatever it is.
        let late = match (clocks.as_mut(), cfg.tc) {
            (Some(c), _) => c[i].charge(elapsed, cfg.grace).err().map(|f| {
                format!(
                    "{side} ({name}) loses on time: {} ms used with {} ms left",
                    f.used_ms, f.had_ms
                )
            }),
            (None, TimeControl::MoveTime(ms))
                if elapsed > Duration::from_millis(ms) + cfg.grace =>
            {
                Some(format!(
                    "{side} ({name}) loses on time: {} ms used for a {ms} ms move",
                    elapsed.as_millis()
                ))
            }
            _ => None,
        };
        if let Some(reason) = late {
            log::warn!("{reason}");
            return finish(
                record,
                Some(side.flip()),
                EndKind::TimeForfeit,
                reason,
                Some((side, Fault::TimeForfeit)),
            );
        }
        if resign {
            let reason = format!("{side} ({name}) resigns");
            return finish(record, Some(side.flip()), EndKind::Normal, reason, None);
        }
        let mv = match dialect.parse_move(&text) {
            None => Err(format!("an unreadable move '{text}'")),
            Some(m) => pos.parse_move(&m.to_string()).map_err(|e| {
                if m.to_string() == text {
                    format!("{e}")
                } else {
                    format!("{e} (sent as {text})")
                }
            }),
        };
        let mv = match mv {
            Ok(m) => m,
            Err(why) => {
                let reason = format!("{side} ({name}) plays {why} in {}", pos.to_fen());
                log::warn!("{reason}");
                return finish(
                    record,
                    Some(side.flip()),
                    EndKind::RulesInfraction,
                    reason,
                    Some((side, Fault::Illegal)),
                );
            }
        };
        let fullmove = pos.fullmove_number();
        line.push(&mut pos, mv);
        record.moves.push(PlayedMove {
            mv,
            book: false,
            score: info.score,
            depth: info.depth,
            elapsed_ms: elapsed.as_millis().min(u128::from(u64::MAX)) as u64,
        });
        if offers.record(side, draw) {
            pending = Some((None, EndKind::Normal, "draw agreed".to_string()));
        } else if let Some(verdict) = scores.record(side, info.score, fullmove) {
            pending = Some(match verdict {
                ScoreVerdict::Loses(loser) => (
                    Some(loser.flip()),
                    EndKind::Adjudication,
                    format!("{loser} loses by adjudication (its score stayed lost)"),
                ),
                ScoreVerdict::Draw => (
                    None,
                    EndKind::Adjudication,
                    "draw by adjudication (scores stayed level)".to_string(),
                ),
            });
        }
    }
}

fn fmt_allowance(d: Duration) -> String {
    format!("{:.3} s", d.as_secs_f64())
}

/// Waits for the answer to a `go` sent at `started`: `stop` once the
/// allowance is used up, and give up `grace` later. Also returns the score and
/// depth of the last `info` line that had a score, and whether `stop` was
/// sent.
fn wait_for_move(
    engine: &mut Engine,
    started: Instant,
    allowance: Duration,
    grace: Duration,
    stop: &AtomicBool,
) -> (Answer, Info, bool) {
    let deadlines = Deadlines::new(started, allowance, grace);
    let mut stop_sent = false;
    let mut info = Info::default();
    loop {
        if stop.load(Ordering::Relaxed) {
            return (Answer::Aborted, info, stop_sent);
        }
        let target = if stop_sent {
            deadlines.give_up_at
        } else {
            deadlines.stop_at
        };
        match engine.recv(target.min(Instant::now() + POLL)) {
            Recv::Line(text, at) => match engine.dialect.parse_line(&text) {
                EngineLine::Info(i) => {
                    if i.score.is_some() {
                        info = i;
                    }
                }
                EngineLine::BestMove { mv, draw, resign } => {
                    return (
                        Answer::Move {
                            text: mv,
                            draw,
                            resign,
                            at,
                        },
                        info,
                        stop_sent,
                    )
                }
                EngineLine::NoBestMove => return (Answer::NoMove, info, stop_sent),
                EngineLine::Other => {}
            },
            Recv::Eof => return (Answer::Died(engine.died("while thinking")), info, stop_sent),
            Recv::Timeout => {
                let now = Instant::now();
                if now >= deadlines.give_up_at && stop_sent {
                    return (Answer::Silent, info, stop_sent);
                }
                if now >= deadlines.stop_at && !stop_sent {
                    stop_sent = true;
                    if let Err(e) = engine.send("stop") {
                        return (Answer::Died(e), info, stop_sent);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_read_well() {
        assert_eq!(
            rules_reason(Termination::Checkmate, Some(Color::Red), 120),
            "Red mates"
        );
        assert_eq!(
            rules_reason(Termination::Stalemate, Some(Color::Black), 120),
            "Black wins: Red has no legal move (stalemate)"
        );
        assert_eq!(
            rules_reason(Termination::PerpetualCheck, Some(Color::Black), 120),
            "Red loses by perpetual check"
        );
        assert_eq!(
            rules_reason(Termination::MoveLimit, None, 120),
            "draw by the move limit (60 moves without a capture)"
        );
    }

    #[test]
    fn results_and_points() {
        let mut r = GameRecord {
            start_fen: String::new(),
            opening_name: None,
            moves: Vec::new(),
            winner: Some(Color::Black),
            end: EndKind::Normal,
            reason: String::new(),
            fault: None,
        };
        assert_eq!(r.result(), "0-1");
        assert_eq!(r.points(Color::Black), 1.0);
        assert_eq!(r.points(Color::Red), 0.0);
        r.winner = None;
        assert_eq!(r.result(), "1/2-1/2");
        assert_eq!(r.points(Color::Red), 0.5);
    }
}
