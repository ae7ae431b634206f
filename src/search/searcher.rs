//! One search thread's state: the position, the current line (a stack of
//! frames), the principal variation, and node counting.

use super::correction::{CorrectionKeys, CorrectionLine};
use super::history::Heuristics;
use super::params::{eval_damp_plies, eval_material_base, reductions, Reductions, LMR_TABLE};
use super::rules::history_checks;
use super::tt::TranspositionTable;
use super::{Selectivity, Shared, INFINITY, MAX_PLY, RULE_WIN};
use crate::eval::nnue::{Accumulator, Network};
use crate::eval::{evaluate, evaluate_knowing, EvalState, Knowledge};
use crate::wdl::material;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Arc;
use std::time::Instant;
use xiangqi::position::Position;
use xiangqi::rules::MOVE_LIMIT_PLIES;
use xiangqi::types::{Move, Piece};

/// Per-ply state of the current line.
#[derive(Clone, Copy)]
pub(super) struct Frame {
    /// Static evaluation, corrected (`-INFINITY` in check).
    pub eval: i32,
    /// The move played from this ply, and the piece that made it.
    pub mv: Move,
    pub piece: Piece,
    /// Whether that move took a piece.
    pub capture: bool,
    /// How many moves this ply's node has played so far (that move's
    /// number, from 1; left as it was by the quiescence search).
    pub move_count: usize,
    pub killers: [Move; 2],
    /// The move a singular-extension search leaves out here (`Move::NULL`
    /// in every other search).
    pub excluded: Move,
    /// The late-move reduction the parent searches this ply's node with
    /// (0 when not reduced), taken (left 0) as the node begins.
    pub reduction: i32,
    /// The evaluator's incremental state of the position at this ply.
    pub state: EvalState,
    /// The keys of the position's parts that its correction history is
    /// kept by.
    pub correction_keys: CorrectionKeys,
}

impl Default for Frame {
    fn default() -> Self {
        Frame {
            eval: -INFINITY,
            mv: Move::NULL,
            piece: Piece::NONE,
            capture: false,
            move_count: 0,
            killers: [Move::NULL; 2],
            excluded: Move::NULL,
            reduction: 0,
            state: EvalState::default(),
            correction_keys: CorrectionKeys::default(),
        }
    }
}

pub(super) struct Searcher<'a> {
    pub pos: Position,
    pub shared: &'a Shared,
    /// Set by the main thread when it is done; helpers stop on it.
    pub halt: &'a AtomicBool,
    pub tt: &'a TranspositionTable,
    pub h: &'a mut Heuristics,
    /// The main thread reports, keeps the limits and decides.
    pub main: bool,
    pub start: Instant,
    pub nodes: u64,
    /// Nodes of this thread already added to `total_nodes`.
    pub published: u64,
    pub total_nodes: &'a AtomicU64,
    /// Nodes of the other threads, as last seen.
    pub others: u64,
    pub node_limit: u64,
    pub hard_ms: Option<u64>,
    pub stopped: bool,
    pub seldepth: usize,
    /// The depth of the iteration under way (extensions stop at twice it).
    pub root_depth: i32,
    /// History length at the root.
    pub root_len: usize,
    /// Whether the side to move was in check, by position index (history length).
    pub checks: Vec<bool>,
    pub stack: Vec<Frame>,
    pub pv: Vec<[Move; MAX_PLY]>,
    pub pv_len: [usize; MAX_PLY + 1],
    pub lmr: Box<Reductions>,
    /// The network that evaluates (`None`: the classical evaluation), and
    /// its accumulators by ply, kept incrementally along the line.
    pub net: Option<Arc<Network>>,
    pub acc: Vec<Accumulator>,
    /// Which speculative cuts this search makes.
    pub selectivity: Selectivity,
    /// How much the evaluation knows.
    pub knowledge: Knowledge,
    /// Times a root move other than the first became best, since the main
    /// thread last read it (the time plan's instability).
    pub root_changes: u32,
    /// Nodes spent below each root move over the whole search (the time
    /// plan's effort).
    pub root_effort: Vec<(Move, u64)>,
}

impl<'a> Searcher<'a> {
    pub fn new(
        pos: Position,
        shared: &'a Shared,
        halt: &'a AtomicBool,
        tt: &'a TranspositionTable,
        h: &'a mut Heuristics,
        total_nodes: &'a AtomicU64,
        start: Instant,
    ) -> Searcher<'a> {
        let root_len = pos.history().len();
        let mut checks = history_checks(&pos);
        checks.resize(root_len + MAX_PLY + 2, false);
        let mut stack = vec![Frame::default(); MAX_PLY + 4];
        stack[0].state = EvalState::new(&pos);
        stack[0].correction_keys = CorrectionKeys::of(&pos);
        Searcher {
            pos,
            shared,
            halt,
            tt,
            h,
            main: false,
            start,
            nodes: 0,
            published: 0,
            total_nodes,
            others: 0,
            node_limit: u64::MAX,
            hard_ms: None,
            stopped: false,
            seldepth: 0,
            root_depth: 0,
            root_changes: 0,
            root_effort: Vec::new(),
            root_len,
            checks,
            stack,
            pv: vec![[Move::NULL; MAX_PLY]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            lmr: reductions(),
            net: None,
            acc: Vec::new(),
            selectivity: Selectivity::FULL,
            knowledge: Knowledge::Full,
        }
    }

