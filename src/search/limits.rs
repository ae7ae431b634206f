//! Search limits and time allocation.
//!
//! A soft limit is checked between iterations (no new iteration starts past
//! it) and a hard limit inside the tree (the search stops at once).

/// The side to move's clock, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left.
    pub time_ms: u64,
    /// Increment per move.
    pub inc_ms: u64,
    /// Moves to the next time control, if any.
    pub movestogo: Option<u32>,
    /// The opponent's time left, if the GUI says.
    pub opp_time_ms: Option<u64>,
}

/// What bounds one search. `None` means unbounded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime_ms: Option<u64>,
    pub clock: Option<Clock>,
    /// Look for a mate in this many moves.
    pub mate: Option<u32>,
    /// Search until stopped.
    pub infinite: bool,
}

impl Limits {
    /// Whether the clock alone bounds the search: no depth, node count,
    /// move time or mate asked, and not an infinite search.
    pub fn clock_only(&self) -> bool {
        self.clock.is_some()
            && self.depth.is_none()
            && self.nodes.is_none()
            && self.movetime_ms.is_none()
            && self.mate.is_none()
            && !self.infinite
    }
}

/// Time budget of a search, in milliseconds of clock time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimePlan {
    pub soft_ms: Option<u64>,
    pub hard_ms: Option<u64>,
    /// The hard limit while our mate or decisive gain, found at the root on
    /// this move, is not yet made sure of (at least `hard_ms`, within the same cap).
    pub stretch_ms: Option<u64>,
    /// A single legal move on the clock alone ([`TimePlan::single_move`]):
    /// its soft limit is not stretched.
    pub single_move: bool,
}

impl TimePlan {
    /// The plan for a single legal move on the clock: searched
    /// `SINGLE_MOVE_SOFT_MS` at most (less where the plan gave less), and
    /// stopped inside an iteration at `SINGLE_MOVE_HARD_MS`.
    pub fn single_move(self) -> TimePlan {
        let cap = |ms: Option<u64>, at: u64| ms.map(|ms| ms.min(at));
        TimePlan {
            soft_ms: cap(self.soft_ms, SINGLE_MOVE_SOFT_MS),
            hard_ms: cap(self.hard_ms, SINGLE_MOVE_HARD_MS),
            stretch_ms: cap(self.stretch_ms, SINGLE_MOVE_HARD_MS),
            single_move: true,
        }
    }
}

/// The plan of a search over `root_moves` moves: [`plan`]'s, or for a
/// single move on the clock alone, [`TimePlan::single_move`]'s.
pub fn plan_for(limits: &Limits, overhead: u64, game_ply: u32, root_moves: usize) -> TimePlan {
    let time = plan(limits, overhead, game_ply);
    if root_moves == 1 && limits.clock_only() {
        time.single_move()
    } else {
        time
    }
}

/// A single legal move is searched no iteration past this (on the clock
/// alone): long enough to show its score and fill the table for the next
/// move (a mate in six behind a forced move is seen in about 15 ms), short
/// enough that the move comes at once...
const SINGLE_MOVE_SOFT_MS: u64 = 30;
/// ...and stopped inside an iteration here.
const SINGLE_MOVE_HARD_MS: u64 = 60;

