#!/usr/bin/env bash
# Installs the independent oracles and clients the test suite talks to, when
# they are missing, and prints the folder to put first on PATH:
#   - Debian's fairy-stockfish, and xboard, uci2wb and xvfb (a game in
#     XBoard through uci2wb, scripts/ci/xboard_game.py), with apt-get as
#     root or through sudo;
#   - PyPI's pyffish and cchess, in a virtual environment of their own
#     ($CHARIOT_VENV, or ~/.cache/chariot/venv), never in the system's
#     Python (Debian 12 refuses `pip install` there). Its bin/ is printed:
#     `export PATH="$(scripts/oracles/setup_oracles.sh):$PATH"` makes the
#     scripts' `python3` that one.
set -euo pipefail

missing=()
[ -x /usr/games/fairy-stockfish ] || command -v fairy-stockfish >/dev/null 2>&1 ||
    missing+=(fairy-stockfish)
[ -x /usr/games/xboard ] || missing+=(xboard)
[ -x /usr/games/uci2wb ] || missing+=(uci2wb)
command -v xvfb-run >/dev/null 2>&1 || missing+=(xvfb)
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || missing+=(python3-venv)
"$(dirname "$0")/../apt_install.sh" ${missing[@]+"${missing[@]}"}

venv=${CHARIOT_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/chariot/venv}
if ! "$venv/bin/python3" -c 'import pyffish, cchess' >/dev/null 2>&1; then
    echo "setup_oracles: pyffish and cchess into $venv" >&2
    python3 -m venv "$venv" >&2
    "$venv/bin/python3" -m pip install --quiet --disable-pip-version-check pyffish cchess >&2
fi
echo "$venv/bin"
