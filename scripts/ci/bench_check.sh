#!/usr/bin/env bash
# Checks that `chariot bench` prints the node count that the latest commit
# carrying a `Bench: N` line in its message states (the search's signature).
# Usage: scripts/ci/bench_check.sh [path/to/chariot]   (default: target/release/chariot)
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-target/release/chariot}
expected=$(git log --format=%B | sed -n 's/^Bench: \([0-9][0-9]*\)$/\1/p' | head -n 1)
if [[ -z "$expected" ]]; then
    echo "bench_check: no commit message carries 'Bench: N'" >&2
    exit 1
fi
actual=$("$bin" bench | sed -n 's/^Nodes searched: \([0-9][0-9]*\)$/\1/p')
if [[ "$actual" != "$expected" ]]; then
    echo "bench_check: chariot bench gives $actual nodes; the latest 'Bench:' says $expected" >&2
    exit 1
fi
echo "bench_check: $actual nodes, as the latest 'Bench:' says"
