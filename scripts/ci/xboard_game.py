#!/usr/bin/env python3
"""A whole game in XBoard under Xvfb: Chariot through Debian's uci2wb in
UCCI mode (`-x`, first engine, Red) against Chariot through uci2wb in UCI
mode (`-c`, second engine, Black), as docs/PROTOCOL.md loads it.

Each engine runs under a wrapper that keeps its stderr with RUST_LOG=debug,
where Chariot logs every `setoption` it stores. The check is on what each
engine received, not on the game's outcome: every option that the engine's
own handshake lists (combos, spins, check boxes) must arrive with its
default value, except those a GUI sets for its own reasons (the hash size,
the thread count, pondering and the like, listed in GUI_SET). XBoard sends
back each combo's first entry when uci2wb marks no default: Chariot lists
each combo's default first, and this catches a handshake that does not.

It also prints each side's mean and median depth from XBoard's PGN
comments ({score/depth time}), a report only: a side that plays on
`pruning none` and `knowledge none` searches half as deep.

Exits 0 when the game ended with a result, both engines logged their
settings and none arrived off its default; 1 otherwise; 77 when xboard,
uci2wb or xvfb-run is missing (scripts/oracles/setup_oracles.sh installs
them).

Usage: scripts/ci/xboard_game.py [--engine target/release/chariot] [--tc 0:20]
                                 [--pgn game.pgn]
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

XBOARD = "/usr/games/xboard"
UCI2WB = "/usr/games/uci2wb"
# Options a GUI or uci2wb sets from its own settings, whatever the default.
GUI_SET = {"usemillisec", "hashsize", "hash", "threads", "ponder", "newgame",
           "clearhash", "debug", "multipv", "uci_variant"}


def handshake_defaults(engine, dialect):
    """{option name in lower case: default} from the engine's handshake."""
    out = subprocess.run([engine], input=f"{dialect}\nquit\n", capture_output=True,
                         text=True, timeout=30, check=True).stdout
    defaults = {}
    for line in out.splitlines():
        if dialect == "uci":
            m = re.match(r"option name (.+?) type (\w+)(?: default (\S*))?", line)
        else:
            m = re.match(r"option (\S+) type (\w+)(?: .*?default (\S*))?", line)
        if m and m.group(2) != "button":
            defaults[m.group(1).lower()] = m.group(3)
    return defaults


def received(log_path):
    """[(name, value)] of each `setoption` the engine logged as stored."""
    pairs = []
    with open(log_path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.search(r"\bsetoption (.*)$", line.rstrip())
            if not m:
                continue
            words = m.group(1).split()
            if words[:1] == ["name"] and "value" in words:
                at = words.index("value")
                pairs.append((" ".join(words[1:at]), " ".join(words[at + 1:])))
            elif len(words) >= 2:
                pairs.append((words[0], " ".join(words[1:])))
    return pairs


def depths(pgn):
    """{"Red"/"Black": [depth of each searched move]} from XBoard's comments
    ({score/depth time}), each given to the side of the move before it (book
    moves have none, so comments cannot be counted off in pairs)."""
    movetext = "\n".join(l for l in pgn.splitlines() if not l.startswith("["))
    by_side = {"Red": [], "Black": []}
    side, last = "Red", None
    for tok in re.findall(r"\{[^}]*\}|\d+\.(?:\.\.)?|\S+", movetext):
        if tok.startswith("{"):
            m = re.match(r"\{[+-]?[#\d.]+/(\d+)\b", tok)
            if m and last:
                by_side[last].append(int(m.group(1)))
        elif re.fullmatch(r"\d+\.", tok):
            side = "Red"
        elif re.fullmatch(r"\d+\.\.\.", tok):
            side = "Black"
        elif tok not in ("1-0", "0-1", "1/2-1/2", "*"):
            last, side = side, "Black" if side == "Red" else "Red"
    return by_side


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default="target/release/chariot")
    ap.add_argument("--tc", default="0:20", help="XBoard's -tc, each side's clock")
    ap.add_argument("--pgn", help="keep XBoard's PGN of the game here")
    args = ap.parse_args()
    missing = [p for p in (XBOARD, UCI2WB) if not os.access(p, os.X_OK)]
    if not shutil.which("xvfb-run"):
        missing.append("xvfb-run")
    if missing:
        print(f"xboard_game: missing {', '.join(missing)}: apt-get install xboard uci2wb xvfb",
              file=sys.stderr)
        return 77
    engine = os.path.abspath(args.engine)
    work = tempfile.mkdtemp(prefix="chariot-xboard.")
    try:
        for dialect in ("ucci", "uci"):
            wrapper = os.path.join(work, f"chariot-{dialect}")
            with open(wrapper, "w", encoding="utf-8") as f:
                f.write(f'#!/bin/sh\nRUST_LOG=debug exec "{engine}" 2>>"{work}/{dialect}.log"\n')
            os.chmod(wrapper, 0o755)
            open(os.path.join(work, f"{dialect}.log"), "w", encoding="utf-8").close()
        pgn_path = os.path.join(work, "game.pgn")
        cmd = ["xvfb-run", "-a", XBOARD, "-variant", "xiangqi",
               "-fcp", f"{UCI2WB} -x ./chariot-ucci", "-fd", work,
               "-scp", f"{UCI2WB} -c ./chariot-uci", "-sd", work,
               "-tc", args.tc, "-matchGames", "1", "-saveGameFile", pgn_path,
               "-popupExitMessage", "false", "-debug", "-nameOfDebugFile",
               os.path.join(work, "xboard.debug")]
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=900, check=False)
        pgn = open(pgn_path, encoding="utf-8", errors="replace").read() \
            if os.path.exists(pgn_path) else ""
        if args.pgn and pgn:
            with open(args.pgn, "w", encoding="utf-8") as f:
                f.write(pgn)
        result = re.search(r'\[Result "([^"]*)"\]', pgn)
        faults = []
        if not result or result.group(1) not in ("1-0", "0-1", "1/2-1/2"):
            faults.append(f"no game result (xboard exit {run.returncode}): "
                          f"{run.stderr.strip()[-500:]}")
        by_side = depths(pgn)
        for dialect, side in (("ucci", "Red"), ("uci", "Black")):
            defaults = handshake_defaults(engine, dialect)
            got = received(os.path.join(work, f"{dialect}.log"))
            if not got:
                faults.append(f"{dialect}: the engine logged no setoption")
            off = [(n, v) for n, v in got
                   if n.lower() in defaults and n.lower().replace(" ", "") not in GUI_SET
                   and n.lower() not in GUI_SET and v != defaults[n.lower()]]
            for n, v in off:
                faults.append(f"{dialect}: {n} arrived as {v!r}, its default is "
                              f"{defaults[n.lower()]!r}")
            d = by_side[side]
            shown = ", ".join(f"{n}={v}" for n, v in got)
            print(f"{dialect} ({side}): received {shown}")
            if d:
                print(f"{dialect} ({side}): {len(d)} moves searched, depth mean "
                      f"{statistics.mean(d):.1f}, median {statistics.median(d)}")
        if result:
            print(f"result {result.group(1)}")
        for f in faults:
            print(f"xboard_game: {f}", file=sys.stderr)
        return 1 if faults else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