    /// Searches with these cuts and this much evaluation knowledge (below
    /// `Full`, the classical evaluation's lighter forms, without the net).
    pub fn with_style(mut self, selectivity: Selectivity, knowledge: Knowledge) -> Self {
        self.selectivity = selectivity;
        self.knowledge = knowledge;
        if knowledge != Knowledge::Full {
            self.net = None;
            self.acc = Vec::new();
        }
        self
    }

    /// Evaluates with `net` instead of the classical evaluation.
    pub fn with_net(mut self, net: Option<Arc<Network>>) -> Self {
        self.acc = match &net {
            Some(n) => vec![n.refresh(&self.pos); MAX_PLY + 4],
            None => Vec::new(),
        };
        self.net = net;
        self
    }

    /// The static evaluation of the position at `ply`, for the side to
    /// move, as the search weighs it (`scaled_for_game`).
    #[inline(always)]
    pub fn static_eval(&self, ply: usize) -> i32 {
        let eval = match (&self.net, self.knowledge) {
            (Some(net), _) => net.evaluate(&self.acc[ply], &self.pos),
            (None, Knowledge::Full) => evaluate(&self.pos, &self.stack[ply].state),
            (_, knowledge) => evaluate_knowing(&self.pos, &self.stack[ply].state, knowledge),
        };
        scaled_for_game(eval, &self.pos)
    }

    /// The static evaluation at `ply`, as `stored` in the hash table or
    /// worked out: uncorrected (what the table keeps) and corrected (what
    /// the search uses); both `-INFINITY` in check.
    pub fn node_evals(&self, ply: usize, in_check: bool, stored: Option<i32>) -> (i32, i32) {
        if in_check {
            return (-INFINITY, -INFINITY);
        }
        let raw = stored.unwrap_or_else(|| self.static_eval(ply));
        (raw, self.corrected_eval(ply, raw))
    }

    /// The static evaluation `raw` of the position at `ply` (not in
    /// check), corrected by what the correction history has learnt of its
    /// parts and of the moves that led to it; never a win or a loss by the
    /// rules.
    #[inline(always)]
    pub fn corrected_eval(&self, ply: usize, raw: i32) -> i32 {
        debug_assert_eq!(
            self.stack[ply].correction_keys,
            CorrectionKeys::of(&self.pos)
        );
        let side = self.pos.side_to_move();
        let c = self.h.correction.correction(
            side,
            &self.stack[ply].correction_keys,
            self.correction_line(ply).as_ref(),
        );
        (raw + c).clamp(-EVAL_MAX, EVAL_MAX)
    }

    /// Teaches the correction history that the static evaluation at `ply`
    /// erred by `bonus` (positive: the search found more).
    #[inline(always)]
    pub fn learn_correction(&mut self, ply: usize, bonus: i32) {
        debug_assert_eq!(
            self.stack[ply].correction_keys,
            CorrectionKeys::of(&self.pos)
        );
        let side = self.pos.side_to_move();
        let keys = self.stack[ply].correction_keys;
        let line = self.correction_line(ply);
        self.h.correction.learn(side, &keys, line.as_ref(), bonus);
    }

    /// The moves that led to `ply` as the correction history keeps them:
    /// none at the root or after a null move; the moves two and four
    /// plies before where the line has them (null moves and the moves
    /// before the root count as none).
    #[inline(always)]
    pub(super) fn correction_line(&self, ply: usize) -> Option<CorrectionLine> {
        let played = |back: usize| self.played(ply, back).map(|f| (f.piece, f.mv));
        Some(CorrectionLine::new(played(1)?, played(2), played(4)))
    }

    /// The frame of the move played `back` plies before `ply` on the
    /// current line: none before the root, nor where it was a null move.
    #[inline(always)]
    pub(super) fn played(&self, ply: usize, back: usize) -> Option<&Frame> {
        let frame = &self.stack[ply.checked_sub(back)?];
        (!frame.mv.is_null()).then_some(frame)
    }

    /// The evaluator's state and the correction keys after a null move
    /// from `ply`: unchanged.
    #[inline(always)]
    pub fn pass_state(&mut self, ply: usize) {
        self.stack[ply + 1].correction_keys = self.stack[ply].correction_keys;
        match &self.net {
            Some(_) => {
                let (done, next) = self.acc.split_at_mut(ply + 1);
                next[0].clone_from(&done[ply]);
            }
            None => self.stack[ply + 1].state = self.stack[ply].state,
        }
    }

