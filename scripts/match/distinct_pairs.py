#!/usr/bin/env python3
"""How many distinct games a chariot-match PGN holds, and the Elo of ENGINE
over the distinct opening pairs only.

Two deterministic engines (one thread, fixed nodes or depth) replay a game
whenever its opening comes round again with the same colours; a match's
own error bar then counts the repeats as news. This groups the games by
opening (its FEN and the moves marked `{book}`; names repeat in wide
suites) and colour, keeps one result for each, and computes the pentanomial Elo and its
95% interval from the pairs whose both colours were played.

Usage: scripts/match/distinct_pairs.py MATCH.pgn ENGINE
"""
import math
import re
import sys


def games(text):
    for chunk in text.split("\n[Event "):
        chunk = chunk if chunk.startswith("[Event ") else "[Event " + chunk
        if "\n\n" not in chunk:
            continue
        head, body = chunk.split("\n\n", 1)
        tags = dict(re.findall(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]', head, re.M))
        flat = re.sub(r"\{[^}]*\}", " ", body.replace("\n", " "))
        moves = re.findall(r"\b[a-i][0-9][a-i][0-9]\b", flat)
        book = re.findall(r"\b([a-i][0-9][a-i][0-9])\s*\{book\}", body.replace("\n", " "))
        yield tags, moves, book


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    path, engine = sys.argv[1], sys.argv[2]
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    results = {}
    sequences = set()
    total = 0
    for tags, moves, book in games(text):
        points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(tags.get("Result"))
        if points is None or engine not in (tags.get("Red"), tags.get("Black")):
            continue
        total += 1
        sequences.add((tags.get("FEN", ""), " ".join(moves)))
        opening = tags.get("FEN", "") + " " + " ".join(book)
        red = tags.get("Red") == engine
        results[(opening, red)] = points if red else 1 - points
    pairs = [
        (results[(o, True)] + results[(o, False)]) / 2
        for (o, red) in results
        if red and (o, False) in results
    ]
    print(f"{path}: {total} games of {engine}, {len(sequences)} distinct, "
          f"{len(results)} distinct (opening, colour), {len(pairs)} pairs")
    if len(pairs) < 2:
        return
    mean = sum(pairs) / len(pairs)
    var = sum((p - mean) ** 2 for p in pairs) / len(pairs)
    se = math.sqrt(var / len(pairs))
    print(f"Elo over the distinct pairs: {elo(mean):+.1f} "
          f"[{elo(mean - 1.96 * se):+.1f}, {elo(mean + 1.96 * se):+.1f}] (95%)")


if __name__ == "__main__":
    main()
