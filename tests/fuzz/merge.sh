#!/usr/bin/env bash
# Minimize each harness's corpus: the committed seeds plus what fuzz-long
# found (build-fuzz/corpus/NAME) are merged (-merge=1) into a fresh directory
# that then replaces tests/fuzz/corpus/NAME.  Only inputs adding coverage stay.
#   tests/fuzz/merge.sh [NAME ...]
set -euo pipefail
list=("$@")
if [ ${#list[@]} -eq 0 ]; then
  for f in build-fuzz/*; do [ -f "$f" ] && [ -x "$f" ] && list+=("$(basename "$f")"); done
fi
for n in "${list[@]}"; do
  seeds=tests/fuzz/corpus/$n
  found=build-fuzz/corpus/$n
  mkdir -p "$seeds" "$found"
  fresh=$(mktemp -d)
  log=build-fuzz/$n.merge.log
  nice -n "${FUZZ_NICE:-19}" build-fuzz/"$n" -merge=1 "$fresh" "$seeds" "$found" >"$log" 2>&1 ||
    { echo "perfev: error: merging $n failed, see $log" >&2; rm -rf "$fresh"; exit 1; }
  before=$(find "$seeds" "$found" -type f | wc -l)
  rm -rf "$seeds"
  mkdir -p "$seeds"
  cp "$fresh"/* "$seeds"/ 2>/dev/null || true
  rm -rf "$fresh"
  echo "$n: $before inputs -> $(ls "$seeds" | wc -l) ($(du -sk "$seeds" | cut -f1) KiB)"
done
