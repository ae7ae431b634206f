#!/usr/bin/env python3
"""Play one complete clocked game: Chariot (UCCI) against Debian's fairy-stockfish (UCCI).

Both engines run as child processes driven over pipes, the way the UCCI league
runner drives them:
  * boot: `ucci` -> `ucciok` (10 s limit). Chariot must advertise
    `option usemillisec`; it then gets `setoption usemillisec true`,
    `setoption ponder false`, `setoption newgame`. fairy-stockfish gets
    `setoption Skill_Level 0` (UCCI-form name; it answers "No such option: name"
    to `setoption name Skill Level value 0`). Both are synced with `isready`.
  * every move: `position fen <start FEN> moves <all moves so far>` and
    `go [draw] time <remaining ms> increment <inc ms>`. Each engine has a real
    clock (default 10 s + 0.1 s per move): the elapsed wall time from `go` to
    the answer is charged, a negative clock loses on time, and an engine silent
    for its whole remaining time plus a grace second is stopped, killed, and
    loses on time.
  * every `bestmove` (and Chariot's `ponder` move and the first move of each of
    Chariot's `info ... pv` lines, whose `score` must be a bare integer in UCCI)
    is checked with pyffish (ranks 0-9 converted to 1-10) before it is applied.
    `bestmove ... resign` ends the game; `draw` offers are passed on with
    `go draw`, and a draw is agreed when both sides say `draw` on consecutive
    moves.
  * the game ends on no legal move (checkmate or stalemate: the side to move
    loses; the engine to move must still answer `nobestmove` /
    `bestmove (none)`), on pyffish's `is_optional_game_end` (repetition with
    perpetual check/chase, or the 60-move rule), on insufficient material, or
    at a 300-ply cap (a draw).
  * shutdown: `quit` to both; Chariot must answer `bye` and exit 0 within 3 s;
    anything still running is killed.

Exits 0 when the game was played to a result with no fault from Chariot
(including a loss on the board); 1 on any Chariot fault (illegal or malformed
move, wrong `nobestmove`, crash, timeout, loss on time, unclean shutdown);
2 if fairy-stockfish or the setup misbehaves.

Usage: python3 scripts/ci/game_vs_fsf.py [--engine PATH] [--chariot-color red|black]
           [--fsf PATH] [--time-ms 10000] [--inc-ms 100] [--skill 0] [--max-plies 300]
"""
import argparse
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

# The shared helpers are in scripts/oracles/.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "oracles"))
from oracle import to_pf

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
VARIANT = "xiangqi60"  # pyffish's xiangqi with the 60-move rule of docs/RULES.md
MOVE_RE = re.compile(r"^[a-i][0-9][a-i][0-9]$")
GRACE_S = 1.0


class Fault(Exception):
    """A protocol or rules fault by one engine."""

    def __init__(self, engine, msg):
        super().__init__(f"{engine.name}: {msg}")
        self.engine = engine


class Engine:
    def __init__(self, name, path, is_chariot):
        self.name = name
        self.is_chariot = is_chariot
        self.err = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.err, text=True, bufsize=1)
        self.lines = queue.Queue()
        self.log = []  # (direction, line), for fault reports
        threading.Thread(target=self._reader, daemon=True).start()

    def _reader(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)  # EOF

    def send(self, line):
        self.log.append(("-->", line))
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise Fault(self, f"pipe closed when sending {line!r} "
                              f"(exit code {self.proc.poll()})")

    def read(self, deadline):
        """Next line, or raises TimeoutError at deadline; None on EOF."""
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        try:
            line = self.lines.get(timeout=left)
        except queue.Empty:
            raise TimeoutError
        if line is not None:
            self.log.append(("<--", line))
        return line

    def wait_for(self, token, seconds, what):
        deadline = time.monotonic() + seconds
        while True:
            try:
                line = self.read(deadline)
            except TimeoutError:
                raise Fault(self, f"no {token!r} within {seconds} s of {what!r}")
            if line is None:
                raise Fault(self, f"exited (code {self.proc.wait()}) waiting for {token!r}")
            if line.split()[:1] == [token]:
                return

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def stderr_tail(self, n=5):
        self.err.seek(0)
        return self.err.read().splitlines()[-n:]


def boot(eng, fsf_skill):
    eng.send("ucci")
    deadline = time.monotonic() + 10
    options = []
    while True:
        try:
            line = eng.read(deadline)
        except TimeoutError:
            raise Fault(eng, "no 'ucciok' within 10 s of 'ucci'")
        if line is None:
            raise Fault(eng, f"exited (code {eng.proc.wait()}) before 'ucciok'")
        if line.startswith("option "):
            options.append(line.split()[1])
        if line == "ucciok":
            break
    if eng.is_chariot:
        if "usemillisec" not in options:
            raise Fault(eng, "does not advertise 'option usemillisec'")
        for cmd in ("setoption usemillisec true", "setoption ponder false", "setoption newgame"):
            eng.send(cmd)
    else:
        eng.send(f"setoption Skill_Level {fsf_skill}")
    eng.send("isready")
    eng.wait_for("readyok", 5, "isready")


