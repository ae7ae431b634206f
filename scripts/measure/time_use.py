#!/usr/bin/env python3
"""How Chariot spends its clock: a table of the time used per move over
whole games, one row per time control and engine.

For each control, Chariot (this tree's release build, books off so that
every move is searched) plays fairy-stockfish at full strength, once with
each colour, through the pinned referee (scripts/match/referee.sh). The PGN the
referee writes records each move's time; this script reads every engine's
moves back and reports, per control and engine:

  games   the games played and how they ended for the engine (W-D-L, and
          losses on time, which must be 0)
  moves   the engine's moves, all games together
  mean / median / max   seconds per move
  first 10 / 11-40 / 41+   mean seconds per move in each stretch of a game
  left at 30 / 60 / 90   the mean clock after the engine's 30th, 60th and
          90th move, in seconds, over the games that got that far (their
          number in brackets)
  least left   the lowest clock the engine had after any of its moves, as a
          share of the control's base time

Usage: scripts/measure/time_use.py [--tc 1+0 3+0 10+0.1 60+0.6 40/120] [--games 2]
           [--fsf /usr/games/fairy-stockfish] [--out DIR] [--jobs 1]
       scripts/measure/time_use.py --pgn FILE... (a report on games already played,
           e.g. an SPRT's: every engine in them, grouped by time control)
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
    """(moves per period or 0, base seconds, increment seconds), or None
    when `tc` is not a clock (a match at fixed nodes writes `-`)."""
    m = re.fullmatch(r"(?:(\d+)/)?([\d.]+)(?:\+([\d.]+))?", tc)
    if not m or float(m.group(2)) <= 0:
        return None
    return int(m.group(1) or 0), float(m.group(2)), float(m.group(3) or 0)


def games_of(pgn_text):
    """Per game: its time control, and for each side (name) its list of
    seconds per move (None for a book move), its outcome (W, D or L) and
    whether it lost on time."""
    games = []
    for game in re.split(r"\n\n(?=\[Event )", pgn_text.strip()):
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', game, re.M))
        if "Red" not in tags or "Black" not in tags:
            continue
        body = game.split("\n\n", 1)[1] if "\n\n" in game else ""
        # Each move is followed by its comment: {book}, {+0.51/12 0.293s}.
        tokens = re.findall(r"\{[^}]*\}|[a-i]\d[a-i]\d", body)
        moves = ([], [])
        ply = -1
        for t in tokens:
            if not t.startswith("{"):
                ply += 1
                moves[ply % 2].append(None)
            elif ply >= 0:
                s = re.search(r"([\d.]+)s\}$", t)
                if s:
                    moves[ply % 2][-1] = float(s.group(1))
        result = tags.get("Result", "*")
        comments = re.findall(r"\{([^}]*)\}", body)
        last = comments[-1] if comments else ""
        sides = {}
        for side, name in enumerate((tags["Red"], tags["Black"])):
            won = {"1-0": side == 0, "0-1": side == 1}.get(result)
            outcome = "D" if result == "1/2-1/2" else ("W" if won else "L")
            # The referee's tag, or its words (an engine's name may hold
            # "time": the word alone would count its every loss).
            on_time = (tags.get("Termination") == "time forfeit"
                       or "loses on time" in last)
            sides[name] = (moves[side], outcome, outcome == "L" and on_time)
        games.append((tags.get("TimeControl", "?"), sides))
    return games


def clock_after(moves, periods, base, inc):
    """The clock after each move, in seconds (moves: seconds each, None
    for a book move, which takes none)."""
    left = base
    clocks = []
    for i, s in enumerate(moves):
        left += inc - (s or 0.0)
        if periods and (i + 1) % periods == 0:
            left += base
        clocks.append(left)
    return clocks


def report(rows_by_tc):
    """The Markdown table: rows_by_tc maps a control to {engine: games},
    each game (seconds per move, outcome, lost on time)."""
    print("| control | engine | games (W-D-L, on time) | moves | mean s | median s | max s "
          "| moves 1-10 | 11-40 | 41+ | left at 30 | 60 | 90 | least left |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    mean = lambda xs: f"{statistics.mean(xs):.3f}" if xs else "–"
    for tc, engines in rows_by_tc.items():
        clock = parse_tc(tc)
        for name, games in sorted(engines.items()):
            wdl = "-".join(str(sum(o == k for _, o, _ in games)) for k in "WDL")
            flags = sum(t for _, _, t in games)
            searched = [s for g, _, _ in games for s in g if s is not None]
            if not searched:
                print(f"| {tc} | {name} | {len(games)} ({wdl}, {flags}) | 0 |" + " |" * 10)
                continue
            stretch = lambda lo, hi: [s for g, _, _ in games for s in g[lo:hi] if s is not None]
            # Without a clock (games at fixed nodes), no clock columns.
            at, least = ["–"] * 3, "–"
            if clock:
                periods, base, inc = clock
                clocks = [clock_after(g, periods, base, inc) for g, _, _ in games]
                for i, n in enumerate((30, 60, 90)):
                    c = [cl[n - 1] for cl in clocks if len(cl) >= n]
                    at[i] = f"{statistics.mean(c):.2f} ({len(c)})" if c else "–"
                least = f"{100 * min(min(cl) for cl in clocks if cl) / base:.0f}%"
            print(
                f"| {tc} | {name} | {len(games)} ({wdl}, {flags}) | {len(searched)} "
                f"| {mean(searched)} | {statistics.median(searched):.3f} | {max(searched):.3f} "
                f"| {mean(stretch(0, 10))} | {mean(stretch(10, 40))} | {mean(stretch(40, 10**6))} "
                f"| {' | '.join(at)} | {least} |"
            )


def by_control(pgn_texts):
    """{control: {engine: [game, ...]}} of the games in the PGN texts."""
    rows = {}
    for text in pgn_texts:
        for tc, sides in games_of(text):
            for name, game in sides.items():
                rows.setdefault(tc, {}).setdefault(name, []).append(game)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tc", nargs="+", default=["1+0", "3+0", "10+0.1", "60+0.6", "40/120"])
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--fsf", default="/usr/games/fairy-stockfish")
    ap.add_argument("--out")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--pgn", nargs="+", help="report on these PGN files instead of playing")
    args = ap.parse_args()
    for tc in args.tc:
        if not parse_tc(tc):
            sys.exit(f"time_use: bad time control {tc!r}")
    if args.pgn:
        texts = []
        for path in args.pgn:
            try:
                texts.append(open(path, encoding="utf-8").read())
            except OSError as e:
                sys.exit(f"time_use: {path}: {e.strerror}")
        report(by_control(texts))
        return
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

    pgns = []
    for tc in args.tc:
        pgn = os.path.join(out, f"{tc.replace('/', 'per')}.pgn")
        cmd = [
            referee,
            "--engine", f"cmd={engine}", "name=chariot", "option.usebook=false",
            "--engine", f"cmd={args.fsf}", "name=fairy-stockfish",
            "--tc", tc, "--games", str(args.games), "-j", str(args.jobs),
            "--openings", openings, "--pgn", pgn,
        ]
        subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL)
        pgns.append(open(pgn, encoding="utf-8").read() if os.path.exists(pgn) else "")
    report(by_control(pgns))


if __name__ == "__main__":
    main()
