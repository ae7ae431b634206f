#!/usr/bin/env python3
"""Speed of two evaluations side by side: bench nodes/s and depth in 1 s.

For each evaluation (`evalfile` values: `<built-in>`, `<classical>`, or a
net file), alternately, ROUNDS times:
- `chariot bench --evalfile E` (40 positions, depth 11, one thread): its
  nodes per second;
- `go movetime MS` from the start position (books off, one thread): the
  depth of the last complete iteration and the nodes it had taken.
The medians are printed, and the ratio of the first evaluation's speed to
the second's. The machine is shared and noisy, so only the ratio of runs
made side by side means anything.

Usage: scripts/measure/eval_speed.py [--rounds 5] [--movetime 1000]
                             [--eval '<built-in>'] [--against '<classical>']
                             [--engine target/release/chariot]
"""
import argparse
import os
import statistics
import subprocess
import sys

from ucci_once import search_once

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def bench_nps(engine, evalfile):
    out = subprocess.run([engine, "bench", "--evalfile", evalfile],
                         capture_output=True, text=True, check=True).stdout
    fields = dict(line.split(": ", 1) for line in out.splitlines() if ": " in line)
    return int(fields["Nodes searched"]), int(fields["Nodes/second"])


def depth_in(engine, evalfile, movetime):
    """Depth of the last complete iteration and nodes in `go movetime`."""
    lines = search_once(engine, ["ucci", "setoption usebook false",
                                 f"setoption evalfile {evalfile}", "setoption threads 1",
                                 "position startpos", f"go movetime {movetime}"],
                        timeout=movetime / 1000 + 10)
    depth = nodes = 0
    for line in lines:
        words = line.split()
        if words[:1] == ["info"] and "depth" in words and "pv" in words:
            depth = int(words[words.index("depth") + 1])
            if "nodes" in words:
                nodes = int(words[words.index("nodes") + 1])
    return depth, nodes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--movetime", type=int, default=1000)
    ap.add_argument("--eval", default="<built-in>")
    ap.add_argument("--against", default="<classical>")
    ap.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "chariot"))
    args = ap.parse_args()
    if not os.access(args.engine, os.X_OK):
        sys.exit(f"eval_speed: no engine at {args.engine} (cargo build --release)")

    evals = [args.eval, args.against]
    nps = {e: [] for e in evals}
    depth = {e: [] for e in evals}
    nodes = {e: 0 for e in evals}
    for r in range(args.rounds):
        for e in evals:
            nodes[e], speed = bench_nps(args.engine, e)
            d, n = depth_in(args.engine, e, args.movetime)
            nps[e].append(speed)
            depth[e].append(d)
            print(f"round {r + 1}: {e}: bench {speed} nodes/s; depth {d} complete "
                  f"in {args.movetime} ms ({n} nodes to complete it)", flush=True)
    for e in evals:
        print(f"{e}: bench {nodes[e]} nodes, median {statistics.median(nps[e]):.0f} nodes/s; "
              f"median depth {statistics.median(depth[e])} in {args.movetime} ms")
    ratio = statistics.median(a / b for a, b in zip(nps[args.eval], nps[args.against]))
    print(f"ratio: {args.eval} searches {ratio:.2f}x the nodes/s of {args.against}")


if __name__ == "__main__":
    main()
