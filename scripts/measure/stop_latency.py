#!/usr/bin/env python3
"""Measures how fast Chariot answers `stop`: from writing `stop` during an
infinite search to reading its `bestmove`, over several rounds and positions.
Prints the median and the worst; exits non-zero if the worst exceeds --limit
milliseconds (default 10, the front end's promise).

Usage: scripts/measure/stop_latency.py [--rounds 20] [--limit 10]
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
POSITIONS = [
    "position startpos",
    "position startpos moves h2e2 h9g7 h0g2 i9h9 i0h0 b9c7",
    "position fen 1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--limit", type=float, default=10.0)
    args = ap.parse_args()
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    engine = subprocess.Popen([os.path.join(ROOT, "target", "release", "chariot")],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def wait_for(prefix):
        while True:
            line = engine.stdout.readline()
            if not line:
                sys.exit("stop_latency: engine closed its output")
            if line.startswith(prefix):
                return line

    send("ucci")
    # Books off: from a book position, `go infinite` would hold a book move
    # rather than search, and this measures stopping a search.
    send("setoption usebook false")
    wait_for("ucciok")
    latencies = []
    for r in range(args.rounds):
        send(POSITIONS[r % len(POSITIONS)])
        send("go infinite")
        time.sleep(0.3)
        t0 = time.perf_counter()
        send("stop")
        wait_for("bestmove")
        latencies.append((time.perf_counter() - t0) * 1000)
    send("quit")
    engine.wait(timeout=10)
    worst = max(latencies)
    print(f"stop -> bestmove over {len(latencies)} searches: median "
          f"{statistics.median(latencies):.2f} ms, worst {worst:.2f} ms")
    sys.exit(0 if worst <= args.limit else 1)


if __name__ == "__main__":
    main()
