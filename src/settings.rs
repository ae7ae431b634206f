//! The engine's settings: what the options set (threads, MultiPV,
//! randomness, ElephantEye's `pruning` and `knowledge` grades, the books,
//! a strength level, the seed), as the protocol front end writes them and
//! the engine reads them at each `go`.

use crate::book::BookPick;
use crate::eval::Knowledge;
use crate::search::Selectivity;
use crate::strength::Strength;

/// A grade of ElephantEye's combo options (`pruning`, `knowledge`, `idle`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    None,
    Small,
    Medium,
    Large,
}

impl Level {
    /// Every level, from none to large.
    pub const ALL: [Level; 4] = [Level::None, Level::Small, Level::Medium, Level::Large];

    /// The level's name in the protocol (`none`, `small`, `medium`, `large`).
    pub fn name(self) -> &'static str {
        match self {
            Level::None => "none",
            Level::Small => "small",
            Level::Medium => "medium",
            Level::Large => "large",
        }
    }

    /// The level named `text` (any case).
    pub fn parse(text: &str) -> Option<Level> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(text.trim()))
    }

    /// The search's cuts at this `pruning` level: none, then null move,
    /// reductions and singular extensions, then node pruning too, then
    /// (`large`) move pruning too.
    pub fn selectivity(self) -> Selectivity {
        Selectivity {
            null_move_and_reductions: self >= Level::Small,
            node_pruning: self >= Level::Medium,
            move_pruning: self >= Level::Large,
        }
    }

    /// The evaluation at this `knowledge` level: material, then
    /// piece-square tables, then (`medium` and `large`) everything.
    pub fn knowledge(self) -> Knowledge {
        match self {
            Level::None => Knowledge::Material,
            Level::Small => Knowledge::PieceSquare,
            Level::Medium | Level::Large => Knowledge::Full,
        }
    }
}

/// Search settings from the options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub threads: usize,
    pub multipv: usize,
    /// Moves within this many centipawns of the best may be picked at random
    /// (0: always the best, and the same search every time).
    pub randomness: i32,
    pub move_overhead_ms: u64,
    /// How selective the search may be (UCCI `pruning`, as ElephantEye has
    /// it). `Large`, the default, is the full search with every pruning and
    /// reduction it has; `None` cuts nothing on speculation (ElephantEye
    /// then drops its null move); `Small` and `Medium` are the steps
    /// between ([`Level::selectivity`]).
    pub pruning: Level,
    /// How much the evaluation knows (UCCI `knowledge`, as ElephantEye has
    /// it). `Large`, the default, is the full evaluation; `None` is material
    /// alone (ElephantEye's meaning), `Small` material and piece-square
    /// tables ([`Level::knowledge`]).
    pub knowledge: Level,
    /// Answer from the opening books when they have a usable move (UCCI
    /// `usebook`, on by default as in ElephantEye).
    pub use_book: bool,
    /// How a book move is chosen (from the `randomness` option).
    pub book_pick: BookPick,
    /// A strength level (`UCI_LimitStrength` + `UCI_Elo`, or `Skill
    /// Level`): a node budget, one thread, a weighted choice among
    /// near-best moves in place of `randomness`, and never a resignation
    /// or an accepted draw. `None`, the default, is full strength.
    pub strength: Option<Strength>,
    /// A fixed seed for the random choices (book moves, and search moves
    /// under `randomness` or a strength level): each `go` draws from it and the number of `go`s
    /// before. `None`, the default, seeds from the clock.
    pub seed: Option<u64>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            threads: 1,
            multipv: 1,
            randomness: 0,
            move_overhead_ms: 30,
            pruning: Level::Large,
            knowledge: Level::Large,
            use_book: true,
            book_pick: BookPick::Weighted { percent: 100 },
            strength: None,
            seed: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_and_their_defaults() {
        assert_eq!(Level::parse(" Medium"), Some(Level::Medium));
        assert_eq!(Level::parse("huge"), None);
        for l in Level::ALL {
            assert_eq!(Level::parse(l.name()), Some(l));
        }
        let s = Settings::default();
        assert_eq!((s.pruning, s.knowledge), (Level::Large, Level::Large));
    }
}
