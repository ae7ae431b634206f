#!/usr/bin/env python3
"""Measures how fast Chariot answers `stop`: from writing `stop` during an
infinite search to reading its `bestmove`, over several rounds and positions.
Prints the median and the worst; exits non-zero if the worst exceeds --limit
milliseconds (default 10, the front end's promise).

With --threads N..., does the same at each `threads` setting, and also
times `go movetime` (--movetime, default 100 ms) from writing `go` to
reading `bestmove`: a limit is kept at any thread count when that stays
within the move overhead (30 ms) of the move time. Each thread count runs
in a fresh engine process, its first search included. Run it with both
cores free.

Usage: scripts/measure/stop_latency.py [--rounds 20] [--limit 10]
           [--threads 1 2 8 64 256] [--movetime 100] [--engine PATH]
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


def measure(exe, threads, rounds, movetime):
    """Stop latencies and movetime answers (ms) of one engine process."""
    engine = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, bufsize=1)

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
    if threads is not None:
        send(f"setoption threads {threads}")
    wait_for("ucciok")
    latencies, answers = [], []
    for r in range(rounds):
        send(POSITIONS[r % len(POSITIONS)])
        if movetime:
            t0 = time.perf_counter()
            send(f"go movetime {movetime}")
            wait_for("bestmove")
            answers.append((time.perf_counter() - t0) * 1000)
        send("go infinite")
        time.sleep(0.3)
        t0 = time.perf_counter()
        send("stop")
        wait_for("bestmove")
        latencies.append((time.perf_counter() - t0) * 1000)
    send("quit")
    engine.wait(timeout=30)
    return latencies, answers


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--limit", type=float, default=10.0)
    ap.add_argument("--threads", type=int, nargs="+")
    ap.add_argument("--movetime", type=int, default=100)
    ap.add_argument("--engine", help="this binary, not this tree's release build")
    args = ap.parse_args()
    exe = args.engine
    if exe is None:
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
        exe = os.path.join(ROOT, "target", "release", "chariot")
    worst = 0.0
    for threads in args.threads or [None]:
        movetime = args.movetime if args.threads else 0
        latencies, answers = measure(exe, threads, args.rounds, movetime)
        worst = max(worst, max(latencies))
        label = f"threads {threads}: " if threads is not None else ""
        print(f"{label}stop -> bestmove over {len(latencies)} searches: median "
              f"{statistics.median(latencies):.2f} ms, worst {max(latencies):.2f} ms", end="")
        if answers:
            print(f"; go movetime {movetime} -> bestmove: first {answers[0]:.0f} ms, "
                  f"median {statistics.median(answers):.0f} ms, worst {max(answers):.0f} ms", end="")
        print()
    sys.exit(0 if worst <= args.limit else 1)


if __name__ == "__main__":
    main()
