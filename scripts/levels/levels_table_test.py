#!/usr/bin/env python3
"""Checks scripts/levels/levels_table.py on games whose maximum-likelihood ratings
are known in closed form.

- One anchor: a level that scores 3 of 4 against the anchor is rated
  400 log10(3) (about 191) above it.
- Two anchors held 200 apart, the level scoring 1/2 against each: the fit
  puts it halfway, and neither anchor moves.
- The exit status says whether every level is within the tolerance.
- Every player held is no error: the table prints them as given.
- A malformed --anchor, the same anchor twice and an anchor that played
  no game are refused in one line.
"""

import math
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TABLE = os.path.join(HERE, "levels_table.py")


def pgn(games):
    """PGN text of (red, black, result) games."""
    out = []
    for red, black, result in games:
        out.append(f'[Event "test"]\n[Red "{red}"]\n[Black "{black}"]\n'
                   f'[Result "{result}"]\n\n{result}\n')
    return "\n".join(out)


def run(path, *anchors):
    args = [sys.executable, TABLE] + [f"--anchor={a}" for a in anchors] + [path]
    return subprocess.run(args, capture_output=True, text=True)


def rating(output, player):
    for line in output.splitlines():
        words = line.split()
        if words and words[0] == player:
            return float(words[2])
    raise AssertionError(f"no row for {player} in:\n{output}")


def main():
    failures = []

    def check(what, ok, detail=""):
        print(f"{'ok  ' if ok else 'FAIL'} {what}" + (f": {detail}" if detail and not ok else ""))
        if not ok:
            failures.append(what)

    with tempfile.TemporaryDirectory() as tmp:
        one = os.path.join(tmp, "one.pgn")
        with open(one, "w", encoding="utf-8") as f:
            f.write(pgn([("elo1600", "pool", "1-0"), ("pool", "elo1600", "0-1"),
                         ("elo1600", "pool", "1-0"), ("pool", "elo1600", "1-0")]))
        done = run(one, "pool=1400")
        expected = 1400 + 400 * math.log10(3)
        got = rating(done.stdout, "elo1600")
        check("one anchor: 3 of 4 is 400 log10(3) above it", abs(got - expected) < 0.5,
              f"{got} against {expected:.1f}")
        check("one anchor: the level within ±75 of 1600 exits 0", done.returncode == 0,
              done.stdout + done.stderr)
        check("one anchor: the anchor keeps its rating", rating(done.stdout, "pool") == 1400)

        two = os.path.join(tmp, "two.pgn")
        with open(two, "w", encoding="utf-8") as f:
            f.write(pgn([("elo1000", "low", "1-0"), ("low", "elo1000", "1-0"),
                         ("elo1000", "high", "1/2-1/2"), ("high", "elo1000", "1/2-1/2")]))
        done = run(two, "low=1500", "high=1700")
        got = rating(done.stdout, "elo1000")
        check("two anchors: even against both puts the level halfway", abs(got - 1600) < 0.5,
              str(got))
        check("two anchors: neither moves",
              rating(done.stdout, "low") == 1500 and rating(done.stdout, "high") == 1700)
        check("two anchors: a level 600 above its label exits 1", done.returncode == 1,
              done.stdout)

        for bad in ["pool", "=1400", "pool=abc", "pool=nan"]:
            done = run(one, bad)
            lines = done.stderr.strip().splitlines()
            check(f"--anchor {bad!r} is refused in one line",
                  done.returncode != 0 and len(lines) == 1
                  and re.search("NAME=ELO", lines[0]) is not None, done.stderr)
        done = run(one, "pool=1400", "elo1600=1600")
        check("every player held: the table prints them as given",
              done.returncode == 0 and rating(done.stdout, "elo1600") == 1600, done.stderr)
        done = run(one, "pool=1400", "pool=1500")
        lines = done.stderr.strip().splitlines()
        check("the same anchor given twice is refused in one line",
              done.returncode != 0 and len(lines) == 1 and "given twice" in lines[0], done.stderr)
        done = run(one, "pool=1400", "nobody=1000")
        check("an anchor that played no game is refused",
              done.returncode != 0 and "nobody played no game" in done.stderr, done.stderr)

    if failures:
        sys.exit(f"levels_table_test.py: {len(failures)} check(s) failed")
    print("levels_table_test.py: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
