//! Every tunable of the search in one place: pruning and reduction margins,
//! the late-move reduction table, history, aspiration windows and time use.
//! Depths are in plies, scores and margins in centipawns.

// Step 6. Razoring: at depth <= RAZOR_DEPTH, an eval this far below alpha
// goes straight to quiescence.
pub const RAZOR_DEPTH: i32 = 3;
pub const RAZOR_BASE: i32 = 200;
pub const RAZOR_PER_DEPTH: i32 = 150;

// Step 7. Reverse futility pruning: at depth <= RFP_DEPTH, an eval this far
// above beta returns at once.
pub const RFP_DEPTH: i32 = 7;
pub const RFP_PER_DEPTH: i32 = 70;

// Step 8. Null move pruning: reduction NMP_BASE + depth / NMP_DEPTH_DIV
// + min((eval - beta) / NMP_EVAL_DIV, NMP_EVAL_MAX).
pub const NMP_MIN_DEPTH: i32 = 3;
pub const NMP_BASE: i32 = 3;
pub const NMP_DEPTH_DIV: i32 = 4;
pub const NMP_EVAL_DIV: i32 = 150;
pub const NMP_EVAL_MAX: i32 = 3;

// Step 9. Internal iterative reduction of PV nodes without a hash move.
pub const IIR_MIN_DEPTH: i32 = 6;
pub const IIR_REDUCTION: i32 = 1;

// Step 11. Captures losing more than SEE_CAPTURE_PER_DEPTH * depth are
// skipped at depth <= SEE_CAPTURE_DEPTH.
pub const SEE_CAPTURE_DEPTH: i32 = 4;
pub const SEE_CAPTURE_PER_DEPTH: i32 = 100;

// Step 12. Late move pruning (at depth <= LMP_DEPTH, after
// `late_move_limit` moves) and futility pruning of quiet moves (at depth <=
// FUTILITY_DEPTH, when eval + margin cannot reach alpha).
pub const LMP_DEPTH: i32 = 5;
pub const LMP_BASE: usize = 3;
pub const FUTILITY_DEPTH: i32 = 6;
pub const FUTILITY_BASE: i32 = 100;
pub const FUTILITY_PER_DEPTH: i32 = 80;

/// Moves searched at this depth before late quiet moves are pruned.
pub fn late_move_limit(depth: i32, improving: bool) -> usize {
    let base = LMP_BASE + (depth * depth) as usize;
    if improving {
        base
    } else {
        base / 2
    }
}

// Step 13. Late-move reductions, from depth LMR_MIN_DEPTH: the table gives
// LMR_BASE + ln(depth) ln(move number) / LMR_DIVISOR (depths and move
// numbers beyond the table read its last row and column); PV nodes reduce
// LMR_PV less, nodes not improving LMR_NOT_IMPROVING more, killers and the
// counter-move LMR_REFUTATION less, and quiet moves one ply less per
// LMR_HISTORY_DIV of ordering score (history plus continuation history).
pub const LMR_MIN_DEPTH: i32 = 3;
pub const LMR_BASE: f64 = 0.75;
pub const LMR_DIVISOR: f64 = 2.25;
pub const LMR_TABLE: usize = 64;
pub const LMR_PV: i32 = 1;
pub const LMR_NOT_IMPROVING: i32 = 1;
pub const LMR_REFUTATION: i32 = 1;
pub const LMR_HISTORY_DIV: i32 = 16384;

/// Late-move reductions by depth and move number.
pub type Reductions = [[i32; LMR_TABLE]; LMR_TABLE];

/// The late-move reduction table.
pub fn reductions() -> Box<Reductions> {
    let mut t = Box::new([[0; LMR_TABLE]; LMR_TABLE]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (LMR_BASE + (d as f64).ln() * (m as f64).ln() / LMR_DIVISOR) as i32;
        }
    }
    t
}

// Quiescence: delta pruning skips a capture when even winning the piece
// plus this margin would not reach alpha.
pub const DELTA_MARGIN: i32 = 150;

// History: scores stay within +-HISTORY_MAX; a quiet refutation earns
// depth^2 * HISTORY_BONUS_PER_DEPTH2 (at most HISTORY_MAX / 2).
pub const HISTORY_MAX: i32 = 16_384;
pub const HISTORY_BONUS_PER_DEPTH2: i32 = 16;
// Capture history (same bounds and bonus) is added to MVV-LVA divided by
// CAPTURE_HISTORY_DIV: at most about two pawns' worth of victim.
pub const CAPTURE_HISTORY_DIV: i32 = 8;

// Aspiration windows: from depth ASPIRATION_MIN_DEPTH, a window of
// +-ASPIRATION_DELTA around the last score, growing by half plus
// ASPIRATION_GROWTH on each failure, and open once wider than
// ASPIRATION_MAX_DELTA.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;
pub const ASPIRATION_DELTA: i32 = 25;
pub const ASPIRATION_GROWTH: i32 = 10;
pub const ASPIRATION_MAX_DELTA: i32 = 1000;

/// Repetitions are judged with the chase rule (which costs a replay of the
/// cycle) up to this ply, and by checks alone deeper.
pub const CHASE_PLY: usize = 2;

// Time: the soft limit scales with the stability of the best move (by the
// number of iterations it has not changed), and grows by TIME_DROP_SCALE
// after a score drop of more than TIME_DROP_MARGIN.
pub const TIME_STABILITY_SCALE: [f64; 4] = [1.4, 1.15, 1.0, 0.8];
pub const TIME_DROP_SCALE: f64 = 1.3;
pub const TIME_DROP_MARGIN: i32 = 40;

/// The limits are polled every this many nodes (plus one; a mask).
pub const POLL_MASK: u64 = 1023;
