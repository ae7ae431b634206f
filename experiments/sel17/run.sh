#!/usr/bin/env bash
# Experiment sel17 (issue 73, the ordering bundle after Pikafish's quiet
# tables): the history by side and squares, faded to 3/4 at each search;
# a pawn history by the pawns on the board, piece and destination; a
# low-ply history within five plies of the root, kept for one search;
# the quiet score their mean plus the continuation history. An Elo step:
# an SPRT (pentanomial, elo0 0, elo1 15) at 6 s + 0.06 s against BASE, at
# most 2,500 games, books off, the wide suite shuffled by seed 179, both
# colours. Run again, it resumes.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 2500 --seed 179 --sprt elo0=0 elo1=15 model=penta
