#!/usr/bin/env bash
# Experiment sel9 (issue 73, accurate cut-offs): stricter hash cut-offs
# (a fail high from a ply deeper, the expected node kind up to depth 5,
# none near the move limit), razoring by depth squared, quiescence
# leaving out captures whose exchange cannot win back alpha's lead, with a
# softer fail-low score, and "improving" carried through checks. An Elo
# step: an SPRT (pentanomial, elo0 0, elo1 15) at 6 s + 0.06 s against
# BASE, at most 2,500 games, books off, the wide suite shuffled by seed
# 171, both colours. Run again, it resumes. QUEUED says what it waits for.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 2500 --seed 171 --sprt elo0=0 elo1=15 model=penta
