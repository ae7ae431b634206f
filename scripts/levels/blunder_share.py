#!/usr/bin/env python3
"""The share of a limited Chariot's moves that lose 300 cp or more.

Each move of the limited engine is re-analysed by a full-strength Chariot
at a fixed depth (or node count), in the UCI dialect: the position before
the move is searched once for its best score, and once more with
`searchmoves <the move played>` for the score of the move played, at the
same depth. The move's loss is the difference, from the mover's side
(0 when it is the best move). Scores are clamped to +-3000 cp and a mate
counts as 3000, so a missed mate is a blunder and a slower mate is not.

Two sources of moves:

  play (the default): for each level, GAMES games of the limited engine
      against itself from the bundled openings (game i from opening i), up
      to PLIES plies or until the side to move has no legal move; both
      sides' moves count, the opening's moves do not. No book.
  --pgn FILE --player NAME: the games of a chariot-match PGN; the moves of
      the side whose Red/Black tag contains NAME, except `{book}` moves.

Usage:
  scripts/levels/blunder_share.py --elos 800,1600,2400 --games 4
  scripts/levels/blunder_share.py --skills 0,10,19 --games 2 --plies 60
  scripts/levels/blunder_share.py --pgn levels-800-1000.pgn --player elo800
Options: --engine PATH (target/release/chariot), --depth D (8) or --nodes
N for the analysis, --threshold CP (300), --plies (120), --games (4).

It prints a row per level: moves analysed, the share that were the
analysis's best move, the number and share losing at least the threshold,
and the mean loss (each loss capped at 1000 cp).
"""

import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OPENINGS = os.path.join(ROOT, "crates", "chariot-match", "openings", "balanced.txt")
CLAMP = 3000
LOSS_CAP = 1000
MOVE = re.compile(r"^[a-i][0-9][a-i][0-9]$")


