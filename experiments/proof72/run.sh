#!/usr/bin/env bash
# Issue 72's proof (the time plan): the build in CANDIDATE against
# af73ff5 (BASE), books off, the wide suite shuffled, both colours, each
# control with its own results file and PGN, played in this order:
#   tc6      600 games at 6 s + 0.06 s      (goal +15 Elo or more)
#   tc10     400 games at 10 s sudden death (goal +15 Elo or more)
#   tc1      200 games at 1 s + 0.01 s      (0 losses on time)
#   tc3      100 games at 3 s sudden death  (0 losses on time)
#   tc40of20 100 games at 40 moves in 20 s  (0 losses on time)
# then scripts/measure/time_use.py --pgn on the PGNs reports the time used
# a move and the clock left at moves 30, 60 and 90. Run again, it resumes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exp=$here/../../scripts/match/experiment.sh
RESULTS=tc6 "$exp" "$here" --tc 6+0.06 --games 600 --seed 157
RESULTS=tc10 "$exp" "$here" --tc 10 --games 400 --seed 158
RESULTS=tc1 "$exp" "$here" --tc 1+0.01 --games 200 --seed 159
RESULTS=tc3 "$exp" "$here" --tc 3 --games 100 --seed 160
RESULTS=tc40of20 "$exp" "$here" --tc 40/20 --games 100 --seed 161
