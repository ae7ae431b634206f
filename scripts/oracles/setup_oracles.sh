#!/usr/bin/env bash
# Installs the independent oracles and clients the test suite talks to, when
# they are missing: Debian's fairy-stockfish, PyPI's pyffish and cchess.
set -euo pipefail

have_fsf() { command -v fairy-stockfish >/dev/null 2>&1 || [ -x /usr/games/fairy-stockfish ]; }

if ! have_fsf; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq && apt-get install -y -qq fairy-stockfish >/dev/null
    elif command -v sudo >/dev/null 2>&1; then
        sudo apt-get update -qq && sudo apt-get install -y -qq fairy-stockfish >/dev/null
    else
        echo "setup_oracles: please install Debian's fairy-stockfish (apt-get install fairy-stockfish)" >&2
        exit 1
    fi
fi
if ! python3 -c 'import pyffish, cchess' >/dev/null 2>&1; then
    python3 -m pip install --quiet --disable-pip-version-check pyffish cchess
fi
