#!/usr/bin/env bash
# Experiment time4 (issue 72): a decisive gain (a rook or more, 500 cp
# above the last search's score) found at the root on this move earns the
# stretch of a new mate. Judged as a
# fix (time3's rule): 600 games at 6 s + 0.06 s against BASE, books off,
# the wide suite shuffled by seed 168, both colours; it lands unless the
# whole 95% interval is below zero. Then `scripts/measure/time_use.py
# --pgn experiments/time4/match.pgn` for the clock left at move 30. Run
# again, it resumes. QUEUED says what it waits for.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 600 --seed 168
