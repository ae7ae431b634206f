#!/usr/bin/env bash
# Experiment sel12 (issue 73, ttPv): nodes on a principal variation now or
# when their hash entry was stored take the PV nodes' smaller late-move
# reduction and are never cut by reverse futility pruning; a node failing
# low below such a parent is marked too. An Elo step: an SPRT
# (pentanomial, elo0 0, elo1 15) at 6 s + 0.06 s against BASE, at most
# 2,500 games, books off, the wide suite shuffled by seed 174, both
# colours. Run again, it resumes. QUEUED says what it waits for.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 2500 --seed 174 --sprt elo0=0 elo1=15 model=penta
