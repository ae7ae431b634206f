#!/usr/bin/env python3
"""How varied a match's openings are: the distinct move sequences over the
first plies of its games.

Reads a chariot-match PGN and counts, over its first N games (all by
default), how many distinct sequences of the first P plies they played,
and how often the commonest one occurred.

Usage: scripts/match/opening_variety.py GAMES.pgn [--plies 10] [--games 100]
"""
import argparse
import collections
import re
import sys


def games(text):
    """Each game's moves (ICCS), in file order."""
    for game in re.split(r"\n\n(?=\[Event )", text.strip()):
        body = game.split("\n\n", 1)[1] if "\n\n" in game else ""
        body = re.sub(r"\{[^}]*\}", " ", body)
        yield re.findall(r"\b[a-i]\d[a-i]\d\b", body)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pgn")
    ap.add_argument("--plies", type=int, default=10)
    ap.add_argument("--games", type=int)
    args = ap.parse_args()
    try:
        text = open(args.pgn, encoding="utf-8").read()
    except OSError as e:
        sys.exit(f"opening_variety: {e}")
    lines = [tuple(g[: args.plies]) for g in games(text)][: args.games]
    if not lines:
        sys.exit(f"opening_variety: no games in {args.pgn}")
    counts = collections.Counter(lines)
    line, most = counts.most_common(1)[0]
    short = sum(len(l) < args.plies for l in lines)
    print(
        f"{len(counts)} distinct openings of {args.plies} plies in {len(lines)} games; "
        f"the commonest ({' '.join(line)}) {most} times"
        + (f"; {short} games shorter than {args.plies} plies" if short else "")
    )


if __name__ == "__main__":
    main()
