#!/usr/bin/env python3
"""Perft speed of Chariot against Debian's fairy-stockfish, side by side.

Both engines run `perft DEPTH` from the same position, alternately, ROUNDS
times; each one's best wall-clock time is kept (the machine is shared and
noisy, so the minimum is the least disturbed run) and the ratio is printed.
Both run single-threaded and both count the last ply in bulk.

Usage: scripts/measure/perft_speed.py [--depth 5] [--rounds 3] [--fen FEN]
"""
import argparse
import os
import subprocess
import sys
import time

# The shared helpers are in scripts/oracles/.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "oracles"))
import oracle

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def nodes_from(output):
    for line in output.splitlines():
        if line.startswith("Nodes searched:"):
            return int(line.split(":")[1])
    raise RuntimeError("no 'Nodes searched' line in:\n" + output)


def timed(cmd, stdin=None):
    t0 = time.perf_counter()
    out = subprocess.run(cmd, input=stdin, capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - t0, nodes_from(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--fen", default=START)
    args = ap.parse_args()

    fsf = oracle.find_fairy_stockfish("perft_speed")
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    chariot = os.path.join(ROOT, "target", "release", "chariot")

    fsf_input = f"ucci\nposition fen {args.fen}\ngo perft {args.depth}\nquit\n"
    best_c = best_f = float("inf")
    for r in range(args.rounds):
        tc, nc = timed([chariot, "perft", str(args.depth), args.fen])
        tf, nf = timed([fsf], fsf_input)
        if nc != nf:
            sys.exit(f"perft_speed: node counts differ: chariot {nc}, fairy-stockfish {nf}")
        best_c, best_f = min(best_c, tc), min(best_f, tf)
        print(f"round {r + 1}: chariot {tc:.3f} s, fairy-stockfish {tf:.3f} s ({nc} nodes)")
    print(f"perft {args.depth}: chariot {best_c:.3f} s ({nc / best_c / 1e6:.0f} Mnps), "
          f"fairy-stockfish {best_f:.3f} s ({nf / best_f / 1e6:.0f} Mnps)")
    print(f"ratio: Chariot is {best_f / best_c:.1f}x faster than fairy-stockfish")


if __name__ == "__main__":
    main()
