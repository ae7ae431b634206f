#!/usr/bin/env bash
# Experiment sel14 (issue 73, singular extensions): a hash move whose
# search without it falls well below the singular margin is searched two
# plies deeper at a zero-window node (at most 6 times on a line); when
# the other moves hold the margin it is searched shallower (two plies
# where its stored score beats beta, one at an expected cut node or where
# the others scored as well). An Elo step: an SPRT (pentanomial, elo0 0,
# elo1 15) at 6 s + 0.06 s against BASE, at most 2,500 games, books off,
# the wide suite shuffled by seed 176, both colours. Run again, it
# resumes. QUEUED says what it waits for.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 2500 --seed 176 --sprt elo0=0 elo1=15 model=penta
