#!/usr/bin/env bash
# Experiment time0 (issue 72, points 1 and 2): a forced move at once, a
# stopped iteration's best move played, movetime spent whole. A fix by
# construction: one fixed match of 600 games at 6 s + 0.06 s against BASE,
# books off, the wide suite shuffled by seed 149, both colours; it lands
# unless its whole 95% interval is below zero.
#
# Usage: experiments/time0/run.sh
# Builds BASE and BASE + candidate.patch from git into bin/ (ignored; built
# again on a new machine) and plays the match with --results into this
# folder: running it again resumes where it stopped. Commit `results`
# while it runs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$here" rev-parse --show-toplevel)
base=$(tr -d '[:space:]' < "$here/BASE")
target=${XDG_CACHE_HOME:-$HOME/.cache}/chariot/experiments/target

# build NAME [PATCH]: the engine of BASE (with PATCH applied) as bin/NAME.
build() {
    [ -x "$here/bin/$1" ] && return
    local src
    src=$(mktemp -d "${TMPDIR:-/tmp}/chariot-exp.XXXXXX")
    git -C "$repo" archive "$base" | tar -x -C "$src"
    if [ -n "${2:-}" ]; then
        (cd "$src" && git apply "$2")
    fi
    echo "time0: building $1" >&2
    cargo build --release --quiet --locked --manifest-path "$src/Cargo.toml" \
        -p chariot --target-dir "$target"
    mkdir -p "$here/bin"
    cp "$target/release/chariot" "$here/bin/$1"
    rm -rf "$src"
}
build base
build candidate "$here/candidate.patch"
for b in base candidate; do
    echo "time0: $b $("$here/bin/$b" bench 2>&1 | grep 'Nodes searched')" >&2
done
runner=$("$repo/scripts/match/referee.sh")
cd "$here"
exec "$runner" \
    --engine cmd=./bin/candidate name=time0 \
    --engine cmd=./bin/base name=base \
    --each option.usebook=false --tc 6+0.06 -j 2 --games 600 \
    --openings "$repo/crates/chariot-match/openings/wide-4000.txt" \
    --shuffle --seed 149 --results results
