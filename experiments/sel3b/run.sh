#!/usr/bin/env bash
# Experiment sel3b (issue 73, the pruning bundle's bisection): futility
# by the depth a late-move reduction would leave and late-move pruning to
# depth 8, SEE pruning of captures to depth 8; without sel3's SEE pruning
# of quiet moves and checks. An Elo step: an SPRT (pentanomial, elo0 0,
# elo1 15) at 6 s + 0.06 s against BASE, at most 2,500 games, books off,
# the wide suite shuffled by seed 156, both colours. Run again, it
# resumes. QUEUED says what it waits for.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 2500 --seed 156 --sprt elo0=0 elo1=15 model=penta
