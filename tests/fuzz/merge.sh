#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Minimize each harness's corpus: the committed seeds plus what fuzz-long
# found (build-fuzz/corpus/NAME) are merged (-merge=1) into a fresh directory
# that then replaces tests/fuzz/corpus/NAME.  The hand-made seeds (named
# files, not 40-hex-digit hashes) always stay; of the rest only the inputs
# adding coverage to them do.
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
  old=$(mktemp -d)
  for f in "$seeds"/*; do
    [ -f "$f" ] || continue
    if [[ $(basename "$f") =~ ^[0-9a-f]{40}$ ]]; then cp "$f" "$old"/; else cp "$f" "$fresh"/; fi
  done
  log=build-fuzz/$n.merge.log
  nice -n "${FUZZ_NICE:-19}" build-fuzz/"$n" -merge=1 "$fresh" "$old" "$found" >"$log" 2>&1 ||
    { echo "perfev: error: merging $n failed, see $log" >&2; rm -rf "$fresh" "$old"; exit 1; }
  before=$(find "$seeds" "$found" -type f | wc -l)
  rm -rf "$seeds"
  mkdir -p "$seeds"
  cp "$fresh"/* "$seeds"/ 2>/dev/null || true
  rm -rf "$fresh" "$old"
  echo "$n: $before inputs -> $(ls "$seeds" | wc -l) ($(du -sk "$seeds" | cut -f1) KiB)"
done
