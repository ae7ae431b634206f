#!/usr/bin/env bash
# A match or a datagen run in N shards under GNU parallel, on this machine
# or over ssh, then merged: the same results as one run.
#
#   scripts/cluster/parallel.sh match N DIR CHARIOT-MATCH-ARGS…
#   scripts/cluster/parallel.sh datagen N DIR DATAGEN-ARGS…
#
# match: shard K of N keeps DIR/match-K-of-N.results, then
#   chariot-match merge prints the report and writes DIR/match.pgn.
# datagen: shard K writes DIR/data-K-of-N.cxgd, then chariot-tools merge
#   writes DIR/data.cxgd.
# Running the same command again resumes: finished shards play nothing,
# killed ones play only what they are missing.
#
# Environment:
#   JOBS      shards run at once on each machine (default: this machine's cores)
#   SSHLOGIN  GNU parallel's --sshlogin, e.g. "2/node1,2/node2" (default: this
#             machine only). The remote machines need the same paths: the
#             binaries, the engines and DIR (a shared file system, as under Slurm).
#   CHARIOT_MATCH, CHARIOT_TOOLS  the binaries (default: on PATH)
set -euo pipefail
if [ $# -lt 3 ]; then
    sed -n '2,22p' "$0" >&2
    exit 2
fi
what=$1 n=$2 dir=$3
shift 3
runner=${CHARIOT_MATCH:-chariot-match}
tools=${CHARIOT_TOOLS:-chariot-tools}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
where=()
if [ -n "${SSHLOGIN:-}" ]; then
    where=(--sshlogin "$SSHLOGIN" --workdir "$PWD")
fi
# -q quotes the command's words, so arguments with spaces survive ssh.
run=(parallel -q --halt never --line-buffer --tag --jobs "${JOBS:-100%}" "${where[@]}")
case "$what" in
match)
    status=0
    "${run[@]}" "$runner" "$@" --shard "{}/$n" \
        --results "$dir/match-{}-of-$n.results" --pgn "$dir/match-{}-of-$n.pgn" \
        ::: $(seq 1 "$n") || status=$?
    files=()
    for k in $(seq 1 "$n"); do files+=("$dir/match-$k-of-$n.results"); done
    "$runner" merge "${files[@]}" --pgn "$dir/match.pgn"
    exit "$status"
    ;;
datagen)
    "${run[@]}" "$tools" datagen "$@" --shard "{}/$n" --threads 1 \
        --out "$dir/data-{}-of-$n.cxgd" ::: $(seq 1 "$n")
    files=()
    for k in $(seq 1 "$n"); do files+=("$dir/data-$k-of-$n.cxgd"); done
    rm -f "$dir/data.cxgd"
    "$tools" merge "${files[@]}" --out "$dir/data.cxgd"
    ;;
*)
    echo "parallel.sh: the first argument is match or datagen, not '$what'" >&2
    exit 2
    ;;
esac
