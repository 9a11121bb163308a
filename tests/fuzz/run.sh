#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Run each libFuzzer harness for N seconds on its seed corpus
# (tests/fuzz/corpus/<name>/), FUZZ_JOBS harnesses at a time (default: the
# number of CPUs; each harness is one process).  New inputs go to a scratch
# directory so the committed corpus stays as it is.  A harness that crashes,
# leaks, or trips a sanitizer (the fuzz build has -fno-sanitize-recover=all,
# so UBSan aborts) exits non-zero: this script then prints its report and
# exits 1.
set -euo pipefail
secs=${1:-20}
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}
# Leaks that are elfutils' own, not ours (each with its reason in the file).
export LSAN_OPTIONS="suppressions=$(cd "$(dirname "$0")" && pwd)/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
mkdir -p tests/fuzz/artifacts
res=$(mktemp -d)
trap 'rm -rf "$res"' EXIT
# fuzz_one HARNESS: runs it, prints its lines at once; $res/NAME.failed if it failed
fuzz_one() {
  local f=$1 n seeds work log rc=0
  n=$(basename "$f")
  seeds=tests/fuzz/corpus/$n
  mkdir -p "$seeds"
  work=$(mktemp -d)
  log=$(mktemp)
  "$f" -max_total_time="$secs" -print_final_stats=0 -artifact_prefix=tests/fuzz/artifacts/ \
    "$work" "$seeds" >"$log" 2>&1 || rc=$?
  {
    echo "fuzz $n for ${secs}s"
    if [ "$rc" -ne 0 ]; then
      # The sanitizer's report, not only the last lines of libFuzzer's summary.
      grep -n -m1 -E '^(==[0-9]+==ERROR|.*runtime error:|==[0-9]+== ERROR: libFuzzer)' "$log" || true
      tail -n 40 "$log"
      echo "fuzz $n failed (exit $rc); inputs in tests/fuzz/artifacts/"
      : >"$res/$n.failed"
    else
      tail -n 3 "$log"
    fi
  } >"$res/$n.out" 2>&1
  cat "$res/$n.out"
  rm -rf "$work" "$log"
}
export -f fuzz_one
export secs res
for f in build-fuzz/*; do [ -f "$f" ] && [ -x "$f" ] && echo "$f"; done |
  xargs -P "$jobs" -I{} bash -c 'fuzz_one "$1"' _ {}
failed=()
for m in "$res"/*.failed; do [ -e "$m" ] && failed+=("$(basename "$m" .failed)"); done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: ${#failed[@]} harness(es) failed: ${failed[*]}" >&2
  exit 1
fi
