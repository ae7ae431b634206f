#!/usr/bin/env python3
"""Drive Chariot through PyPI `cchess`'s own engine client, the way a Python GUI would.

What it does:
  * starts Chariot with `cchess.UcciEngine` (or `cchess.UciEngine` with
    `--protocol uci`): `load()` then `wait_for_ready()`, i.e. `ucci` -> `ucciok`;
  * sets options with the client's `set_option()`, which sends the UCI-style
    `setoption name X value Y` even in UCCI mode, then syncs with `isready`;
  * plays one short game (default 60 plies): Chariot (Red) against seeded random
    legal moves, or against itself with `--opponent self`; every Chariot move is
    asked for with the client's `go_from(fen, {"depth": 3})`, which sends a bare
    2-field FEN taken from cchess's own board (`position fen <board> w`, no
    `moves`) followed by `go depth 3`, and read back with `get_action()`;
  * checks every `bestmove` (and its `ponder` move) is legal with pyffish
    (ranks 0-9 converted to pyffish's 1-10), that the first move of every
    `info ... pv` line is legal, that cchess's board agrees with pyffish's, and
    that Chariot answers `nobestmove` (`bestmove (none)` in UCI) when the game
    ends with no legal move;
  * quits with the client's `quit()` and checks Chariot says `bye` (UCCI) and
    exits 0 by itself, and that it sent exactly one bestmove per `go`.

Quirks of cchess 1.25's client this script works around or relies on:
  * every command ends in `\\r\\n`;
  * `setoption name <n> value <v>` is sent in UCCI mode too;
  * `go_from` never sends `moves`, so the engine cannot see repetitions;
  * `Popen(..., cwd=<engine dir>)`: a relative engine path is resolved against
    that directory, so an absolute path must be passed;
  * lines before `ucciok`/`uciok` other than `id`/`option` are ignored, every
    later line becomes an action; `bestmove m draw`/`resign` suffixes are
    dropped silently; `EngineManager.run_engine` loops forever on a move its
    board rejects and has no timeout (so this script polls `get_action` itself);
  * the reader thread spins on EOF after the engine exits unless `running` is
    cleared; a `bye` seen by `get_action` makes it call `terminate()`.

Usage: python3 scripts/ci/compat_cchess.py [--engine PATH] [--protocol ucci|uci]
           [--opponent random|self] [--plies 60] [--depth 3] [--seed 1]
Exit status 0 when everything checks out, 1 with a message otherwise.
"""
import argparse
import os
import random
import re
import sys
import time
from queue import Empty

# The shared helpers are in scripts/oracles/.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "oracles"))
import oracle
from oracle import from_pf

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
VARIANT = "xiangqi60"  # pyffish's xiangqi with the 60-move rule of docs/RULES.md
MOVE_RE = re.compile(r"^[a-i][0-9][a-i][0-9]$")


class Failure(Exception):
    pass


def to_pf(move):
    """ICCS move with ranks 0-9 -> pyffish move with ranks 1-10."""
    if not MOVE_RE.match(move):
        raise Failure(f"malformed move {move!r}")
    return oracle.to_pf(move)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "chariot"))
    ap.add_argument("--protocol", choices=("ucci", "uci"), default="ucci")
    ap.add_argument("--opponent", choices=("random", "self"), default="random")
    ap.add_argument("--plies", type=int, default=60)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--move-timeout", type=float, default=10.0)
    args = ap.parse_args()

    try:
        import cchess
        import pyffish as sf
    except ImportError as e:
        sys.exit(f"compat_cchess: FAIL: missing Python package: {e} (pip install cchess pyffish)")
    sf.load_variant_config(f"[{VARIANT}:xiangqi]\nnMoveRule = 60\n")

    engine_path = os.path.abspath(args.engine)  # cchess runs it with cwd=its own dir
    if not os.access(engine_path, os.X_OK):
        sys.exit(f"compat_cchess: FAIL: engine not found or not executable: {engine_path}")

    t0 = time.time()
    eng = cchess.UcciEngine() if args.protocol == "ucci" else cchess.UciEngine()
    raw_lines = []  # every line the client handed us, for the end-of-run checks
    gos = 0
    try:
        result = run(args, cchess, sf, eng, engine_path, raw_lines)
        gos = result.pop("gos")
        shutdown(args, eng, raw_lines, gos)
    except Failure as e:
        print(f"compat_cchess: FAIL: {e}", file=sys.stderr)
        if raw_lines:
            print("last engine lines:", file=sys.stderr)
            for line in raw_lines[-8:]:
                print(f"  <-- {line}", file=sys.stderr)
        kill(eng)
        sys.exit(1)
    except BaseException:
        kill(eng)
        raise
    print(f"result: {result['result']} ({result['reason']})")
    print(f"compat_cchess: OK ({args.protocol}, {gos} searches, {time.time() - t0:.1f} s)")


def kill(eng):
    eng.running = False
    proc = getattr(eng, "process", None)
    if proc is not None and proc.poll() is None:
        proc.kill()
        proc.wait()


