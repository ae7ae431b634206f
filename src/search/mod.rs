//! The search: iterative deepening over a principal-variation alpha-beta
//! search with aspiration windows, a shared transposition table, and the
//! usual selectivity (null move, late-move reductions, futility, razoring,
//! SEE pruning), with the game's rules inside the tree: repetition judged
//! by perpetual check (and perpetual chase near the root), the 60-move rule,
//! insufficient material and "no move loses". Threads > 1 run Lazy SMP:
//! helper threads search the same position and share the table.
//!
//! By concern:
//! - `threads`: the entry point [`search`], Lazy SMP and root randomness;
//! - `iterate`: iterative deepening, aspiration windows, the root search,
//!   and when to stop;
//! - `node`: the alpha-beta search of inner nodes and quiescence;
//! - `picker`: the order in which a node tries its moves;
//! - `history`: history, killers and counter-moves;
//! - `rules`: the game's rules inside the tree (repetition, move limit);
//! - `searcher`: one thread's state (the line, the PV, node counting);
//! - `params`: every tunable of the above;
//! - `see`, `tt`, `limits`: exchange evaluation, the hash table, time limits.

mod correction;
mod history;
mod iterate;
pub mod limits;
mod node;
pub mod params;
mod picker;
pub mod pool;
mod rules;
mod searcher;
mod see;
mod threads;
pub mod tt;

pub use history::Heuristics;
pub use limits::{Clock, Limits};
pub use see::see_ge;
pub use threads::search;
pub use tt::TranspositionTable;

use searcher::Searcher;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{Arc, Mutex};
use tt::Bound;
use xiangqi::position::Position;
use xiangqi::types::{Color, Move};

/// Score of being mated at the root; mated in `n` plies scores `-(MATE - n)`.
pub const MATE: i32 = 10_000;
/// Scores beyond this (in absolute value) are mate scores.
pub const MATE_BOUND: i32 = MATE - 500;
/// A game won by the rules (the opponent checked or chased perpetually):
/// decisive, but not a mate. Won `n` plies from the root scores `RULE_WIN - n`.
pub const RULE_WIN: i32 = MATE_BOUND - 500;
const INFINITY: i32 = MATE + 1;
/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 128;
/// Deepest iteration.
pub const MAX_DEPTH: u32 = 100;
/// Stack of every thread that runs a search (the tree recurses up to
/// MAX_PLY plies).
pub const SEARCH_STACK: usize = 64 << 20;

/// Flags shared between the search thread and the protocol thread.
#[derive(Default)]
pub struct Shared {
    /// Set to make the search return as soon as possible.
    pub stop: AtomicBool,
    /// While set, no time limit runs (the engine thinks on the opponent's time).
    pub ponder: AtomicBool,
    /// Milliseconds after the search start at which the clock started
    /// (non-zero after `ponderhit`).
    pub clock_start_ms: AtomicU64,
}

/// What lives across searches: the transposition table, each thread's
/// move-ordering tables and the helper threads. Cleared on a new game.
pub struct Tables {
    pub tt: TranspositionTable,
    heuristics: Mutex<Vec<Heuristics>>,
    /// The helper threads, which search with these tables.
    pool: pool::Pool,
    /// The score of the last search that completed an iteration, and its
    /// side to move (whose view the score is), if any since the last new
    /// game: the time plan compares the next one's with it, when the same
    /// side is to move.
    last_score: Mutex<Option<(i32, Color)>>,
}

impl Tables {
    pub fn new(hash_mb: usize) -> Tables {
        Tables {
            tt: TranspositionTable::new(hash_mb),
            heuristics: Mutex::new(Vec::new()),
            pool: pool::Pool::default(),
            last_score: Mutex::new(None),
        }
    }

    /// The score of the last search, if any since the last new game, when
    /// `side` was to move in it too (a search for the other side, such as
    /// a hint or an analysis between moves, says nothing of ours).
    pub(crate) fn last_score(&self, side: Color) -> Option<i32> {
        let last = *self.last_score.lock().unwrap_or_else(|p| p.into_inner());
        last.filter(|&(_, s)| s == side).map(|(score, _)| score)
    }

    /// Records a search's score, from the view of `side`, its side to move.
    pub(crate) fn set_last_score(&self, score: i32, side: Color) {
        *self.last_score.lock().unwrap_or_else(|p| p.into_inner()) = Some((score, side));
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&self) {
        self.tt.clear();
        *self.last_score.lock().unwrap_or_else(|p| p.into_inner()) = None;
        self.heuristics
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clear();
    }

    /// Helper threads these tables have ever started.
    pub fn helpers_started(&self) -> usize {
        self.pool.started()
    }
}

