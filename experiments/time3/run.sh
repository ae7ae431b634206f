#!/usr/bin/env bash
# Experiment time3 (issue 72, mates under a fast clock; time2 narrowed):
# while our mate, found at the root on this move (the last search had
# none), is not yet made sure of, the time
# plan's factor is tm_resolving (8x) in place of tm_unresolved and the hard
# limit stretches from four to eight times the soft one; a single legal
# move on the clock alone is searched up to 30 ms (stopped at 60) where it
# was answered after one iteration. A change to the plan's use of time
# judged as a fix: its own measure (tactics_clock.py's mates at go time
# 1000: 37 before, 40 after), then 600 games at 6 s + 0.06 s against BASE,
# books off, the wide suite shuffled by seed 164, both colours; it lands
# unless the whole 95% interval is below zero. Run again, it resumes.
exec "$(dirname "$0")/../../scripts/match/experiment.sh" "$(dirname "$0")" \
    --tc 6+0.06 --games 600 --seed 164
