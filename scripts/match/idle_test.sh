#!/bin/sh
# Checks scripts/match/idle.sh: the command runs at idle priority, in a session
# of its own whose group has nice 19 (where the kernel groups by session),
# the caller's group keeps its nice, and the command's exit status and
# arguments come through.
set -eu
cd "$(dirname "$0")/../.."
fail() { echo "idle_test.sh: $*" >&2; exit 1; }

if [ -r /proc/self/autogroup ]; then
    before=$(cat /proc/self/autogroup)
    group=$(scripts/match/idle.sh cat /proc/self/autogroup)
    case $group in
        *"nice 19") ;;
        *) fail "its group is not at nice 19: $group" ;;
    esac
    [ "$(cat /proc/self/autogroup)" = "$before" ] || fail "the caller's group changed: $before"
fi
policy=$(scripts/match/idle.sh sh -c 'chrt -p $$')
case $policy in
    *SCHED_IDLE*) ;;
    *) fail "not idle priority: $policy" ;;
esac
# Field 6 of /proc/PID/stat is the session's id (the command name, field
# 2, is "(sh)", without spaces).
ids=$(scripts/match/idle.sh sh -c 'echo "$(cut -d" " -f6 /proc/$$/stat) $$"')
[ "${ids% *}" = "${ids#* }" ] || fail "not in a session of its own (session, process: $ids)"
status=0
scripts/match/idle.sh sh -c 'exit 7' || status=$?
[ "$status" = 7 ] || fail "exit status $status, not 7"
[ "$(scripts/match/idle.sh printf '%s|' 'a b' '' c)" = "a b||c|" ] || fail "arguments changed"
scripts/match/idle.sh 2>/dev/null && fail "no command accepted"
echo "idle_test.sh: ok"
