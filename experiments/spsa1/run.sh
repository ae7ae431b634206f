#!/usr/bin/env bash
# Experiment spsa1 (issues 72 and 73, their SPSA step): sixteen of the
# tunables the campaign added or moved, tuned by SPSA at the short
# control (6 s + 0.06 s), 1,000 pairs, books off, the wide suite, seed 1:
# the time plan's stability, changes, fall, effort and unresolved
# factors; the reduction table; sel4's re-search margins; sel2's delta
# margin; sel11's correction weights and bonus; the aspiration window.
# r_end 0.01 (five times OpenBench's default): over 1,000 pairs noise alone
# walks a parameter about 0.4 c_end, so that a real gradient can show.
# Run again, it resumes from spsa.state, on any machine. Its values then
# go through an SPRT (elo0 0, elo1 15) against BASE like any other step.
exec "$(dirname "$0")/../../scripts/match/spsa_experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --pairs 1000 --seed 1 --r-end 0.01 \
    --only tm_stable_0,tm_stable_3,tm_changes_x100,tm_fall_last,tm_fall_max,tm_effort_scale,tm_unresolved,lmr_base_x100,lmr_divisor_x100,lmr_deeper_base,lmr_shallower_margin,delta_margin,corr_pawn_weight,corr_non_pawn_weight,corr_bonus_raised,aspiration_delta
