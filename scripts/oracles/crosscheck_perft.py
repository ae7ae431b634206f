#!/usr/bin/env python3
"""Cross-check every perft number in crates/xiangqi/tests/perft.txt against independent
generators: Debian's fairy-stockfish (`go perft N` in UCCI mode, ranks 0-9) for
every depth, and PyPI's pyffish for the set of legal root moves (ranks 1-10,
converted).

Usage:
  scripts/oracles/crosscheck_perft.py [--max-nodes N] [--file crates/xiangqi/tests/perft.txt]
  scripts/oracles/crosscheck_perft.py --generate NAME FEN [--max-nodes N]
      prints a data line for a new position, with Chariot's counts at every
      depth up to N nodes, after checking each against fairy-stockfish.

Exits non-zero on any disagreement or if an oracle is missing.
"""
import argparse
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import oracle

MOVE_LINE = re.compile(r"^[a-i][0-9][a-i][0-9]: [0-9]+$")
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def chariot_binary():
    # Always build: a no-op when up to date, and never a stale binary.
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    return os.path.join(ROOT, "target", "release", "chariot")


def fsf_perft(fsf, fen, depth):
    """Runs `go perft depth` in UCCI mode and returns the node count."""
    cmds = f"ucci\nposition fen {fen}\ngo perft {depth}\nquit\n"
    out = subprocess.run([fsf], input=cmds, capture_output=True, text=True, timeout=600).stdout
    for line in out.splitlines():
        if line.startswith("Nodes searched:"):
            return int(line.split(":")[1])
    raise RuntimeError(f"fairy-stockfish gave no perft result for {fen}:\n{out}")


def chariot_perft(binary, fen, depth):
    out = subprocess.run([binary, "perft", str(depth), fen], capture_output=True, text=True,
                         timeout=600, check=True).stdout
    moves = []
    total = None
    for line in out.splitlines():
        if line.startswith("Nodes searched:"):
            total = int(line.split(":")[1])
        elif MOVE_LINE.match(line):
            moves.append(line.split(":")[0])
    return total, moves


def pyffish_root_moves(fen):
    return sorted(oracle.pyffish("crosscheck").legal_moves("xiangqi", fen, []))


def parse_file(path):
    rows = []
    for lineno, line in oracle.data_lines(path):
        name, fen, counts = (part.strip() for part in line.split(";"))
        depths = [tuple(int(x) for x in c.split("=")) for c in counts.split()]
        rows.append((lineno, name, fen, depths))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--file", default=os.path.join(ROOT, "crates", "xiangqi", "tests", "perft.txt"))
    ap.add_argument("--max-nodes", type=int, default=10**12,
                    help="skip depths whose count exceeds this")
    ap.add_argument("--generate", nargs=2, metavar=("NAME", "FEN"))
    args = ap.parse_args()
    fsf = oracle.find_fairy_stockfish("crosscheck")
    binary = chariot_binary()

    if args.generate:
        name, fen = args.generate
        parts = []
        depth = 1
        while True:
            ours, _ = chariot_perft(binary, fen, depth)
            theirs = fsf_perft(fsf, fen, depth)
            if ours != theirs:
                sys.exit(f"MISMATCH {name} depth {depth}: chariot {ours}, fairy-stockfish {theirs}")
            parts.append(f"{depth}={ours}")
            if ours == 0 or ours > args.max_nodes or depth >= 6:
                break
            depth += 1
        print(f"{name} ; {fen} ; {' '.join(parts)}")
        return

    failures = 0
    rows = parse_file(args.file)
    for lineno, name, fen, _ in rows:
        _, ours_root = chariot_perft(binary, fen, 1)
        theirs_root = pyffish_root_moves(fen)
        if sorted(oracle.to_pf(m) for m in ours_root) != theirs_root:
            print(f"MISMATCH line {lineno} {name}: root moves differ from pyffish")
            failures += 1
    # One fairy-stockfish process per count, as many at once as there are
    # cores: the counts are independent, and the biggest take most of the time.
    jobs = [(lineno, name, fen, depth, expected)
            for lineno, name, fen, depths in rows
            for depth, expected in depths if expected <= args.max_nodes]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        counts = pool.map(lambda job: fsf_perft(fsf, fen=job[2], depth=job[3]), jobs)
        for (lineno, name, _, depth, expected), theirs in zip(jobs, counts):
            if theirs != expected:
                print(f"MISMATCH line {lineno} {name} depth {depth}: file {expected}, "
                      f"fairy-stockfish {theirs}")
                failures += 1
    print(f"crosscheck: {len(jobs)} perft counts against fairy-stockfish, root moves of every "
          f"position against pyffish: {failures} mismatch(es)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
