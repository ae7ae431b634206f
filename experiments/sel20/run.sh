#!/usr/bin/env bash
# Experiment sel20 (issue 73, the learning that gained: Stockfish's
# history updates where it makes them): a node's quiet best move learnt at
# PV nodes and at the root too (it was learnt only when it failed high),
# the other quiet moves tried losing a malus larger than the bonus
# (512 x depth - 128, at most 6,144, against the bonus's 192 x depth - 96,
# at most 3,072), and the root's moves ordered behind the last
# iteration's best as the move picker orders them (they were in the order
# generated). An Elo step: an SPRT (pentanomial, elo0 0, elo1 15) at
# 6 s + 0.06 s against BASE, at most 2,500 games, books off, the wide
# suite shuffled by seed 185, both colours. Run again, it resumes.
# QUEUED says what it waits for.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 2500 --seed 185 --sprt elo0=0 elo1=15 model=penta
