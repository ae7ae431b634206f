//! Time controls and the clocks the runner keeps.
//!
//! The runner measures each move from the moment its `go` was written to the
//! moment the engine's `bestmove` line arrived (stamped by the reader thread,
//! so the runner's own work is never charged). When an engine's allowance
//! runs out the runner sends `stop`; a move arriving within the grace after
//! that is accepted (the clock may dip below zero by at most the grace), and
//! an engine still silent when the grace has passed loses on time, as under
//! the UCCI league runner.

use std::fmt;
use std::time::{Duration, Instant};

/// How long each move may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// Base time plus an increment per move (Fischer); with `moves` > 0,
    /// the base comes again every `moves` moves (40 moves in 2 minutes,
    /// then 40 more in another 2, ...), and the engine is told how many
    /// moves are left to the next control.
    Clock {
        base_ms: u64,
        inc_ms: u64,
        moves: u32,
    },
    /// A fixed time per move.
    MoveTime(u64),
    /// A fixed depth per move.
    Depth(u32),
    /// A fixed node count per move.
    Nodes(u64),
}

/// Reads a number of seconds (`10`, `0.5`, `1:30`) as milliseconds.
fn parse_seconds(s: &str) -> Option<u64> {
    let (minutes, seconds) = match s.split_once(':') {
        Some((m, s)) => (m.parse::<u64>().ok()?, s),
        None => (0, s),
    };
    let secs: f64 = seconds.parse().ok()?;
    if !secs.is_finite() || secs < 0.0 || seconds.starts_with('+') {
        return None;
    }
    let ms = minutes
        .checked_mul(60_000)?
        .checked_add((secs * 1000.0).round() as u64)?;
    // A week is more than any match needs; larger numbers are typos.
    (ms <= 7 * 24 * 3_600_000).then_some(ms)
}

impl TimeControl {
    /// Parses `[MOVES/]BASE[+INC]` in seconds, the base also as `M:SS`
    /// (`10+0.1`, `60`, `1:30+1`, `40/120`: 40 moves in 2 minutes, repeated).
    pub fn parse_clock(s: &str) -> Result<TimeControl, String> {
        let bad = || {
            format!(
                "time control '{s}' is not [MOVES/]BASE[+INC] in seconds, like 10+0.1, 1:30+1 or 40/120"
            )
        };
        let (moves, rest) = match s.split_once('/') {
            Some((m, rest)) => match m.parse::<u32>() {
                Ok(n) if n > 0 && !m.starts_with('+') => (n, rest),
                _ => return Err(bad()),
            },
            None => (0, s),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (
                parse_seconds(b).ok_or_else(bad)?,
                parse_seconds(i).ok_or_else(bad)?,
            ),
            None => (parse_seconds(rest).ok_or_else(bad)?, 0),
        };
        if base == 0 {
            return Err(format!("time control '{s}' has no base time"));
        }
        Ok(TimeControl::Clock {
            base_ms: base,
            inc_ms: inc,
            moves,
        })
    }

    /// Parses a fixed time per move in seconds (`0.5`).
    pub fn parse_movetime(s: &str) -> Result<TimeControl, String> {
        match parse_seconds(s) {
            Some(ms) if ms > 0 => Ok(TimeControl::MoveTime(ms)),
            _ => Err(format!(
                "time per move '{s}' is not a positive number of seconds"
            )),
        }
    }

    /// A fresh clock for a clock time control; `None` for the others.
    pub fn clock(&self) -> Option<Clock> {
        match *self {
            TimeControl::Clock {
                base_ms,
                inc_ms,
                moves,
            } => Some(Clock::with_period(base_ms, inc_ms, moves)),
            _ => None,
        }
    }

    /// The PGN `TimeControl` tag: `10+0.1`, `40/120` (40 moves in 120 s),
    /// `1/0.5` (one move per 0.5 s), or `-` for depth and node limits.
    pub fn pgn_tag(&self) -> String {
        match *self {
            TimeControl::Clock {
                base_ms,
                inc_ms,
                moves,
            } => {
                let mut tag = if moves > 0 {
                    format!("{moves}/{}", seconds_text(base_ms))
                } else {
                    seconds_text(base_ms)
                };
                if inc_ms > 0 {
                    tag.push_str(&format!("+{}", seconds_text(inc_ms)));
                }
                tag
            }
            TimeControl::MoveTime(ms) => format!("1/{}", seconds_text(ms)),
            TimeControl::Depth(_) | TimeControl::Nodes(_) => "-".to_string(),
        }
    }
}

