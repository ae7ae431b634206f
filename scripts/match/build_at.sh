#!/usr/bin/env bash
# Builds a commit of this repository, with a patch applied if one is given,
# from `git archive` (never the working tree): the release build that
# cargo's ARGS name (`-p chariot`, `--features tune` ...), into TARGET.
# The caller copies what it needs from TARGET/release/.
#
# Usage: scripts/match/build_at.sh COMMIT PATCH|- TARGET [cargo build arguments]
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
commit=$1 patch=$2 target=$3
shift 3
src=$(mktemp -d "${TMPDIR:-/tmp}/chariot-build.XXXXXX")
trap 'rm -rf "$src"' EXIT
git -C "$repo" archive "$commit" | tar -x -C "$src"
if [ "$patch" != - ]; then
    (cd "$src" && git apply "$patch")
fi
cargo build --release --quiet --locked --manifest-path "$src/Cargo.toml" \
    --target-dir "$target" "$@"
