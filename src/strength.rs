//! Strength levels: a weaker Chariot for people to play against, set by
//! UCI's `UCI_LimitStrength` + `UCI_Elo` or `Skill Level` (UCCI:
//! `limitstrength`, `elo`, `skilllevel`).
//!
//! A level weakens the engine the way a weaker player is weak, not by
//! throwing in random blunders between perfect moves:
//!
//! - **It sees less.** The search has a node budget per move. The budget
//!   binds from the second iteration on: the first (one ply and the
//!   quiescence search behind it) always completes, so at every level the
//!   engine sees what a capture or a check does at once, and a mate in one.
//!   A limited engine searches with one thread, whatever `threads` says, so
//!   that the budget means the same everywhere and a fixed seed replays the
//!   same moves.
//! - **It prefers the best move but not always.** The root search scores
//!   every move within `margin` centipawns of the best exactly, and the move
//!   is drawn among those with probability proportional to
//!   `exp(-(best - score) / temperature)`: the best move is the likeliest,
//!   a move a little worse comes up often, one near the margin rarely, and
//!   nothing worse than the margin (as this search sees it) ever. The draw
//!   uses the engine's random seed (`Settings::seed`), so tests can fix it.
//! - **A mate it finds is played.** When the best score is a mate, the best
//!   move is played as the search found it, with no draw.
//! - **It never gives up.** A limited engine never resigns and never
//!   accepts a draw offer, so a person may still swindle it; only at full
//!   strength does it resign and accept draws as before.
//!
//! The levels are one table, `LEVELS`: anchor points from 800 to 2800,
//! with the node budget interpolated geometrically between them and the
//! margin and temperature linearly. `Skill Level` 0 to 19 stands for
//! 800 + 100 × level (800 to 2700); 20, the default, is full strength. The
//! Elo figures are nominal until measured: `scripts/levels.sh` plays the
//! levels against each other and against an anchor, and
//! `scripts/blunder_share.py` measures how often each level's moves lose
//! 300 cp or more; the calibration adjusts the table to what they find.

/// The weakest and strongest levels, in (nominal) Elo.
pub const MIN_ELO: u32 = 800;
pub const MAX_ELO: u32 = 2800;
/// The default `UCI_Elo`: used only with `UCI_LimitStrength`.
pub const DEFAULT_ELO: u32 = 1500;
/// `Skill Level` runs from 0 to this, which is full strength (the default).
pub const MAX_SKILL: u32 = 20;
/// Elo per `Skill Level` step below 20: level `s` is `MIN_ELO + s × 100`.
const ELO_PER_SKILL: u32 = 100;

/// One anchor of the level table.
struct Anchor {
    elo: u32,
    /// Nodes a move may search once its first iteration is done.
    nodes: u64,
    /// Centipawns below the best within which a move may be chosen.
    margin: i32,
    /// The softmax temperature of the choice, in centipawns: at 30, a move
    /// 30 cp worse than the best is chosen e (2.7) times less often.
    temperature: i32,
}

/// The level table, weakest first; levels between two anchors are
/// interpolated. What each row is meant to be:
#[rustfmt::skip]
const LEVELS: [Anchor; 6] = [
    // A beginner: one ply and the captures behind it; often a clearly
    // worse move, now and then one that loses most of a horse.
    Anchor { elo:  800, nodes:      50, margin: 250, temperature: 100 },
    // A casual player: sees replies to its move, still drifts a lot.
    Anchor { elo: 1200, nodes:     300, margin: 180, temperature:  60 },
    // A club player: short tactics, inaccurate positional choices.
    Anchor { elo: 1600, nodes:   2_000, margin: 120, temperature:  35 },
    // A strong club player: combinations of a few moves.
    Anchor { elo: 2000, nodes:  12_000, margin:  70, temperature:  20 },
    // An expert: deep enough for most tactics, small inaccuracies.
    Anchor { elo: 2400, nodes:  60_000, margin:  35, temperature:  10 },
    // A master: a short engine search, almost always the best move.
    Anchor { elo: 2800, nodes: 250_000, margin:  12, temperature:   4 },
];

