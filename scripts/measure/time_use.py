#!/usr/bin/env python3
"""How Chariot spends its clock: a table of the time used per move over
whole games, one row per time control.

For each control, Chariot (this tree's release build, books off so that
every move is searched) plays fairy-stockfish at full strength, once with
each colour, through the pinned referee (scripts/match/referee.sh). The PGN the
referee writes records each move's time; this script reads Chariot's moves
back and reports, per control:

  games   the games played and how they ended for Chariot (W-D-L, and
          losses on time, which must be 0)
  moves   Chariot's moves, all games together
  mean / median / max   seconds per move
  first 10 / 11-40 / 41+   mean seconds per move in each stretch of a game
  least left   the lowest clock Chariot had after any of its moves, as a
          share of the control's base time

Usage: scripts/measure/time_use.py [--tc 1+0 3+0 10+0.1 60+0.6 40/120] [--games 2]
           [--fsf /usr/games/fairy-stockfish] [--out DIR] [--jobs 1]
Prints a Markdown table; the PGN files stay in DIR (default a new
directory under ~/.cache/chariot/time-use).
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def parse_tc(tc):
    """(moves per period or 0, base seconds, increment seconds)."""
    m = re.fullmatch(r"(?:(\d+)/)?([\d.]+)(?:\+([\d.]+))?", tc)
    if not m:
        sys.exit(f"time_use: bad time control {tc!r}")
    return int(m.group(1) or 0), float(m.group(2)), float(m.group(3) or 0)


def chariot_moves(pgn_text, name):
    """Per game: Chariot's (ply, seconds) list and the game's result for it."""
    games = []
    for game in re.split(r"\n\n(?=\[Event )", pgn_text.strip()):
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', game, re.M))
        if name not in (tags.get("Red"), tags.get("Black")):
            continue
        red = tags.get("Red") == name
        body = game.split("\n\n", 1)[1] if "\n\n" in game else ""
        # Each move is followed by its comment: {book}, {+0.51/12 0.29s}.
        tokens = re.findall(r"\d+\.|\{[^}]*\}|[a-i]\d[a-i]\d", body)
        ply = -1
        ours = []
        for t in tokens:
            if re.fullmatch(r"[a-i]\d[a-i]\d", t):
                ply += 1
            elif t.startswith("{") and ply >= 0 and (ply % 2 == 0) == red:
                s = re.search(r"([\d.]+)s\}$", t)
                if s:
                    ours.append((ply // 2, float(s.group(1))))
        result = tags.get("Result", "*")
        comments = re.findall(r"\{([^}]*)\}", body)
        last = comments[-1] if comments else ""
        won = {"1-0": red, "0-1": not red}.get(result)
        outcome = "D" if result == "1/2-1/2" else ("W" if won else "L")
        on_time = outcome == "L" and "time" in last
        games.append((ours, outcome, on_time))
    return games


def least_left(moves, periods, base, inc):
    """Lowest clock after a move, in seconds (moves: (move number, s))."""
    left = base
    low = base
    for i, (_, s) in enumerate(moves):
        left -= s
        low = min(low, left)
        left += inc
        if periods and (i + 1) % periods == 0:
            left += base
    return low


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tc", nargs="+", default=["1+0", "3+0", "10+0.1", "60+0.6", "40/120"])
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--fsf", default="/usr/games/fairy-stockfish")
    ap.add_argument("--out")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    if not os.path.exists(args.fsf):
        sys.exit(f"time_use: {args.fsf} not found (apt-get install fairy-stockfish)")
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    referee = subprocess.run(
        [os.path.join(ROOT, "scripts", "match", "referee.sh")], capture_output=True, text=True, check=True
    ).stdout.strip()
    cache = os.path.join(os.path.expanduser("~"), ".cache", "chariot", "time-use")
    os.makedirs(cache, exist_ok=True)
    out = args.out or tempfile.mkdtemp(prefix=time.strftime("%Y%m%d-%H%M%S-"), dir=cache)
    os.makedirs(out, exist_ok=True)
    engine = os.path.join(out, "chariot")
    shutil.copy(os.path.join(ROOT, "target", "release", "chariot"), engine)
    print(f"time_use: PGN in {out}", file=sys.stderr)
    openings = os.path.join(out, "startpos.txt")
    with open(openings, "w") as f:
        f.write("startpos\n")

    rows = []
    for tc in args.tc:
        periods, base, inc = parse_tc(tc)
        pgn = os.path.join(out, f"{tc.replace('/', 'per')}.pgn")
        cmd = [
            referee,
            "--engine", f"cmd={engine}", "name=chariot", "option.usebook=false",
            "--engine", f"cmd={args.fsf}", "name=fairy-stockfish",
            "--tc", tc, "--games", str(args.games), "-j", str(args.jobs),
            "--openings", openings, "--pgn", pgn,
        ]
        subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL)
        games = chariot_moves(open(pgn, encoding="utf-8").read(), "chariot")
        times = [s for g, _, _ in games for _, s in g]
        if not times:
            rows.append(f"| {tc} | 0 | | | | | | | | |")
            continue
        stretch = lambda lo, hi: [s for g, _, _ in games for n, s in g if lo <= n < hi]
        mean = lambda xs: f"{statistics.mean(xs):.3f}" if xs else "–"
        wdl = "-".join(str(sum(o == k for _, o, _ in games)) for k in "WDL")
        flags = sum(t for _, _, t in games)
        low = min(least_left(g, periods, base, inc) for g, _, _ in games)
        rows.append(
            f"| {tc} | {len(games)} ({wdl}, {flags} on time) | {len(times)} | {mean(times)} "
            f"| {statistics.median(times):.3f} | {max(times):.3f} | {mean(stretch(0, 10))} "
            f"| {mean(stretch(10, 40))} | {mean(stretch(40, 10**6))} | {100 * low / base:.0f}% |"
        )
    print("| control | games (W-D-L for Chariot) | moves | mean s | median s | max s "
          "| moves 1-10 | 11-40 | 41+ | least left |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(r)


if __name__ == "__main__":
    main()
