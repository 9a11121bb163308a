#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Who calls whom in the library and the CLI, read from the built objects
# (nm: the global names each object defines and the ones it needs).
#   scripts/layers.sh [BUILD]      (BUILD defaults to build; run make first)
# Prints one line per pair of lib/ folders, "FROM -> TO  N" (N names taken),
# then every call that runs up the data flow and every loop of calls between
# files (found by tsort).  Exit 1 when there is either, else 0.
# The flow, bottom first: a folder may call only the folders before it.
set -u
build=${1:-build}
order=(core explain pmu event target count sample region data symbol unwind filter profile)
[ -d "$build/lib" ] || { echo "layers: no $build/lib: run make first" >&2; exit 2; }

rank() { local i; for i in "${!order[@]}"; do [ "${order[$i]}" = "$1" ] && { echo "$i"; return; }; done; echo 99; }

tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
objs=$(cd "$build" && find lib cli -name '*.o' 2>/dev/null | sort)
# "NAME FILE" for every global definition, then for every need (FILE as
# the source it was built from: lib/core/sys.c).
for o in $objs; do nm --defined-only "$build/$o" | awk -v o="${o%.o}.c" 'NF == 3 && $2 ~ /[TDBRV]/ {print $3, o}'; done | sort -k1,1 >"$tmp/defs"
for o in $objs; do nm -u "$build/$o" | awk -v o="${o%.o}.c" '{print $2, o}'; done | sort -k1,1 >"$tmp/uses"
# "CALLER CALLEE" file pairs, one line per name.
join "$tmp/uses" "$tmp/defs" | awk '$2 != $3 {print $2, $3}' >"$tmp/edges"

bad=0
echo "library folders (caller -> callee, names taken):"
awk '{split($1, a, "/"); split($2, b, "/"); if (a[1] == "lib" && b[1] == "lib" && a[2] != b[2]) print a[2], b[2]}' \
  "$tmp/edges" | sort | uniq -c |
  while read -r n from to; do
    mark=""
    if [ "$(rank "$from")" -le "$(rank "$to")" ]; then mark="   <- runs up the flow"; fi
    printf '  %-8s -> %-8s %4d%s\n' "$from" "$to" "$n" "$mark"
  done | tee "$tmp/folders"
grep -q 'runs up' "$tmp/folders" && bad=1

# Loops between files: tsort names the files of each loop it meets.
sort -u "$tmp/edges" | tsort >/dev/null 2>"$tmp/loops"
if grep -q 'loop' "$tmp/loops"; then
  echo "files that call each other in a loop:"
  grep -v 'input contains a loop' "$tmp/loops" | sed 's/^tsort: /  /'
  bad=1
else
  echo "no loop of calls between files"
fi
exit $bad
