#!/bin/sh
# Runs a command on the CPU time that others leave over, such as data
# generation beside a timed match.
#
# Usage: scripts/match/idle.sh COMMAND [ARGS...]
#
# `chrt --idle 0` alone is not enough where the kernel groups tasks by
# session (CONFIG_SCHED_AUTOGROUP, /proc/sys/kernel/sched_autogroup_enabled
# = 1, as on these machines): the CPU is first shared fairly between
# sessions, and only then by policy inside each one, so an idle-priority
# job in a session of its own still takes its half of the machine from a
# match started in another (docs/MATCH.md, "Beside other jobs"). This
# starts COMMAND in a new session, gives that session's group the lowest
# weight (nice 19), and runs COMMAND at idle priority inside it.
set -eu
[ $# -ge 1 ] || { echo "usage: scripts/match/idle.sh COMMAND [ARGS...]" >&2; exit 2; }
# Without root the kernel takes one such change a tenth of a second, so a
# refused one is tried again for up to a second.
exec setsid -w sh -c '
    tries=0
    while [ -e /proc/self/autogroup ] && ! echo 19 2>/dev/null > /proc/self/autogroup &&
        [ "$tries" -lt 20 ]; do
        tries=$((tries + 1))
        sleep 0.05
    done
    exec chrt --idle 0 "$@"' idle "$@"