def ask(args, eng, sf, fen, moves_pf, raw_lines):
    """One search through the client. Returns the final action dict."""
    eng.go_from(fen, {"depth": args.depth})
    deadline = time.time() + args.move_timeout
    while True:
        action = eng.get_action()
        if action is None:
            if eng.process.poll() is not None:
                raise Failure(f"engine exited with code {eng.process.returncode} while thinking")
            if time.time() > deadline:
                raise Failure(f"no bestmove within {args.move_timeout} s after "
                              f"'position fen {fen}' / 'go depth {args.depth}'")
            time.sleep(0.005)
            continue
        raw = action.get("raw_msg", "")
        if raw:
            raw_lines.append(raw)
        kind = action["action"]
        if kind == "info_move" and "moves" in action:
            pv = action["moves"]
            if not pv:
                raise Failure(f"empty pv in {raw!r}")
            if to_pf(pv[0]) not in sf.legal_moves(VARIANT, START_FEN, moves_pf):
                raise Failure(f"illegal first pv move in {raw!r} for position {fen}")
        if kind == "info" and raw.split()[0] in ("bestmove", "nobestmove"):
            raise Failure(f"unparsed final answer {raw!r}")
        if kind in ("bestmove", "dead", "draw"):
            return action


def run(args, cchess, sf, eng, engine_path, raw_lines):
    rng = random.Random(args.seed)
    if not eng.load(engine_path):
        raise Failure(f"cchess could not start {engine_path}")
    if not eng.wait_for_ready(10):
        raise Failure(f"no {eng.ok_resp()} within 10 s of '{eng.init_cmd()}'")
    print(f"engine: {eng.ids.get('name', '?')} via cchess.{type(eng).__name__}, "
          f"{len(eng.options)} options")
    # cchess sends `setoption name X value Y` whatever the protocol.
    if args.protocol == "ucci":
        eng.set_option("usemillisec", "true")
        eng.set_option("hashsize", 16)
    else:
        eng.set_option("Hash", 16)
    eng._send_cmd("isready")  # the client has no isready helper; same transport
    deadline = time.time() + 5
    while True:
        action = eng.get_action()
        if action is not None:
            if action.get("raw_msg"):
                raw_lines.append(action["raw_msg"])
            if action.get("raw_msg") == "readyok":
                break
        elif time.time() > deadline:
            raise Failure("no readyok within 5 s of isready")
        else:
            time.sleep(0.005)

    board = cchess.ChessBoard(cchess.FULL_INIT_FEN)
    moves_pf, played = [], []
    gos = 0
    chariot_sides = ("w", "b") if args.opponent == "self" else ("w",)
    result = reason = None
    while True:
        fen_pf = sf.get_fen(VARIANT, START_FEN, moves_pf)
        fen = board.to_fen()  # what a cchess GUI sends: board + side, 2 fields
        if fen.split()[:2] != fen_pf.split()[:2]:
            raise Failure(f"cchess board {fen} disagrees with pyffish {fen_pf}")
        stm = fen_pf.split()[1]
        legal = sf.legal_moves(VARIANT, START_FEN, moves_pf)
        if not legal:
            in_check = sf.gives_check(VARIANT, START_FEN, moves_pf)
            result = "0-1" if stm == "w" else "1-0"
            reason = ("checkmate" if in_check else "stalemate") + " (no legal move)"
            # A GUI would still ask the engine: it must say it has no move.
            action = ask(args, eng, sf, fen, moves_pf, raw_lines)
            gos += 1
            if action["action"] != "dead":
                raise Failure(f"no legal move in {fen} but engine answered "
                              f"{action.get('raw_msg')!r}")
            break
        end, value = sf.is_optional_game_end(VARIANT, START_FEN, moves_pf)
        if end:
            result = "1/2-1/2" if value == 0 else (
                "1-0" if (value > 0) == (stm == "w") else "0-1")
            reason = "repetition or 60-move rule (pyffish)"
            break
        if len(played) >= args.plies:
            result, reason = "*", f"stopped after {args.plies} plies"
            break

        if stm in chariot_sides:
            action = ask(args, eng, sf, fen, moves_pf, raw_lines)
            gos += 1
            raw = action.get("raw_msg")
            if action["action"] != "bestmove":
                raise Failure(f"engine gave {raw!r} with {len(legal)} legal moves in {fen}")
            move = action["move"]
            if to_pf(move) not in legal:
                raise Failure(f"illegal bestmove {move} in {fen} ({raw!r})")
            ponder = action.get("ponder")
            if ponder is not None and to_pf(ponder) not in sf.legal_moves(
                    VARIANT, START_FEN, moves_pf + [to_pf(move)]):
                raise Failure(f"illegal ponder move in {raw!r} for {fen}")
            who = "chariot"
        else:
            move = from_pf(rng.choice(sorted(legal)))
            who = "random"
        if board.move_iccs(move) is None:
            raise Failure(f"cchess's board rejects {move} in {fen} (pyffish says legal)")
        board.next_turn()
        moves_pf.append(to_pf(move))
        played.append(move)
        print(f"{len(played):3d}. {'red  ' if stm == 'w' else 'black'} {move}  ({who})")

    print("moves:", " ".join(played))
    return {"result": result, "reason": reason, "gos": gos}


def shutdown(args, eng, raw_lines, gos):
    eng.running = False  # else the reader thread spins on EOF
    eng.quit()  # sends quit\r\n, sleeps 0.2 s
    deadline = time.time() + 3
    while time.time() < deadline:
        try:
            raw_lines.append(eng.engine_out_queque.get(timeout=0.05))
        except Empty:
            if eng.process.poll() is not None and not eng.is_alive():
                break
    if eng.process.poll() is None:
        raise Failure("engine still running 3 s after quit")
    if eng.process.returncode != 0:
        raise Failure(f"engine exit code {eng.process.returncode} after quit")
    if args.protocol == "ucci" and "bye" not in raw_lines:
        raise Failure("no 'bye' after quit")
    finals = [l for l in raw_lines if l.split()[:1] in (["bestmove"], ["nobestmove"])]
    if len(finals) != gos:
        raise Failure(f"{len(finals)} bestmove/nobestmove lines for {gos} go commands")


if __name__ == "__main__":
    main()
