#!/usr/bin/env bash
# Builds Chariot's release archives into dist/ (ignored by git):
#   chariot-VERSION-net-NETID-x86_64-windows.zip     chariot.exe, chariot-match.exe
#   chariot-VERSION-net-NETID-x86_64-linux.tar.gz    static (musl) binaries
#   chariot-VERSION-net-NETID-aarch64-linux.tar.gz   static (musl) binaries, ARM64
#   SHA256SUMS
# Each holds the engine and the match runner, README.md, README.zh-CN.md,
# LICENSE, CHANGELOG.md and the default book (books/chariot.dat, which the
# engine also has built in), in a folder of the archive's name. VERSION and
# NETID are what the engine's --version says. scripts/ci/platforms.sh tests
# the same three builds (wine, natively, qemu-user).
#
# Usage: scripts/release.sh
# Needs rustup (it adds the three targets) and Debian's
# gcc-mingw-w64-x86-64, gcc-aarch64-linux-gnu and zip (installed with
# apt-get when missing, as root or through sudo); .cargo/config.toml names
# the linkers. The archives are made and checked here, not published.
set -euo pipefail
cd "$(dirname "$0")/.."

windows=x86_64-pc-windows-gnu
linux=x86_64-unknown-linux-musl
arm=aarch64-unknown-linux-musl
missing=()
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || missing+=(gcc-mingw-w64-x86-64)
command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || missing+=(gcc-aarch64-linux-gnu)
command -v zip >/dev/null 2>&1 || missing+=(zip)
scripts/apt_install.sh ${missing[@]+"${missing[@]}"}
rustup target add "$windows" "$linux" "$arm" >&2
for t in "$windows" "$linux" "$arm"; do
    echo "release: building $t" >&2
    cargo build --release --locked --quiet --target "$t" -p chariot -p chariot-match
done

# The version and net id, as the engine says them ("chariot 1.1.0 (net 0123456789ab)").
said=$("target/$linux/release/chariot" --version)
version=$(sed -n 's/^chariot \([^ ]*\) (net \([0-9a-f]*\))$/\1/p' <<<"$said")
net=$(sed -n 's/^chariot \([^ ]*\) (net \([0-9a-f]*\))$/\2/p' <<<"$said")
[ -n "$version" ] && [ -n "$net" ] || { echo "release: cannot read '$said'" >&2; exit 1; }
# The Linux binaries are static: no program interpreter, no shared library.
for t in "$linux" "$arm"; do
    for b in chariot chariot-match; do
        if readelf -l -d "target/$t/release/$b" | grep -E 'program interpreter|\(NEEDED\)'; then
            echo "release: $t $b is not static (above)" >&2
            exit 1
        fi
    done
done
# The static engine searches as the commits say (its bench signature).
scripts/ci/bench_check.sh "target/$linux/release/chariot" >&2

stem="chariot-$version-net-$net"
rm -rf dist
mkdir -p dist/stage
docs=(README.md README.zh-CN.md LICENSE CHANGELOG.md books/chariot.dat)

# pack TARGET NAME EXE: dist/STEM-NAME.{zip,tar.gz} of the binaries and the docs.
pack() {
    local name="$stem-$2" b
    mkdir -p "dist/stage/$name"
    for b in chariot chariot-match; do
        cp "target/$1/release/$b$3" "dist/stage/$name/"
    done
    cp "${docs[@]}" "dist/stage/$name/"
    if [ -n "$3" ]; then
        (cd dist/stage && zip -qr "../$name.zip" "$name")
    else
        tar -C dist/stage -czf "dist/$name.tar.gz" --owner=0 --group=0 "$name"
    fi
}
pack "$windows" x86_64-windows .exe
pack "$linux" x86_64-linux ""
pack "$arm" aarch64-linux ""
rm -rf dist/stage
(cd dist && sha256sum -- *.zip *.tar.gz > SHA256SUMS)
ls -l dist >&2
cat dist/SHA256SUMS
