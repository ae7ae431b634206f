#!/usr/bin/env bash
# The soak: two long matches at a fast clock, each an array job of SHARDS
# shards on a one-node Slurm cluster (scripts/cluster/slurm_local.sh),
# merged, then checked for 0 crashes, illegal moves, time forfeits and
# hangs. Every engine runs under GNU time, which logs its peak resident
# memory, reported against its hash size.
#
#   fsf      Chariot (UCCI) against Debian's fairy-stockfish 11.1 (UCI),
#            whole games: no adjudication.
#   threads  Chariot with 2 threads (UCI) against Chariot with 1 (UCCI),
#            one game at a time so that 2 threads have 2 cores; resign and
#            draw adjudication keep the games short.
#
# One shard of the fsf match is cancelled (scancel) once it has played
# some games; submitting the array again must replay none of its finished
# games and play only the missing ones. The rerun's log says which.
#
# Resumable: run it again with the same OUT and it plays only what is
# missing (the binaries are copied to OUT/bin once, so rebuilding the
# repository meanwhile changes nothing).
#
#   sudo scripts/cluster/soak.sh [OUT]      # OUT: default ~/.cache/chariot/soak
# Environment: GAMES=1000 (per match) SHARDS=8 TC=1+0.01 HASH=64 (MB)
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
out=${1:-$HOME/.cache/chariot/soak}
games=${GAMES:-1000}
shards=${SHARDS:-8}
tc=${TC:-1+0.01}
hash=${HASH:-64}
fsf=/usr/games/fairy-stockfish
[ -x "$fsf" ] || { echo "soak.sh: $fsf is missing: apt-get install fairy-stockfish" >&2; exit 2; }
command -v /usr/bin/time > /dev/null || { echo "soak.sh: GNU time is missing: apt-get install time" >&2; exit 2; }

# shellcheck source=scripts/cluster/slurm_local.sh
source scripts/cluster/slurm_local.sh
slurm_local_require_root
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ ! -x "$out/bin/chariot" ]; then
    cargo build --quiet --release -p chariot -p chariot-match
    mkdir -p "$out/bin"
    cp target/release/chariot target/release/chariot-match "$out/bin/"
    git rev-parse --short HEAD > "$out/bin/REV"
fi
bin=$out/bin
# An engine under GNU time: appends "peak-KiB command" to the log it is given.
cat > "$bin/rss" << 'WRAP'
#!/bin/sh
log=$1
shift
exec /usr/bin/time -a -o "$log" -f "%M %C" "$@"
WRAP
chmod +x "$bin/rss"

slurm=$(mktemp -d /tmp/chariot-soak-slurm.XXXXXX)
trap 'slurm_local_stop; rm -rf "$slurm"' EXIT
slurm_local_start "$slurm"
cd "$out"

# run_array NAME CPUS [--wait] -- MATCH ARGS: submits NAME's array job;
# prints its job id.
run_array() {
    local name=$1 cpus=$2 wait=$3
    shift 4
    mkdir -p "$name"
    # shellcheck disable=SC2086 # an empty $wait is no argument
    sbatch --parsable $wait --array=1-"$shards" --cpus-per-task="$cpus" --job-name="soak-$name" \
        --output="$name/%x-%A_%a.log" --export=ALL,CHARIOT_MATCH="$bin/chariot-match",OUT="$name" \
        "$repo/scripts/cluster/match.sbatch" "$@"
}
games_in() { cat "$1" 2> /dev/null | awk '/^game /{n++} END {print n+0}'; }

common=(--games "$games" --tc "$tc" --shuffle --seed 2026)
fsf_args=(--engine cmd="$bin/rss" args="$out/fsf/rss.txt $bin/chariot" name=chariot
    option.hashsize="$hash" option.usebook=false
    --engine cmd="$bin/rss" args="$out/fsf/rss.txt $fsf" name=fsf-11.1 proto=uci
    option.Hash="$hash" "${common[@]}" -j 2)
threads_args=(--engine cmd="$bin/rss" args="$out/threads/rss.txt $bin/chariot" name=chariot-t2
    proto=uci option.Threads=2 option.Hash="$hash" option.UseBook=false
    --engine cmd="$bin/rss" args="$out/threads/rss.txt $bin/chariot" name=chariot-t1
    option.hashsize="$hash" option.usebook=false "${common[@]}" -j 1
    --resign movecount=4 score=1000 twosided=true --draw movenumber=40 movecount=10 score=8)

echo "== fsf: $games games at $tc in $shards shards, 2 at a time"
if [ ! -f fsf/killed.txt ]; then
    # The kill-and-rerun proof: cancel shard 3 once it has played a
    # quarter of its games.
    job=$(run_array fsf 2 "" -- "${fsf_args[@]}")
    victim=fsf/match-3-of-$shards.results
    enough=$(((games / shards + 3) / 4))
    while [ "$(games_in "$victim")" -lt "$enough" ]; do
        squeue -h -j "$job" | grep -q . || { echo "soak.sh: the array ended before shard 3 had $enough games" >&2; exit 1; }
        sleep 1
    done
    scancel "${job}_3"
    sleep 2
    echo "shard 3 cancelled (scancel ${job}_3) with $(games_in "$victim") games kept" | tee fsf/killed.txt
    while squeue -h -j "$job" | grep -q .; do sleep 5; done
fi
run_array fsf 2 --wait -- "${fsf_args[@]}" > /dev/null
echo "== threads: $games games at $tc in $shards shards, 1 at a time"
run_array threads 2 --wait -- "${threads_args[@]}" > /dev/null

status=0
for name in fsf threads; do
    echo "== $name: merged"
    "$bin/chariot-match" merge "$name"/match-*-of-"$shards".results --pgn "$name/merged.pgn" \
        | tee "$name/report.txt"
    grep -q "^Match finished: $games games" "$name/report.txt" || { echo "soak.sh: $name is not complete" >&2; status=1; }
    # The table's last four columns: crashes, time forfeits, illegal moves, hangs.
    if awk '/^Rank /{t=1; next} t && NF==0 {t=0} t && ($(NF-3)+$(NF-2)+$(NF-1)+$NF) > 0 {bad=1} END {exit !bad}' \
        "$name/report.txt"; then
        echo "soak.sh: $name had faults (see the table)" >&2
        status=1
    fi
    echo "== $name: peak resident memory per engine process (hash $hash MB)"
    awk '$1 ~ /^[0-9]+$/ {
            cmd = ($2 ~ /fairy/) ? "fairy-stockfish" : "chariot"; n[cmd]++
            if ($1 > max[cmd]) max[cmd] = $1; sum[cmd] += $1
        }
        END { for (c in n) printf "   %-16s %5d processes, peak %.1f MB, mean %.1f MB\n", c, n[c], max[c] / 1024, sum[c] / n[c] / 1024 }' \
        "$name/rss.txt" | tee "$name/rss-report.txt"
done
echo "== the rerun of the cancelled shard"
cat fsf/killed.txt
grep -h "results kept in" fsf/soak-fsf-*_3.log | sed 's/^/   /'
[ "$status" = 0 ] && echo "== soak.sh: passed"
exit "$status"
