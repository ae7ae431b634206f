#!/usr/bin/env bash
# Experiment sel8 (issue 73, learning and aspiration): a quiet hash move
# that cuts a node off from the table earns a refutation's history bonus,
# and an early quiet move into that node loses continuation history; a
# node where no move raises alpha rewards the quiet move into it; the
# aspiration window is wider for larger scores, and each pass after a
# fail high a ply shallower. An Elo step: an SPRT (pentanomial, elo0 0,
# elo1 15) at 6 s + 0.06 s against BASE, at most 2,500 games, books off,
# the wide suite shuffled by seed 167, both colours. Run again, it
# resumes. QUEUED says what it waits for.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 2500 --seed 167 --sprt elo0=0 elo1=15 model=penta
