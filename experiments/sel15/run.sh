#!/usr/bin/env bash
# Experiment sel15 (issue 73, sel13 and sel14 as one bundle): captures
# ordered by their victim, then a capture history learnt as the quiet one;
# a reduced quiet move searched again at full depth teaches its
# continuation history; singular extensions two plies deep at zero-window
# nodes (at most 6 on a line) and two or one shallower when other moves
# hold. An Elo step: an SPRT (pentanomial, elo0 0, elo1 15) at
# 6 s + 0.06 s against BASE, at most 2,500 games, books off, the wide
# suite shuffled by seed 177, both colours. Run again, it resumes.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 2500 --seed 177 --sprt elo0=0 elo1=15 model=penta
