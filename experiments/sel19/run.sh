#!/usr/bin/env bash
# Experiment sel19 (issue 73, "anything else that measures well"): the
# static evaluation as the search weighs it, after Pikafish: larger with
# more material on the board, and damped as the plies without a capture
# near the move limit (one game in seven ends drawn by it). An Elo step:
# an SPRT (pentanomial, elo0 0, elo1 15) at 6 s + 0.06 s against BASE, at
# most 2,500 games, books off, the wide suite shuffled by seed 183, both
# colours. Run again, it resumes. QUEUED says what it waits for.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 2500 --seed 183 --sprt elo0=0 elo1=15 model=penta
