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
# -m: every file is dated now. `git archive` dates them at the commit, older
# than the last build in TARGET, and cargo (which compares dates, and
# records a package's files by their path inside it) would keep that
# build: a base built after another experiment's candidate came out as
# that candidate.
git -C "$repo" archive "$commit" | tar -x -m -C "$src"
if [ "$patch" != - ]; then
    (cd "$src" && git apply "$patch")
fi
cargo build --release --quiet --locked --manifest-path "$src/Cargo.toml" \
    --target-dir "$target" "$@"
