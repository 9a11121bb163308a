#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# perfev script against perf script on the same --call-graph dwarf file of
# at least 20k samples: perf record --call-graph dwarf of python3 building
# and encoding JSON (libpython, libc and ld.so frames, inline frames from
# libc's debug file).  The file is made once and cached under /tmp.
# Checks first that both print the same bytes (PLT entries included:
# name@plt as perf names them), then runs both alternately RUNS times (default 5) to /dev/null and
# prints each median wall time and the ratio perf/perfev (target: >= 3).
# Exits non-zero when a tool fails or the outputs differ, never on a
# missed target.
# Usage: bench/unwind.sh [BUILD]   (SAMPLES=20000 RUNS=5 PYTHON=/usr/bin/python3)
set -u
build=${1:-build}
perfev=$build/perfev
perf=${PERF:-perf}
python=${PYTHON:-/usr/bin/python3}
runs=${RUNS:-5}
target=${SAMPLES:-20000}
file=/tmp/perfev-unwind-bench-$target.data

command -v "$perf" >/dev/null 2>&1 || { echo "unwind: '$perf' not found (is Linux perf installed?)" >&2; exit 1; }
command -v "$python" >/dev/null 2>&1 || { echo "unwind: '$python' not found" >&2; exit 1; }
[ -x "$perfev" ] || { echo "unwind: '$perfev' missing; run make first" >&2; exit 1; }

. "$(dirname "$0")/common.bash"

if [ ! -s "$file" ] || [ "$(nsamples "$file")" -lt "$target" ] 2>/dev/null; then
  rounds=$(( target / 150 + 10 ))
  while :; do
    echo "unwind: recording ~$target samples (cpu-clock every 100 us, $rounds rounds)..." >&2
    "$perf" record -q -e cpu-clock -c 100000 --call-graph dwarf -o "$file.tmp" -- \
      "$python" -c "
import json
t = 0
for k in range($rounds):
    t += len(json.dumps({str(i): [i, i * 2] for i in range(20000)}))
" >/dev/null 2>&1 || { echo "unwind: perf record failed" >&2; exit 1; }
    n=$(nsamples "$file.tmp")
    [ -n "$n" ] && [ "$n" -ge "$target" ] && break
    rounds=$(( rounds * 3 / 2 + 1 ))
  done
  mv "$file.tmp" "$file"
fi
n=$(nsamples "$file")

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$perfev" script -i "$file" >"$out/a" || { echo "unwind: '$perfev script' failed" >&2; exit 1; }
"$perf" script -i "$file" 2>/dev/null >"$out/b" ||
  { echo "unwind: '$perf script' failed" >&2; exit 1; }
if ! cmp -s "$out/a" "$out/b"; then
  echo "unwind: the outputs differ:" >&2
  diff "$out/a" "$out/b" | head -20 >&2
  exit 1
fi
echo "outputs identical ($(wc -l <"$out/a") lines)"

run_a() { "$perfev" script -i "$file" >/dev/null; }
run_b() { "$perf" script -i "$file" >/dev/null 2>&1; }
pair_runs "$runs"
ma=$(median "${a[@]}"); mb=$(median "${b[@]}")
echo "file: $file ($n samples, $(du -h "$file" | cut -f1))"
echo "perfev script: ${ma}s (median of $runs: ${a[*]})"
echo "perf script:   ${mb}s (median of $runs: ${b[*]})"
echo "speed-up perf/perfev: $(echo "scale=2; $mb / $ma" | bc)x (target >= 3)"
