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
    // Keep a reserve: never plan to use the overhead or the last sliver.
    let left = clock.time_ms.saturating_sub(overhead).max(1);
    let mtg = clock
        .movestogo
        .map_or(DEFAULT_MOVES_TO_GO, |m| (m as u64).clamp(1, 60));
    let base = (left / mtg).saturating_add(clock.inc_ms / 4 * 3);
    let cap = if mtg == 1 { left / 10 * 8 } else { left / 2 };
    let soft = base.min(cap).max(1);
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
