#!/usr/bin/env python3
"""Make and verify the tactics suite tests/tactics.txt with fairy-stockfish.

Every line of tests/tactics.txt is
    <FEN> ; <kind> ; <accepted moves> ; <note>
where kind is `mate N` (the side to move mates in N moves, N = 1..7) or `win`
(one move, or a few equivalent ones, win clearly more material than every
other move). Moves are ICCS with ranks 0-9.

The accepted moves come from Debian's fairy-stockfish in UCCI mode (ranks
0-9), one thread, 16 MB hash cleared before each position, Contempt 0, with
MultiPV set to the number of legal moves so that every root move gets its own
exact score at a fixed depth (2N + MATE_DEPTH_EXTRA for `mate N`, WIN_DEPTH). Single-threaded
fixed-depth searches from a cleared hash are deterministic, so --verify
recomputes exactly what --build wrote.
  * `mate N`: fairy-stockfish's best root move scores `mate N`; the accepted
    moves are all root moves scoring `mate K` with K <= N. Its pruned search
    may report a longer mate than the shortest for a root move (seen while
    making this suite: mates in 4 reported as mates in 5 to 7, a mate in 5
    as a mate in 6), so the accepted moves must also be exactly those an
    exhaustive search finds (crates/xiangqi/examples/mate_check.rs: every legal move, no
    pruning, on Chariot's move generator, which perft proves equal to
    fairy-stockfish's and pyffish's; positions are taken without history, so
    no repetition). A position where the two disagree, or where the
    exhaustive search needs more than EXACT_BUDGET nodes, is not used; but a
    mate in EXACT_OPTIONAL_FROM or more that is out of the exhaustive
    search's reach is kept when fairy-stockfish gives the same answer at
    2 * STABILITY_EXTRA plies more.
  * `win`: the accepted moves are those within WIN_MARGIN cp of the best, no
    root move mates, the best scores at least WIN_MIN_BEST, and every other
    root move scores at least WIN_GAP cp below the worst accepted one, at
    most WIN_MAX_ALTERNATIVE (the position is not won anyway) and is not
    mated (the best move is not a mere only-move defence). The best move is
    not one a depth-1 search already separates (a plain capture of a hanging
    piece or a recapture). Candidates whose first three lines at WIN_DEPTH
    are far (PREFILTER_SLACK) from that shape are skipped before the costly
    analysis of every move.
Legality (FEN and every accepted move) is checked with pyffish (ranks 1-10,
converted).

Pipeline (deterministic: fixed seeds, fixed depths, no time limits):
  1. mine: games of fairy-stockfish against itself from the start position.
     Each ply is a depth-MINE_DEPTH MultiPV-3 search; the move played is a
     seeded random choice: mostly the best line, sometimes the second or
     third, and with probability BLUNDER_RATE a random legal move (so that the
     other side gets tactics to find). Every position and its three lines go
     to a JSON-lines file.
  2. build: candidates are mined positions whose best line is a mate in 1..7,
     or beats the second line by WIN_GAP cp; the same side's positions 2 to
     10 plies before a mate are probed at DEEP_PROBE_DEPTH for mates in 4..7
     (at most MAX_PROBES of them). Each candidate is analysed with MultiPV
     over all legal moves and kept only if the answer is stable at a deeper
     search (STABILITY_EXTRA plies more), agrees with the exact check (mates)
     and has few accepted moves (MAX_ACCEPTED_*). Candidates are taken in a
     seeded order (probes, mates, then wins; at most PER_GAME per game, at
     least MIN_PLY_DISTANCE plies apart) until every quota in QUOTAS is
     filled; a shortfall of deep mates is made up with mates in 1..3 and
     wins. The suite is written to tests/tactics.txt. Every analysis is kept
     in target/tactics/analyses.jsonl and exact.jsonl (next to --mined) and
     reused by later builds (the searches are deterministic; delete them to
     redo them).
  3. verify: re-analyses every line from scratch with the build's own checks
     (fairy-stockfish at both depths, and the exact check for mates) and
     compares kind, N and the accepted moves exactly; checks
     legality with pyffish and the suite's shape (at least MIN_POSITIONS
     lines, the MIN_COUNTS minimums). Exits 1 on any mismatch.

Usage (nice: the machine is shared; only one fairy-stockfish runs at a time):
  nice -n 10 scripts/data/make_tactics.py --mine [--games 720] [--seed 1]
      [--mined target/tactics/mined.jsonl]
      (games already in the file are kept: delete it to start afresh; game g
      always plays the same way for a given seed)
  nice -n 10 scripts/data/make_tactics.py --build [--mined target/tactics/mined.jsonl]
      [--seed 1] [--file tests/tactics.txt]
  nice -n 10 scripts/data/make_tactics.py --verify [--file tests/tactics.txt]
  nice -n 10 scripts/data/make_tactics.py --show FEN [--depth D]
      (every legal move's score, for inspecting one position)

tests/tactics.txt was made with
  nice -n 10 scripts/data/make_tactics.py --mine --games 720 --seed 1
  nice -n 10 scripts/data/make_tactics.py --build --seed 1
and is checked with
  nice -n 10 scripts/data/make_tactics.py --verify
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import time

# The shared helpers are in scripts/oracles/.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "oracles"))
import oracle
from oracle import find_fairy_stockfish, from_pf, to_pf

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
VARIANT = "xiangqi"
START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

ICCS_RE = re.compile(r"^[a-i][0-9][a-i][0-9]$")

# Scores: centipawns, or MATE_SCORE - plies-ish encodings of `mate K`.
MATE_SCORE = 100_000

# Mining.
MINE_DEPTH = 7
MINE_MULTIPV = 3
BLUNDER_RATE = 0.12
MAX_PLIES = 240

# Analysis depths: a `mate N` line is verified at depth 2N + MATE_DEPTH_EXTRA,
# a `win` line at WIN_DEPTH; build also requires the same answer at
# STABILITY_EXTRA more plies.
MATE_DEPTH_EXTRA = 4
WIN_DEPTH = 10
STABILITY_EXTRA = 4
DEEP_PROBE_DEPTH = 16
MAX_MATE = 7
# Node budget of the exact mate check per position (crates/xiangqi/examples/mate_check.rs).
EXACT_BUDGET = 30_000_000
# Mates this long may exceed that budget; they are then taken on
# fairy-stockfish's word alone, at 2 * STABILITY_EXTRA plies more.
EXACT_OPTIONAL_FROM = 7

# Win criteria (fairy-stockfish centipawns; its horse is worth about 200-250).
WIN_MARGIN = 30
WIN_GAP = 250
WIN_MIN_BEST = 150  # with the tactic the side to move is clearly better
WIN_MAX_ALTERNATIVE = 250  # without it, it is not already winning
TRIVIAL_GAP = 150  # a depth-1 search separating the move by this much: not a tactic
PREFILTER_SLACK = 100  # leniency of the cheap MultiPV-3 filter before the full analysis

# The suite's shape.
QUOTAS = {"mate 1": 8, "mate 2": 8, "mate 3": 8, "mate 4": 8, "mate 5": 7,
          "mate 6": 6, "mate 7": 6, "win": 26}
MIN_COUNTS = {"mate 1": 5, "mate 2": 5, "mate 3": 5, "mate 4": 1, "mate 5": 1,
              "mate 6": 1, "mate 7": 1, "win": 20}
MIN_POSITIONS = 70
PER_GAME = 2
PROBE_BACK = (2, 4, 6, 8, 10)
MAX_PROBES = 400
# Discriminating positions only: at most this many accepted moves.
MAX_ACCEPTED_MATE = 3
MAX_ACCEPTED_WIN = 2
MIN_PLY_DISTANCE = 12


# ---------------------------------------------------------------- moves, FEN

def pyffish():
    return oracle.pyffish("make_tactics")


def legal_moves(fen):
    return sorted(from_pf(m) for m in pyffish().legal_moves(VARIANT, fen, []))


def normalize_fen(fen):
    """The position only: counters reset (no history comes with a test position)."""
    fields = fen.split()
    return " ".join(fields[:2] + ["-", "-", "0", "1"])


def fen_after(fen, moves):
    return pyffish().get_fen(VARIANT, fen, [to_pf(m) for m in moves])


def side_name(fen):
    return "Red" if fen.split()[1] in ("w", "r") else "Black"


# ------------------------------------------------------------ fairy-stockfish

def parse_score(tokens, i):
    """Score at tokens[i:] ('cp X' or 'mate K'), as one comparable integer."""
    kind, value = tokens[i], int(tokens[i + 1])
    if kind == "cp":
        return value
    if kind == "mate":
        return MATE_SCORE - value if value > 0 else -MATE_SCORE - value
    raise ValueError(f"bad score {kind} {value}")


def mate_in(score):
    """Moves to mate for the side to move, or None."""
    if score > MATE_SCORE // 2:
        return MATE_SCORE - score
    return None


def fmt_score(score):
    if score > MATE_SCORE // 2:
        return f"mate {MATE_SCORE - score}"
    if score < -MATE_SCORE // 2:
        return f"mate -{MATE_SCORE + score}"
    return f"cp {score}"


class Cache:
    """Answers of a deterministic oracle by key, kept in a JSON-lines file of
    {"key": ..., "answer": ...} records that later runs read back and extend;
    with no path, nothing is kept (every question is asked afresh)."""

    def __init__(self, path=None):
        self.answers = {}
        self.file = None
        if path:
            if os.path.exists(path):
                with open(path) as fh:
                    for raw in fh:
                        rec = json.loads(raw)
                        self.answers[rec["key"]] = rec["answer"]
            self.file = open(path, "a")

    def get(self, key, ask):
        """The answer for `key`, from the file or else from `ask()`."""
        if key in self.answers:
            return self.answers[key]
        answer = ask()
        if self.file:
            self.answers[key] = answer
            self.file.write(json.dumps({"key": key, "answer": answer}) + "\n")
            self.file.flush()
        return answer

    def close(self):
        if self.file:
            self.file.close()


class Fsf:
    """One fairy-stockfish process in UCCI mode."""

    def __init__(self, cache_path=None):
        """cache_path: a JSON-lines file of earlier analyses to reuse and extend
        (build only: the searches are deterministic, so reruns can skip them;
        verify always searches)."""
        self.cache = Cache(cache_path)
        path = find_fairy_stockfish("make_tactics")
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.send("ucci")
        self.until(lambda l: l == "ucciok")
        for opt in ("Threads 1", "Hash 16", "Contempt 0", "MultiPV 1"):
            self.send(f"setoption {opt}")
        self.sync()

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def readline(self):
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("fairy-stockfish exited")
        return line.strip()

    def until(self, pred):
        lines = []
        while True:
            line = self.readline()
            lines.append(line)
            if pred(line):
                return lines

    def sync(self):
        self.send("isready")
        self.until(lambda l: l == "readyok")

    def close(self):
        self.cache.close()
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()

    def analyse(self, fen, depth, multipv):
        """Searches `fen` to `depth` from a cleared hash with `multipv` lines.

        Returns (lines, bestmove): lines is a list of (move, score, pv) of the
        last completed iteration, best first; multipv is capped at the number
        of legal moves by the engine.
        """
        lines, best = self.cache.get(f"{fen}|{depth}|{multipv}",
                                     lambda: self.search(fen, depth, multipv))
        # JSON keeps tuples as lists.
        return [tuple(line) for line in lines], best

    def search(self, fen, depth, multipv):
        self.send("setoption Clear_Hash")
        self.send(f"setoption MultiPV {multipv}")
        self.send(f"position fen {fen}")
        self.send(f"go depth {depth}")
        blocks = []
        best = None
        for line in self.until(lambda l: l.startswith("bestmove") or l == "nobestmove"):
            tokens = line.split()
            if line.startswith("bestmove"):
                best = tokens[1]
                continue
            if not tokens or tokens[0] != "info" or "multipv" not in tokens or "pv" not in tokens:
                continue
            d = int(tokens[tokens.index("depth") + 1])
            k = int(tokens[tokens.index("multipv") + 1])
            score = parse_score(tokens, tokens.index("score") + 1)
            pv = tokens[tokens.index("pv") + 1:]
            if k == 1:
                blocks.append([])
            if blocks:
                blocks[-1].append((d, pv[0], score, pv))
        if not blocks:
            return [], best
        last = blocks[-1]
        if any(d != depth for d, *_ in last):
            raise RuntimeError(f"incomplete final iteration for {fen} at depth {depth}")
        return [(m, s, pv) for _, m, s, pv in last], best


# ------------------------------------------------------------------ analysis

def analyse_all(fsf, fen, depth):
    """Every legal root move with its score at `depth`, best first."""
    moves = legal_moves(fen)
    lines, _ = fsf.analyse(fen, depth, max(1, len(moves)))
    got = sorted(m for m, _, _ in lines)
    if got != moves:
        raise RuntimeError(f"fairy-stockfish root moves differ from pyffish's for {fen}: "
                           f"{sorted(set(got) ^ set(moves))}")
    return lines


def mate_depth(n):
    return 2 * n + MATE_DEPTH_EXTRA


def classify_mate(fsf, fen, n, extra=0):
    """The `mate N` answer at the verification depth (plus `extra`):
    (N, moves, pv, the fastest mate of any other move or None) or None."""
    lines = analyse_all(fsf, fen, mate_depth(n) + extra)
    best = mate_in(lines[0][1])
    if best is None or best > MAX_MATE:
        return None
    accepted = sorted(m for m, s, _ in lines if mate_in(s) is not None and mate_in(s) <= best)
    others = [mate_in(s) for m, s, _ in lines if m not in accepted and mate_in(s) is not None]
    return best, accepted, lines[0][2], min(others, default=None)


def mate_answer(fsf, exact, fen, hint):
    """Settles N (the verification depth depends on it), checks stability and
    that the exact check agrees."""
    n = hint
    for _ in range(3):
        got = classify_mate(fsf, fen, n)
        if got is None:
            return None
        if got[0] == n:
            deeper = classify_mate(fsf, fen, n, STABILITY_EXTRA)
            if deeper is None or deeper[:2] != got[:2]:
                return None
            verdict = exact.check(fen, n)
            if verdict == ("unknown",) and n >= EXACT_OPTIONAL_FROM:
                # Out of the exhaustive search's reach: fairy-stockfish must
                # give the same answer at a still greater depth.
                deepest = classify_mate(fsf, fen, n, 2 * STABILITY_EXTRA)
                if deepest is None or deepest[:2] != got[:2]:
                    return None
                return got
            if verdict != ("mate", n, got[1]):
                return None
            return got
        n = got[0]
    return None


class Exact:
    """crates/xiangqi/examples/mate_check.rs: an exhaustive AND/OR search (every legal move,
    no pruning) on Chariot's move generator, which perft proves equal to
    fairy-stockfish's and pyffish's. It finds every root move mating in <= N
    and the shortest mate, or gives up after EXACT_BUDGET nodes."""

    def __init__(self, cache_path=None):
        subprocess.run(["cargo", "build", "--release", "--quiet", "-p", "xiangqi", "--example", "mate_check"],
                       cwd=ROOT, check=True)
        binary = os.path.join(ROOT, "target", "release", "examples", "mate_check")
        self.proc = subprocess.Popen([binary, str(EXACT_BUDGET)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)
        self.cache = Cache(cache_path)

    def ask(self, fen, n):
        self.proc.stdin.write(f"{fen} ; {n}\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline().strip()
        if not answer:
            raise RuntimeError("mate_check exited")
        return answer

    def raw(self, fen, n):
        return self.cache.get(f"{fen}|{n}|{EXACT_BUDGET}", lambda: self.ask(fen, n))

    def check(self, fen, n):
        """("mate", K, sorted moves mating in <= n), ("none",), ("unknown",) or ("error", text)."""
        answer = self.raw(fen, n)
        if answer.startswith("mate "):
            head, moves = answer.split(" ; ")
            return ("mate", int(head.split()[1]), sorted(moves.split()))
        if answer in ("none", "unknown"):
            return (answer,)
        return ("error", answer)

    def close(self):
        self.cache.close()
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def classify_win(fsf, fen, depth):
    """The `win` answer at `depth`: (moves, lines) or None.

    The best move must leave the side to move clearly better (WIN_MIN_BEST),
    every other move must score WIN_GAP below it without being already winning
    (WIN_MAX_ALTERNATIVE) and without being mated (so the best move is not a
    mere only-move defence).
    """
    lines = analyse_all(fsf, fen, depth)
    best = lines[0][1]
    if abs(best) > MATE_SCORE // 2 or best < WIN_MIN_BEST:
        return None
    accepted = [(m, s) for m, s, _ in lines if s >= best - WIN_MARGIN]
    rest = [s for m, s, _ in lines if s < best - WIN_MARGIN]
    if not rest:
        return None
    second = max(rest)
    if (second > min(s for _, s in accepted) - WIN_GAP or second > WIN_MAX_ALTERNATIVE
            or abs(second) > MATE_SCORE // 2):
        return None
    return sorted(m for m, _ in accepted), lines


def promising_win(fsf, fen):
    """A cheap filter before the MultiPV-over-every-move analyses: the first
    MAX_ACCEPTED_WIN + 1 lines at WIN_DEPTH must come near the `win` shape
    (within PREFILTER_SLACK cp). Lenient: classify_win decides."""
    lines, _ = fsf.analyse(fen, WIN_DEPTH, MAX_ACCEPTED_WIN + 1)
    best = lines[0][1]
    if abs(best) > MATE_SCORE // 2 or best < WIN_MIN_BEST - PREFILTER_SLACK:
        return False
    rest = [s for _, s, _ in lines if s < best - WIN_MARGIN]
    return bool(rest) and rest[0] <= best - WIN_GAP + PREFILTER_SLACK


def win_answer(fsf, fen):
    if not promising_win(fsf, fen):
        return None
    got = classify_win(fsf, fen, WIN_DEPTH)
    if got is None:
        return None
    accepted, lines = got
    # Not a tactic if a depth-1 search (one move and the reply's captures)
    # already separates it: a hanging piece taken or a recapture.
    shallow = analyse_all(fsf, fen, 1)
    if shallow[0][0] in accepted:
        rest = [s for m, s, _ in shallow if m not in accepted]
        if not rest or shallow[0][1] - max(rest) >= TRIVIAL_GAP:
            return None
    deeper = classify_win(fsf, fen, WIN_DEPTH + STABILITY_EXTRA)
    if deeper is None or deeper[0] != accepted:
        return None
    return accepted, lines


# --------------------------------------------------------------------- notes

VALUES = {"r": 9, "n": 4, "c": 4.5, "a": 2, "b": 2, "p": 1, "k": 0}


def material(fen):
    """Red minus Black in rough pawn units."""
    total = 0.0
    for ch in fen.split()[0]:
        if ch.lower() in VALUES:
            v = VALUES[ch.lower()]
            total += v if ch.isupper() else -v
    return total


def motif(fen, move):
    pf = pyffish()
    tags = []
    if pf.is_capture(VARIANT, fen, [], to_pf(move)):
        tags.append("capture")
    if pf.gives_check(VARIANT, fen, [to_pf(move)]):
        tags.append("check")
    return "+".join(tags) if tags else "quiet"


def legal_prefix(fen, pv):
    """The longest prefix of pv that is legal (pv moves are fairy-stockfish's)."""
    pf = pyffish()
    played = []
    for m in pv:
        if to_pf(m) not in pf.legal_moves(VARIANT, fen, [to_pf(x) for x in played]):
            break
        played.append(m)
    return played


def mate_note(fen, n, pv):
    pv = legal_prefix(fen, pv)[: 2 * n - 1]
    return f"{side_name(fen)} mates in {n} ({motif(fen, pv[0])} first): {' '.join(pv)}"


def win_note(fen, accepted, lines):
    best = lines[0]
    second = max((s for m, s, _ in lines if m not in accepted))
    pv = legal_prefix(fen, best[2])[:8]
    sign = 1 if side_name(fen) == "Red" else -1
    gain = sign * (material(fen_after(fen, pv)) - material(fen))
    return (f"{side_name(fen)} wins ({motif(fen, best[0])} first, cp {best[1]} vs {second} "
            f"for the next move at depth {WIN_DEPTH}, material {gain:+g} after pv): "
            f"{' '.join(pv)}")


# ---------------------------------------------------------------------- mine

def mine(args):
    """Plays games 0..--games-1; games already in --mined are kept (each game's
    positions are written when it ends, so the file only holds whole games)."""
    os.makedirs(os.path.dirname(os.path.abspath(args.mined)), exist_ok=True)
    done = set(load_mined(args.mined)) if os.path.exists(args.mined) else set()
    pf = pyffish()
    fsf = Fsf()
    t0 = time.time()
    with open(args.mined, "a") as out:
        for g in range(args.games):
            if g in done:
                continue
            rng = random.Random(args.seed * 1_000_003 + g)
            moves = []
            records = []
            fen = START_FEN
            opening = rng.randint(2, 8)
            for ply in range(MAX_PLIES):
                legal = legal_moves(fen)
                if not legal:
                    break
                if ply and pf.is_optional_game_end(VARIANT, START_FEN,
                                                   [to_pf(m) for m in moves])[0]:
                    break
                if ply < opening:
                    lines, _ = fsf.analyse(normalize_fen(fen), 4, 6)
                    choice = rng.choice(lines)[0]
                else:
                    lines, _ = fsf.analyse(normalize_fen(fen), MINE_DEPTH, MINE_MULTIPV)
                    records.append({"game": g, "ply": ply, "fen": normalize_fen(fen),
                                    "lines": [[m, s] for m, s, _ in lines]})
                    r = rng.random()
                    if r < BLUNDER_RATE:
                        choice = rng.choice(legal)
                    else:
                        good = [m for m, s, _ in lines if s >= lines[0][1] - 150]
                        weights = [0.7, 0.2, 0.1][: len(good)]
                        choice = rng.choices(good, weights=weights)[0]
                moves.append(choice)
                fen = fen_after(START_FEN, moves)
            out.writelines(json.dumps(rec) + "\n" for rec in records)
            out.flush()
            print(f"game {g}: {len(moves)} plies, {time.time() - t0:.0f} s", flush=True)
    fsf.close()


# --------------------------------------------------------------------- build

def load_mined(path):
    games = {}
    with open(path) as fh:
        for raw in fh:
            rec = json.loads(raw)
            games.setdefault(rec["game"], []).append(rec)
    return games


def candidates(games):
    """(game, ply, fen, hint) with hint 'mate K', 'probe E' (E: expected N) or 'win'."""
    out = []
    for g, recs in sorted(games.items()):
        by_ply = {r["ply"]: r for r in recs}
        for r in recs:
            lines = r["lines"]
            best = lines[0][1]
            k = mate_in(best)
            if k is not None and k <= MAX_MATE:
                out.append((g, r["ply"], r["fen"], f"mate {k}"))
                # The same side's earlier positions may hold a longer mate.
                for back in PROBE_BACK:
                    prev = by_ply.get(r["ply"] - back)
                    expect = k + back // 2
                    if prev and 4 <= expect <= MAX_MATE + 1:
                        out.append((g, prev["ply"], prev["fen"], f"probe {expect}"))
            elif (k is None and len(lines) > 1 and best - lines[1][1] >= WIN_GAP
                  and WIN_MIN_BEST - 100 <= best < MATE_SCORE // 2
                  and -MATE_SCORE // 2 < lines[1][1] <= WIN_MAX_ALTERNATIVE + 100):
                # (loose bounds: the mining depth is lower than WIN_DEPTH)
                out.append((g, r["ply"], r["fen"], "win"))
    return out


def build(args):
    games = load_mined(args.mined)
    # Dedupe: one entry per position and hint kind, the deepest probe first.
    seen = {}
    for c in sorted(candidates(games), key=lambda c: (c[3].startswith("probe"), c[3]),
                    reverse=True):
        seen.setdefault((c[2], c[3].split()[0]), c)
    rng = random.Random(args.seed)
    order = sorted(seen.values())
    rng.shuffle(order)

    # Deep-mate probes first (the deepest expected first), then mates, then wins.
    def rank(c):
        kind = c[3].split()
        if kind[0] == "probe":
            return (0, -int(kind[1]))
        return (1 if kind[0] == "mate" else 2, 0)
    order.sort(key=rank)
    work = os.path.dirname(os.path.abspath(args.mined))
    fsf = Fsf(os.path.join(work, "analyses.jsonl"))
    exact = Exact(os.path.join(work, "exact.jsonl"))
    quotas = dict(QUOTAS)
    counts = {k: 0 for k in QUOTAS}
    picked = []
    used_fens = set()
    per_game = {}
    answers = {}  # (fen, kind) -> answer: each position is analysed once
    probes = [0]
    t0 = time.time()

    def room(g, ply):
        return (len(per_game.get(g, [])) < PER_GAME
                and all(abs(ply - p) >= MIN_PLY_DISTANCE for p in per_game.get(g, [])))

    def take(g, ply, fen, kind, accepted, note):
        counts[kind] += 1
        used_fens.add(fen)
        per_game.setdefault(g, []).append(ply)
        picked.append((g, ply, fen, kind, accepted, note))
        print(f"[{time.time() - t0:5.0f} s] {kind:7} game {g} ply {ply}: {' '.join(accepted)}",
              flush=True)

    def open_(kind):
        return counts[kind] < quotas[kind]

    def consider(g, ply, fen, hint):
        if fen in used_fens or not room(g, ply):
            return
        if hint == "win":
            if not open_("win"):
                return
            if (fen, "win") not in answers:
                answers[fen, "win"] = win_answer(fsf, fen)
            got = answers[fen, "win"]
            if got and len(got[0]) <= MAX_ACCEPTED_WIN:
                take(g, ply, fen, "win", got[0], win_note(fen, *got))
            return
        if hint.startswith("probe"):
            if probes[0] >= MAX_PROBES or not any(open_(f"mate {k}") for k in range(4, 8)):
                return
            probes[0] += 1
            lines, _ = fsf.analyse(fen, DEEP_PROBE_DEPTH, 1)
            k = mate_in(lines[0][1]) if lines else None
            if k is None or k < 4 or k > MAX_MATE or not open_(f"mate {k}"):
                return
            hint = f"mate {k}"
        n = int(hint.split()[1])
        # The mined depth often overstates N; the real N is rarely larger.
        if not any(open_(f"mate {k}") for k in range(1, n + 1)):
            return
        if (fen, "mate") not in answers:
            answers[fen, "mate"] = mate_answer(fsf, exact, fen, n)
        got = answers[fen, "mate"]
        if got and open_(f"mate {got[0]}") and len(got[1]) <= MAX_ACCEPTED_MATE:
            take(g, ply, fen, f"mate {got[0]}", got[1], mate_note(fen, got[0], got[2]))

    for i, cand in enumerate(order):
        if all(not open_(k) for k in quotas):
            break
        if i % 200 == 0:
            print(f"[{time.time() - t0:5.0f} s] candidate {i}/{len(order)}", flush=True)
        consider(*cand)
    # Deep mates are rare: make up a shortfall with mates in 1..3 and wins.
    short = sum(QUOTAS.values()) - sum(counts.values())
    if short > 0:
        topup = ["mate 1", "mate 2", "mate 3", "win"]
        for i in range(short):
            quotas[topup[i % len(topup)]] += 1
        print(f"topping up {short}: {quotas}", flush=True)
        for cand in order:
            if all(not open_(k) for k in quotas):
                break
            if not cand[3].startswith("probe"):
                consider(*cand)
    fsf.close()
    exact.close()

    kinds = list(QUOTAS)
    picked.sort(key=lambda p: (kinds.index(p[3]), p[0], p[1]))
    with open(args.file, "w") as out:
        out.write(HEADER.format(games=len(games), seed=args.seed))
        current = None
        for g, ply, fen, kind, accepted, note in picked:
            if kind != current:
                out.write(f"\n# {kind}\n")
                current = kind
            out.write(f"{fen} ; {kind} ; {' '.join(accepted)} ; {note} (game {g} ply {ply})\n")
    print("built:", ", ".join(f"{k} {counts[k]}/{quotas[k]}" for k in kinds),
          f"in {time.time() - t0:.0f} s")


HEADER = """\
# Chariot's tactics suite: positions mined from fairy-stockfish self-play
# games ({games} games, seed {seed}) and verified by fairy-stockfish. Made by
# scripts/data/make_tactics.py (see its docstring for how); check with
#   nice -n 10 scripts/data/make_tactics.py --verify
#
# <FEN> ; <kind> ; <accepted moves> ; <note>
#   mate N: the side to move mates in N moves; accepted = every move that
#           mates in <= N (fairy-stockfish, MultiPV over all legal moves, and
#           an exhaustive search, crates/xiangqi/examples/mate_check.rs, agree; a mate
#           in 7 beyond that search's budget stands on fairy-stockfish at
#           three depths).
#   win:    the accepted moves (within 30 cp of the best) score at least 250 cp
#           more than every other move (fairy-stockfish's scale: a horse is
#           about 200-250), leave the side to move at least 150 cp up, and no
#           other move is already winning (> 250) or gets mated. The note gives
#           the first move's type, the scores and the material along the pv.
# Moves are ICCS, ranks 0-9 (Red's back rank is 0).
"""


# -------------------------------------------------------------------- verify

def parse_suite(path):
    rows = []
    for lineno, line in oracle.data_lines(path):
        parts = [p.strip() for p in line.split(" ; ")]
        if len(parts) != 4:
            rows.append((lineno, None, None, None, f"expected 4 fields, got {len(parts)}"))
            continue
        fen, kind, moves, _note = parts
        rows.append((lineno, fen, kind, moves.split(), None))
    return rows


def verify(args):
    pf = pyffish()
    rows = parse_suite(args.file)
    fsf = Fsf()
    exact = Exact()
    failures = 0
    counts = {}
    t0 = time.time()

    def fail(lineno, msg):
        nonlocal failures
        failures += 1
        print(f"MISMATCH line {lineno}: {msg}", flush=True)

    for lineno, fen, kind, moves, err in rows:
        if err:
            fail(lineno, err)
            continue
        if pf.validate_fen(fen, VARIANT) != pf.FEN_OK:
            fail(lineno, f"invalid FEN {fen}")
            continue
        legal = legal_moves(fen)
        bad = [m for m in moves if not ICCS_RE.match(m) or m not in legal]
        if bad or not moves or len(set(moves)) != len(moves):
            fail(lineno, f"accepted moves not legal (or empty, or repeated): {bad or moves}")
            continue
        counts[kind] = counts.get(kind, 0) + 1
        if kind == "win":
            got = win_answer(fsf, fen)
            if got is None:
                fail(lineno, "not a clear win any more")
            elif got[0] != sorted(moves):
                fail(lineno, f"win moves {' '.join(got[0])}, file {' '.join(moves)}")
        elif re.fullmatch(r"mate [1-7]", kind):
            # The build's whole check: both depths, and the exact search.
            got = mate_answer(fsf, exact, fen, int(kind.split()[1]))
            if got is None:
                fail(lineno, f"not a stable mate agreed by the exact check, file: {kind}")
            elif f"mate {got[0]}" != kind or got[1] != sorted(moves):
                fail(lineno, f"mate {got[0]} by {' '.join(got[1])}, file: {kind} by "
                     f"{' '.join(moves)}")
        else:
            fail(lineno, f"unknown kind {kind!r}")
    fsf.close()
    exact.close()
    total = sum(counts.values())
    if total < MIN_POSITIONS:
        fail(0, f"only {total} positions (want >= {MIN_POSITIONS})")
    for kind, least in MIN_COUNTS.items():
        if counts.get(kind, 0) < least:
            fail(0, f"only {counts.get(kind, 0)} positions of kind {kind} (want >= {least})")
    summary = ", ".join(f"{k} {counts.get(k, 0)}" for k in QUOTAS)
    print(f"verify: {len(rows)} positions ({summary}) in {time.time() - t0:.0f} s: "
          f"{failures} mismatch(es)")
    sys.exit(1 if failures else 0)


def show(args):
    fsf = Fsf()
    for m, s, pv in analyse_all(fsf, args.show, args.depth):
        print(f"{m} {fmt_score(s):>12}  {' '.join(pv[:10])}")
    fsf.close()


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="See the module docstring for the pipeline.")
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--mine", action="store_true", help="play games, write --mined")
    mode.add_argument("--build", action="store_true", help="select from --mined, write --file")
    mode.add_argument("--verify", action="store_true", help="re-check every line of --file")
    mode.add_argument("--show", metavar="FEN", help="MultiPV over all legal moves of FEN")
    ap.add_argument("--games", type=int, default=720, help="--mine: number of games")
    ap.add_argument("--seed", type=int, default=1, help="--mine/--build: random seed")
    ap.add_argument("--mined", default=os.path.join(ROOT, "target", "tactics", "mined.jsonl"),
                    help="mined positions (JSON lines)")
    ap.add_argument("--file", default=os.path.join(ROOT, "tests", "tactics.txt"),
                    help="the suite")
    ap.add_argument("--depth", type=int, default=WIN_DEPTH, help="--show: search depth")
    args = ap.parse_args()
    if args.mine:
        mine(args)
    elif args.build:
        build(args)
    elif args.verify:
        verify(args)
    else:
        show(args)


if __name__ == "__main__":
    main()
