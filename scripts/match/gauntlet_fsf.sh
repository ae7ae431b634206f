#!/usr/bin/env bash
# A gauntlet: Chariot (this tree, release build) against Debian's
# fairy-stockfish (UCCI mode) at several Skill_Level settings, over the
# bundled balanced openings, each played twice with colours swapped.
#
# Usage: scripts/match/gauntlet_fsf.sh [more chariot-match arguments]
# The referee is scripts/match/referee.sh: chariot-match from a pinned revision.
# Environment: LEVELS="0 5" (fairy-stockfish Skill_Level, -20..20),
#   GAMES=20 (per opponent), TC=5+0.05 (seconds), JOBS=1, PGN=gauntlet.pgn,
#   FSF=/usr/games/fairy-stockfish
set -euo pipefail
cd "$(dirname "$0")/../.."
fsf=${FSF:-/usr/games/fairy-stockfish}
if [ ! -x "$fsf" ]; then
    echo "gauntlet_fsf: $fsf not found (apt-get install fairy-stockfish)" >&2
    exit 2
fi
cargo build --release --quiet
# Play a copy, so that rebuilding during the match changes nothing.
work=$(mktemp -d "${TMPDIR:-/tmp}/chariot-gauntlet.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp target/release/chariot "$work/chariot"
args=(--engine "cmd=$work/chariot")
for level in ${LEVELS:-0 5}; do
    args+=(--engine "cmd=$fsf" "name=fsf-skill$level" "option.Skill_Level=$level")
done
status=0
"$(scripts/match/referee.sh)" "${args[@]}" --format gauntlet --games "${GAMES:-20}" \
    --tc "${TC:-5+0.05}" -j "${JOBS:-1}" --pgn "${PGN:-gauntlet.pgn}" "$@" || status=$?
exit "$status"
