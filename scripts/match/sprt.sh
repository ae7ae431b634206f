#!/usr/bin/env bash
# SPRT of a new build of Chariot against an earlier one.
#
# Usage: scripts/match/sprt.sh BASE_REV [more chariot-match arguments]
# Builds BASE_REV (any git revision) and the new engine (this working tree,
# or NEW_REV if set) into target/sprt/, copies both binaries to a temporary
# directory, and runs the referee (scripts/match/referee.sh: chariot-match from a
# pinned revision, never this tree) with the new engine first: H1 "new is at
# least ELO1 better" against H0 "at most ELO0".
# Environment: ELO0=0 ELO1=5 ALPHA=0.05 BETA=0.05 TC=10+0.1 JOBS=1
#   PGN=sprt.pgn NEW_REV=<revision> (default: the working tree)
#   OPENINGS=crates/chariot-match/openings/wide-4000.txt: 4,000 openings, so
#   that a long match (above all at fixed --nodes, where deterministic
#   engines replay a game whenever its opening comes round) never repeats.
set -euo pipefail
cd "$(dirname "$0")/../.."
base_rev=${1:?usage: scripts/match/sprt.sh BASE_REV [more chariot-match arguments]}
shift
# Resolve the revisions once: a branch may move while this runs.
base=$(git rev-parse --verify "$base_rev^{commit}")
new=""
if [ -n "${NEW_REV:-}" ]; then
    new=$(git rev-parse --verify "$NEW_REV^{commit}")
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/chariot-sprt.XXXXXX")
trap 'rm -rf "$work"' EXIT

# build REV NAME: the release binary of REV as $work/NAME.
build() {
    local src="$work/src-$2"
    mkdir -p "$src"
    git archive "$1" | tar -x -C "$src"
    echo "sprt: building $2 from $1" >&2
    cargo build --release --quiet --manifest-path "$src/Cargo.toml" --target-dir target/sprt
    cp target/sprt/release/chariot "$work/$2"
}

runner=$(scripts/match/referee.sh)
build "$base" old
if [ -n "$new" ]; then
    build "$new" new
    new_name="new-${new:0:7}"
else
    cargo build --release --quiet
    cp target/release/chariot "$work/new"
    new_name="new-worktree"
fi
status=0
"$runner" \
    --engine "cmd=$work/new" "name=$new_name" \
    --engine "cmd=$work/old" "name=old-${base:0:7}" \
    --tc "${TC:-10+0.1}" -j "${JOBS:-1}" --pgn "${PGN:-sprt.pgn}" \
    --openings "${OPENINGS:-crates/chariot-match/openings/wide-4000.txt}" \
    --sprt "elo0=${ELO0:-0}" "elo1=${ELO1:-5}" "alpha=${ALPHA:-0.05}" "beta=${BETA:-0.05}" \
    "$@" || status=$?
exit "$status"
