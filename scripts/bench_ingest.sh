#!/usr/bin/env bash
# Ingest throughput (docs/BENCHMARKS.md "Ingest"): MB/s per format, single-threaded and in
# memory, on generated text/Markdown and on the real files of ../shared/data when present;
# then `tg build` end to end (walk, extraction on all cores, store writes) on the same.
#
#   scripts/bench_ingest.sh [GENERATED_MB]     (default 20)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
shared="${TG_SHARED:-$root/../shared}/data"
mb="${1:-20}"
cargo build --release --bin tg --bin tg-ingest-bench >/dev/null 2>&1 || cargo build --release --bin tg --bin tg-ingest-bench
target="${CARGO_TARGET_DIR:-$root/target}/release"
real=()
for d in fincrime_fincen_advisories/pdf fincrime_sec_litigation_releases/text email_enron_sample files_ingestion_robustness; do
    [[ -d "$shared/$d" ]] && real+=("$shared/$d")
done
[[ ${#real[@]} -eq 0 ]] && echo "note: $shared not found; generated files only"
echo "## extraction and facts, one core (tg-ingest-bench --generated $mb ${real[*]:-})"
"$target/tg-ingest-bench" --generated "$mb" "${real[@]}" "$root/fixtures"
echo
echo "## tg build, end to end"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for d in "${real[@]}" "$root/fixtures/case-files"; do
    start=$(date +%s.%N)
    "$target/tg" build "$d" --db "$tmp/db-$(basename "$d")" >"$tmp/out" 2>/dev/null
    end=$(date +%s.%N)
    bytes=$(du -sb "$d" | cut -f1)
    awk -v d="$d" -v b="$bytes" -v s="$start" -v e="$end" -v l="$(head -1 "$tmp/out")" \
        'BEGIN { t = e - s; printf "%s: %d bytes, %.2f s, %.1f MB/s; %s\n", d, b, t, b / 1e6 / t, l }'
done
