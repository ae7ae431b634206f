#!/usr/bin/env bash
# Experiment sel21 (issue 73, learning and the window, after Stockfish):
# the continuation history in four tables by whether the earlier move was
# a capture and was played in check; a node where no move raised alpha
# giving the quiet move into it 40% of a refutation's bonus more for each
# surprise (the node 100 cp below its static evaluation, the parent 100 cp
# above its own); the aspiration window centred on the iterations' mean
# score. An Elo step: an SPRT (pentanomial, elo0 0, elo1 15) at
# 6 s + 0.06 s against BASE, at most 2,500 games, books off, the wide
# suite shuffled by seed 187, both colours. Run again, it resumes.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 2500 --seed 187 --sprt elo0=0 elo1=15 model=penta
