#!/usr/bin/env bash
# Experiment sel27 (issue 73, pruning and reductions after the Stockfish
# family): futility for captures at depth <= 6 (the piece's value plus
# 150 + 120 * depth cannot reach alpha; never palace captures or checks,
# nor once alpha is a win), reductions a ply less per 160 cp of the
# correction history's correction, and a ply more at expected cut nodes
# without a hash move. An Elo step:
# an SPRT (pentanomial, elo0 0, elo1 15) at 6 s + 0.06 s against BASE, at
# most 2,500 games, books off, the wide suite shuffled by seed 194, both
# colours. Run again, it resumes. QUEUED says what it waits for.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 2500 --seed 194 --sprt elo0=0 elo1=15 model=penta
