#!/usr/bin/env python3
"""Calibration games for Chariot's strength levels against a fixed pool of
outside opponents (fairy-stockfish at several skill settings).

Every player (a level `eloE`, or an ElephantEye combination of
`knowledge`/`pruning`/`randomness`) plays the NEAREST pool members whose
guessed rating is closest to its own guess, GAMES games each; the pool
members also play each neighbour in the pool, POOL_GAMES games each, so
that their ratings do not rest on Chariot's games alone. No level's
figure depends on a chain of Chariot's own levels: the ladder of one
engine at growing budgets stretches the scale (docs/PROTOCOL.md).

Every game runs at one fixed node count per move (--nodes, default
60,000, above the strongest level's budget, so that every level's own
budget binds and the pool searches exactly that much): no clock, so the
results do not depend on the machine's load and may share the cores with
other work. The guesses only choose the pairings; the ratings come from
scripts/levels/levels_table.py over the PGNs, with the anchor held at its rating.

Each pairing's games go to DIR/<player>.pgn with a result file beside
it: an interrupted run resumes where it stopped, playing only the missing
games.

Usage:
  scripts/levels/levels_pool.py --dir DIR [--elos "790 980 ..."] [--combos]
                         [--only NAME,...] [--games 60] [--nearest 2] [--pool-games 40]
                         [--nodes 60000] [-j 2] [--pool FILE] [--engine PATH]
                         [--openings FILE --seed N]
  scripts/levels/levels_table.py --anchor fsf-elo1350=1350 DIR/*.pgn
"""

import argparse
import os
import shlex
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def read_players(path):
    """(name, guess, engine words) per line of a pool or player file."""
    out = []
    try:
        f = open(path, encoding="utf-8")
    except OSError as e:
        sys.exit(f"levels_pool.py: cannot read {path}: {e.strerror}")
    with f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            words = shlex.split(line)
            try:
                out.append((words[0], float(words[1]), words[2:]))
            except (IndexError, ValueError):
                sys.exit(f"levels_pool.py: {path}:{number}: want NAME GUESS ENGINE-WORDS...")
    return out


def nearest(pool, guess, k):
    return sorted(pool, key=lambda p: (abs(p[1] - guess), p[1]))[:k]


def play(runner, first, others, games, args, stem):
    """A gauntlet of `first` against `others`, resumed from its result file."""
    cmd = [runner]
    for name, _, words in [first] + others:
        cmd += ["--engine", f"name={name}"] + words
    if args.openings:
        cmd += ["--openings", args.openings, "--shuffle", "--seed", str(args.seed)]
    cmd += ["--format", "gauntlet", "--games", str(games), "--nodes", str(args.nodes),
            "-j", str(args.jobs), "--pgn", f"{stem}.pgn", "--results", f"{stem}.results",
            "--event", "Chariot levels calibration"]
    print("levels_pool.py: " + first[0] + " against " + ", ".join(o[0] for o in others),
          file=sys.stderr, flush=True)
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL)
    if done.returncode != 0:
        sys.exit(f"levels_pool.py: the match {stem} failed (exit status {done.returncode})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", required=True, help="where the PGNs and result files go")
    ap.add_argument("--pool", default=os.path.join(HERE, "levels_pool.txt"))
    ap.add_argument("--elos", default="790 980 1260 1540 1780 2000 2240 2440 2650 2840 2980",
                    help="the levels to measure, by UCI_Elo")
    ap.add_argument("--combos", action="store_true",
                    help="also ElephantEye's combinations (scripts/levels/levels_elephanteye.txt)")
    ap.add_argument("--only", default="",
                    help="play only these players (comma-separated names, e.g. ee-kl-pn-rn)")
    ap.add_argument("--games", type=int, default=60, help="games per level and pool member")
    ap.add_argument("--nearest", type=int, default=2, help="pool members each player meets")
    ap.add_argument("--pool-games", type=int, default=40, help="games per pair of neighbours")
    ap.add_argument("--nodes", type=int, default=60000)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--engine", help="the Chariot binary to measure (a copy is played); "
                    "default: this tree's release build, built first")
    ap.add_argument("--openings", help="an opening file (e.g. a wide suite), played shuffled "
                    "by --seed; default: the runner's bundled balanced openings in order")
    ap.add_argument("--seed", type=int, default=1, help="the shuffle's seed for --openings")
    args = ap.parse_args()
    if args.games < 2 or args.games % 2 or args.pool_games % 2:
        sys.exit("levels_pool.py: games come in pairs with colours swapped: give even counts")
    pool = sorted(read_players(args.pool), key=lambda p: p[1])
    os.makedirs(args.dir, exist_ok=True)

    engine = args.engine
    if engine is None:
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
        engine = os.path.join(ROOT, "target", "release", "chariot")
    # Play a copy, so that rebuilding during the matches changes nothing.
    chariot = os.path.join(os.path.abspath(args.dir), "chariot")
    shutil.copy(engine, chariot)
    runner = subprocess.run([os.path.join(ROOT, "scripts", "match", "referee.sh")], check=True,
                            capture_output=True, text=True).stdout.strip()

    base = [f"cmd={chariot}", "option.usebook=false"]
    players = []
    for e in args.elos.split():
        if not e.isdigit():
            sys.exit(f"levels_pool.py: --elos takes whole numbers, not {e!r}")
        players.append((f"elo{e}", float(e),
                        base + ["option.limitstrength=true", f"option.elo={e}"]))
    if args.combos:
        for name, guess, words in read_players(os.path.join(HERE, "levels_elephanteye.txt")):
            players.append((name, guess, base + words))

    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {p[0] for p in players}
        if unknown:
            sys.exit("levels_pool.py: --only names no such player: " + ", ".join(sorted(unknown)))
        players = [p for p in players if p[0] in wanted]
    if args.pool_games:
        for low, high in zip(pool, pool[1:]):
            play(runner, high, [low], args.pool_games, args,
                 os.path.join(args.dir, f"pool-{high[0]}-{low[0]}"))
    for player in players:
        play(runner, player, nearest(pool, player[1], args.nearest), args.games, args,
             os.path.join(args.dir, player[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
