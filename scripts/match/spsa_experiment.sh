#!/usr/bin/env bash
# Runs, or resumes, an SPSA tuning run kept in the repository
# (experiments/NAME/, CONTRIBUTING.md says when): the tunables of BASE (a
# commit), with candidate.patch applied if there is one, tuned by
# `chariot-tools spsa` (docs/SEARCH.md#tuning-the-search-spsa).
#
# Usage: scripts/match/spsa_experiment.sh experiments/NAME [chariot-tools spsa arguments]
#
# Builds the engine with `--features tune` and chariot-tools, both of that
# commit, from `git archive`, into experiments/NAME/bin/ (ignored; built
# again on a new machine), then runs the tuner in that folder: two pairs
# at once, books off, the wide suite of openings, its state in
# experiments/NAME/spsa.state (rewritten after every pair: commit it while
# it runs). The arguments given (--pairs, --tc, --only, --seed ...)
# follow; run again with the same ones, it resumes where it stopped, on any
# machine (every path the state records is relative to the folder). At the
# end, or at any time, `bin/chariot-tools spsa --report spsa.state` in that
# folder prints where the tunables stand.
set -euo pipefail
dir=$(cd "${1:?usage: scripts/match/spsa_experiment.sh experiments/NAME [chariot-tools spsa arguments]}" && pwd)
shift
name=$(basename "$dir")
repo=$(git -C "$dir" rev-parse --show-toplevel)
base=$(git -C "$repo" rev-parse --verify "$(tr -d '[:space:]' < "$dir/BASE")^{commit}")
target=${XDG_CACHE_HOME:-$HOME/.cache}/chariot/experiments/target-tune

if [ ! -x "$dir/bin/chariot-tune" ] || [ ! -x "$dir/bin/chariot-tools" ]; then
    patch=-
    [ -f "$dir/candidate.patch" ] && patch=$dir/candidate.patch
    echo "$name: building the tuning engine and chariot-tools" >&2
    build="$repo/scripts/match/build_at.sh"
    "$build" "$base" "$patch" "$target" -p chariot --features tune
    "$build" "$base" "$patch" "$target" -p chariot-tools
    mkdir -p "$dir/bin"
    cp "$target/release/chariot" "$dir/bin/chariot-tune"
    cp "$target/release/chariot-tools" "$dir/bin/chariot-tools"
fi
cd "$dir"
exec ./bin/chariot-tools spsa \
    --engine cmd=./bin/chariot-tune option.hashsize=16 \
    -j 2 \
    --openings ../../crates/chariot-match/openings/wide-4000.txt \
    --state spsa.state "$@"
