#!/usr/bin/env bash
# Experiment sel22 (issue 73, the evaluation as the search weighs it,
# after the Stockfish family): optimism, each thread leaning every static
# evaluation toward the root's side by 70 * m / (|m| + 75) for the mean m
# of its iterations' scores (each averaged with the mean before it),
# weighed by (3,000 + the material) / 12,000; and the root's static
# evaluation set on the stack (ply 2's improving, hindsight at ply 1), and
# improving looking four plies back past a check, as Pikafish's does. An
# Elo step: an SPRT (pentanomial, elo0 0, elo1 15) at 6 s + 0.06 s against
# BASE, at most 2,500 games, books off, the wide suite shuffled by seed
# 189, both colours. Run again, it resumes. QUEUED says what it waits for.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 2500 --seed 189 --sprt elo0=0 elo1=15 model=penta