/// Moves assumed left in a sudden-death game (no `movestogo`) at its
/// start: each move plans on this share of what is left, so a long game
/// (150 moves and more) still has time at its end...
const SUDDEN_DEATH_MOVES: u64 = 40;
/// ...and with an increment, as the game goes on, as few as this many
/// (the game's progress: a game that has run long has fewer moves ahead,
/// and its middle game, where it is decided, gets a larger share than its
/// opening, as the Stockfish family's plan grows with the game's ply).
/// Only as far as the increments carry the clock: without them, a larger
/// share late would leave a long game's last moves without time (150 moves
/// at 3 s + 0 would end with 12 ms where a fortieth keeps 75).
const LATE_MOVES: u64 = 25;
/// Plies into the game by which the moves assumed left reach `LATE_MOVES`.
const PROGRESS_PLIES: u64 = 160;
/// In sudden death, this much per move assumed at the start
/// (`SUDDEN_DEATH_MOVES`) is kept back as a cushion (at most half the
/// clock), so that the last moves of a long game, which cost a millisecond
/// or two each whatever the budget, still find time left.
const CUSHION_PER_MOVE_MS: u64 = 2;
/// Most moves to the next control planned for (a larger `movestogo` is
/// read as this many).
const MAX_MOVES_TO_GO: u64 = 60;
/// A search uses on average about this much more than its soft limit, in
/// tenths: the iteration under way is finished, and an unstable best move
/// or a falling score stretches the limit (measured 1.3–1.4 over whole
/// games at every control, `scripts/measure/time_use.py`). Before a control the
/// plan divides by it, so that the moves of a period share its time
/// evenly; dividing by the moves alone gave the first moves a third more
/// than their share and left the last ones before the control under a
/// second each, with 0.2 s on the clock.
const OVERRUN_TENTHS: u64 = 13;
/// Moves' worth of time a period keeps in reserve at its control.
const RESERVE_MOVES: u64 = 3;
/// The hard limit is at most this many times the soft one...
const HARD_PER_SOFT: u64 = 4;
/// ...and, while our mate or decisive gain found on this move is not yet
/// made sure of, this many (within the same third of the clock): a mate
/// or a large gain first seen a few plies short under a fast clock is
/// made sure of within it where the plain limit would cut it off.
const STRETCH_PER_SOFT: u64 = 16;

/// Works out the soft, hard and stretched limits from the move time or
/// the clock.
///
/// `overhead` is what one move may lose to communication; it is kept back
/// once, from this move's time, not once per move still to play (which on
/// a 1 s clock used to leave about 1 ms a move). The soft budget is a share
/// of the time left and of the increments to come (in sudden death, a
/// fortieth, growing with an increment as the game goes on, `game_ply`
/// plies in by the position's move number: see `moves_left`);
/// before a control, an even share that allows for searches overrunning
/// it and keeps a reserve of a few moves); the opponent's
/// clock shifts it by up to a quarter. The hard limit never passes a third
/// of the time left (80% when this is the last move before the control),
/// so no single move can lose on time.
pub fn plan(limits: &Limits, overhead: u64, game_ply: u32) -> TimePlan {
    if limits.infinite {
        return TimePlan::default();
    }
    if let Some(t) = limits.movetime_ms {
        // The whole move time is used: no soft limit ends it early, and
        // the iteration under way when it runs out gives its best move.
        let hard = Some(t.saturating_sub(overhead).max(1));
        return TimePlan {
            soft_ms: None,
            hard_ms: hard,
            stretch_ms: hard,
            single_move: false,
        };
    }
    let Some(clock) = limits.clock else {
        return TimePlan::default();
    };
    // What this move may use at most: the clock less one overhead.
    let avail = clock.time_ms.saturating_sub(overhead).max(1);
    let (mut soft, cap) = match clock.movestogo {
        Some(m) => {
            let m = (m as u64).clamp(1, MAX_MOVES_TO_GO);
            // This and the next m - 1 moves share the time left and the
            // increments they will receive, less a reserve, each expecting
            // to overrun its soft limit as searches do.
            let pool = avail.saturating_add(clock.inc_ms.saturating_mul(m - 1));
            let cap = if m == 1 { avail / 10 * 8 } else { avail / 3 };
            let shares = (OVERRUN_TENTHS * m + 10 * RESERVE_MOVES) as u128;
            ((pool as u128 * 10 / shares) as u64, cap)
        }
        None => {
            let cushion = (SUDDEN_DEATH_MOVES * CUSHION_PER_MOVE_MS).min(avail / 2);
            (
                (avail - cushion) / moves_left(game_ply, clock.inc_ms, avail)
                    + clock.inc_ms / 4 * 3,
                avail / 3,
            )
        }
    };
    // The opponent's clock: with more time than the opponent, spend a
    // little more; with less, a little less.
    if let Some(opp) = clock.opp_time_ms {
        let ratio = (clock.time_ms as f64 + 1.0) / (opp as f64 + 1.0);
        soft = (soft as f64 * ratio.clamp(0.8, 1.25)) as u64;
    }
    let soft = soft.min(cap).max(1);
    let hard = soft.saturating_mul(HARD_PER_SOFT).min(cap).max(soft);
    let stretch = soft.saturating_mul(STRETCH_PER_SOFT).min(cap).max(hard);
    TimePlan {
        soft_ms: Some(soft),
        hard_ms: Some(hard),
        stretch_ms: Some(stretch),
        single_move: false,
    }
}

