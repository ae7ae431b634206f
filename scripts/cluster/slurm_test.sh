#!/usr/bin/env bash
# A real Slurm cluster of one node, started here from Debian's packages
# (slurm-wlm, munge), runs scripts/cluster/match.sbatch and datagen.sbatch
# as 4-task array jobs; their shards, merged, must equal the same work done
# in one process: the same moves in every game, the same report, and the
# same data file byte for byte.
#
# Run as root (as CI does): it writes its munge key, slurm.conf and the
# daemons' state under a temporary directory, starts munged, slurmctld and
# slurmd without systemd (ProctrackType=proctrack/linuxproc,
# TaskPlugin=task/none), and stops the daemons it started, by their pids,
# however it ends. Installs slurm-wlm, munge and parallel when missing.
#
#   scripts/cluster/slurm_test.sh          # uses target/release (builds it)
#   BIN=/path/to/bins scripts/cluster/slurm_test.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD

if [ "$(id -u)" != 0 ]; then
    echo "slurm_test.sh: run as root (it starts munged, slurmctld and slurmd)" >&2
    exit 2
fi
if ! command -v slurmctld > /dev/null || ! command -v munged > /dev/null; then
    echo "== installing slurm-wlm, munge and parallel"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge parallel > /dev/null ||
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge parallel > /dev/null; }
fi
bin=${BIN:-}
if [ -z "$bin" ]; then
    cargo build --quiet --release -p chariot -p chariot-match -p chariot-tools
    bin=$repo/target/release
fi
bin=$(cd "$bin" && pwd)

tmp=$(mktemp -d /tmp/chariot-slurm.XXXXXX)
chmod 700 "$tmp"
pids=()
stop_daemons() {
    # The daemons this script started, by their pids, newest first; then
    # wait for each to be gone (SIGKILL after 5 s).
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
        kill "${pids[i]}" 2> /dev/null || true
    done
    for pid in "${pids[@]}"; do
        for _ in $(seq 50); do
            kill -0 "$pid" 2> /dev/null || break
            sleep 0.1
        done
        kill -9 "$pid" 2> /dev/null || true
    done
}
finish() {
    status=$?
    stop_daemons
    if [ "$status" != 0 ]; then
        echo "slurm_test.sh: FAILED; the daemons' logs:" >&2
        tail -n 20 "$tmp"/*.log "$tmp"/*.out "$tmp"/work/results/*.log >&2 || true
    fi
    rm -rf "$tmp"
    exit "$status"
}
trap finish EXIT

echo "== munged, slurmctld and slurmd in $tmp"
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/work"
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge/munge.key"
socket=$tmp/munge/munge.socket
munged --foreground --force --key-file="$tmp/munge/munge.key" --socket="$socket" \
    --pid-file="$tmp/munge/munged.pid" --seed-file="$tmp/munge/munged.seed" \
    --log-file="$tmp/munged.log" > "$tmp/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$socket" ] && break; sleep 0.1; done

node=$(hostname -s)
# Ports of their own, away from any Slurm already on the machine; the
# loopback address, whether or not the host name resolves.
cat > "$tmp/slurm.conf" << CONF
ClusterName=chariot-test
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -D -i -f "$SLURM_CONF" > "$tmp/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N "$node" -f "$SLURM_CONF" > "$tmp/slurmd.out" 2>&1 &
pids+=($!)
for i in $(seq 100); do
    state=$(sinfo -h -n "$node" -o %T 2> /dev/null || true)
    [ "$state" = idle ] && break
    if [ "$i" = 100 ]; then
        echo "slurm_test.sh: the node is '$state', not idle, after 20 s" >&2
        exit 1
    fi
    sleep 0.2
done
sinfo

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
