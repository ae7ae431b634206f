#!/usr/bin/env python3
"""Speed of two chariot builds side by side: `chariot bench` nodes/s.

Runs `OLD bench` and `NEW bench` alternately ROUNDS times (the order
swapped every round), prints each round's nodes/s and the ratio NEW/OLD,
then the median ratio. The machine is shared and noisy, so only ratios of
runs made side by side mean anything. The node counts are printed too: a
change that keeps the search (a speed-up, a refactor) keeps them equal.

Usage: scripts/measure/bench_speed.py OLD NEW [--rounds 7]
"""
import argparse
import statistics
import sys

from eval_speed import bench_nps


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    if args.rounds < 1:
        sys.exit("bench_speed: --rounds must be at least 1")
    if args.old == args.new:
        sys.exit("bench_speed: OLD and NEW are the same path; copy one build to compare it with itself")
    ratios, counts = [], set()
    for r in range(1, args.rounds + 1):
        order = [args.old, args.new] if r % 2 else [args.new, args.old]
        speed = {}
        for engine in order:
            nodes, nps = bench_nps(engine, "<built-in>")
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
