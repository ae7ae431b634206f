#!/usr/bin/env bash
# Experiment sel2 (issue 73, the quiescence bundle): past two captures
# only recaptures and checks, delta pruning with the victim's value in
# the evaluation's centipawns, at most two quiet evasions in check. An
# Elo step: an SPRT (pentanomial, elo0 0, elo1 15) at 6 s + 0.06 s
# against BASE, at most 2,500 games, books off, the wide suite shuffled
# by seed 151, both colours. Run again, it resumes.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 2500 --seed 151 --sprt elo0=0 elo1=15 model=penta