class Engine:
    """A Chariot process spoken to in UCI."""

    def __init__(self, path, options):
        self.proc = subprocess.Popen(
            [path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.send("uci")
        self.wait("uciok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.ready()

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait(self, prefix):
        """The lines up to and including the first that starts with prefix."""
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit(f"blunder_share: the engine exited while we waited for '{prefix}'")
            line = line.strip()
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def ready(self):
        self.send("isready")
        self.wait("readyok")

    def new_game(self):
        self.send("ucinewgame")
        self.ready()

    def search(self, position, go):
        """The best move (None if there is none) and the last exact score."""
        self.send(position)
        self.send(go)
        score = None
        for line in self.wait("bestmove"):
            words = line.split()
            if words[:1] == ["bestmove"]:
                best = words[1] if len(words) > 1 and MOVE.match(words[1]) else None
                return best, score
            if words[:2] == ["info", "depth"] and "score" in words:
                if "lowerbound" in words or "upperbound" in words:
                    continue
                if "multipv" in words and words[words.index("multipv") + 1] != "1":
                    continue
                i = words.index("score")
                kind, value = words[i + 1], int(words[i + 2])
                if kind == "mate":
                    score = CLAMP if value > 0 else -CLAMP
                else:
                    score = max(-CLAMP, min(CLAMP, value))
        raise AssertionError("unreachable")

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=10)
        except (BrokenPipeError, subprocess.TimeoutExpired):
            self.proc.kill()


def position_line(start, moves):
    base = "position startpos" if start == "startpos" else f"position fen {start}"
    return base + (" moves " + " ".join(moves) if moves else "")


def loss_of(analyst, start, before, move, go):
    """The centipawns `move` loses in the position after `before`."""
    pos = position_line(start, before)
    best, best_score = analyst.search(pos, go)
    if best is None or best_score is None:
        return None
    if best == move:
        return 0
    _, played = analyst.search(pos, f"{go} searchmoves {move}")
    if played is None:
        return None
    return max(0, best_score - played)


def openings():
    out = []
    with open(OPENINGS) as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if line[:2] == ["startpos", "moves"]:
                out.append(line[2:])
    return out


def play_level(args, level_options, analyst, go):
    """Self-play games at one level; the loss of every move played."""
    player = Engine(args.engine, [("UseBook", "false")] + level_options)
    losses = []
    books = openings()
    try:
        for g in range(args.games):
            moves = list(books[g % len(books)])
            first = len(moves)
            player.new_game()
            analyst.new_game()
            while len(moves) - first < args.plies:
                mv, _ = player.search(position_line("startpos", moves), "go movetime 60000")
                if mv is None:
                    break
                loss = loss_of(analyst, "startpos", moves, mv, go)
                if loss is not None:
                    losses.append(loss)
                moves.append(mv)
            print(f"  game {g + 1}: {len(moves) - first} plies", file=sys.stderr)
    finally:
        player.close()
    return losses


def pgn_games(path):
    """(tags, [(move, from_book)]) for each game of a PGN file."""
    text = open(path).read()
    games = []
    for block in re.split(r"\n\s*\n(?=\[)", text):
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', block, re.M))
        body = "\n".join(l for l in block.splitlines() if not l.startswith("["))
        tokens = re.findall(r"\{[^}]*\}|[^\s{}]+", body)
        moves = []
        for t in tokens:
            if MOVE.match(t):
                moves.append([t, False])
            elif t == "{book}" and moves:
                moves[-1][1] = True
        if tags:
            games.append((tags, moves))
    return games


def pgn_losses(args, analyst, go):
    losses = []
    for tags, moves in pgn_games(args.pgn):
        start = tags.get("FEN", "startpos")
        red_to_move = len(start.split()) < 2 or start.split()[1].lower() in ("w", "r")
        if args.player in tags.get("Red", ""):
            ours = 0 if red_to_move else 1
        elif args.player in tags.get("Black", ""):
            ours = 1 if red_to_move else 0
        else:
            continue
        analyst.new_game()
        for i, (mv, book) in enumerate(moves):
            if i % 2 == ours and not book:
                loss = loss_of(analyst, start, [m for m, _ in moves[:i]], mv, go)
                if loss is not None:
                    losses.append(loss)
    return losses


def row(label, losses, threshold):
    n = len(losses)
    if n == 0:
        return f"{label:<14} {0:>6}  (no moves)"
    best = sum(1 for x in losses if x == 0)
    blunders = sum(1 for x in losses if x >= threshold)
    mean = sum(min(x, LOSS_CAP) for x in losses) / n
    return (
        f"{label:<14} {n:>6} {100 * best / n:>6.1f}% {blunders:>9} "
        f"{100 * blunders / n:>6.1f}% {mean:>8.1f}"
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "chariot"))
    ap.add_argument("--elos", help="UCI_Elo levels, comma-separated")
    ap.add_argument("--skills", help="Skill Level values, comma-separated")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--plies", type=int, default=120)
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--nodes", type=int)
    ap.add_argument("--threshold", type=int, default=300)
    ap.add_argument("--pgn")
    ap.add_argument("--player")
    args = ap.parse_args()
    if not os.access(args.engine, os.X_OK):
        sys.exit(f"blunder_share: no engine at {args.engine} (cargo build --release)")
    go = f"go nodes {args.nodes}" if args.nodes else f"go depth {args.depth}"
    analyst = Engine(args.engine, [("UseBook", "false"), ("Threads", "1")])
    header = f"{'level':<14} {'moves':>6} {'best':>7} {'>=' + str(args.threshold) + 'cp':>9} {'share':>7} {'meanloss':>8}"
    try:
        if args.pgn:
            if not args.player:
                sys.exit("blunder_share: --pgn needs --player NAME")
            losses = pgn_losses(args, analyst, go)
            print(f"analysis: {go}")
            print(header)
            print(row(args.player, losses, args.threshold))
            return
        levels = []
        for e in filter(None, (args.elos or "").split(",")):
            levels.append((f"elo {e}", [("UCI_LimitStrength", "true"), ("UCI_Elo", e)]))
        for s in filter(None, (args.skills or "").split(",")):
            if int(s) >= 20:
                sys.exit("blunder_share: Skill Level 20 is full strength, not a level")
            levels.append((f"skill {s}", [("Skill Level", s)]))
        if not levels:
            sys.exit("blunder_share: give --elos, --skills, or --pgn with --player")
        rows = []
        for label, options in levels:
            print(f"{label}: {args.games} games", file=sys.stderr)
            rows.append(row(label, play_level(args, options, analyst, go), args.threshold))
        print(f"analysis: {go}; self-play, up to {args.plies} plies a game")
        print(header)
        for r in rows:
            print(r)
    finally:
        analyst.close()


if __name__ == "__main__":
    main()
