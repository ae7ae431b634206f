#!/usr/bin/env bash
# A real Slurm cluster of one node, started here from Debian's packages
# (slurm-wlm, munge), runs scripts/cluster/match.sbatch and datagen.sbatch
# as 4-task array jobs; their shards, merged, must equal the same work done
# in one process: the same moves in every game, the same report, and the
# same data file byte for byte.
#
# Run as root (as CI does): the cluster (scripts/cluster/slurm_local.sh)
# lives in a temporary directory, and its daemons are stopped by their pids
# however this ends.
#
#   scripts/cluster/slurm_test.sh          # uses target/release (builds it)
#   BIN=/path/to/bins scripts/cluster/slurm_test.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD

# shellcheck source=scripts/cluster/slurm_local.sh
source scripts/cluster/slurm_local.sh
slurm_local_require_root
bin=${BIN:-}
if [ -z "$bin" ]; then
    cargo build --quiet --release -p chariot -p chariot-match -p chariot-tools
    bin=$repo/target/release
fi
bin=$(cd "$bin" && pwd)

tmp=$(mktemp -d /tmp/chariot-slurm.XXXXXX)
finish() {
    status=$?
    slurm_local_stop
    if [ "$status" != 0 ]; then
        echo "slurm_test.sh: FAILED; the daemons' logs:" >&2
        tail -n 20 "$tmp"/*.log "$tmp"/*.out "$tmp"/work/results/*.log >&2 || true
    fi
    rm -rf "$tmp"
    exit "$status"
}
trap finish EXIT
slurm_local_start "$tmp"
mkdir -p "$tmp/work"

cd "$tmp/work"
mkdir -p results whole
engine=cmd=$bin/chariot
match_args=(--engine "$engine" name=net --engine "$engine" name=classical "option.evalfile=<classical>"
    --each option.usebook=false --games 8 --nodes 2000 --shuffle --seed 3
    --sprt elo0=-50 elo1=50 stop=false)
data_args=(--games 10 --nodes 300 --seed 5)

echo "== a 4-task array (ids 0-3) playing a match at 2000 nodes a move"
t0=$SECONDS
sbatch --wait --quiet --array=0-3 --output='results/%x-%A_%a.log' \
    --export=ALL,CHARIOT_MATCH="$bin/chariot-match",OUT=results \
    "$repo/scripts/cluster/match.sbatch" "${match_args[@]}"
echo "== a 4-task array (ids 1-4) generating data at 300 nodes a move"
sbatch --wait --quiet --array=1-4 --output='results/%x-%A_%a.log' \
    --export=ALL,CHARIOT_TOOLS="$bin/chariot-tools",OUT=results \
    "$repo/scripts/cluster/datagen.sbatch" "${data_args[@]}"
echo "   both arrays ran in $((SECONDS - t0)) s"
grep -h "from the Slurm array" results/chariot-match-*.log | sed 's/^/   /'
files=$(ls results/match-*-of-4.results | wc -l)
[ "$files" = 4 ] || { echo "slurm_test.sh: $files result files, not 4" >&2; exit 1; }

echo "== the same work in one process"
"$bin/chariot-match" "${match_args[@]}" -j 1 --pgn whole/match.pgn > whole/report.txt 2> /dev/null
"$bin/chariot-tools" datagen "${data_args[@]}" --threads 1 --out whole/data.cxgd 2> /dev/null

echo "== merged against unsharded"
"$bin/chariot-match" merge results/match-*-of-4.results --pgn results/match.pgn > results/report.txt
"$bin/chariot-tools" merge results/data-*-of-4.cxgd --out results/data.cxgd
report() { sed '/^Games saved to/,$d; /^Merged /,$d' "$1"; }
if ! diff <(report whole/report.txt) <(report results/report.txt); then
    echo "slurm_test.sh: the merged report differs from the unsharded one" >&2
    exit 1
fi
echo "   the same report:"
sed -n '/^Match finished/,/^SPRT/p' results/report.txt | sed 's/^/   /'
"$repo/scripts/cluster/same_games.py" whole/match.pgn results/match.pgn | sed 's/^/   /'
cmp whole/data.cxgd results/data.cxgd
echo "   the same data: $(stat -c %s results/data.cxgd) bytes, byte for byte"
echo "== slurm_test.sh: passed"
