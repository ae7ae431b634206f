#!/usr/bin/env bash
# Experiment time7 (issue 72, point 3: the game's progress in the time
# plan): with an increment, the soft limit's share of the clock grows from
# a fortieth at the game's start to as much as a twenty-fifth by its 160th
# ply (by the position's move number), all the way where forty increments
# make up the clock, in proportion where they make up less; without one it
# stays a fortieth. Judged
# as a fix: it completes the structure the issue asks for and by
# construction changes only how fast the opening's clock is spent, so one
# fixed match of 600 games at 6 s + 0.06 s against BASE, books off, the
# wide suite shuffled by seed 188, both colours; it lands unless its whole
# 95% interval is below zero. Run again, it resumes. QUEUED says what it
# waits for.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 600 --seed 188
