#!/usr/bin/env bash
# Experiment time1 (issue 72, point 3): the time plan's optimum scaled by
# the best move's stability and changes, the score's fall, the best move's
# share of the nodes and an unresolved mate or gain. An Elo step: an SPRT
# (pentanomial, elo0 0, elo1 15) at 6 s + 0.06 s against BASE, at most
# 2,500 games, books off, the wide suite shuffled by seed 150, both
# colours. Run again, it resumes.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 2500 --seed 150 --sprt elo0=0 elo1=15 model=penta
