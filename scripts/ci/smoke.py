#!/usr/bin/env python3
"""The smoke test of a built engine on another platform: the Windows
chariot.exe under wine, the static Linux binary, an ARM64 one under qemu.

Usage: scripts/ci/smoke.py COMMAND [ARG ...]   (e.g. wine chariot.exe)

Each check starts the engine afresh and talks to it over pipes, as a GUI
does:
  - the handshake in both dialects (`ucci` -> `ucciok`, `uci` -> `uciok`);
  - a round trip: `position`, `go infinite`, `stop` -> a legal-looking
    `bestmove`, `quit` -> `bye`, and the process exits 0;
  - the end of input finishing the last search (`go depth 6`, then EOF);
  - input with Windows line endings (`\\r\\n`).
The bench signature is scripts/ci/bench_check.sh's to check.
Exits 0 when every check holds; 1 with a line naming the first that does not.
"""
import re
import signal
import subprocess
import sys
import time

MOVE = re.compile(r"^bestmove [a-i][0-9][a-i][0-9]( ponder [a-i][0-9][a-i][0-9])?$")
TIMEOUT = 60  # seconds: wine starts slowly on a loaded machine


class Failure(Exception):
    pass


class Killed(Failure):
    """The process died of SIGKILL. Chariot never sends it (a panic
    aborts: SIGABRT); it comes from outside, as when wine's server kills
    its clients (seen once in CI at stop 89 and once in a local run of
    scripts/test.sh since the server is kept up, never in 90 handshakes
    run for it), so the check is run once more."""


def exited(returncode, err):
    """A Failure for a process that did not exit 0."""
    if returncode == -signal.SIGKILL:
        return Killed(f"exit {returncode} (SIGKILL): {err[-300:]}")
    return Failure(f"exit {returncode}: {err[-300:]}")


def talk(cmd, script, until=None, close=True):
    """Starts `cmd`, writes `script` (bytes), and returns its stdout lines:
    all of them if `close` (stdin is closed and the process must exit 0),
    else up to the first line `until` accepts (then the process is killed)."""
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    try:
        if close:
            out, err = p.communicate(script, timeout=TIMEOUT)
            lines = out.decode("utf-8", "replace").splitlines()
            if p.returncode != 0:
                raise exited(p.returncode, err.decode("utf-8", "replace"))
            return lines
        p.stdin.write(script)
        p.stdin.flush()
        lines = []
        deadline = time.monotonic() + TIMEOUT
        for raw in p.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            lines.append(line)
            if until(line) or time.monotonic() > deadline:
                break
        return lines
    except subprocess.TimeoutExpired as e:
        raise Failure(f"no answer in {TIMEOUT} s") from e
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


def expect(lines, pattern, what):
    if not any(re.search(pattern, l) for l in lines):
        raise Failure(f"{what}: no line matching {pattern!r} in {lines[-8:]}")


def main(cmd):
    checks = []

    def check(name):
        def wrap(f):
            checks.append((name, f))
            return f
        return wrap

    @check("UCCI handshake")
    def _():
        expect(talk(cmd, b"ucci\nquit\n"), r"^ucciok$", "ucci")

    @check("UCI handshake")
    def _():
        expect(talk(cmd, b"uci\nquit\n"), r"^uciok$", "uci")

    @check("position, go infinite, stop, quit")
    def _():
        p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL)
        try:
            p.stdin.write(b"ucci\nsetoption usebook false\nposition startpos moves h2e2\n"
                          b"go infinite\n")
            p.stdin.flush()
            time.sleep(1.0)
            p.stdin.write(b"stop\n")
            p.stdin.flush()
            lines = []
            for raw in p.stdout:
                lines.append(raw.decode("utf-8", "replace").rstrip("\r\n"))
                if lines[-1].startswith("bestmove"):
                    break
            if not lines or not MOVE.match(lines[-1]):
                raise Failure(f"after stop: {lines[-3:]}")
            p.stdin.write(b"quit\n")
            p.stdin.close()
            rest = p.stdout.read().decode("utf-8", "replace").splitlines()
            if p.wait(timeout=TIMEOUT) != 0:
                raise exited(p.returncode, f"quit: {rest[-3:]}")
            if "bye" not in rest:
                raise Failure(f"quit: no bye in {rest[-3:]}")
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()

    @check("end of input finishes the last search")
    def _():
        lines = talk(cmd, b"ucci\nsetoption usebook false\nposition startpos\ngo depth 6\n")
        if not any(MOVE.match(l) for l in lines) or not any(
                l.startswith("info depth 6 ") for l in lines):
            raise Failure(f"no depth-6 search answered: {lines[-3:]}")

    @check("Windows line endings")
    def _():
        lines = talk(cmd, b"ucci\r\nsetoption usebook false\r\nisready\r\n"
                          b"position fen 3k5/9/9/9/4r4/9/9/9/4R4/4K4 w - - 0 1\r\n"
                          b"go depth 3\r\nquit\r\n")
        expect(lines, r"^readyok$", "isready")
        expect(lines, r"^bestmove e1e5\b", "the free rook taken")

    for name, f in checks:
        try:
            try:
                f()
            except Killed as e:
                print(f"smoke: {name}: {e}; once more", file=sys.stderr)
                f()
        except Failure as e:
            print(f"smoke: {' '.join(cmd)}: {name}: {e}", file=sys.stderr)
            return 1
        print(f"smoke: {name}: ok")
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
