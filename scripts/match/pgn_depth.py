#!/usr/bin/env python3
"""Mean depth completed per move, by engine, from a chariot-match PGN.

Usage: scripts/match/pgn_depth.py GAMES.pgn [MORE.pgn ...]

chariot-match comments every searched move as {SCORE/DEPTH TIMEs}; book
moves ({book}) are left out. Prints, for each engine, the moves counted,
the mean and median depth and the mean time per move.
"""
import re
import statistics
import sys

COMMENT = re.compile(r"\{[+-]?[#\d.]+/(\d+) ([\d.]+)s\}")


def games(text):
    """(red, black, the side to move first, movetext) for each game of a PGN text."""
    for block in re.split(r"\n(?=\[Event )", text):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', block, re.M))
        body = re.sub(r"^\[.*\]\s*$", "", block, flags=re.M)
        first = 1 if tags.get("FEN", "").split(" ")[1:2] == ["b"] else 0
        if "Red" in tags and "Black" in tags:
            yield tags["Red"], tags["Black"], first, body


def main(paths):
    depth, seconds = {}, {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for red, black, side, body in games(text):
            # Comments follow their moves; moves alternate from the side the
            # FEN gives.
            tokens = re.findall(r"\{[^}]*\}|[a-i]\d[a-i]\d", body)
            last = None
            for t in tokens:
                if not t.startswith("{"):
                    last = (red, black)[side]
                    side ^= 1
                    continue
                m = COMMENT.fullmatch(t)
                if m and last:
                    depth.setdefault(last, []).append(int(m.group(1)))
                    seconds.setdefault(last, []).append(float(m.group(2)))
    if not depth:
        sys.exit("pgn_depth: no searched moves with a depth comment found")
    for name in sorted(depth):
        d = depth[name]
        print(
            f"{name}: {len(d)} moves, mean depth {statistics.mean(d):.2f}, "
            f"median {statistics.median(d):g}, mean time {statistics.mean(seconds[name]):.3f} s"
        )


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip())
    main(sys.argv[1:])
