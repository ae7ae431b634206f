#!/usr/bin/env bash
# Experiment sel6 (issue 73, evaluation correction): correction history by
# pawns and by defence (kings, advisors, elephants), and the hash score
# standing for the evaluation in razoring, reverse futility and the null
# move where its bound says the evaluation errs on its side. An Elo step:
# an SPRT (pentanomial, elo0 0, elo1 15) at 6 s + 0.06 s against BASE, at
# most 2,500 games, books off, the wide suite shuffled by seed 165, both
# colours. Run again, it resumes. QUEUED says what it waits for.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 2500 --seed 165 --sprt elo0=0 elo1=15 model=penta
