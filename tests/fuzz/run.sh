#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Run each libFuzzer harness for N seconds on its seed corpus
# (tests/fuzz/corpus/<name>/).  New inputs go to a scratch directory so the
# committed corpus stays as it is.  A harness that crashes, leaks, or trips
# a sanitizer (the fuzz build has -fno-sanitize-recover=all, so UBSan aborts)
# exits non-zero: this script then prints its report and exits 1.
set -euo pipefail
secs=${1:-20}
# Leaks that are elfutils' own, not ours (each with its reason in the file).
export LSAN_OPTIONS="suppressions=$(cd "$(dirname "$0")" && pwd)/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
mkdir -p tests/fuzz/artifacts
failed=()
for f in build-fuzz/*; do
  [ -f "$f" ] && [ -x "$f" ] || continue
  n=$(basename "$f")
  seeds=tests/fuzz/corpus/$n
  mkdir -p "$seeds"
  work=$(mktemp -d)
  log=$(mktemp)
  echo "fuzz $n for ${secs}s"
  rc=0
  "$f" -max_total_time="$secs" -print_final_stats=0 -artifact_prefix=tests/fuzz/artifacts/ \
    "$work" "$seeds" >"$log" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ]; then
    # The sanitizer's report, not only the last lines of libFuzzer's summary.
    grep -n -m1 -E '^(==[0-9]+==ERROR|.*runtime error:|==[0-9]+== ERROR: libFuzzer)' "$log" >&2 || true
    tail -n 40 "$log" >&2
    echo "fuzz $n failed (exit $rc); inputs in tests/fuzz/artifacts/" >&2
    failed+=("$n")
  else
    tail -n 3 "$log"
  fi
  rm -rf "$work" "$log"
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: ${#failed[@]} harness(es) failed: ${failed[*]}" >&2
  exit 1
fi
