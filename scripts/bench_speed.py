#!/usr/bin/env python3
"""Speed of two chariot builds side by side: `chariot bench` nodes/s.

Runs `OLD bench` and `NEW bench` alternately ROUNDS times (the order
swapped every round), prints each round's nodes/s and the ratio NEW/OLD,
then the median ratio. The machine is shared and noisy, so only ratios of
runs made side by side mean anything. The node counts are printed too: a
change that keeps the search (a speed-up, a refactor) keeps them equal.

Usage: scripts/bench_speed.py OLD NEW [--rounds 7]
"""
import argparse
import re
import statistics
import subprocess
import sys


def bench(engine):
    out = subprocess.run([engine, "bench"], capture_output=True, text=True, check=True)
    text = out.stdout + out.stderr
    nodes = re.search(r"^Nodes searched: (\d+)$", text, re.M)
    nps = re.search(r"^Nodes/second: (\d+)$", text, re.M)
    if not nodes or not nps:
        sys.exit(f"bench_speed: {engine} bench printed no node count or speed")
    return int(nodes.group(1)), int(nps.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    if args.rounds < 1:
        sys.exit("bench_speed: --rounds must be at least 1")
    ratios, counts = [], set()
    for r in range(1, args.rounds + 1):
        order = [args.old, args.new] if r % 2 else [args.new, args.old]
        speed = {}
        for engine in order:
            nodes, nps = bench(engine)
            speed[engine] = nps
            counts.add((engine, nodes))
        ratio = speed[args.new] / speed[args.old]
        ratios.append(ratio)
        print(f"round {r}: old {speed[args.old]} nodes/s, new {speed[args.new]}: {ratio:.3f}")
    for engine, nodes in sorted(counts):
        print(f"{engine}: bench {nodes} nodes")
    print(f"ratio: new searches {statistics.median(ratios):.3f}x the nodes/s of old "
          f"(median of {args.rounds}, range {min(ratios):.3f}-{max(ratios):.3f})")


if __name__ == "__main__":
    main()
