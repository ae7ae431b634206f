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
//! The levels are one table, `LEVELS`: rows from 790 to 2980 Elo, with
//! the node budget interpolated geometrically between them and the margin
//! and temperature linearly. `Skill Level` 0 to 19 spreads evenly over the
//! same range (`skill_elo`); 20, the default, is full strength. Each row's
//! Elo was measured in games: `scripts/levels/levels_pool.py` plays every level
//! against the fairy-stockfish settings of a fixed pool nearest it,
//! `scripts/levels/levels_table.py` fits their ratings, and
//! `scripts/levels/blunder_share.py` measures how often each level's moves lose
//! 300 cp or more (docs/FIGURES.md, "Blunders of the levels").

/// The weakest and strongest levels, in Elo: the first and last rows of
/// the table.
pub const MIN_ELO: u32 = LEVELS[0].elo;
pub const MAX_ELO: u32 = LEVELS[LEVELS.len() - 1].elo;
/// The default `UCI_Elo`: used only with `UCI_LimitStrength`.
pub const DEFAULT_ELO: u32 = 1500;
/// `Skill Level` runs from 0 to this, which is full strength (the default).
pub const MAX_SKILL: u32 = 20;

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

/// The level table, weakest first; levels between two rows are
/// interpolated. Each row's Elo is what it measured in games, on the
/// scale of fairy-stockfish 11.1 at `UCI_LimitStrength` with `UCI_Elo`
/// 1350, held at 1350, against a pool of fairy-stockfish settings, with
/// the seventh-generation net: every row within ±75 (docs/FIGURES.md,
/// "Strength levels"; how the rows were set:
/// docs/history/calibration.md#recalibrated-for-the-seventh-net). A budget
/// below about 300 nodes lets no second iteration finish, so up to 1260
/// the margin and the temperature alone set the strength.
/// What each row plays like:
#[rustfmt::skip]
const LEVELS: [Anchor; 11] = [
    // A beginner: one ply and the captures behind it; often a clearly
    // worse move, now and then one that loses a horse or more.
    Anchor { elo:  790, nodes:      33, margin: 291, temperature: 123 },
    Anchor { elo:  980, nodes:     101, margin: 223, temperature:  84 },
    Anchor { elo: 1260, nodes:     234, margin: 191, temperature:  67 },
    // A casual player: sees replies to its move, still drifts a lot.
    Anchor { elo: 1540, nodes:     735, margin: 152, temperature:  49 },
    // A club player: short tactics, inaccurate positional choices.
    Anchor { elo: 1780, nodes:   1_497, margin: 129, temperature:  39 },
    Anchor { elo: 2000, nodes:   2_831, margin: 110, temperature:  32 },
    // A strong club player: combinations of a few moves.
    Anchor { elo: 2240, nodes:   5_715, margin:  91, temperature:  27 },
    Anchor { elo: 2440, nodes:  10_095, margin:  75, temperature:  22 },
    // An expert: deep enough for most tactics, small inaccuracies.
    Anchor { elo: 2650, nodes:  16_488, margin:  64, temperature:  18 },
    Anchor { elo: 2840, nodes:  25_129, margin:  55, temperature:  16 },
    // A short engine search, almost always the best move.
    Anchor { elo: 2980, nodes:  36_255, margin:  46, temperature:  13 },
];

/// The Elo of `Skill Level` `skill` below `MAX_SKILL`: the levels spread
/// evenly from `MIN_ELO` (0) to `MAX_ELO` (19).
fn skill_elo(skill: u32) -> u32 {
    let steps = MAX_SKILL - 1;
    MIN_ELO + (skill.min(steps) * (MAX_ELO - MIN_ELO) + steps / 2) / steps
}

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
        (skill < MAX_SKILL).then(|| Strength::from_elo(skill_elo(skill)))
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
        // Halfway between the first two rows: the geometric mean of the
        // nodes, the mean of the margins and temperatures.
        let s = Strength::from_elo(885);
        assert_eq!((s.nodes, s.margin, s.temperature), (58, 257, 104));
        assert_eq!((skill_elo(0), skill_elo(19)), (MIN_ELO, MAX_ELO));
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
        assert_eq!(Strength::from_skill(0).map(|s| s.elo), Some(790));
        assert_eq!(Strength::from_skill(7).map(|s| s.elo), Some(1597));
        assert_eq!(Strength::from_skill(19).map(|s| s.elo), Some(2980));
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