/// A strength level: what the search may spend and how it chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// The level's nominal Elo (`MIN_ELO..=MAX_ELO`).
    pub elo: u32,
    /// The node budget per move (from the second iteration on).
    pub nodes: u64,
    /// Moves within this many centipawns of the best may be chosen.
    pub margin: i32,
    /// The softmax temperature of the choice, in centipawns.
    pub temperature: i32,
}

impl Strength {
    /// The level at `elo`, brought into `MIN_ELO..=MAX_ELO`.
    pub fn from_elo(elo: u32) -> Strength {
        let elo = elo.clamp(MIN_ELO, MAX_ELO);
        let upper = LEVELS
            .iter()
            .position(|a| a.elo >= elo)
            .unwrap_or(LEVELS.len() - 1)
            .max(1);
        let (lo, hi) = (&LEVELS[upper - 1], &LEVELS[upper]);
        let t = f64::from(elo - lo.elo) / f64::from(hi.elo - lo.elo);
        let linear = |a: i32, b: i32| (f64::from(a) + t * f64::from(b - a)).round() as i32;
        let nodes = (lo.nodes as f64) * (hi.nodes as f64 / lo.nodes as f64).powf(t);
        Strength {
            elo,
            nodes: nodes.round() as u64,
            margin: linear(lo.margin, hi.margin),
            temperature: linear(lo.temperature, hi.temperature),
        }
    }

    /// The level of a `Skill Level` (`None`: full strength, at 20 and above).
    pub fn from_skill(skill: u32) -> Option<Strength> {
        (skill < MAX_SKILL).then(|| Strength::from_elo(MIN_ELO + skill * ELO_PER_SKILL))
    }

    /// The level the options ask for: `UCI_Elo` when `UCI_LimitStrength`
    /// is on (it overrides `Skill Level`, as in Stockfish), else the skill
    /// level; `None` is full strength.
    pub fn from_options(limit_strength: bool, elo: u32, skill: u32) -> Option<Strength> {
        if limit_strength {
            Some(Strength::from_elo(elo))
        } else {
            Strength::from_skill(skill)
        }
    }
}

impl std::fmt::Display for Strength {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Elo {} ({} nodes a move, moves within {} cp, temperature {} cp)",
            self.elo, self.nodes, self.margin, self.temperature
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_are_taken_as_written_and_levels_between_are_interpolated() {
        for a in &LEVELS {
            let s = Strength::from_elo(a.elo);
            assert_eq!(
                (s.nodes, s.margin, s.temperature),
                (a.nodes, a.margin, a.temperature)
            );
        }
        // Halfway between 800 and 1200: the geometric mean of the nodes.
        let s = Strength::from_elo(1000);
        assert_eq!((s.nodes, s.margin, s.temperature), (122, 215, 80));
        assert_eq!(Strength::from_elo(0), Strength::from_elo(MIN_ELO));
        assert_eq!(Strength::from_elo(9999), Strength::from_elo(MAX_ELO));
    }

    #[test]
    fn stronger_levels_search_more_and_choose_more_narrowly() {
        let all: Vec<Strength> = (MIN_ELO..=MAX_ELO)
            .step_by(50)
            .map(Strength::from_elo)
            .collect();
        for w in all.windows(2) {
            let (a, b) = (w[0], w[1]);
            assert!(b.nodes > a.nodes, "{a} {b}");
            assert!(b.margin <= a.margin && b.temperature <= a.temperature);
            assert!(a.temperature > 0, "{a}");
        }
    }

    #[test]
    fn skill_levels_map_onto_the_elo_scale() {
        assert_eq!(Strength::from_skill(0).map(|s| s.elo), Some(800));
        assert_eq!(Strength::from_skill(7).map(|s| s.elo), Some(1500));
        assert_eq!(Strength::from_skill(19).map(|s| s.elo), Some(2700));
        assert_eq!(Strength::from_skill(20), None);
        // UCI_LimitStrength makes UCI_Elo rule, whatever the skill level.
        assert_eq!(
            Strength::from_options(true, 1200, 3),
            Some(Strength::from_elo(1200))
        );
        assert_eq!(
            Strength::from_options(false, 1200, 3),
            Strength::from_skill(3)
        );
        assert_eq!(Strength::from_options(false, 1200, 20), None);
    }
}
