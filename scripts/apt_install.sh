#!/usr/bin/env bash
# Installs Debian packages for the scripts that need them: as root, through
# sudo, or else one line saying what to install, and exit 1.
# Usage: scripts/apt_install.sh PACKAGE...   (nothing to do without one)
set -euo pipefail
[ $# -gt 0 ] || exit 0
sudo=()
if [ "$(id -u)" != 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
        echo "apt_install: please install Debian's $* (apt-get install $*)" >&2
        exit 1
    fi
    sudo=(sudo)
fi
echo "apt_install: apt-get install $*" >&2
"${sudo[@]}" apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "$@" >/dev/null
