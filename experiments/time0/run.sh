#!/usr/bin/env bash
# Experiment time0 (issue 72, points 1 and 2): a forced move at once, a
# stopped iteration's best move played, movetime spent whole. A fix by
# construction: one fixed match of 600 games at 6 s + 0.06 s against BASE,
# books off, the wide suite shuffled by seed 149, both colours; it lands
# unless its whole 95% interval is below zero. Run again, it resumes.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 600 --seed 149
