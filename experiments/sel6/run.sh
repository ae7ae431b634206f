#!/usr/bin/env bash
# Experiment sel6 (issue 73, correction history): the static evaluation
# corrected by what searches found in positions with the same pawns and
# side to move. An Elo step: an SPRT (pentanomial, elo0 0, elo1 15) at
# 6 s + 0.06 s against BASE, at most 2,500 games, books off, the wide
# suite shuffled by seed 155, both colours. Run again, it resumes.
# QUEUED says what it waits for.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 2500 --seed 155 --sprt elo0=0 elo1=15 model=penta
