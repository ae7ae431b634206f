#!/usr/bin/env bash
# Experiment sel3 (issue 73, the pruning bundle): futility by the depth a
# late-move reduction would leave, late-move pruning to depth 8, SEE
# pruning of quiet moves, of captures to depth 8, and of losing checks
# that would be pruned otherwise. An Elo step: an SPRT (pentanomial,
# elo0 0, elo1 15) at 6 s + 0.06 s against BASE, at most 2,500 games,
# books off, the wide suite shuffled by seed 152, both colours. Run
# again, it resumes.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 2500 --seed 152 --sprt elo0=0 elo1=15 model=penta
