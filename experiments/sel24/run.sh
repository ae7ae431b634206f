#!/usr/bin/env bash
# Experiment sel24 (issue 73, what the hash table tells a node, after
# Pikafish): an entry cuts a node off only when deeper than it to fail
# high, up to depth 5 only where the node was expected to fail that way,
# never within four plies of the move limit, and from depth 7 only when
# the entry after its hash move agrees; an entry's score stands in for the
# static evaluation where its bound says more (razoring, reverse futility,
# the null move, the stand pat); a node in check keeps its side's
# evaluation from two plies before for `improving`.
# An Elo step: an SPRT (pentanomial, elo0 0, elo1 15) at 6 s + 0.06 s
# against BASE, at most 2,500 games, books off, the wide suite shuffled by
# seed 191, both colours. Run again, it resumes. QUEUED says what it
# waits for.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 2500 --seed 191 --sprt elo0=0 elo1=15 model=penta
