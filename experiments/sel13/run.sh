#!/usr/bin/env bash
# Experiment sel13 (issue 73, capture history): captures ordered by their
# victim, then a capture history learnt as the quiet one; a reduced quiet
# move searched again at full depth teaches its continuation history. An
# Elo step: an SPRT (pentanomial, elo0 0, elo1 15) at 6 s + 0.06 s
# against BASE, at most 2,500 games, books off, the wide suite shuffled
# by seed 175, both colours. Run again, it resumes. QUEUED says what it
# waits for.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 2500 --seed 175 --sprt elo0=0 elo1=15 model=penta
