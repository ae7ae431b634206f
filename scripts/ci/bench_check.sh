#!/usr/bin/env bash
# Checks that `chariot bench` prints the node count that the latest commit
# carrying a `Bench: N` line in its message states (the search's signature),
# from HEAD or from REV; with --patch, the line of a `git format-patch`
# file's message instead (a patch whose message has none is not checked).
# Usage: scripts/ci/bench_check.sh [path/to/chariot [REV | --patch FILE]]
#        (default: target/release/chariot, HEAD)
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-target/release/chariot}
signature() { sed -n 's/^Bench: \([0-9][0-9]*\)$/\1/p' | head -n 1; }
if [[ "${2:-}" == --patch ]]; then
    expected=$(sed '/^---$/q' "${3:?--patch FILE}" | signature)
    if [[ -z "$expected" ]]; then
        echo "bench_check: $3 states no 'Bench: N': not checked" >&2
        exit 0
    fi
else
    expected=$(git log --format=%B "${2:-HEAD}" | signature)
    if [[ -z "$expected" ]]; then
        echo "bench_check: no commit message carries 'Bench: N'" >&2
        exit 1
    fi
fi
actual=$("$bin" bench | sed -n 's/^Nodes searched: \([0-9][0-9]*\)$/\1/p')
if [[ "$actual" != "$expected" ]]; then
    echo "bench_check: chariot bench gives $actual nodes; the latest 'Bench:' says $expected" >&2
    exit 1
fi
echo "bench_check: $actual nodes, as the latest 'Bench:' says"
