#!/usr/bin/env python3
"""Elo of every player in a set of match PGNs, tied to one anchor or more.

Reads the games of chariot-match PGN files (Red, Black and Result tags)
and fits one rating per player by maximum likelihood under the logistic
Elo model, a draw counting as half a win (the Bradley-Terry fit that Ordo
and BayesElo make without their priors). The anchors (one player, or
more) are held at the ratings they are given; the others' 95% intervals
come from the inverse of the Fisher information. Players need not all
meet: the games must only connect each of them to an anchor. Several
anchors rate new games of a few levels against pool members at an
earlier fit's ratings, without the pool's games (the intervals then leave
out the pool's own uncertainty).

For players named like Chariot's levels in scripts/levels/levels.sh (`eloE`: the
level at UCI_Elo E), the table also gives the nominal Elo, the difference,
and whether it is within the tolerance; the last lines say whether the
levels' measured ratings rise with their nominal ones, and whether every
level is within the tolerance (exit status 1 if not).

Usage:
  scripts/levels/levels_table.py --anchor fsf-elo1500=1500 levels/*.pgn
  scripts/levels/levels_table.py --anchor fsf-sl3=1675 --anchor fsf-sl5=2032 new/*.pgn
Options: --tolerance 75 (Elo).
"""

import argparse
import math
import re
import sys

SCALE = 400.0 / math.log(10.0)


def games(paths):
    """(red, black, red's score) for each game with a result."""
    out = []
    for path in paths:
        tags = {}
        try:
            f = open(path, encoding="utf-8", errors="replace")
        except OSError as e:
            sys.exit(f"levels_table.py: cannot read {path}: {e.strerror}")
        with f:
            for line in f:
                m = re.match(r'\[(\w+) "(.*)"\]', line)
                if m:
                    tags[m.group(1)] = m.group(2)
                    if m.group(1) == "Result":
                        score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(m.group(2))
                        if score is not None and "Red" in tags and "Black" in tags:
                            out.append((tags["Red"], tags["Black"], score))
                        tags = {}
    return out


def fit(results, anchors):
    """Ratings by Newton's method on the log-likelihood, the players in
    `anchors` (name: Elo) held; returns (ratings, 95% half-widths, games
    per player)."""
    players = sorted({p for r, b, _ in results for p in (r, b)})
    for anchor in anchors:
        if anchor not in players:
            sys.exit(f"levels_table.py: the anchor {anchor} played no game")
    free = [p for p in players if p not in anchors]
    index = {p: i for i, p in enumerate(free)}
    rating = {p: 0.0 for p in players}
    rating.update(anchors)
    n = len(free)
    for _ in range(100):
        grad = [0.0] * n
        hess = [[0.0] * n for _ in range(n)]
        for red, black, score in results:
            p = 1.0 / (1.0 + math.exp(-(rating[red] - rating[black]) / SCALE))
            w = p * (1.0 - p) / SCALE**2
            g = (score - p) / SCALE
            for who, sign in ((red, 1.0), (black, -1.0)):
                if who in index:
                    grad[index[who]] += sign * g
            for a in (red, black):
                for b in (red, black):
                    if a in index and b in index:
                        hess[index[a]][index[b]] += w if a == b else -w
        # A small ridge keeps a player with only wins or only losses finite.
        for i in range(n):
            hess[i][i] += 1e-7
        step = solve(hess, grad)
        for p, i in index.items():
            rating[p] += max(-400.0, min(400.0, step[i]))
        if max((abs(s) for s in step), default=0.0) < 1e-6:
            break
    inverse = invert(hess)
    half = {anchor: 0.0 for anchor in anchors}
    for p, i in index.items():
        half[p] = 1.96 * math.sqrt(max(inverse[i][i], 0.0))
    played = {p: 0 for p in players}
    for red, black, _ in results:
        played[red] += 1
        played[black] += 1
    return rating, half, played


def solve(m, y):
    n = len(y)
    a = [row[:] + [y[i]] for i, row in enumerate(m)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(a[r][c]))
        a[c], a[p] = a[p], a[c]
        for r in range(n):
            if r != c and a[c][c] != 0.0:
                f = a[r][c] / a[c][c]
                for k in range(c, n + 1):
                    a[r][k] -= f * a[c][k]
    return [a[i][n] / a[i][i] for i in range(n)]


def invert(m):
    n = len(m)
    cols = []
    for j in range(n):
        e = [1.0 if i == j else 0.0 for i in range(n)]
        cols.append(solve(m, e))
    return [[cols[j][i] for j in range(n)] for i in range(n)]


def parse_anchor(text):
    """(name, Elo) of an --anchor NAME=ELO; exits in one line on anything else."""
    name, _, elo = text.rpartition("=")
    try:
        value = float(elo)
    except ValueError:
        value = math.nan
    if not name or not math.isfinite(value):
        sys.exit(f"levels_table.py: --anchor takes NAME=ELO, not {text!r}")
    return name, value


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--anchor", required=True, action="append",
                    help="NAME=ELO: the player held at ELO (may be given again for more)")
    ap.add_argument("--tolerance", type=float, default=75.0)
    ap.add_argument("pgn", nargs="+")
    args = ap.parse_args()
    anchors = {}
    for name, elo in map(parse_anchor, args.anchor):
        if name in anchors:
            sys.exit(f"levels_table.py: --anchor {name} is given twice")
        anchors[name] = elo
    results = games(args.pgn)
    if not results:
        sys.exit("levels_table.py: no finished games in the PGNs")
    rating, half, played = fit(results, anchors)
    rows = sorted(rating, key=lambda p: rating[p])
    held = ", ".join(f"{name} at {elo:.0f}" for name, elo in anchors.items())
    print(f"{len(results)} games; held: {held}")
    print(f"{'player':>16} {'games':>6} {'Elo':>7} {'± 95%':>6} {'nominal':>8} {'diff':>6}  within")
    levels = []
    for p in rows:
        m = re.fullmatch(r"elo(\d+)", p)
        line = f"{p:>16} {played[p]:>6} {rating[p]:>7.0f} {half[p]:>6.0f}"
        if m:
            nominal = int(m.group(1))
            diff = rating[p] - nominal
            ok = abs(diff) <= args.tolerance
            levels.append((nominal, rating[p], ok))
            line += f" {nominal:>8} {diff:>+6.0f}  {'yes' if ok else 'NO'}"
        print(line)
    if not levels:
        return 0
    levels.sort()
    monotone = all(a[1] < b[1] for a, b in zip(levels, levels[1:]))
    within = all(ok for _, _, ok in levels)
    print(f"monotone: {'yes' if monotone else 'NO'}; every level within ±{args.tolerance:.0f}: "
          f"{'yes' if within else 'NO'}")
    return 0 if monotone and within else 1


if __name__ == "__main__":
    sys.exit(main())
