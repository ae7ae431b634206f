#!/usr/bin/env bash
# The whole test suite: formatting, lints, debug tests (with internal
# consistency checks at every perft node), release tests (deep perft, more
# property cases, the tactics suite), and the cross-check of every perft
# number against fairy-stockfish and pyffish.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n=== %s\n' "$*"; }

step "oracles (fairy-stockfish, pyffish, cchess)"
scripts/setup_oracles.sh

step "cargo fmt --check"
cargo fmt --check

step "cargo clippy --all-targets -- -D warnings"
cargo clippy --quiet --all-targets -- -D warnings

step "cargo test (debug)"
cargo test --quiet

step "cargo test --release"
cargo test --quiet --release -- --skip tactics_suite

step "tactics suite (prints how many positions the search solves)"
cargo test --quiet --release --test tactics -- --nocapture tactics_suite

step "bench signature equals the latest 'Bench:' commit line"
cargo build --quiet --release
scripts/bench_check.sh

step "perft numbers against fairy-stockfish and pyffish"
scripts/crosscheck_perft.py

step "cchess's UCCI and UCI clients drive a complete game"
scripts/compat_cchess.py
scripts/compat_cchess.py --protocol uci

step "a complete clocked game against fairy-stockfish (UCCI), every move checked"
scripts/game_vs_fsf.py

step "all tests passed"
