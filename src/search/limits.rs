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

/// Time budget of a search, in milliseconds of clock time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimePlan {
    pub soft_ms: Option<u64>,
    pub hard_ms: Option<u64>,
}

/// Moves assumed left in a game with no `movestogo`.
const DEFAULT_MOVES_TO_GO: u64 = 30;

/// Works out the soft and hard limits from the move time or the clock,
/// keeping `overhead` milliseconds for communication.
pub fn plan(limits: &Limits, overhead: u64) -> TimePlan {
    if limits.infinite {
        return TimePlan::default();
    }
    if let Some(t) = limits.movetime_ms {
        let t = t.saturating_sub(overhead).max(1);
        return TimePlan {
            soft_ms: Some(t),
            hard_ms: Some(t),
        };
    }
    let Some(clock) = limits.clock else {
        return TimePlan::default();
    };
    let mtg = clock
        .movestogo
        .map_or(DEFAULT_MOVES_TO_GO, |m| (m as u64).clamp(1, 60));
    // The time this and the next `mtg - 1` moves may share, with the
    // overhead paid on every one of them (and a margin of two more): a low
    // clock then moves at once instead of draining itself on latency.
    let pool = clock
        .time_ms
        .saturating_add(clock.inc_ms.saturating_mul(mtg - 1))
        .saturating_sub(overhead.saturating_mul(mtg + 2));
    let mut soft = (pool / mtg).max(1);
    // The opponent's clock: with more time than the opponent, spend a
    // little more; with less, a little less.
    if let Some(opp) = clock.opp_time_ms {
        let ratio = (clock.time_ms as f64 + 1.0) / (opp as f64 + 1.0);
        soft = (soft as f64 * ratio.clamp(0.8, 1.25)) as u64;
    }
    // Never plan to use the overhead or most of what is left.
    let left = clock.time_ms.saturating_sub(overhead).max(1);
    let cap = if mtg == 1 { left / 10 * 8 } else { left / 3 };
    let soft = soft.min(cap).max(1);
    let hard = soft.saturating_mul(4).min(cap).max(soft);
    TimePlan {
        soft_ms: Some(soft),
        hard_ms: Some(hard),
    }
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
            let p = plan(&clock(t, inc, mtg), 30);
            let (soft, hard) = (p.soft_ms.unwrap_or(0), p.hard_ms.unwrap_or(0));
            assert!(soft <= hard, "{t} {inc} {mtg:?}");
            assert!(
                hard <= t.saturating_sub(30).max(1),
                "{t} {inc} {mtg:?}: hard {hard}"
            );
        }
    }

    #[test]
    fn a_low_clock_moves_at_once_and_a_healthy_one_thinks() {
        // 45 ms left at 1 s + 10 ms: the pool is spent, so move at once.
        let p = plan(&clock(45, 10, None), 30);
        assert_eq!(p.soft_ms, Some(1));
        assert!(p.hard_ms.is_some_and(|h| h <= 5), "{p:?}");
        // A full 1 s + 10 ms clock keeps most of itself for later moves.
        let p = plan(&clock(1000, 10, None), 30);
        assert!(p.soft_ms.is_some_and(|s| (1..=20).contains(&s)), "{p:?}");
        // 5 s + 50 ms: about a tenth of a second per move.
        let p = plan(&clock(5000, 50, None), 30);
        assert!(p.soft_ms.is_some_and(|s| (100..=250).contains(&s)), "{p:?}");
    }

    #[test]
    fn the_opponent_clock_shifts_the_budget() {
        let mut l = clock(60_000, 0, None);
        let even = plan(&l, 30).soft_ms.unwrap_or(0);
        if let Some(c) = &mut l.clock {
            c.opp_time_ms = Some(20_000);
        }
        assert!(plan(&l, 30).soft_ms.unwrap_or(0) > even);
        if let Some(c) = &mut l.clock {
            c.opp_time_ms = Some(180_000);
        }
        assert!(plan(&l, 30).soft_ms.unwrap_or(0) < even);
    }

    #[test]
    fn movetime_keeps_the_overhead() {
        let l = Limits {
            movetime_ms: Some(1000),
            ..Limits::default()
        };
        assert_eq!(plan(&l, 50).hard_ms, Some(950));
        let none = Limits::default();
        assert_eq!(plan(&none, 50), TimePlan::default());
    }
}
