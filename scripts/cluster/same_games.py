#!/usr/bin/env python3
"""Checks that two PGN files of chariot-match hold the same games: the same
rounds in the same order, each with the same engines, start, opening,
result and moves. The move comments (scores, times) and the Site and Date
tags may differ. Exit status 0 when they are the same, 1 with the first
difference otherwise.

    scripts/cluster/same_games.py whole.pgn merged.pgn
"""
import re
import sys

TAGS = ("Round", "Red", "Black", "FEN", "Opening", "Result", "Termination", "PlyCount")


def games(path):
    text = open(path, encoding="utf-8").read()
    out = []
    for chunk in re.split(r"\n\n(?=\[Event )", text.strip()):
        head, _, body = chunk.partition("\n\n")
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', head, re.M))
        body = re.sub(r"\{[^}]*\}", " ", body)
        moves = [t for t in body.split() if re.fullmatch(r"[a-i][0-9][a-i][0-9]", t)]
        out.append((tuple(tags.get(t) for t in TAGS), moves))
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    a, b = games(sys.argv[1]), games(sys.argv[2])
    if len(a) != len(b):
        sys.exit(f"{len(a)} games in {sys.argv[1]}, {len(b)} in {sys.argv[2]}")
    for (ta, ma), (tb, mb) in zip(a, b):
        if ta != tb:
            sys.exit(f"game {ta[0]}: tags differ: {ta} against {tb}")
        if ma != mb:
            i = next((i for i, (x, y) in enumerate(zip(ma, mb)) if x != y), min(len(ma), len(mb)))
            sys.exit(f"game {ta[0]}: the moves differ from ply {i + 1}")
    print(f"same games: {len(a)}, {sum(len(m) for _, m in a)} moves")


main()
