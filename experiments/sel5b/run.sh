#!/usr/bin/env bash
# Experiment sel5b (issue 73, sel5's bisect): sel5 without ProbCut and
# internal iterative reduction at cut nodes: the null move at 4 + d/3 with
# a verification search from depth 12 and its child an expected all-node,
# the root's static evaluation kept for ply 2's "improving", and the PV
# re-search at the depth of a deeper or shallower re-search. An Elo step:
# an SPRT (pentanomial, elo0 0, elo1 15) at 6 s + 0.06 s against BASE, at
# most 2,500 games, books off, the wide suite shuffled by seed 163, both
# colours. Run again, it resumes. QUEUED says what it waits for.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 2500 --seed 163 --sprt elo0=0 elo1=15 model=penta
