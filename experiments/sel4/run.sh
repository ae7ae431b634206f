#!/usr/bin/env bash
# Experiment sel4 (issue 73, the reductions bundle): late-move reductions
# of checks, evasions, captures that do not lose material and late quiet
# root moves; a reduced move that beats alpha searched again a ply deeper
# or shallower by its margin over the best. An Elo step: an SPRT
# (pentanomial, elo0 0, elo1 15) at 6 s + 0.06 s against BASE, at most
# 2,500 games, books off, the wide suite shuffled by seed 153, both
# colours. Run again, it resumes. QUEUED says what it waits for.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 2500 --seed 153 --sprt elo0=0 elo1=15 model=penta