/// Which speculative cuts the search makes (UCCI's `pruning` option).
/// Every one of them can miss a move that a full-width search would find;
/// a search with none of them is plain alpha-beta with quiescence and
/// check extensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selectivity {
    /// Null-move pruning, late-move reductions, internal iterative
    /// reduction and singular extensions (with multi-cut): the cuts that
    /// make the deep search affordable.
    pub null_move_and_reductions: bool,
    /// Razoring and reverse futility pruning: whole nodes judged by their
    /// static evaluation.
    pub node_pruning: bool,
    /// Late-move, futility and SEE pruning: single moves left out.
    pub move_pruning: bool,
}

impl Selectivity {
    /// Every cut (the default).
    pub const FULL: Selectivity = Selectivity {
        null_move_and_reductions: true,
        node_pruning: true,
        move_pruning: true,
    };
    /// No speculative cut.
    pub const NONE: Selectivity = Selectivity {
        null_move_and_reductions: false,
        node_pruning: false,
        move_pruning: false,
    };
}

impl Default for Selectivity {
    fn default() -> Self {
        Selectivity::FULL
    }
}

/// How a search chooses its move among the root moves it scored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RootChoice {
    /// The best move, and the same search every time (the default).
    #[default]
    Best,
    /// Any move within `margin` centipawns of the best, each as likely
    /// (ElephantEye's `randomness`).
    Uniform { margin: i32 },
    /// A move within `margin` of the best, with probability proportional
    /// to `exp(-(best - score) / temperature)` (a strength level).
    Weighted { margin: i32, temperature: i32 },
}

impl RootChoice {
    /// Centipawns below the best within which the root search scores moves
    /// exactly (0: only the best needs an exact score).
    pub fn margin(self) -> i32 {
        match self {
            RootChoice::Best => 0,
            RootChoice::Uniform { margin } | RootChoice::Weighted { margin, .. } => margin,
        }
    }
}

/// Everything one search needs.
pub struct Job {
    pub pos: Position,
    pub limits: Limits,
    /// Root moves to consider (the legal moves minus banned ones, or the UCI
    /// `searchmoves`); never empty when a search runs.
    pub root_moves: Vec<Move>,
    pub multipv: usize,
    /// How the move is chosen among the root moves the search scored.
    pub choice: RootChoice,
    /// A node budget that binds once the first iteration is complete (a
    /// strength level): the move is always at least a one-ply search's.
    /// `limits.nodes`, the GUI's, binds from the first node.
    pub node_budget: Option<u64>,
    pub move_overhead_ms: u64,
    pub seed: u64,
    pub threads: usize,
    pub tables: Arc<Tables>,
    /// The network to evaluate with (`None`: the classical evaluation).
    pub net: Option<Arc<crate::eval::nnue::Network>>,
    /// Which speculative cuts the search makes.
    pub selectivity: Selectivity,
    /// How much the evaluation knows (below `Full`, the network is not used).
    pub knowledge: crate::eval::Knowledge,
}

impl Job {
    /// A one-thread search of `pos` over `root_moves` to `limits` at full
    /// strength: the best move, one line, every cut, the whole evaluation,
    /// no move overhead. Callers change fields from there.
    pub fn new(
        pos: Position,
        root_moves: Vec<Move>,
        limits: Limits,
        tables: Arc<Tables>,
        net: Option<Arc<crate::eval::nnue::Network>>,
    ) -> Job {
        Job {
            pos,
            limits,
            root_moves,
            multipv: 1,
            choice: RootChoice::Best,
            node_budget: None,
            move_overhead_ms: 0,
            seed: 0,
            threads: 1,
            tables,
            net,
            selectivity: Selectivity::FULL,
            knowledge: crate::eval::Knowledge::Full,
        }
    }
}

/// One line of search progress.
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based index of the line for MultiPV.
    pub multipv: usize,
    pub score: i32,
    /// Whether `score` is only a bound (an aspiration pass failed, or a
    /// limit stopped the iteration after a root move raised alpha).
    pub bound: Option<Bound>,
    pub nodes: u64,
    pub time_ms: u64,
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

/// The result of a search.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
}

/// Whether a search score is a win or a loss, by mate or by the rules,
/// within the search's reach (not an evaluation, which stays short of it).
pub fn decisive(score: i32) -> bool {
    score.abs() >= RULE_WIN - MAX_PLY as i32
}

/// Plies to mate in a mate score (positive when we mate).
pub fn mate_plies(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some(MATE - score)
    } else if score <= -MATE_BOUND {
        Some(-(MATE + score))
    } else {
        None
    }
}