def check_info(eng, line, moves_pf, sf):
    """Chariot's UCCI info lines: integer score without `cp`, legal pv start."""
    toks = line.split()
    if "score" in toks:
        i = toks.index("score")
        if i + 1 >= len(toks) or not re.fullmatch(r"-?\d+", toks[i + 1]):
            raise Fault(eng, f"UCCI score is not a bare integer: {line!r}")
    if "pv" in toks:
        pv = toks[toks.index("pv") + 1:]
        if not pv:
            raise Fault(eng, f"empty pv: {line!r}")
        if not MOVE_RE.match(pv[0]) or to_pf(pv[0]) not in sf.legal_moves(
                VARIANT, START_FEN, moves_pf):
            raise Fault(eng, f"pv starts with an illegal move: {line!r}")


def think(eng, moves, moves_pf, remaining_ms, inc_ms, opp_offered_draw, sf):
    """Returns (tokens of the final answer, elapsed ms) or (None, elapsed) on timeout."""
    pos = f"position fen {START_FEN}" + (" moves " + " ".join(moves) if moves else "")
    eng.send(pos)
    go = f"go {'draw ' if opp_offered_draw else ''}time {remaining_ms} increment {inc_ms}"
    t0 = time.monotonic()
    eng.send(go)
    deadline = t0 + max(remaining_ms, 0) / 1000 + GRACE_S
    while True:
        try:
            line = eng.read(deadline)
        except TimeoutError:
            return None, (time.monotonic() - t0) * 1000
        if line is None:
            raise Fault(eng, f"exited (code {eng.proc.wait()}) after {go!r}")
        toks = line.split()
        if not toks:
            continue
        if toks[0] in ("bestmove", "nobestmove"):
            return toks, (time.monotonic() - t0) * 1000
        if toks[0] == "info" and eng.is_chariot:
            check_info(eng, line, moves_pf, sf)


def play(args, sf, engines, colors):
    clock = {"w": args.time_ms, "b": args.time_ms}
    moves, moves_pf = [], []
    last_draw_offer = None  # side that offered a draw with its last move
    while True:
        fen = sf.get_fen(VARIANT, START_FEN, moves_pf)
        stm = fen.split()[1]
        opp = "b" if stm == "w" else "w"
        eng = engines[stm]
        legal = sf.legal_moves(VARIANT, START_FEN, moves_pf)
        if legal:
            end, value = sf.is_optional_game_end(VARIANT, START_FEN, moves_pf)
            if end:
                if value == 0:
                    return "1/2-1/2", "repetition or 60-move rule (pyffish)", moves
                winner = stm if value > 0 else opp
                return result_for(winner), "perpetual check/chase (pyffish)", moves
            if all(sf.has_insufficient_material(VARIANT, START_FEN, moves_pf)):
                return "1/2-1/2", "insufficient material", moves
            if len(moves) >= args.max_plies:
                return "1/2-1/2", f"{args.max_plies}-ply cap reached (adjudicated a draw)", moves

        toks, elapsed = think(eng, moves, moves_pf, clock[stm], args.inc_ms,
                              last_draw_offer == opp, sf)
        if toks is None:
            eng.send("stop")
            time.sleep(0.2)
            eng.kill()
            if eng.is_chariot:
                raise Fault(eng, f"no answer within clock {clock[stm]} ms + {GRACE_S} s grace")
            return result_for(opp), f"{eng.name} silent past its clock (killed)", moves
        clock[stm] -= round(elapsed)
        answer = " ".join(toks)
        side = "red  " if stm == "w" else "black"
        no_move = toks[0] == "nobestmove" or (len(toks) > 1 and toks[1] in ("(none)", "null"))

        if not legal:
            if not no_move:
                raise Fault(eng, f"answered {answer!r} in a position with no legal move: {fen}")
            in_check = sf.gives_check(VARIANT, START_FEN, moves_pf)
            return (result_for(opp), ("checkmate" if in_check else "stalemate")
                    + f" ({colors[stm]} to move has no legal move)", moves)
        if no_move:
            raise Fault(eng, f"answered {answer!r} with {len(legal)} legal moves in {fen}")
        if len(toks) < 2 or not MOVE_RE.match(toks[1]):
            raise Fault(eng, f"malformed answer {answer!r}")
        move = toks[1]
        if to_pf(move) not in legal:
            raise Fault(eng, f"illegal move {move} ({answer!r}) in {fen}")
        extra = toks[2:]
        if extra[:1] == ["ponder"]:
            if len(extra) < 2 or not MOVE_RE.match(extra[1]):
                raise Fault(eng, f"malformed ponder in {answer!r}")
            if to_pf(extra[1]) not in sf.legal_moves(VARIANT, START_FEN,
                                                      moves_pf + [to_pf(move)]):
                if eng.is_chariot:
                    raise Fault(eng, f"illegal ponder move in {answer!r} at {fen}")
                print(f"warning: {eng.name} ponder move illegal in {answer!r}")
            extra = extra[2:]
        if any(t not in ("draw", "resign") for t in extra):
            raise Fault(eng, f"unexpected tokens in {answer!r}")
        if clock[stm] < 0:
            print(f"{len(moves) + 1:3d}. {side} {move:5s} {elapsed:6.0f} ms  "
                  f"clock {clock[stm]} ms  ({eng.name}) -- flag fell")
            if eng.is_chariot:
                raise Fault(eng, f"lost on time: {elapsed:.0f} ms used with "
                                 f"{clock[stm] + round(elapsed)} ms left")
            return result_for(opp), f"{eng.name} lost on time", moves
        if "resign" in extra:
            print(f"{len(moves) + 1:3d}. {side} {eng.name} resigns ({answer!r})")
            return result_for(opp), f"{eng.name} resigned", moves
        clock[stm] += args.inc_ms
        moves.append(move)
        moves_pf.append(to_pf(move))
        note = "  offers draw" if "draw" in extra else ""
        print(f"{len(moves):3d}. {side} {move:5s} {elapsed:6.0f} ms  clock {clock[stm]:6d} ms"
              f"  ({eng.name}){note}")
        if "draw" in extra and last_draw_offer == opp:
            return "1/2-1/2", "draw agreed", moves
        last_draw_offer = stm if "draw" in extra else None


