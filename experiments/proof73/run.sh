#!/usr/bin/env bash
# Issue 73's proof (selectivity): the build in CANDIDATE (main with
# time7 and sel26) against af73ff5 (BASE), books
# off, the wide suite shuffled, both colours, each control with its own
# results file and PGN, played in this order:
#   tc10  1,000 games at 10 s + 0.1 s   (goal +100 Elo)
#   tc30    300 games at 30 s + 0.3 s   (goal +130 Elo)
# then, for the closing note: `scripts/match/pgn_depth.py tc10.pgn` and
# `tc30.pgn` (mean depth completed per move, both builds), the table of
# bundles from docs/history/search.md, the mates under `go time 1000`
# (`scripts/measure/tactics_clock.py --limits clock movetime`) and time
# to depth (`scripts/measure/time_to_depth.py CANDIDATE af73ff5`), both
# builds. Run again, it resumes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exp=$here/../../scripts/match/experiment.sh
RESULTS=tc10 "$exp" "$here" --tc 10+0.1 --games 1000 --seed 169
RESULTS=tc30 "$exp" "$here" --tc 30+0.3 --games 300 --seed 170
