#!/usr/bin/env bash
# scripts/cluster/parallel.sh on this machine: a match and a datagen run in
# 3 shards under GNU parallel, merged, must equal the same work done in one
# process (the same moves in every game, the same report, the same data
# file byte for byte). A second run of the same command finds every shard
# finished and plays nothing (run through --sshlogin with ':', GNU
# parallel's name for this machine). Installs parallel when missing.
#
#   scripts/cluster/parallel_test.sh        # uses target/release (builds it)
#   BIN=/path/to/bins scripts/cluster/parallel_test.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
if ! command -v parallel > /dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq parallel > /dev/null ||
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq parallel > /dev/null; }
fi
bin=${BIN:-}
if [ -z "$bin" ]; then
    cargo build --quiet --release -p chariot -p chariot-match -p chariot-tools
    bin=$repo/target/release
fi
bin=$(cd "$bin" && pwd)
export CHARIOT_MATCH=$bin/chariot-match CHARIOT_TOOLS=$bin/chariot-tools
tmp=$(mktemp -d /tmp/chariot-parallel.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
mkdir whole

engine=cmd=$bin/chariot
match_args=(--engine "$engine" name=net --engine "$engine" name=classical "option.evalfile=<classical>"
    --each option.usebook=false --games 6 --nodes 2000 --shuffle --seed 4)
data_args=(--games 7 --nodes 300 --seed 6)

echo "== 3 shards under GNU parallel, merged"
"$repo/scripts/cluster/parallel.sh" match 3 shards "${match_args[@]}" > match.out 2> match.err
"$repo/scripts/cluster/parallel.sh" datagen 3 shards "${data_args[@]}" > data.out 2> data.err
echo "== the same work in one process"
"$CHARIOT_MATCH" "${match_args[@]}" -j 1 --pgn whole/match.pgn > whole/report.txt 2> /dev/null
"$CHARIOT_TOOLS" datagen "${data_args[@]}" --threads 1 --out whole/data.cxgd 2> /dev/null

report() { grep -v '^\(Games saved to\|Merged \|Results kept\)' "$1" | grep -v $'^[0-9]\t'; }
# The merge's report is what follows the shards' tagged lines.
sed -n '/^Finished game 1 /,$p' match.out > merged.txt
diff <(report whole/report.txt) <(report merged.txt)
sed -n '/^Match finished/,$p' merged.txt | sed '/^Merged /d; s/^/   /'
"$repo/scripts/cluster/same_games.py" whole/match.pgn shards/match.pgn | sed 's/^/   /'
cmp whole/data.cxgd shards/data.cxgd
echo "   the same data: $(stat -c %s shards/data.cxgd) bytes, byte for byte"

echo "== the same command again, through --sshlogin (':', this machine): every shard is finished"
SSHLOGIN=2/: "$repo/scripts/cluster/parallel.sh" match 3 shards "${match_args[@]}" > again.out 2> again.err
if grep -q $'^[0-9]\tFinished game' again.out; then
    echo "parallel_test.sh: a finished shard played again" >&2
    exit 1
fi
diff <(report merged.txt) <(sed -n '/^Finished game 1 /,$p' again.out | grep -v '^\(Games saved to\|Merged \)')
echo "== parallel_test.sh: passed"
