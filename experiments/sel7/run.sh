#!/usr/bin/env bash
# Experiment sel7 (issue 73, the old tactics gate's leftovers): quiet
# moves ordered by their continuation history after the move four plies
# back too; late moves reduced a ply more once more than two nodes a ply
# below have failed high (Stockfish's cutoffCnt), quiet ones a ply more
# when the hash move is a capture; a fail high's score pulled toward beta (1 / (depth + 1) of the
# way, halfway at the stand pat). An Elo step: an SPRT (pentanomial, elo0
# 0, elo1 15) at 6 s + 0.06 s against BASE, at most 2,500 games, books
# off, the wide suite shuffled by seed 166, both colours. Run again, it
# resumes. QUEUED says what it waits for.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 2500 --seed 166 --sprt elo0=0 elo1=15 model=penta
