#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# perfev script's throughput against perf script's on the same callchain
# file of about 400k samples (perf record -g of a deep-stack workload).
# The file is made once and cached under /tmp, keyed by its sample target.
# Both tools print to /dev/null, alternately, RUNS times each (default 3);
# prints each median and the ratio perf/perfev (target: >= 3).  Exits
# non-zero only when a tool fails to run, never on a missed target.
# Usage: bench/script-throughput.sh [BUILD]   (SAMPLES=400000 RUNS=3)
set -u
build=${1:-build}
perfev=$build/perfev
perf=${PERF:-perf}
runs=${RUNS:-3}
target=${SAMPLES:-400000}
file=/tmp/perfev-script-bench-$target.data

command -v "$perf" >/dev/null 2>&1 || { echo "script-throughput: '$perf' not found (is Linux perf installed?)" >&2; exit 1; }
. "$(dirname "$0")/common.bash"

record_deep "$file" "$target" script-throughput
n=$(nsamples "$file")

"$perfev" script -i "$file" >/dev/null || { echo "script-throughput: '$perfev script' failed" >&2; exit 1; }
"$perf" script -i "$file" >/dev/null 2>&1 || { echo "script-throughput: '$perf script' failed" >&2; exit 1; }

run_a() { "$perfev" script -i "$file" >/dev/null; }
run_b() { "$perf" script -i "$file" >/dev/null 2>&1; }
pair_runs "$runs"
ma=$(median "${a[@]}"); mb=$(median "${b[@]}")
echo "file: $file ($n samples, $(du -h "$file" | cut -f1))"
echo "perfev script: ${ma}s (median of $runs: ${a[*]})"
echo "perf script:   ${mb}s (median of $runs: ${b[*]})"
echo "speed-up perf/perfev: $(echo "scale=2; $mb / $ma" | bc)x (target >= 3)"