    /// The late-move reduction table's entry for `depth` and the move
    /// numbered `move_number` (from 1); beyond the table, its last row and
    /// column.
    #[inline(always)]
    pub fn table_reduction(&self, depth: i32, move_number: usize) -> i32 {
        let last = LMR_TABLE - 1;
        self.lmr[(depth.max(0) as usize).min(last)][move_number.min(last)]
    }

    /// Nodes searched by every thread, as far as this one knows.
    pub fn total(&self) -> u64 {
        self.nodes + self.others
    }

    pub fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = m;
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// Entering a node: resets its PV, counts it and polls the limits.
    /// False when the search must stop.
    #[inline(always)]
    pub fn enter(&mut self, ply: usize, in_check: bool) -> bool {
        self.pv_len[ply] = ply;
        self.nodes += 1;
        if self.poll() {
            return false;
        }
        self.seldepth = self.seldepth.max(ply);
        let n = self.pos.history().len();
        self.checks[n] = in_check;
        true
    }

    /// Plays `m` from `ply`, remembering it in the line; returns whether it gives check.
    #[inline(always)]
    pub fn play(&mut self, m: Move, ply: usize) -> bool {
        self.stack[ply].mv = m;
        self.stack[ply].piece = self.pos.piece_at(m.from());
        self.stack[ply].capture = self.pos.is_capture(m);
        self.pos.make_move(m);
        self.tt.prefetch(self.pos.key());
        if let Some(change) = self.pos.last_change() {
            self.stack[ply + 1].correction_keys = self.stack[ply].correction_keys.after(&change);
            match &self.net {
                Some(net) => {
                    let (done, next) = self.acc.split_at_mut(ply + 1);
                    next[0].clone_from(&done[ply]);
                    net.update(&mut next[0], &change, &self.pos);
                }
                None => {
                    let mut state = self.stack[ply].state;
                    state.apply(&change);
                    self.stack[ply + 1].state = state;
                }
            }
        }
        self.pos.in_check()
    }
}

/// The largest static evaluation, corrected or not: short of every win by
/// the rules found within `MAX_PLY` of the root, so never read as one
/// (`decisive` counts a score from `RULE_WIN - MAX_PLY` as one).
const EVAL_MAX: i32 = RULE_WIN - MAX_PLY as i32 - 1;

/// An evaluation `eval` of `pos` as the search weighs it, after Pikafish:
/// larger with more material on the board (times 1 + `wdl::material` /
/// `eval_material_base`: a lead counts for more while there are pieces to
/// press it with), and damped as the move limit nears (less its share of
/// the plies without a capture / `eval_damp_plies`: a lead that no capture
/// turns into more is worth less the nearer the draw by the move limit;
/// a clock past the limit, as a FEN may give, counts as at it, so that the
/// damping never turns the sign); never a win or a loss by the rules.
#[inline(always)]
fn scaled_for_game(eval: i32, pos: &Position) -> i32 {
    let base = i64::from(eval_material_base());
    let v = i64::from(eval) * (base + i64::from(material(pos))) / base;
    let clock = pos.halfmove_clock().min(MOVE_LIMIT_PLIES);
    let v = v - v * i64::from(clock) / i64::from(eval_damp_plies());
    v.clamp(i64::from(-EVAL_MAX), i64::from(EVAL_MAX)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(fen: &str) -> Position {
        Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    #[test]
    fn a_lead_weighs_more_with_more_material_and_less_near_the_move_limit() {
        // A rook up for Red, with the other pieces on the board or not.
        let full =
            position("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
        let bare = position("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1");
        let (with_pieces, alone) = (scaled_for_game(500, &full), scaled_for_game(500, &bare));
        assert!(with_pieces > alone && alone > 500, "{with_pieces} {alone}");
        assert_eq!(scaled_for_game(-500, &full), -with_pieces);
        assert_eq!(scaled_for_game(0, &full), 0);
        // The same rook, 100 plies without a capture: damped, same sign.
        let late = position("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 100 60");
        let damped = scaled_for_game(500, &late);
        assert!(
            0 < damped && damped < alone / 2 + alone / 5,
            "{damped} {alone}"
        );
        // A clock far past the move limit (a FEN's) damps no further.
        let past = position("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 400 260");
        let at_limit = position("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 120 70");
        let (past, at_limit) = (scaled_for_game(500, &past), scaled_for_game(500, &at_limit));
        assert!(0 < past && past == at_limit, "{past} {at_limit}");
        // Never a score the rules give, nor one that reads as decisive.
        assert_eq!(scaled_for_game(RULE_WIN - 1, &full), EVAL_MAX);
    }
}
