#!/usr/bin/env bash
# The whole test suite of every crate in the workspace: formatting, lints,
# docs, debug tests (with internal consistency checks at every perft node),
# release tests (deep perft, more property cases, the tactics suite), the
# cross-check of every perft number against fairy-stockfish and pyffish,
# real clients (cchess, XBoard through uci2wb, fairy-stockfish), and the
# Windows and static Linux builds under wine and qemu-user.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step's heading gives the seconds since the start, to see where CI's time goes.
step() { printf '\n=== %s (at %d s)\n' "$*" "$SECONDS"; }

# Debian's packages need root (or sudo); PyPI's go into a virtual
# environment whose python3 the scripts then run under.
step "oracles (fairy-stockfish, xboard, uci2wb, xvfb; pyffish and cchess in a venv)"
venv_bin=$(scripts/oracles/setup_oracles.sh)
export PATH="$venv_bin:$PATH"

step "cargo fmt --all --check"
cargo fmt --all --check

# cargo-deny from crates.io when missing: ~4 CPU-minutes to build, once per
# machine (cargo keeps it in ~/.cargo/bin). `--offline`: no advisory
# database is fetched (deny.toml says why advisories are not checked). It
# reads the metadata of every platform's dependencies, so `cargo fetch`
# (all targets, as the lock file pins them) first: a fresh machine's
# registry holds none of them, and a build fetches only the host's.
step "cargo deny --offline --workspace check licenses bans (deny.toml)"
if ! cargo deny --version >/dev/null 2>&1; then
    cargo install --quiet --locked cargo-deny
fi
cargo fetch --locked --quiet
cargo deny --offline --workspace check licenses bans

step "cargo clippy --workspace --all-targets -- -D warnings"
cargo clippy --quiet --workspace --all-targets -- -D warnings

# The oldest Rust the workspace declares (Cargo.toml's rust-version) must
# build it and its tests: clippy's `incompatible_msrv` sees only the
# standard library's APIs. rustup fetches that toolchain once per machine
# (about 15 s); a machine that cannot reach rustup's server says so and
# keeps only clippy's check.
msrv=$(sed -n 's/^rust-version = "\(.*\)"$/\1/p' Cargo.toml)
[ -n "$msrv" ] || { echo "test.sh: no rust-version in Cargo.toml" >&2; exit 1; }
step "cargo +$msrv check --workspace --all-targets (the declared minimum Rust)"
if rustup toolchain install "$msrv" --profile minimal --no-self-update >/dev/null 2>&1; then
    cargo +"$msrv" check --quiet --workspace --all-targets --locked
else
    echo "test.sh: rustup could not fetch Rust $msrv: the minimum Rust is checked by clippy's incompatible_msrv only" >&2
fi

step "cargo doc --workspace --no-deps (warnings are errors)"
RUSTDOCFLAGS="-D warnings" cargo doc --quiet --workspace --no-deps

step "cargo test --workspace (debug)"
cargo test --quiet --workspace

# The optimized test runs use the `ci` profile: release code without LTO
# (Cargo.toml says why); the shipped `release` build is made once, below.
# Every later test step names `--workspace`, so that cargo resolves the
# dependencies' features as the debug and optimized runs did and reuses their
# builds (one package alone, or a plain `cargo build` without the tests'
# dev-dependencies, compiled rand, proptest and more again); a feature of the
# engine's own then recompiles the engine only.
step "cargo test --workspace --profile ci (optimized)"
cargo test --quiet --workspace --profile ci -- --skip tactics_suite

step "tactics suite (prints how many positions the search solves)"
cargo test --quiet --profile ci --workspace --test tactics -- --nocapture tactics_suite

# Sharded work on a real scheduler: a one-node Slurm cluster needs root (CI
# runs as root); elsewhere the same check runs under GNU parallel.
# Both use the `ci` builds of the runner, the data tool and the engine
# without the tuning options, as the optimized test run made them (this
# `--no-run` is a no-op right after it and keeps the check right if steps
# move).
cargo test --quiet --profile ci --workspace --no-run
export BIN=$PWD/target/ci
if [ "$(id -u)" = 0 ]; then
    step "a one-node Slurm cluster: 4-task arrays of a match and of datagen, merged, equal one process's"
    scripts/cluster/slurm_test.sh
else
    step "sharded matches and data under GNU parallel, merged, equal one process's (the Slurm test needs root)"
    scripts/cluster/parallel_test.sh
fi

step "the network at another width (hidden-512: two blocks in the output sum)"
cargo test --quiet --profile ci --workspace --features chariot/hidden-512 --test nnue

step "the tuning build (tune: every search tunable a hidden option)"
cargo test --quiet --profile ci --workspace --features chariot/tune --test tune

# The tune test's build of the engine (cargo puts the binary an integration
# test runs in target/ci) is the tuning engine spsa drives.
cp target/ci/chariot target/ci/chariot-tune

step "chariot-tools spsa end to end, against the tuning build"
CHARIOT_TUNE_BIN=target/ci/chariot-tune cargo test --quiet --workspace --test spsa

step "the shipped build (release: LTO); its bench signature equals the latest 'Bench:' commit line"
cargo build --quiet --release
scripts/ci/bench_check.sh

step "perft numbers against fairy-stockfish and pyffish"
scripts/oracles/crosscheck_perft.py

step "cchess's UCCI and UCI clients drive a complete game"
scripts/ci/compat_cchess.py
scripts/ci/compat_cchess.py --protocol uci

step "a complete clocked game against fairy-stockfish (UCCI), every move checked"
scripts/ci/game_vs_fsf.py

step "a whole game in XBoard through uci2wb, UCCI against UCI: every option arrives at its default"
scripts/ci/xboard_game.py

step "other platforms: chariot.exe under wine (and chariot-match.exe), static Linux x86-64, ARM64 under qemu"
scripts/ci/platforms.sh

step "scripts/match/idle.sh: a job that takes only what a timed match leaves"
scripts/match/idle_test.sh

step "scripts/levels/levels_table.py: the levels' ratings on games with known answers"
scripts/levels/levels_table_test.py

step "all tests passed"
