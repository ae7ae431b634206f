#!/usr/bin/env bash
# Measures Chariot's strength levels (the table in src/strength.rs) with
# the pinned referee (scripts/match/referee.sh), for their calibration.
#
# Usage: scripts/levels/levels.sh ladder|anchor [more chariot-match arguments]
#   ladder  each level against the next one up, a match per step (ELOS in
#           order): the Elo of each step. Summed from the first, they give
#           every level's Elo relative to the weakest.
#   anchor  a gauntlet of one reference engine (ANCHOR) against every
#           level: ties the ladder to an outside scale.
# The levels play in UCCI with `limitstrength true`, `elo E` and no book,
# from the bundled balanced openings, each played twice with colours
# swapped. A level's node budget, not the clock, should end its searches:
# TC must leave the strongest level (the last row of LEVELS in
# src/strength.rs) time to spend its nodes. The PGNs (one per match, in PGN_DIR) are what
# scripts/levels/blunder_share.py --pgn FILE --player eloE reads.
# Environment: ELOS="800 1100 1400 1700 2000 2300 2600 2900 3050"
#   GAMES=100 (per match) TC=60+0.6 JOBS=1 PGN_DIR=levels
#   ANCHOR="cmd=/usr/games/fairy-stockfish name=fsf-skill0 option.Skill_Level=0"
set -euo pipefail
cd "$(dirname "$0")/../.."
mode=${1:-}
case "$mode" in
    ladder | anchor) shift ;;
    *)
        echo "usage: scripts/levels/levels.sh ladder|anchor [more chariot-match arguments]" >&2
        exit 2
        ;;
esac
read -r -a elos <<< "${ELOS:-800 1100 1400 1700 2000 2300 2600 2900 3050}"
pgn_dir=${PGN_DIR:-levels}
mkdir -p "$pgn_dir"
cargo build --release --quiet
# Play a copy, so that rebuilding during the matches changes nothing.
work=$(mktemp -d "${TMPDIR:-/tmp}/chariot-levels.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp target/release/chariot "$work/chariot"
runner=$(scripts/match/referee.sh)

# level E: the --engine words of Chariot at Elo E.
level() {
    echo "cmd=$work/chariot name=elo$1 option.limitstrength=true option.elo=$1 option.usebook=false"
}

status=0
common=(--games "${GAMES:-100}" --tc "${TC:-60+0.6}" -j "${JOBS:-1}")
if [ "$mode" = ladder ]; then
    for ((i = 0; i + 1 < ${#elos[@]}; i++)); do
        low=${elos[i]} high=${elos[i + 1]}
        echo "=== elo$high against elo$low" >&2
        # shellcheck disable=SC2046 # the words of an engine are meant to split
        "$runner" --engine $(level "$high") --engine $(level "$low") "${common[@]}" \
            --pgn "$pgn_dir/ladder-$low-$high.pgn" "$@" || status=$?
    done
else
    args=()
    # shellcheck disable=SC2206 # ANCHOR holds several words
    args+=(--engine ${ANCHOR:-cmd=/usr/games/fairy-stockfish name=fsf-skill0 option.Skill_Level=0})
    for e in "${elos[@]}"; do
        # shellcheck disable=SC2046
        args+=(--engine $(level "$e"))
    done
    "$runner" "${args[@]}" --format gauntlet "${common[@]}" \
        --pgn "$pgn_dir/anchor.pgn" "$@" || status=$?
fi
exit "$status"
