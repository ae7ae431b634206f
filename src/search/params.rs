//! Every tunable of the search in one place: pruning and reduction margins,
//! the late-move reduction table, history, aspiration windows and time use.
//! Depths are in plies, scores and margins in centipawns.
//!
//! The search's tunables are declared once, in `tunables!` below, each with
//! its value, the range SPSA may move it in, and SPSA's step at the end of
//! a run (`c_end`). Each is read through a function of its name
//! (`razor_base()`). In a normal build that function returns the constant
//! and costs nothing; in a build with the `tune` feature it reads a value
//! that the hidden option of the same name sets at run time
//! (`setoption name razor_base value 180`), so SPSA can play builds that
//! differ only in their options. The time plan's stretch factors are
//! tunables too (`tm_*`); the base budget's constants are in `limits`.

/// One tunable: its name (the function's and the option's), its value in
/// the source, its range, and SPSA's step at the end of a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tunable {
    pub name: &'static str,
    pub value: i32,
    pub min: i32,
    pub max: i32,
    pub c_end: f64,
}

macro_rules! tunables {
    ($($(#[$doc:meta])* $name:ident = $value:expr, $min:expr, $max:expr, $c_end:expr;)*) => {
        /// Every tunable, in declaration order.
        pub const TUNABLES: &[Tunable] = &[
            $(Tunable { name: stringify!($name), value: $value, min: $min, max: $max, c_end: $c_end },)*
        ];

        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[cfg(feature = "tune")]
        enum Index { $($name,)* }

        #[cfg(feature = "tune")]
        mod live {
            use std::sync::atomic::AtomicI32;
            /// The values in use, by `Index`.
            pub static VALUES: [AtomicI32; super::TUNABLES.len()] = [$(AtomicI32::new($value),)*];
        }

        $(
            $(#[$doc])*
            #[cfg(not(feature = "tune"))]
            #[inline(always)]
            pub const fn $name() -> i32 {
                $value
            }

            $(#[$doc])*
            #[cfg(feature = "tune")]
            #[inline(always)]
            pub fn $name() -> i32 {
                live::VALUES[Index::$name as usize].load(std::sync::atomic::Ordering::Relaxed)
            }
        )*
    };
}

/// The value in use of the tunable `name` (its constant in a normal build).
#[cfg(feature = "tune")]
pub fn tunable(name: &str) -> i32 {
    TUNABLES.iter().position(|t| t.name == name).map_or(0, |i| {
        live::VALUES[i].load(std::sync::atomic::Ordering::Relaxed)
    })
}

/// Sets the tunable `name` to `value` (brought into its range) in a `tune`
/// build, and returns the value taken; `None` if there is no such tunable.
#[cfg(feature = "tune")]
pub fn set_tunable(name: &str, value: i32) -> Option<i32> {
    let i = TUNABLES
        .iter()
        .position(|t| t.name.eq_ignore_ascii_case(name))?;
    let v = value.clamp(TUNABLES[i].min, TUNABLES[i].max);
    live::VALUES[i].store(v, std::sync::atomic::Ordering::Relaxed);
    Some(v)
}

tunables! {
    // Step 1. A node in check is searched a ply deeper from this depth on.
    check_ext_depth = 8, 0, 16, 0.5;

    // Step 6. Razoring: at depth <= razor_depth, an eval this far below
    // alpha goes straight to quiescence.
    razor_depth = 3, 1, 6, 0.5;
    razor_base = 200, 0, 600, 20.0;
    razor_per_depth = 150, 0, 400, 15.0;

    // Step 7. Reverse futility pruning: at depth <= rfp_depth, an eval this
    // far above beta (rfp_per_depth a ply, and rfp_correction_pct % of
    // the correction history's correction) returns at once.
    rfp_depth = 7, 2, 12, 0.5;
    rfp_per_depth = 70, 20, 200, 7.0;
    rfp_correction_pct = 75, 0, 200, 10.0;

    // Step 8. Null move pruning: reduction nmp_base + depth / nmp_depth_div
    // + min((eval - beta) / nmp_eval_div, nmp_eval_max).
    nmp_min_depth = 3, 1, 6, 0.5;
    nmp_base = 3, 1, 6, 0.5;
    nmp_depth_div = 4, 2, 8, 0.5;
    nmp_eval_div = 150, 50, 400, 15.0;
    nmp_eval_max = 3, 1, 6, 0.5;

    // Step 9. Internal iterative reduction of PV nodes without a hash move.
    iir_min_depth = 6, 2, 10, 0.5;
    iir_reduction = 1, 0, 3, 0.5;

    // Step 11. Captures losing more than see_capture_per_depth * depth are
    // skipped at depth <= see_capture_depth.
    see_capture_depth = 4, 1, 8, 0.5;
    see_capture_per_depth = 100, 20, 300, 10.0;

    // Step 12. Late move pruning (at depth <= lmp_depth, after
    // `late_move_limit` moves) and futility pruning of quiet moves (at
    // depth <= futility_depth, when eval + margin cannot reach alpha).
    lmp_depth = 5, 2, 10, 0.5;
    lmp_base = 3, 0, 10, 0.5;
    futility_depth = 6, 2, 10, 0.5;
    futility_base = 100, 0, 300, 10.0;
    futility_per_depth = 80, 20, 200, 8.0;
    // History pruning: at depth <= history_prune_depth, quiet moves whose
    // ordering score (its histories, `Heuristics::quiet_score`) is below
    // -history_prune_per_depth * depth are skipped.
    history_prune_depth = 3, 0, 8, 0.5;
    history_prune_per_depth = 1024, 256, 16384, 100.0;

    // Step 13. Singular extensions: from depth se_min_depth, of a hash
    // move stored at least depth - se_depth_margin deep, with a margin of
    // se_margin_per_depth * depth below its score.
    se_min_depth = 7, 4, 12, 0.5;
    se_depth_margin = 3, 1, 6, 0.5;
    se_margin_per_depth = 2, 1, 8, 0.5;

    // Step 14. Late-move reductions, from depth lmr_min_depth: the table
    // gives lmr_base_x100 / 100 + ln(depth) ln(move number) /
    // (lmr_divisor_x100 / 100) (depths and move numbers beyond the table
    // read its last row and column); PV nodes reduce lmr_pv less, nodes not
    // improving lmr_not_improving more, expected cut nodes lmr_cut_node
    // more, killers and the counter-move lmr_refutation less, and quiet
    // moves one ply less per lmr_history_div of ordering score.
    lmr_min_depth = 3, 2, 5, 0.5;
    lmr_base_x100 = 75, 0, 200, 8.0;
    lmr_divisor_x100 = 225, 100, 400, 15.0;
    lmr_pv = 1, 0, 3, 0.5;
    lmr_not_improving = 1, 0, 3, 0.5;
    lmr_cut_node = 2, 0, 4, 0.5;
    lmr_refutation = 1, 0, 3, 0.5;
    lmr_history_div = 4096, 2048, 32768, 800.0;
    // Checking moves, evasions and captures that do not lose material are
    // reduced lmr_check, lmr_evasion and lmr_capture less than quiet moves;
    // root moves from the lmr_root_from-th (counted from 0) are reduced by
    // the table less lmr_root_less. A reduced move beating alpha is searched
    // again a ply deeper when it beats the best by lmr_deeper_base +
    // lmr_deeper_per_depth * depth, a ply shallower when by less than
    // lmr_shallower_margin.
    lmr_check = 1, 0, 3, 0.5;
    lmr_evasion = 1, 0, 3, 0.5;
    lmr_capture = 1, 0, 3, 0.5;
    lmr_root_from = 3, 1, 10, 0.5;
    lmr_root_less = 1, 0, 3, 0.5;
    lmr_deeper_base = 40, 0, 200, 5.0;
    lmr_deeper_per_depth = 2, 0, 10, 0.5;
    lmr_shallower_margin = 10, 0, 60, 2.0;
    // Hindsight: a node reduced by at least hindsight_deeper plies goes a
    // ply deeper when the move into it did not worsen the mover's static
    // evaluation; one reduced at all goes a ply shallower when the two
    // plies' evaluations add up to more than hindsight_shallower_margin.
    hindsight_deeper = 3, 1, 6, 0.5;
    hindsight_shallower_margin = 200, 0, 600, 20.0;

    // The static evaluation as the search weighs it: times 1 + the material
    // on the board (`wdl::material`, 2,120 at the start) /
    // eval_material_base, then less its share of the plies without a
    // capture / eval_damp_plies (about half at the move limit's 120).
    eval_material_base = 12000, 4000, 80000, 1000.0;
    eval_damp_plies = 240, 120, 2000, 20.0;

    // Quiescence: delta pruning skips a capture when even winning the piece
    // (at its qs_value_* in the evaluation's centipawns) plus this margin
    // would not reach alpha. Past the first qs_capture_limit captures, only
    // recaptures and checks are searched; in check, at most qs_quiet_evasions
    // quiet evasions once one evasion holds off the mate.
    delta_margin = 150, 0, 400, 15.0;
    qs_value_pawn = 200, 50, 500, 20.0;
    qs_value_guard = 150, 50, 400, 15.0;
    qs_value_horse = 450, 150, 900, 40.0;
    qs_value_cannon = 450, 150, 900, 40.0;
    qs_value_rook = 1000, 400, 1600, 80.0;
    qs_capture_limit = 2, 1, 8, 0.5;
    qs_quiet_evasions = 2, 0, 6, 0.5;

    // History: scores stay within +-history_max; a quiet refutation earns
    // history_bonus_per_depth * depth - history_bonus_base, at most
    // history_bonus_cap and at least 0 (linear in depth, as Stockfish's
    // bonus: shallow refutations, the most numerous, earn more than under
    // depth^2, and one deep cut no longer swamps the table).
    history_max = 16384, 4096, 32000, 1000.0;
    history_bonus_per_depth = 192, 32, 512, 16.0;
    history_bonus_base = 96, 0, 400, 16.0;
    history_bonus_cap = 3072, 512, 8192, 200.0;
    // A quiet hash move that cuts a node off without a search earns a
    // refutation's bonus; the quiet move into that node, when it was among
    // the parent's first prior_early_moves, loses prior_early_malus of its
    // continuation history. A node where no move raised alpha gives the
    // quiet move into it prior_fail_low_pct per cent of a refutation's
    // bonus, prior_fail_low_late_pct when it was the parent's move number
    // prior_late_moves + 1 or later.
    prior_early_moves = 3, 1, 8, 0.5;
    prior_early_malus = 1024, 0, 4096, 150.0;
    prior_late_moves = 8, 2, 20, 1.0;
    prior_fail_low_pct = 50, 0, 200, 10.0;
    prior_fail_low_late_pct = 100, 0, 300, 15.0;

    // Correction history (correction.rs): the static evaluation is
    // corrected by corr_pawn_weight times its pawns' entry,
    // corr_minor_weight times its horses' and cannons', corr_non_pawn_weight
    // times each side's pieces' other than pawns, and corr_cont_weight
    // times each of the last move's entries after the side to move's
    // moves two and four plies before the node, over 131,072. A node's search teaches them
    // (best - eval) * depth * corr_bonus_raised / 128 where a move raised
    // alpha, corr_bonus_failed / 128 where none did (each table its share).
    corr_pawn_weight = 4500, 0, 12000, 500.0;
    corr_minor_weight = 3800, 0, 12000, 500.0;
    corr_non_pawn_weight = 8200, 0, 16000, 800.0;
    corr_cont_weight = 5300, 0, 12000, 500.0;
    corr_bonus_raised = 12, 0, 40, 2.0;
    corr_bonus_failed = 17, 0, 40, 2.0;

    // Aspiration windows: from depth aspiration_min_depth, a window of
    // +-aspiration_delta around the last score, growing by half plus
    // aspiration_growth on each failure, and open once wider than
    // aspiration_max_delta.
    aspiration_min_depth = 4, 1, 8, 0.5;
    aspiration_delta = 25, 5, 80, 3.0;
    aspiration_growth = 10, 0, 50, 3.0;
    aspiration_max_delta = 1000, 200, 3000, 100.0;
    // The window is wider by the last score squared / aspiration_sq_div;
    // after a fail high, the next pass is a ply shallower for each fail
    // high since the last fail low.
    aspiration_sq_div = 10000, 2000, 50000, 1500.0;

    // Time: after each iteration, the main thread stops once the clock has
    // run past the soft limit times the product of
    // - the best move's stability: tm_stable_N / 100 when it has not
    //   changed for N iterations (N = 3 for three and more);
    // - its instability: 1 + tm_changes_x100 / 100 for each change of best
    //   move at the root, the count halved at each iteration;
    // - the score's fall: 1 + (tm_fall_last per mille for each centipawn
    //   below the last search's score, tm_fall_iter for each below the
    //   score four iterations ago), within tm_fall_min and tm_fall_max per
    //   cent (a rising score spends less);
    // - the best move's effort: tm_effort_scale / 100 from depth 10 when it
    //   took at least tm_effort_share per mille of the nodes;
    // - an unresolved root: tm_unresolved / 100 while the score is a mate
    //   that deeper iterations may shorten or refute, or moved more than
    //   tm_jump centipawns since the last iteration;
    // - our mate found at the root on this move (the last search had
    //   none), or a decisive gain (a score of tm_gain or more, short of a
    //   win by the rules, at least tm_gain_jump above the last search's):
    //   tm_resolving / 100 in place of tm_unresolved, the product of the
    //   factors above counting for no less than 1, and the hard limit is
    //   stretched too (`limits::TimePlan::stretch_ms`).
    tm_stable_0 = 140, 100, 220, 6.0;
    tm_stable_1 = 115, 80, 180, 5.0;
    tm_stable_2 = 100, 60, 150, 5.0;
    tm_stable_3 = 80, 50, 120, 4.0;
    tm_changes_x100 = 20, 0, 100, 4.0;
    tm_fall_last = 5, 0, 20, 1.0;
    tm_fall_iter = 3, 0, 20, 1.0;
    tm_fall_min = 80, 50, 100, 3.0;
    tm_fall_max = 160, 100, 250, 6.0;
    tm_effort_share = 900, 700, 990, 15.0;
    tm_effort_scale = 75, 40, 100, 3.0;
    tm_jump = 100, 30, 300, 10.0;
    tm_unresolved = 130, 100, 200, 5.0;
    tm_resolving = 800, 150, 1200, 30.0;
    tm_gain = 400, 200, 3000, 100.0;
    tm_gain_jump = 500, 100, 2000, 50.0;

    // Repetitions are judged with the chase rule (which costs a replay of
    // the cycle) up to this ply, and by checks alone deeper.
    chase_ply = 2, 0, 6, 0.5;
}

/// Moves searched at this depth before late quiet moves are pruned.
pub fn late_move_limit(depth: i32, improving: bool) -> usize {
    let base = (lmp_base() + depth * depth).max(0) as usize;
    if improving {
        base
    } else {
        base / 2
    }
}

/// Size of the late-move reduction table (depths and move numbers).
pub const LMR_TABLE: usize = 64;

/// Late-move reductions by depth and move number.
pub type Reductions = [[i32; LMR_TABLE]; LMR_TABLE];

/// The late-move reduction table.
pub fn reductions() -> Box<Reductions> {
    let base = f64::from(lmr_base_x100()) / 100.0;
    let divisor = f64::from(lmr_divisor_x100().max(1)) / 100.0;
    let mut t = Box::new([[0; LMR_TABLE]; LMR_TABLE]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (base + (d as f64).ln() * (m as f64).ln() / divisor) as i32;
        }
    }
    t
}

/// The limits are polled every this many nodes (plus one; a mask).
pub const POLL_MASK: u64 = 1023;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tunables_are_named_once_and_start_inside_their_ranges() {
        let mut names: Vec<&str> = TUNABLES.iter().map(|t| t.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), TUNABLES.len(), "a name is declared twice");
        for t in TUNABLES {
            assert!(t.min <= t.value && t.value <= t.max, "{t:?}");
            assert!(t.c_end > 0.0 && t.c_end < f64::from(t.max - t.min), "{t:?}");
        }
        // The functions read the declared values (in a tune build, until set).
        let declared = |name: &str| TUNABLES.iter().find(|t| t.name == name).map(|t| t.value);
        assert_eq!(Some(razor_base()), declared("razor_base"));
        assert_eq!(Some(chase_ply()), declared("chase_ply"));
    }
}
