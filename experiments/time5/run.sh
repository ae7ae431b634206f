#!/usr/bin/env bash
# Experiment time5 (issue 72's mates under a 1 s clock): a decisive gain
# counts from 400 cp (was 1,000), the plan's shortening factors count as
# 1 while a new mate or gain is resolved, and the stretched hard limit
# reaches 16 times the soft one (was 8), within a third of the clock.
# Judged as a fix: 600 games at 6 s + 0.06 s against BASE, books off, the
# wide suite shuffled by seed 180, both colours; it lands unless the whole
# 95% interval is below zero. Then `scripts/measure/time_use.py --pgn
# experiments/time5/match.pgn` for the clock left at move 30. Run again,
# it resumes. QUEUED says what it waits for.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 600 --seed 180
