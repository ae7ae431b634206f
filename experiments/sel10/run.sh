#!/usr/bin/env bash
# Experiment sel10 (issue 73, move order): quiet moves sorted by safe
# checks and by escapes from (and steps into) attacks of lesser enemy
# pieces, their scores left to history; the move into a node learns from
# the evaluation swing it caused. An Elo step: an SPRT (pentanomial, elo0
# 0, elo1 15) at 6 s + 0.06 s against BASE, at most 2,500 games, books
# off, the wide suite shuffled by seed 172, both colours. Run again, it
# resumes. QUEUED says what it waits for.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 2500 --seed 172 --sprt elo0=0 elo1=15 model=penta
