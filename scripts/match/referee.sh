#!/usr/bin/env bash
# Prints the path of the referee: a chariot-match binary that is never the
# tree under test. In order of preference:
#   1. $CHARIOT_MATCH, if set (an installed runner);
#   2. chariot-match built from the pinned revision in scripts/match/referee.rev
#      (or $REFEREE_REV), cached in ~/.cache/chariot/referee/<rev>/ and
#      reused; it is built once, from `git archive` of that revision.
# Usage: runner=$(scripts/match/referee.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -n "${CHARIOT_MATCH:-}" ]; then
    echo "$CHARIOT_MATCH"
    exit 0
fi
rev=${REFEREE_REV:-$(tr -d '[:space:]' < scripts/match/referee.rev)}
rev=$(git rev-parse --verify "$rev^{commit}")
dir="${XDG_CACHE_HOME:-$HOME/.cache}/chariot/referee/${rev:0:12}"
bin="$dir/chariot-match"
if [ ! -x "$bin" ]; then
    src=$(mktemp -d "${TMPDIR:-/tmp}/chariot-referee.XXXXXX")
    trap 'rm -rf "$src"' EXIT
    git archive "$rev" | tar -x -C "$src"
    echo "referee: building chariot-match at ${rev:0:12} into $dir" >&2
    mkdir -p "$dir"
    cargo build --release --quiet --locked --manifest-path "$src/Cargo.toml" \
        -p chariot-match --target-dir "$dir/target"
    cp "$dir/target/release/chariot-match" "$bin"
fi
echo "$bin"
