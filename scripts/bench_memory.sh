#!/usr/bin/env bash
# Peak memory of `tg build` on one large document (docs/BENCHMARKS.md, "Ingest of large
# tables (issue 19)"): generated wire tables of 10,000 / 50,000 / 200,000 rows and an
# entity-dense text, each built alone into a fresh store; prints wall time, peak RSS and
# RSS ÷ document size. Needs GNU time (/usr/bin/time) and python3.
#
#   scripts/bench_memory.sh [ROWS...]      (default 10000 50000 200000; "dense" = the text)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cargo build --release --bin tg >/dev/null 2>&1 || cargo build --release --bin tg
tg="${CARGO_TARGET_DIR:-$root/target}/release/tg"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cases=("$@")
[[ ${#cases[@]} -eq 0 ]] && cases=(10000 50000 200000 dense)
printf "%-14s %9s %9s %11s %8s\n" input MB wall_s peak_RSS_MB RSS/doc
for c in "${cases[@]}"; do
    mkdir -p "$tmp/$c"
    if [[ "$c" == dense ]]; then
        python3 scripts/gen_wires.py dense 5 "$tmp/$c/dense.txt"
    else
        python3 scripts/gen_wires.py tsv "$c" "$tmp/$c/wires.tsv"
    fi
    bytes=$(du -sb "$tmp/$c" | cut -f1)
    /usr/bin/time -f "%e %M" -o "$tmp/time" "$tg" build "$tmp/$c" --db "$tmp/db-$c" >/dev/null
    read -r wall kb <"$tmp/time"
    awk -v c="$c" -v b="$bytes" -v w="$wall" -v k="$kb" \
        'BEGIN { printf "%-14s %9.2f %9.1f %11.0f %7.0fx\n", c, b / 1e6, w, k / 1024, k * 1024 / b }'
    rm -rf "$tmp/db-$c" "$tmp/$c"
done
