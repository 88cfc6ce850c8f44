#!/usr/bin/env bash
# Benchmark tg against Soufflé (when on PATH) and the compiled Rust peers
# (crepe, ascent, datafrog) on the shared seeded workloads, in one run on one
# machine.  See docs/BENCHMARKS.md.
#
#   scripts/bench.sh [WORKLOAD...] [--runs N] [--timeout S] [--provenance]
#                    [--engines tg,souffle,crepe,ascent,datafrog] [--markdown] [--no-build]
#
# Workloads: tc_chain_1000 tc_chain_2000 tc_random sg_tree andersen negagg
# (default: all).  Everything it writes goes under target/: data in
# target/bench-data, outputs and logs in target/bench-out, the reference
# engines in target/bench-ref.  The shared folder is only read.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
shared="${TG_SHARED:-$root/../shared}"
bench="$shared/bench"

if [[ ! -f "$bench/gen.py" || ! -d "$bench/programs" || ! -d "$bench/expected" ]]; then
    echo "bench: shared benchmark folder not found at $bench (set TG_SHARED=/path/to/shared); nothing to do"
    exit 0
fi

# Validate the arguments before spending minutes on builds.
for a in "$@"; do
    case "$a" in -h|--help) exec python3 "$here/bench.py" --help ;; esac
done
python3 "$here/bench.py" --check-args "$@"

no_build=0
workloads=()
expect_value=0
for a in "$@"; do
    if (( expect_value )); then expect_value=0; continue; fi
    case "$a" in
        --no-build) no_build=1 ;;
        --runs|--timeout|--engines|--mem-limit-mib) expect_value=1 ;;
        -*) ;;
        all) ;;
        *) workloads+=("$a") ;;
    esac
done
(( ${#workloads[@]} )) || workloads=(all)

tg="${CARGO_TARGET_DIR:-$root/target}/release/tg"
ref_target="$root/target/bench-ref"
ref_src="$ref_target/src-copy"

if (( ! no_build )); then
    echo "bench: building tg (cargo build --release)"
    (cd "$root" && cargo build --release --bin tg)

    # The shared folder may be read-only: build a copy of the reference project
    # (timestamps kept, so an unchanged copy does not rebuild).
    echo "bench: building the reference engines (crepe, ascent, datafrog)"
    if ! diff -rq "$bench/reference-rust" "$ref_src" >/dev/null 2>&1; then
        rm -rf "$ref_src"
        mkdir -p "$ref_target"
        cp -a "$bench/reference-rust" "$ref_src"
        chmod -R u+w "$ref_src"
    fi
    if ! CARGO_TARGET_DIR="$ref_target" cargo build --release --manifest-path "$ref_src/Cargo.toml"; then
        echo "bench: *** building the reference engines failed; they will be skipped ***"
    fi
fi

echo "bench: generating workloads into target/bench-data"
mkdir -p "$root/target/bench-data" "$root/target/bench-out"
python3 "$bench/gen.py" "${workloads[@]}" --out "$root/target/bench-data"

tg_version="$(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [[ -n "$(cd "$root" && git status --porcelain -- engine grammar Cargo.toml Cargo.lock 2>/dev/null)" ]]; then
    tg_version="$tg_version+uncommitted-changes"
fi

export BENCH_SHARED="$bench" BENCH_TG="$tg" BENCH_REF_BIN="$ref_target/release" \
       BENCH_DATA="$root/target/bench-data" BENCH_OUT="$root/target/bench-out" \
       BENCH_TG_VERSION="$tg_version"
exec python3 "$here/bench.py" "$@"
