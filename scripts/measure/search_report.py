#!/usr/bin/env python3
"""Two builds of Chariot side by side: bench nodes/s, time to depth from
the bench positions and from the start position.

For each engine binary, alternately, ROUNDS times:
- `chariot bench DEPTH` (the 40 bench positions, one thread): its nodes,
  nodes per second and total time, which is the time to depth DEPTH over
  the bench positions;
- `go depth START_DEPTH` from the start position (books off, one thread,
  a fresh process): the milliseconds and nodes to complete that depth.
The medians are printed, with the ratio of the first engine to the second.
The machine is shared and noisy: only runs made side by side compare.

Usage: scripts/measure/search_report.py NEW OLD [--rounds 3] [--bench-depth 11]
                                [--start-depth 14]
"""
import argparse
import statistics
import subprocess

from ucci_once import search_once


def bench(engine, depth):
    out = subprocess.run([engine, "bench", str(depth)],
                         capture_output=True, text=True, check=True).stdout
    fields = dict(line.split(": ", 1) for line in out.splitlines() if ": " in line)
    return (int(fields["Nodes searched"]), int(fields["Nodes/second"]),
            int(fields["Total time (ms)"]))


def to_depth(engine, depth):
    """Milliseconds and nodes to complete `depth` from the start position."""
    lines = search_once(engine, ["ucci", "setoption usebook false", "setoption threads 1",
                                 "position startpos", f"go depth {depth}"],
                        timeout=600)
    ms = nodes = None
    for line in lines:
        words = line.split()
        if words[:3] == ["info", "depth", str(depth)] and "pv" in words \
                and "lowerbound" not in words and "upperbound" not in words:
            ms = int(words[words.index("time") + 1])
            nodes = int(words[words.index("nodes") + 1])
    if ms is None:
        raise SystemExit(f"{engine}: no exact score at depth {depth} from the start")
    return ms, nodes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("new")
    ap.add_argument("old")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--bench-depth", type=int, default=11)
    ap.add_argument("--start-depth", type=int, default=14)
    args = ap.parse_args()
    runs = {args.new: [], args.old: []}
    for _ in range(args.rounds):
        for engine in (args.new, args.old):
            nodes, nps, ms = bench(engine, args.bench_depth)
            start_ms, start_nodes = to_depth(engine, args.start_depth)
            runs[engine].append((nodes, nps, ms, start_ms, start_nodes))
    med = {e: [statistics.median(r[i] for r in runs[e]) for i in range(5)] for e in runs}
    for e in (args.new, args.old):
        nodes, nps, ms, start_ms, start_nodes = med[e]
        print(f"{e}: bench {nodes:,.0f} nodes, {nps:,.0f} nodes/s, depth {args.bench_depth} "
              f"over the bench positions in {ms:,.0f} ms; depth {args.start_depth} from the "
              f"start in {start_ms:,.0f} ms ({start_nodes:,.0f} nodes)")
    n, o = med[args.new], med[args.old]
    print(f"new/old: nodes/s {n[1] / o[1]:.2f}x, time to bench depth {n[2] / o[2]:.2f}x, "
          f"time to start depth {n[3] / o[3]:.2f}x")


if __name__ == "__main__":
    main()
