#!/usr/bin/env python3
"""Time to depth: how long two builds of Chariot take to complete depths
12, 16 and 20 (by default) from the start position and from the bench
positions (src/bench.rs), one thread, books off, a fresh process each.

Each position is searched with `go infinite` until the deepest depth asked
completes or CAP seconds pass, then stopped. A depth counts as completed at
its first `info depth N` line with an exact score (not a bound), and its
`time` is taken. The engines take turns position by position, so that the
machine's noise falls on both alike.

Printed, per depth: for each engine the positions that completed it and
the median milliseconds over them; then, over the positions both completed,
the geometric mean of new/old time (below 1: the new build gets there
sooner) and the same from the start position alone.

Usage: scripts/measure/time_to_depth.py NEW OLD [--depths 12 16 20] [--cap 30]
           [--positions all|start|openings]
"""
import argparse
import math
import os
import re
import statistics
import subprocess
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def bench_positions():
    """The FENs of src/bench.rs, in order (the first is the start)."""
    with open(os.path.join(ROOT, "src", "bench.rs"), encoding="utf-8") as f:
        text = f.read()
    body = text[text.index("pub const POSITIONS"):]
    body = body[:body.index("];")]
    return re.findall(r'"([^"]+ [wb] - - \d+ \d+)"', body)


def depth_times(engine, fen, depths, cap):
    """{depth: ms} for the depths of `depths` that one search of `fen`
    completes within `cap` seconds."""
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(command):
        # The timer may fire as the engine quits: nothing left to stop.
        try:
            p.stdin.write(command + "\n")
            p.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass

    send("ucci\nsetoption usebook false\nsetoption threads 1\n"
         f"setoption newgame\nposition fen {fen}\ngo infinite")
    # The cap is kept by a timer, not by the next line: a deep iteration
    # may print nothing for longer than the cap.
    timer = threading.Timer(cap, send, ["stop"])
    timer.start()
    deepest = max(depths)
    found = {}
    for line in p.stdout:
        words = line.split()
        if words[:1] == ["bestmove"] or words[:1] == ["nobestmove"]:
            break
        if words[:2] != ["info", "depth"] or "time" not in words or "score" not in words:
            continue
        if "lowerbound" in words or "upperbound" in words:
            continue
        d = int(words[2])
        if d in depths and d not in found:
            found[d] = int(words[words.index("time") + 1])
        if d == deepest:
            timer.cancel()
            send("stop")
    timer.cancel()
    send("quit")
    p.wait(timeout=30)
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("new")
    ap.add_argument("old")
    ap.add_argument("--depths", type=int, nargs="+", default=[12, 16, 20])
    ap.add_argument("--cap", type=float, default=30.0,
                    help="seconds at most per position and engine")
    ap.add_argument("--positions", choices=["all", "start", "openings"], default="all",
                    help="the start position, the 13 opening positions of the bench, or "
                         "every bench position")
    args = ap.parse_args()
    fens = bench_positions()
    if fens[0] != START:
        raise SystemExit("src/bench.rs: the first bench position is not the start")
    fens = {"all": fens, "start": fens[:1], "openings": fens[:13]}[args.positions]
    engines = [args.new, args.old]
    runs = {e: [] for e in engines}
    began = time.monotonic()
    for i, fen in enumerate(fens):
        for e in engines:
            runs[e].append(depth_times(e, fen, set(args.depths), args.cap))
        print(f"position {i + 1} of {len(fens)} done ({time.monotonic() - began:.0f} s)",
              flush=True)
    print(f"\n{len(fens)} position(s), cap {args.cap:g} s each, one thread, books off")
    print("| depth | build | completed | median ms | new/old (geo. mean, both) | new/old from start |")
    print("|---|---|---|---|---|---|")
    for d in args.depths:
        both = [(n[d], o[d]) for n, o in zip(runs[args.new], runs[args.old])
                if d in n and d in o and n[d] > 0 and o[d] > 0]
        ratio = (f"{math.exp(statistics.mean(math.log(a / b) for a, b in both)):.2f} "
                 f"({len(both)})" if both else "-")
        s_new, s_old = runs[args.new][0].get(d), runs[args.old][0].get(d)
        start = f"{s_new / s_old:.2f}" if s_new and s_old else "-"
        for k, e in enumerate(engines):
            ms = [r[d] for r in runs[e] if d in r]
            med = f"{statistics.median(ms):,.0f}" if ms else "-"
            tail = f" {ratio} | {start} |" if k == 0 else " | |"
            print(f"| {d} | {os.path.relpath(e)} | {len(ms)} of {len(fens)} | {med} |{tail}")


if __name__ == "__main__":
    main()
