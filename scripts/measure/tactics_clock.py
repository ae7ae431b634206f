#!/usr/bin/env python3
"""The tactics suite (tests/tactics.txt) under a clock and per move, through
the engine's own protocol, as a GUI would drive it.

Each position is sent to a fresh `chariot` process (UCCI, books off, one
thread) with one of:

  clock     `go time T` (UCCI milliseconds): T left on a sudden-death clock
  movetime  `go movetime T`: T for this one move

A position counts as solved when the best move is among the accepted ones
and, for `mate N`, the reported score is a mate (or a win by rule). For
mates the script also reports how many were announced at their shortest
distance, and how many searches ended with a mate score whatever the move
(issue 72's first measure: another move may mate too, in more moves;
a win by rule is not counted there).
The issue's question: are mates found as often under a 1 s clock as at
1 s per move?

Usage: scripts/measure/tactics_clock.py [--engine target/release/chariot] [--ms 1000]
           [--limits clock movetime] [--option NAME=VALUE ...] [--detail]
"""
import argparse
import os
import re

from ucci_once import search_once

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MATE = 10000
MATE_BOUND = MATE - 500
RULE_WIN = MATE_BOUND - 500


def suite():
    cases = []
    for raw in open(os.path.join(ROOT, "tests", "tactics.txt"), encoding="utf-8"):
        raw = raw.strip()
        if not raw or raw.startswith("#"):
            continue
        fen, kind, accepted, _note = [f.strip() for f in raw.split(";", 3)]
        mate = int(kind.split()[1]) if kind.startswith("mate") else None
        cases.append((fen, mate, accepted.split()))
    return cases


def solve(engine, fen, go, options=()):
    """(best move, last score, (depth, ms) of the first mate score or None,
    (depth, ms) of the last line) of one search in a fresh process."""
    setup = ["ucci", "setoption usemillisec true", "setoption usebook false"]
    setup += [f"setoption {name} {value}" for name, value in options]
    lines = search_once(engine, setup + [f"position fen {fen}", go], timeout=120)
    score, best, first_mate, last = None, None, None, (0, 0)
    for line in lines:
        m = re.search(r"\bscore (-?\d+)", line)
        if line.startswith("info") and m and " lowerbound" not in line and " upperbound" not in line:
            score = int(m.group(1))
            depth = re.search(r"\bdepth (\d+)", line)
            ms = re.search(r"\btime (\d+)", line)
            last = (int(depth.group(1)) if depth else 0, int(ms.group(1)) if ms else 0)
            if score >= MATE_BOUND and first_mate is None:
                first_mate = last
        if line.startswith("bestmove"):
            best = line.split()[1] if len(line.split()) > 1 else None
    return best, score, first_mate, last


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "chariot"))
    ap.add_argument("--ms", type=int, default=1000)
    ap.add_argument("--limits", nargs="+", default=["clock", "movetime"],
                    choices=["clock", "movetime"])
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="an option set before each search (a tunable of a `tune` build too)")
    ap.add_argument("--detail", action="store_true",
                    help="a line per mate: found or not, the depth and ms of the first mate "
                         "score, and of the last line")
    args = ap.parse_args()
    options = [o.split("=", 1) for o in args.option]
    if any(len(o) != 2 for o in options):
        ap.error("--option takes NAME=VALUE")
    cases = suite()
    mates = [c for c in cases if c[1] is not None]
    for limit in args.limits:
        go = f"go movetime {args.ms}" if limit == "movetime" else f"go time {args.ms}"
        solved = mates_found = shortest = mate_scores = 0
        longer = []
        for number, (fen, mate, accepted) in enumerate(cases, 1):
            best, score, first_mate, last = solve(args.engine, fen, go, options)
            ok = best in accepted
            if mate is not None:
                mate_scores += score is not None and score >= MATE_BOUND
                ok = ok and score is not None and score >= RULE_WIN - 200
                if ok:
                    mates_found += 1
                    if score == MATE - (2 * mate - 1):
                        shortest += 1
                    elif score >= MATE_BOUND:
                        longer.append(f"{mate}->{(MATE - score + 1) // 2}")
                if args.detail:
                    seen = (f"mate first at depth {first_mate[0]}, {first_mate[1]} ms"
                            if first_mate else "no mate score")
                    print(f"  {limit} case {number} (mate {mate}): {'found' if ok else 'MISSED'}; "
                          f"{seen}; last line depth {last[0]}, {last[1]} ms, score {score}, "
                          f"bestmove {best}")
            solved += ok
        print(
            f"{limit:8} ({go}): {solved}/{len(cases)} solved; mates {mates_found}/{len(mates)}, "
            f"{shortest} at the shortest distance; {mate_scores}/{len(mates)} end with a "
            f"mate score, whatever the move"
            + (f"; longer mates announced: {' '.join(longer)}" if longer else "")
        )


if __name__ == "__main__":
    main()
