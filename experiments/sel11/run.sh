#!/usr/bin/env bash
# Experiment sel11 (issue 73, correction history): the static evaluation
# corrected by what the search has learnt of its errors, by side to move,
# from tables indexed by the position's pawns, its horses and cannons and
# each side's other pieces. An Elo step: an SPRT (pentanomial, elo0 0,
# elo1 15) at 6 s + 0.06 s against BASE, at most 2,500 games, books off,
# the wide suite shuffled by seed 173, both colours. Run again, it
# resumes. QUEUED says what it waits for.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 2500 --seed 173 --sprt elo0=0 elo1=15 model=penta