/// Milliseconds as seconds without trailing zeros (`10`, `0.1`, `2.25`).
fn seconds_text(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        let s = format!("{}.{:03}", ms / 1000, ms % 1000);
        s.trim_end_matches('0').to_string()
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::Clock { .. } => write!(f, "{} s", self.pgn_tag()),
            TimeControl::MoveTime(ms) => write!(f, "{} s per move", seconds_text(ms)),
            TimeControl::Depth(d) => write!(f, "depth {d}"),
            TimeControl::Nodes(n) => write!(f, "{n} nodes"),
        }
    }
}

/// One side's clock under a base + increment control, with the base
/// added again every `period` moves when `period` > 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// May be slightly negative after a move accepted within the grace.
    remaining_ms: i64,
    inc_ms: i64,
    base_ms: i64,
    period: u32,
    moves_made: u32,
}

/// A move arrived after the clock ran out and the grace had passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flagged {
    /// How long the move took, and the time there was.
    pub used_ms: u64,
    pub had_ms: i64,
}

impl Clock {
    /// A sudden-death clock (with an increment).
    pub fn new(base_ms: u64, inc_ms: u64) -> Clock {
        Clock::with_period(base_ms, inc_ms, 0)
    }

    /// A clock that gets `base_ms` again after every `period` moves (0:
    /// never, sudden death).
    pub fn with_period(base_ms: u64, inc_ms: u64, period: u32) -> Clock {
        let base_ms = base_ms.min(i64::MAX as u64) as i64;
        Clock {
            remaining_ms: base_ms,
            inc_ms: inc_ms.min(i64::MAX as u64) as i64,
            base_ms,
            period,
            moves_made: 0,
        }
    }

    /// Moves to make before the next control adds time (`None` in sudden
    /// death).
    pub fn moves_to_go(&self) -> Option<u32> {
        (self.period > 0).then(|| self.period - self.moves_made % self.period)
    }

    pub fn remaining_ms(&self) -> i64 {
        self.remaining_ms
    }

    /// The time to announce to the engine: what is left, at least 1 ms (a
    /// zero could read as "no limit").
    pub fn announced_ms(&self) -> u64 {
        self.remaining_ms.max(1) as u64
    }

    pub fn inc_ms(&self) -> u64 {
        self.inc_ms as u64
    }

    /// How long the engine may think before it is sent `stop`.
    pub fn allowance(&self) -> Duration {
        Duration::from_millis(self.remaining_ms.max(0) as u64)
    }

    /// Charges a move that took `elapsed` and adds the increment; a move that
    /// overran the clock by more than `grace` flags instead.
    pub fn charge(&mut self, elapsed: Duration, grace: Duration) -> Result<(), Flagged> {
        let used = elapsed.as_millis().min(i64::MAX as u128) as i64;
        let left = self.remaining_ms.saturating_sub(used);
        if left < -(grace.as_millis().min(i64::MAX as u128) as i64) {
            return Err(Flagged {
                used_ms: used as u64,
                had_ms: self.remaining_ms,
            });
        }
        self.remaining_ms = left.saturating_add(self.inc_ms);
        self.moves_made = self.moves_made.saturating_add(1);
        if self.period > 0 && self.moves_made.is_multiple_of(self.period) {
            self.remaining_ms = self.remaining_ms.saturating_add(self.base_ms);
        }
        Ok(())
    }
}

/// When to send `stop` and when to give up on an engine that was sent `go`
/// at `sent` and may think for `allowance`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadlines {
    pub stop_at: Instant,
    pub give_up_at: Instant,
}

