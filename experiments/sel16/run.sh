#!/usr/bin/env bash
# Experiment sel16 (issue 73, sel15 bisected once: its capture history
# alone, the patch sel13 was): captures ordered by their victim, then a
# capture history learnt as the quiet one; a reduced quiet move searched
# again at full depth teaches its continuation history. An Elo step: an
# SPRT (pentanomial, elo0 0, elo1 15) at 6 s + 0.06 s against BASE, at
# most 2,500 games, books off, the wide suite shuffled by seed 178, both
# colours. Run again, it resumes.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 2500 --seed 178 --sprt elo0=0 elo1=15 model=penta