def result_for(winner):
    return "1-0" if winner == "w" else "0-1"


def shutdown(eng):
    """Sends quit; returns a fault message or None. Always leaves the process dead."""
    problem = None
    if eng.proc.poll() is not None:  # already dead: crashed or killed, reported then
        return None
    try:
        eng.send("quit")
    except Fault:
        pass
    deadline = time.monotonic() + 3
    saw_bye = False
    while True:
        try:
            line = eng.read(deadline)
        except TimeoutError:
            problem = "still running 3 s after 'quit'"
            break
        if line is None:
            break
        saw_bye = saw_bye or line == "bye"
    if problem is None and eng.is_chariot and not saw_bye:
        problem = "no 'bye' after 'quit'"
    eng.kill()
    code = eng.proc.wait()
    if problem is None and eng.is_chariot and code != 0:
        problem = f"exit code {code} after 'quit'"
    return problem


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "chariot"))
    ap.add_argument("--fsf", default=shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish")
    ap.add_argument("--chariot-color", choices=("red", "black"), default="red")
    ap.add_argument("--time-ms", type=int, default=10000)
    ap.add_argument("--inc-ms", type=int, default=100)
    ap.add_argument("--skill", type=int, default=0, help="fairy-stockfish Skill_Level (-20..20)")
    ap.add_argument("--max-plies", type=int, default=300)
    args = ap.parse_args()

    try:
        import pyffish as sf
    except ImportError:
        sys.exit("game_vs_fsf: SETUP FAIL: pyffish missing (pip install pyffish)")
    sf.load_variant_config(f"[{VARIANT}:xiangqi]\nnMoveRule = 60\n")
    for what, path in (("engine", args.engine), ("fairy-stockfish", args.fsf)):
        if not (path and os.access(path, os.X_OK)):
            print(f"game_vs_fsf: SETUP FAIL: {what} not found: {path}", file=sys.stderr)
            sys.exit(2)

    t0 = time.time()
    chariot = Engine("chariot", os.path.abspath(args.engine), True)
    fsf = Engine("fairy-stockfish", args.fsf, False)
    c = "w" if args.chariot_color == "red" else "b"
    engines = {c: chariot, ("b" if c == "w" else "w"): fsf}
    colors = {"w": "red", "b": "black"}
    print(f"red: {engines['w'].name}   black: {engines['b'].name}   "
          f"clock {args.time_ms} ms + {args.inc_ms} ms, fairy-stockfish Skill_Level {args.skill}")
    status = 0
    try:
        boot(chariot, args.skill)
        boot(fsf, args.skill)
        result, reason, moves = play(args, sf, engines, colors)
        print("moves:", " ".join(moves))
        print(f"result: {result}  ({reason}) after {len(moves)} plies")
    except Fault as e:
        status = 1 if e.engine.is_chariot else 2
        print(f"game_vs_fsf: FAIL: {e}", file=sys.stderr)
        print(f"last lines exchanged with {e.engine.name}:", file=sys.stderr)
        for d, line in e.engine.log[-10:]:
            print(f"  {d} {line[:200]}", file=sys.stderr)
        for line in e.engine.stderr_tail():
            print(f"  stderr: {line}", file=sys.stderr)
    finally:
        problems = {eng.name: shutdown(eng) for eng in (chariot, fsf)}
    for name, problem in problems.items():
        if problem:
            print(f"game_vs_fsf: FAIL: {name}: {problem}", file=sys.stderr)
            if name == "chariot":
                status = 1
            elif status == 0:
                status = 2
    print(f"game_vs_fsf: {'OK' if status == 0 else 'FAILED'} ({time.time() - t0:.1f} s)")
    sys.exit(status)


if __name__ == "__main__":
    main()
