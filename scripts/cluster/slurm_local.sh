# shellcheck shell=bash
# A Slurm cluster of one node, from Debian's packages (slurm-wlm, munge),
# for scripts that source this file: slurm_test.sh and soak.sh.
#
#   source scripts/cluster/slurm_local.sh
#   slurm_local_start DIR    # munged, slurmctld, slurmd; exports SLURM_CONF
#   ...sbatch, squeue, scancel...
#   slurm_local_stop         # the daemons started above, by their pids
#
# Run as root: it writes its munge key, slurm.conf and the daemons' state
# under DIR (created, mode 700), starts the daemons without systemd
# (ProctrackType=proctrack/linuxproc, TaskPlugin=task/none) on ports of
# their own, away from any Slurm already on the machine, and waits for the
# node to be idle. Installs slurm-wlm, munge and parallel when missing.

slurm_local_pids=()

# Fails unless run as root; callers check before they build anything.
slurm_local_require_root() {
    if [ "$(id -u)" != 0 ]; then
        echo "slurm_local.sh: run as root (it starts munged, slurmctld and slurmd)" >&2
        return 2
    fi
}

slurm_local_start() {
    local dir=$1
    slurm_local_require_root || return
    if ! command -v slurmctld > /dev/null || ! command -v munged > /dev/null; then
        echo "== installing slurm-wlm, munge and parallel"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge parallel > /dev/null ||
            { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge parallel > /dev/null; }
    fi
    mkdir -p "$dir"
    chmod 700 "$dir"
    echo "== munged, slurmctld and slurmd in $dir"
    mkdir -p "$dir/munge" "$dir/state" "$dir/spool"
    rm -f "$dir/munge/munge.key"
    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
    chmod 400 "$dir/munge/munge.key"
    local socket=$dir/munge/munge.socket
    munged --foreground --force --key-file="$dir/munge/munge.key" --socket="$socket" \
        --pid-file="$dir/munge/munged.pid" --seed-file="$dir/munge/munged.seed" \
        --log-file="$dir/munged.log" > "$dir/munged.out" 2>&1 &
    slurm_local_pids+=($!)
    for _ in $(seq 50); do [ -S "$socket" ] && break; sleep 0.1; done

    local node
    node=$(hostname -s)
    # The loopback address, whether or not the host name resolves.
    cat > "$dir/slurm.conf" << CONF
ClusterName=chariot-local
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
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
PartitionName=local Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
    export SLURM_CONF=$dir/slurm.conf
    slurmctld -D -i -f "$SLURM_CONF" > "$dir/slurmctld.out" 2>&1 &
    slurm_local_pids+=($!)
    slurmd -D -N "$node" -f "$SLURM_CONF" > "$dir/slurmd.out" 2>&1 &
    slurm_local_pids+=($!)
    local i state
    for i in $(seq 100); do
        state=$(sinfo -h -n "$node" -o %T 2> /dev/null || true)
        [ "$state" = idle ] && break
        if [ "$i" = 100 ]; then
            echo "slurm_local.sh: the node is '$state', not idle, after 20 s" >&2
            return 1
        fi
        sleep 0.2
    done
    sinfo
}

# The daemons slurm_local_start started, by their pids, newest first; then
# wait for each to be gone (SIGKILL after 5 s).
slurm_local_stop() {
    local i pid
    for ((i = ${#slurm_local_pids[@]} - 1; i >= 0; i--)); do
        kill "${slurm_local_pids[i]}" 2> /dev/null || true
    done
    for pid in "${slurm_local_pids[@]}"; do
        for _ in $(seq 50); do
            kill -0 "$pid" 2> /dev/null || break
            sleep 0.1
        done
        kill -9 "$pid" 2> /dev/null || true
    done
    slurm_local_pids=()
}
