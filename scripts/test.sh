#!/usr/bin/env bash
# The project's test command (README.md, .ci/run): every Rust test, then the
# conformance suites that live outside the repository when they are present.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if ! command -v cargo >/dev/null 2>&1; then
  echo "test: cargo not found; install Rust (https://rustup.rs) first" >&2
  exit 1
fi
if ! command -v python3 >/dev/null 2>&1; then
  echo "test: python3 not found (the conformance runner needs it); installing"
  apt-get update -qq && apt-get install -y -qq python3 >/dev/null
fi
cargo test --release --workspace --no-fail-fast
scripts/conformance.sh
