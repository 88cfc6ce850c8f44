#!/usr/bin/env bash
# Runs Soufflé's own test cases (../shared/conformance/souffle/dev.jsonl) through `tg run`,
# and the openCypher TCK's read scenarios (../shared/conformance/opencypher/tck_read_dev.jsonl)
# through `tg gql`, and fails if fewer cases pass than the minimum recorded in tests/conformance/.
#
#   scripts/conformance.sh            # build tg (release), run, compare
#   TG_SHARED=/path/to/shared scripts/conformance.sh
#
# The suites are data kept outside the repository; when one is absent the script says so and
# skips it. The full per-case logs go to target/conformance/{souffle-dev,tck-read-dev}.log.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${TG_SHARED:-$root/../shared}
suite_dir=$shared/conformance/souffle
tck_dir=$shared/conformance/opencypher
if [ ! -f "$suite_dir/dev.jsonl" ] && [ ! -f "$tck_dir/tck_read_dev.jsonl" ]; then
  echo "conformance: neither $suite_dir/dev.jsonl nor $tck_dir/tck_read_dev.jsonl found; skipping"
  exit 0
fi
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
# Cargo may build elsewhere ($CARGO_TARGET_DIR).
tg=${CARGO_TARGET_DIR:-$root/target}/release/tg
log_dir=$root/target/conformance
mkdir -p "$log_dir"

# The openCypher TCK (issue 7): row scenarios and error classes (--strict-errors).
tck() {
  if [ ! -f "$tck_dir/tck_read_dev.jsonl" ]; then
    echo "conformance: $tck_dir/tck_read_dev.jsonl not found; skipping the openCypher TCK"
    return 0
  fi
  local log=$log_dir/tck-read-dev.log
  python3 "$tck_dir/run_tck.py" --engine cmd --suite "$tck_dir/tck_read_dev.jsonl" \
    --cmd "exec $tg gql --script {setup_file} {query} --params {params_file} --format tck" \
    --strict-errors -j 2 --timeout 30 >"$log" 2>&1 || true
  local summary
  summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1 || true)
  if [ -z "$summary" ]; then
    echo "conformance: the TCK runner printed no summary; see $log" >&2
    tail -n 20 "$log" >&2
    return 1
  fi
  local passed=${summary%% passed*}
  local minimum
  minimum=$(cat "$root/tests/conformance/tck_read_dev.min_pass")
  echo "conformance: openCypher TCK read scenarios (strict errors): $summary (recorded minimum $minimum); log in $log"
  if [ "$passed" -lt "$minimum" ]; then
    echo "conformance: TCK pass count fell from $minimum to $passed" >&2
    return 1
  fi
}
tck
if [ ! -f "$suite_dir/dev.jsonl" ]; then
  echo "conformance: $suite_dir/dev.jsonl not found; skipping the Soufflé suite"
  exit 0
fi
log=$log_dir/souffle-dev.log
python3 "$suite_dir/run_conformance.py" \
  --cmd "exec $tg run {prog} -F {facts} -D {out} {includes}" \
  --suite "$suite_dir/dev.jsonl" --jobs 2 --timeout 60 >"$log" 2>&1 || true
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1 || true)
if [ -z "$summary" ]; then
  echo "conformance: the runner printed no summary; see $log" >&2
  tail -n 20 "$log" >&2
  exit 1
fi
passed=${summary%% passed*}
failed=${summary##*, }
failed=${failed%% failed}
minimum=$(cat "$root/tests/conformance/souffle_dev.min_pass")
total=$((passed + failed))
echo "conformance: Soufflé dev suite: $passed of $total cases pass (recorded minimum $minimum); log in $log"
grep '^FAIL' "$log" | sed 's/^/conformance:   /' | cut -c1-200 || true
if [ "$passed" -lt "$minimum" ]; then
  echo "conformance: pass count fell from $minimum to $passed" >&2
  exit 1
fi
