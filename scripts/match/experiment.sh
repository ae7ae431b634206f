#!/usr/bin/env bash
# Plays, or resumes, the match of an experiment kept in the repository
# (experiments/NAME/, CONTRIBUTING.md says when): its BASE (a commit) and
# candidate.patch (`git format-patch` of the change on BASE), or instead of
# the patch CANDIDATE (a commit: a proof match of one build against an
# older one).
#
# Usage: scripts/match/experiment.sh experiments/NAME [chariot-match arguments]
#
# Builds the engine of BASE and of BASE with the patch applied, from
# `git archive`, into experiments/NAME/bin/ (ignored; built again on a new
# machine, checked against the bench signature of each build), then runs
# the referee (scripts/match/referee.sh) in that folder: the candidate,
# named NAME, against BASE, named base, books off, two games at once, the
# wide suite of openings, results kept in experiments/NAME/results. The
# arguments given (the clock, --games, --seed, --sprt ...) follow. Run again
# with the same arguments, it plays only the games that are missing. Commit
# the results file while it runs. With RESULTS=NAME in the environment, the
# results go to NAME and the games to NAME.pgn (one folder, several
# matches: a proof at several clocks).
set -euo pipefail
dir=$(cd "${1:?usage: scripts/match/experiment.sh experiments/NAME [chariot-match arguments]}" && pwd)
shift
name=$(basename "$dir")
repo=$(git -C "$dir" rev-parse --show-toplevel)
# commit FILE: the commit that experiments/NAME/FILE names.
commit() {
    git -C "$repo" rev-parse --verify "$(tr -d '[:space:]' < "$dir/$1")^{commit}"
}
base=$(commit BASE)
target=${XDG_CACHE_HOME:-$HOME/.cache}/chariot/experiments/target

# build NAME COMMIT [PATCH]: the engine of COMMIT (with PATCH applied) as
# bin/NAME, checked by scripts/ci/bench_check.sh against the bench
# signature of the commit (or of the patch, where it states one): a build
# that does not match is removed.
build() {
    [ -x "$dir/bin/$1" ] && return
    echo "$name: building $1" >&2
    "$repo/scripts/match/build_at.sh" "$2" "${3:--}" "$target" -p chariot
    mkdir -p "$dir/bin"
    cp "$target/release/chariot" "$dir/bin/$1"
    local signed=("$2")
    if [ -n "${3:-}" ]; then
        signed=(--patch "$3")
    fi
    if ! "$repo/scripts/ci/bench_check.sh" "$dir/bin/$1" "${signed[@]}" >&2; then
        rm -f "$dir/bin/$1"
        exit 1
    fi
}
build base "$base"
if [ -f "$dir/CANDIDATE" ]; then
    build candidate "$(commit CANDIDATE)"
else
    build candidate "$base" "$dir/candidate.patch"
fi
# A time plan's change benches as its base does; its binary differs.
if cmp -s "$dir/bin/base" "$dir/bin/candidate"; then
    echo "$name: the candidate's build is the base's" >&2
    exit 1
fi
runner=$("$repo/scripts/match/referee.sh")
if [ -n "${RESULTS:-}" ]; then
    out=(--results "$RESULTS" --pgn "$RESULTS.pgn")
else
    out=(--results results)
fi
cd "$dir"
exec "$runner" \
    --engine cmd=./bin/candidate "name=$name" \
    --engine cmd=./bin/base name=base \
    --each option.usebook=false -j 2 \
    --openings "$repo/crates/chariot-match/openings/wide-4000.txt" \
    --shuffle "${out[@]}" "$@"
