#!/usr/bin/env bash
# Run each libFuzzer harness for N seconds on its seed corpus
# (tests/fuzz/corpus/<name>/).  New inputs go to a scratch directory so the
# committed corpus stays as it is.
set -eu
secs=${1:-20}
mkdir -p tests/fuzz/artifacts
for f in build-fuzz/*; do
  [ -x "$f" ] || continue
  n=$(basename "$f")
  seeds=tests/fuzz/corpus/$n
  mkdir -p "$seeds"
  work=$(mktemp -d)
  echo "fuzz $n for ${secs}s"
  "$f" -max_total_time="$secs" -print_final_stats=0 -artifact_prefix=tests/fuzz/artifacts/ "$work" "$seeds" 2>&1 | tail -n 3 || { echo "fuzz $n failed" >&2; rm -rf "$work"; exit 1; }
  rm -rf "$work"
done
