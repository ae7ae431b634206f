#!/usr/bin/env bash
# Experiment sel18 (issue 73, a bundle of the static evaluation as the
# search uses it, queued before as sel18 and sel19): correction history
# completed as the Stockfish family keeps it (tables of the last move
# after the side to move's moves two and four plies before the node, each
# table its own share of a lesson, reverse futility pruning's margin
# widened by three quarters of the correction), and the evaluation
# weighed by the material on the board and damped near the move limit,
# after Pikafish. An Elo step: an SPRT (pentanomial, elo0 0, elo1 15) at
# 6 s + 0.06 s against BASE, at most 2,500 games, books off, the wide
# suite shuffled by seed 181, both colours. Run again, it resumes.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 2500 --seed 181 --sprt elo0=0 elo1=15 model=penta
