#!/usr/bin/env bash
# Chariot on the other platforms it is released for, built here and run
# under emulation:
#   - Windows x86-64: chariot.exe and chariot-match.exe (MinGW) under wine;
#   - Linux x86-64, static (musl), run natively;
#   - Linux ARM64, static (musl), under qemu-user.
# Each gets the smoke test (scripts/ci/smoke.py: both handshakes, a stop
# round trip, end of input, \r\n input) and its bench signature
# (scripts/ci/bench_check.sh); chariot.exe imports Windows' own DLLs only,
# and the Linux builds need no shared library. Under wine too: a book in a
# folder named in Chinese, its path sent in GBK as a Chinese GUI sends it,
# and a short match that chariot-match.exe plays between two chariot.exe
# processes through Windows pipes: no crash, no loss on time, no illegal
# move. Builds are in the `ci` profile (release code without LTO).
# Wine 8.0 (Debian 12) lacks ProcessPrng, which Rust's standard library
# imports; scripts/ci/wine/processprng.c stands in for it, built into a
# throwaway wine prefix (never shipped: Windows 10 and later have it).
#
# Usage: scripts/ci/platforms.sh
# Installs, when missing: Debian's gcc-mingw-w64-x86-64, wine64,
# gcc-aarch64-linux-gnu and qemu-user (as root or through sudo), and the
# three Rust targets (rustup). .cargo/config.toml names the linkers.
set -euo pipefail
cd "$(dirname "$0")/../.."
windows=x86_64-pc-windows-gnu
linux=x86_64-unknown-linux-musl
arm=aarch64-unknown-linux-musl

missing=()
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || missing+=(gcc-mingw-w64-x86-64)
command -v wine64 >/dev/null 2>&1 || [ -x /usr/lib/wine/wine64 ] || missing+=(wine64)
command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || missing+=(gcc-aarch64-linux-gnu)
command -v qemu-aarch64 >/dev/null 2>&1 || missing+=(qemu-user)
scripts/apt_install.sh ${missing[@]+"${missing[@]}"}
wine=$(command -v wine64 || echo /usr/lib/wine/wine64)
rustup target add "$windows" "$linux" "$arm" >/dev/null 2>&1 ||
    rustup target add "$windows" "$linux" "$arm"
cargo build --profile ci --locked --quiet --target "$windows" -p chariot -p chariot-match
for t in "$linux" "$arm"; do
    cargo build --profile ci --locked --quiet --target "$t" -p chariot
done
exe=$PWD/target/$windows/ci

work=$(mktemp -d "${TMPDIR:-/tmp}/chariot-wine.XXXXXX")
trap 'rm -rf "$work"' EXIT
export WINEPREFIX=$work/prefix WINEDEBUG=-all WINEDLLOVERRIDES="bcryptprimitives=n;mscoree,mshtml="
# One wine server for the whole run, started before anything else and kept
# up between the checks' processes. Left to itself, the server shuts down
# as soon as its last client exits (Debian's wine starts it with -p0), and
# a chariot.exe that connects while it does so is killed with SIGKILL: the
# smoke test's second check failed that way once in CI ("exit -9", nothing
# on stderr).
# The server of the same wine as the loader.
wineserver=$(dirname "$(readlink -f "$wine")")/wineserver64
[ -x "$wineserver" ] || wineserver=$(command -v wineserver) || {
    echo "platforms: no wineserver beside $wine nor on the PATH" >&2
    exit 1
}
mkdir "$WINEPREFIX"
"$wineserver" --persistent 2> "$work/wineserver.log"
trap '"$wineserver" --kill 2>/dev/null || true; rm -rf "$work"' EXIT
"$wine" wineboot --init >/dev/null 2>&1
x86_64-w64-mingw32-gcc -shared -O2 -o "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" \
    scripts/ci/wine/processprng.c

# The imports of chariot.exe: Windows' own DLLs only.
imports=$(x86_64-w64-mingw32-objdump -p "$exe/chariot.exe" | sed -n 's/^\tDLL Name: //p' | sort -u)
echo "platforms: chariot.exe imports $(echo $imports)"
if grep -viE '^(kernel32|ntdll|msvcrt|bcryptprimitives|ws2_32|userenv|advapi32|api-ms-win-[a-z0-9-]+)\.dll$' <<<"$imports"; then
    echo "platforms: chariot.exe needs a DLL that Windows does not ship (above)" >&2
    exit 1
fi

printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$wine" "$exe/chariot.exe" > "$work/chariot-wine"
printf '#!/bin/sh\nexec qemu-aarch64 "%s" "$@"\n' "$PWD/target/$arm/ci/chariot" > "$work/chariot-arm64"
chmod +x "$work/chariot-wine" "$work/chariot-arm64"
# Static: no program interpreter and no shared library needed (readelf
# reads either machine's ELF; ldd cannot run ARM64's loader).
for t in "$linux" "$arm"; do
    if readelf -l -d "target/$t/ci/chariot" | grep -E 'program interpreter|\(NEEDED\)'; then
        echo "platforms: the $t build is not static (above)" >&2
        exit 1
    fi
done
for engine in "$work/chariot-wine" "$PWD/target/$linux/ci/chariot" "$work/chariot-arm64"; do
    echo "== $engine"
    scripts/ci/smoke.py "$engine"
    scripts/ci/bench_check.sh "$engine"
done

echo "== a book in a folder named '象棋 books', its path sent in GBK as a Chinese GUI sends it"
mkdir -p "$WINEPREFIX/drive_c/象棋 books"
cp books/chariot.dat "$WINEPREFIX/drive_c/象棋 books/book.dat"
# C:\象棋 books\book.dat and C:\象棋 books\none.dat, 象棋 in GBK bytes: a drive
# letter, backslashes, a space and two files separated by ';'.
gbk=$'C:\\\xcf\xf3\xc6\xe5 books\\'
printf '%s\n' ucci "setoption debug true" "setoption bookfiles ${gbk}book.dat;${gbk}none.dat" \
    "position startpos" "go depth 3" quit |
    "$work/chariot-wine" > "$work/gbk.out" 2> "$work/gbk.err"
grep 'book' "$work/gbk.err" "$work/gbk.out"
grep -qF "象棋 books\\book.dat': " "$work/gbk.err" &&
    grep -qF "象棋 books\\none.dat' not loaded: the file does not exist" "$work/gbk.err" &&
    grep -q "book move" "$work/gbk.out" || {
    echo "platforms: the GBK-named book was not loaded as it should be" >&2
    exit 1
}

echo "== chariot-match.exe under wine: chariot.exe against itself"
cp "$exe/chariot.exe" "$exe/chariot-match.exe" "$work/"
(cd "$work" && "$wine" chariot-match.exe --engine cmd=chariot.exe name=one \
    --engine cmd=chariot.exe name=two --each option.usebook=false \
    --tc 2+0.02 --games 2 --results match.results) | tee "$work/match.log"
# Each game's record ends `fault=-` unless an engine crashed, lost on
# time, moved illegally or hung (`fault=red:time` and the like).
if grep '^game ' "$work/match.results" | grep -v ' fault=-$'; then
    echo "platforms: the match under wine had a fault (above)" >&2
    exit 1
fi
[ "$(grep -c '^end game' "$work/match.results")" = 2 ] || {
    echo "platforms: the match under wine did not finish its 2 games" >&2
    exit 1
}
echo "platforms: all checks passed"
