#!/usr/bin/env bash
# Experiment sel26 (issues 72 and 73, mates under a fast clock): the main
# search prunes no move (late-move, futility, history or SEE pruning) in
# an ending where neither side has a rook, a horse or a cannon, whose
# mates come from quiet moves of soldiers late in the order. Judged as a
# fix: by construction it changes only such endings, rare in games, and
# its own measure is the tactics suite's soldiers' mates
# (tests/tactics.txt lines 64 and 77), found under a 1 s clock where main
# misses them; so one fixed match of 600 games at 6 s + 0.06 s against
# BASE, books off, the wide suite shuffled by seed 193, both colours; it
# lands unless its whole 95% interval is below zero. Run again, it
# resumes. QUEUED says what it waits for.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 600 --seed 193