impl Deadlines {
    pub fn new(sent: Instant, allowance: Duration, grace: Duration) -> Deadlines {
        let stop_at = sent + allowance;
        Deadlines {
            stop_at,
            give_up_at: stop_at + grace,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: fn(u64) -> Duration = Duration::from_millis;

    #[test]
    fn parses_time_controls() {
        assert_eq!(
            TimeControl::parse_clock("10+0.1"),
            Ok(TimeControl::Clock {
                base_ms: 10_000,
                inc_ms: 100,
                moves: 0
            })
        );
        assert_eq!(
            TimeControl::parse_clock("1:30+1"),
            Ok(TimeControl::Clock {
                base_ms: 90_000,
                inc_ms: 1000,
                moves: 0
            })
        );
        assert_eq!(
            TimeControl::parse_clock("0.5"),
            Ok(TimeControl::Clock {
                base_ms: 500,
                inc_ms: 0,
                moves: 0
            })
        );
        assert_eq!(
            TimeControl::parse_clock("40/2:00"),
            Ok(TimeControl::Clock {
                base_ms: 120_000,
                inc_ms: 0,
                moves: 40
            })
        );
        for bad in [
            "", "+1", "10+", "abc", "-5", "10+-1", "0+1", "NaN", "inf", "1e99", "10++1", "0/60",
            "/60", "x/60", "-1/60", "40/", "40/0", "+40/60", "40/60/2",
        ] {
            assert!(TimeControl::parse_clock(bad).is_err(), "{bad}");
        }
        assert_eq!(
            TimeControl::parse_movetime("0.25"),
            Ok(TimeControl::MoveTime(250))
        );
        assert!(TimeControl::parse_movetime("0").is_err());
    }

    #[test]
    fn pgn_tags() {
        let tc = |s| TimeControl::parse_clock(s).unwrap().pgn_tag();
        assert_eq!(tc("10+0.1"), "10+0.1");
        assert_eq!(tc("60"), "60");
        assert_eq!(tc("2.25+0.05"), "2.25+0.05");
        assert_eq!(tc("40/120"), "40/120");
        assert_eq!(tc("40/1:00+0.5"), "40/60+0.5");
        assert_eq!(TimeControl::MoveTime(500).pgn_tag(), "1/0.5");
        assert_eq!(TimeControl::Depth(5).pgn_tag(), "-");
    }

    #[test]
    fn clock_accounting() {
        let mut c = Clock::new(1000, 100);
        assert_eq!(c.allowance(), MS(1000));
        c.charge(MS(300), MS(200)).unwrap();
        assert_eq!(c.remaining_ms(), 800);
        // Exactly the whole clock is fine.
        c.charge(MS(800), MS(200)).unwrap();
        assert_eq!(c.remaining_ms(), 100);
        // Over the clock but within the grace: accepted, the clock dips below
        // zero and the increment comes back.
        c.charge(MS(250), MS(200)).unwrap();
        assert_eq!(c.remaining_ms(), -50);
        assert_eq!(c.allowance(), MS(0));
        assert_eq!(c.announced_ms(), 1);
        // Past the grace: flagged, the clock untouched.
        assert_eq!(
            c.charge(MS(151), MS(200)),
            Err(Flagged {
                used_ms: 151,
                had_ms: -50
            })
        );
        assert_eq!(c.remaining_ms(), -50);
        c.charge(MS(150), MS(200)).unwrap();
        assert_eq!(c.remaining_ms(), -100);
    }

    #[test]
    fn sudden_death_and_zero_grace() {
        let mut c = Clock::new(500, 0);
        c.charge(MS(500), MS(0)).unwrap();
        assert_eq!(c.remaining_ms(), 0);
        assert!(c.charge(MS(1), MS(0)).is_err());
    }

    #[test]
    fn moves_to_go_and_the_next_control() {
        let mut c = Clock::with_period(1000, 0, 3);
        assert_eq!(c.moves_to_go(), Some(3));
        c.charge(MS(100), MS(0)).unwrap();
        c.charge(MS(100), MS(0)).unwrap();
        assert_eq!((c.moves_to_go(), c.remaining_ms()), (Some(1), 800));
        // The third move reaches the control: the base comes again.
        c.charge(MS(700), MS(0)).unwrap();
        assert_eq!((c.moves_to_go(), c.remaining_ms()), (Some(3), 1100));
        assert_eq!(Clock::new(1000, 0).moves_to_go(), None);
    }

    #[test]
    fn deadlines() {
        let t = Instant::now();
        let d = Deadlines::new(t, MS(1000), MS(200));
        assert_eq!(d.stop_at - t, MS(1000));
        assert_eq!(d.give_up_at - t, MS(1200));
    }
}
