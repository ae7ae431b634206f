#!/usr/bin/env bash
# Experiment sel23 (issue 73, the node's cuts gated as the Stockfish
# family gates them): the null move only at expected cut nodes whose eval
# is above beta by 144 cp less 6 a ply (38 less where it improves);
# reverse futility pruning not where the hash move is quiet nor where beta
# is a loss, its score 70% of the way from the eval to beta; an eval at or
# above beta counting as improving for late-move pruning and reductions;
# the root's re-search of a reduced move marking its child a cut node, as
# in the tree. Each makes the search cut less where the cut is least sure.
# And wins and losses by the rules read as decisive at these gates, as
# mates are (they passed as any score).
# An Elo step: an SPRT (pentanomial, elo0 0, elo1 15) at 6 s + 0.06 s
# against BASE, at most 2,500 games, books off, the wide suite shuffled by
# seed 190, both colours. Run again, it resumes. QUEUED says what it
# waits for.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 2500 --seed 190 --sprt elo0=0 elo1=15 model=penta
