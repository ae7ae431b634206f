"""What the Python scripts share: finding the oracles (Debian's fairy-stockfish,
pyffish), converting move text between Chariot's ranks (ICCS, 0-9) and
pyffish's (1-10), and reading the line-per-record data files under tests/.

Imported by the scripts next to it (`import oracle`: a script's own directory
is on Python's path) and by scripts in the other folders of scripts/, which
put this folder on the path first.
"""
import os
import re
import shutil
import sys

PF_MOVE_RE = re.compile(r"^([a-i])([0-9]+)([a-i])([0-9]+)$")


def find_fairy_stockfish(who):
    """The fairy-stockfish binary, or exit with a message naming the script `who`."""
    for cand in (shutil.which("fairy-stockfish"), "/usr/games/fairy-stockfish"):
        if cand and os.path.exists(cand):
            return cand
    sys.exit(f"{who}: fairy-stockfish not found (apt-get install fairy-stockfish)")


def pyffish(who):
    """The pyffish module, or exit with a message naming the script `who`."""
    try:
        import pyffish as pf
    except ImportError:
        sys.exit(f"{who}: pyffish not installed (pip install pyffish)")
    return pf


def to_pf(move):
    """ICCS (ranks 0-9) to pyffish (ranks 1-10)."""
    return f"{move[0]}{int(move[1]) + 1}{move[2]}{int(move[3]) + 1}"


def from_pf(move):
    """pyffish (ranks 1-10) to ICCS (ranks 0-9)."""
    m = PF_MOVE_RE.match(move)
    if not m:
        raise ValueError(f"unexpected pyffish move {move!r}")
    return f"{m.group(1)}{int(m.group(2)) - 1}{m.group(3)}{int(m.group(4)) - 1}"


def data_lines(path):
    """(line number, stripped line) of every line that is neither blank nor a
    `#` comment."""
    with open(path) as fh:
        for lineno, raw in enumerate(fh, 1):
            line = raw.strip()
            if line and not line.startswith("#"):
                yield lineno, line