/// Moves assumed left in a sudden-death game `game_ply` plies in, with an
/// increment of `inc_ms` and `avail` on the clock: `SUDDEN_DEATH_MOVES`
/// at its start, fewer with each ply to `PROGRESS_PLIES`, and no fewer
/// after. All the way to `LATE_MOVES` where the increments of the moves
/// assumed left make up the clock or more; in proportion where they make
/// up less (a small increment is nearly sudden death); not at all without
/// an increment.
fn moves_left(game_ply: u32, inc_ms: u64, avail: u64) -> u64 {
    let done = u128::from(u64::from(game_ply).min(PROGRESS_PLIES));
    let avail = u128::from(avail.max(1));
    let carried = u128::from(inc_ms.saturating_mul(SUDDEN_DEATH_MOVES)).min(avail);
    let fewer = u128::from(SUDDEN_DEATH_MOVES - LATE_MOVES) * done * carried
        / (u128::from(PROGRESS_PLIES) * avail);
    SUDDEN_DEATH_MOVES - fewer as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(time_ms: u64, inc_ms: u64, movestogo: Option<u32>) -> Limits {
        Limits {
            clock: Some(Clock {
                time_ms,
                inc_ms,
                movestogo,
                opp_time_ms: None,
            }),
            ..Limits::default()
        }
    }

    #[test]
    fn never_plans_beyond_the_clock() {
        for (t, inc, mtg) in [
            (1, 0, None),
            (10, 0, Some(1)),
            (1000, 10, None),
            (60_000, 0, Some(40)),
            (5, 1000, None),
            (u64::MAX, u64::MAX / 2, Some(0)),
        ] {
            let p = plan(&clock(t, inc, mtg), 30, 0);
            let (soft, hard) = (p.soft_ms.unwrap_or(0), p.hard_ms.unwrap_or(0));
            let stretch = p.stretch_ms.unwrap_or(0);
            assert!(soft <= hard && hard <= stretch, "{t} {inc} {mtg:?}");
            assert!(
                stretch <= t.saturating_sub(30).max(1),
                "{t} {inc} {mtg:?}: stretch {stretch}"
            );
        }
    }

    #[test]
    fn a_low_clock_moves_fast_and_a_healthy_one_thinks() {
        // 45 ms left at 1 s + 10 ms: a few milliseconds at most.
        let p = plan(&clock(45, 10, None), 30, 0);
        assert!(p.hard_ms.is_some_and(|h| h <= 5), "{p:?}");
        // A 1 s clock pays the overhead once: about a thirtieth of it per
        // move, not the 1 ms that paying it per expected move left.
        let p = plan(&clock(1000, 0, None), 30, 0);
        assert_eq!(p.soft_ms, Some(22));
        assert_eq!(p.hard_ms, Some(88));
        // Resolving a mate, up to sixteen times the soft limit, within a
        // third of the clock.
        assert_eq!(p.stretch_ms, Some(323));
        // 5 s + 50 ms: about a fifth of a second per move.
        let p = plan(&clock(5000, 50, None), 30, 0);
        assert!(p.soft_ms.is_some_and(|s| (120..=200).contains(&s)), "{p:?}");
        // 40 moves in 2 minutes: three seconds a move on average, planned
        // as 2.2 s, which searches overrun by a third.
        let p = plan(&clock(120_000, 0, Some(40)), 30, 0);
        assert_eq!(p.soft_ms, Some(2181));
        // The last move before the control plans on a quarter of what is
        // left and may take most of it.
        let p = plan(&clock(3000, 0, Some(1)), 30, 0);
        assert_eq!(p.soft_ms, Some(690));
        assert_eq!(p.hard_ms, Some(2376));
        assert_eq!(p.stretch_ms, Some(2376));
    }

    #[test]
    fn budgets_grow_with_the_clock_and_stay_within_it() {
        // Sudden death from 1 s to 60 min, with and without increment.
        let mut last = 0;
        for secs in [1, 2, 3, 5, 10, 30, 60, 300, 600, 1800, 3600] {
            for inc in [0, secs * 10] {
                let t = secs * 1000;
                let p = plan(&clock(t, inc, None), 30, 0);
                let (soft, hard) = (p.soft_ms.unwrap_or(0), p.hard_ms.unwrap_or(0));
                let stretch = p.stretch_ms.unwrap_or(0);
                assert!(soft <= hard && hard <= stretch, "{t}+{inc}: {p:?}");
                assert!(stretch <= (t - 30) / 3, "{t}+{inc}: {p:?}");
                if inc == 0 {
                    assert!(soft > last, "{t}: {soft} after {last}");
                    last = soft;
                }
            }
        }
    }

    #[test]
    fn a_sudden_death_game_keeps_time_to_the_end() {
        // 150 moves (300 plies, the game's progress counted) at 1 s and
        // 3 s, with no increment or a small one, each using one and a half
        // times its soft budget (searches stop between the soft and the
        // hard limit) and losing 1 ms to the pipes: the clock never runs
        // out. (Planned on a twenty-fifth late without regard to the
        // increment, 1 s + 0.001 s runs out at move 146 using twice its
        // budget.)
        for (start, inc, overrun) in [(1000u64, 0, 3), (3000, 0, 3), (1000, 1, 4), (1000, 10, 3)] {
            let mut t = start as i64;
            for n in 0..150 {
                let p = plan(&clock(t as u64, inc, None), 30, 2 * n);
                let used = (overrun * p.soft_ms.unwrap_or(0) / 2).min(p.hard_ms.unwrap_or(0));
                t -= used as i64 + 1;
                assert!(t > 0, "{start} + {inc} ms ran out at move {n}");
                t += inc as i64;
            }
        }
    }

    #[test]
    fn a_sudden_death_game_spends_a_larger_share_as_it_goes_on() {
        let soft = |l: &Limits, ply| plan(l, 30, ply).soft_ms.unwrap_or(0);
        // With an increment whose forty make up the clock: a fortieth of
        // the clock (less the cushion) at the start, a twenty-fifth from
        // 160 plies on, growing in between, plus three quarters of the
        // increment.
        let sudden = clock(60_000, 1500, None);
        assert_eq!(soft(&sudden, 0), (60_000 - 30 - 80) / 40 + 1125);
        assert_eq!(soft(&sudden, 160), (60_000 - 30 - 80) / 25 + 1125);
        assert_eq!(soft(&sudden, 400), soft(&sudden, 160));
        let by_ply: Vec<u64> = (0..=160).step_by(20).map(|p| soft(&sudden, p)).collect();
        assert!(by_ply.windows(2).all(|w| w[0] < w[1]), "{by_ply:?}");
        // Increments that make up a fifth of the clock: a fifth of the way
        // (to 37 moves); none: a fortieth throughout.
        let small = clock(60_000, 300, None);
        assert_eq!(soft(&small, 160), (60_000 - 30 - 80) / 37 + 225);
        let bare = clock(60_000, 0, None);
        assert_eq!(soft(&bare, 0), (60_000 - 30 - 80) / 40);
        assert_eq!(soft(&bare, 400), soft(&bare, 0));
        // Before a control, the moves to go say how many are left.
        let period = clock(60_000, 500, Some(20));
        assert_eq!(soft(&period, 0), soft(&period, 200));
    }

    #[test]
    fn a_repeating_control_spreads_each_period_evenly() {
        // 40 moves in 2 minutes, three periods, each move overrunning its
        // soft limit by the measured third (at most to the hard limit) and
        // losing 5 ms to the pipes.
        let mut t = 120_000i64;
        for period in 0..3 {
            let pool = t;
            let mut used = Vec::new();
            for n in 0..40u32 {
                let p = plan(&clock(t as u64, 0, Some(40 - n)), 30, 0);
                let soft = p.soft_ms.unwrap_or(0) as f64;
                let u = (soft * 1.35).min(p.hard_ms.unwrap_or(0) as f64) as i64 + 5;
                t -= u;
                assert!(t > 1000, "period {period}, move {n}: {t} ms left");
                used.push(u);
            }
            let mean = |s: &[i64]| s.iter().sum::<i64>() as f64 / s.len() as f64;
            let (first, last) = (mean(&used[..10]), mean(&used[30..]));
            assert!(
                (first / last - 1.0).abs() < 0.25,
                "period {period}: first ten {first} ms, last ten {last} ms"
            );
            // A small reserve is carried into the next period.
            assert!(t < pool / 10, "period {period}: {t} of {pool} ms left");
            t += 120_000;
        }
    }

    #[test]
    fn the_opponent_clock_shifts_the_budget() {
        let mut l = clock(60_000, 0, None);
        let even = plan(&l, 30, 0).soft_ms.unwrap_or(0);
        if let Some(c) = &mut l.clock {
            c.opp_time_ms = Some(20_000);
        }
        assert!(plan(&l, 30, 0).soft_ms.unwrap_or(0) > even);
        if let Some(c) = &mut l.clock {
            c.opp_time_ms = Some(180_000);
        }
        assert!(plan(&l, 30, 0).soft_ms.unwrap_or(0) < even);
    }

    #[test]
    fn movetime_keeps_the_overhead() {
        let l = Limits {
            movetime_ms: Some(1000),
            ..Limits::default()
        };
        assert_eq!(plan(&l, 50, 0).hard_ms, Some(950));
        assert_eq!(plan(&l, 50, 0).stretch_ms, Some(950));
        let none = Limits::default();
        assert_eq!(plan(&none, 50, 0), TimePlan::default());
    }

    #[test]
    fn a_single_move_on_the_clock_alone_gets_a_short_plan() {
        // A long clock: capped at 30 ms, stopped at 60; with two moves,
        // the whole plan.
        let long = clock(60_000, 1000, None);
        assert!(long.clock_only());
        assert_eq!(
            plan_for(&long, 30, 0, 1),
            TimePlan {
                soft_ms: Some(30),
                hard_ms: Some(60),
                stretch_ms: Some(60),
                single_move: true,
            }
        );
        let whole = plan(&long, 30, 0);
        assert!(whole.soft_ms.is_some_and(|s| s > 1000), "{whole:?}");
        assert_eq!(plan_for(&long, 30, 0, 2), whole);
        // A 1 s clock's soft limit is already shorter: kept.
        let p = plan_for(&clock(1000, 0, None), 30, 0, 1);
        assert_eq!((p.soft_ms, p.hard_ms), (Some(22), Some(60)));
        // A limit the user set stands: the clock does not bound alone, and
        // a single move gets the whole plan.
        for asked in [
            Limits {
                depth: Some(4),
                ..long.clone()
            },
            Limits {
                nodes: Some(1000),
                ..long.clone()
            },
            Limits {
                movetime_ms: Some(5000),
                ..long.clone()
            },
            Limits {
                mate: Some(3),
                ..long.clone()
            },
            Limits {
                infinite: true,
                ..long.clone()
            },
            Limits::default(),
        ] {
            assert!(!asked.clock_only(), "{asked:?}");
            assert_eq!(plan_for(&asked, 30, 0, 1), plan(&asked, 30, 0), "{asked:?}");
        }
    }
}
