#!/usr/bin/env bash
# perfev report --stdio against perf report --stdio on the same callchain
# file of at least 400k samples (perf record -g of a deep-stack workload,
# made once and cached under /tmp), in three modes: children (the
# default), --no-children --sort sym, and --sort srcline.  For each mode:
# both outputs compared (perf's closing tip left out), the median wall
# time of RUNS runs each (alternating), the ratio perf/perfev (target
# >= 5) and the peak RSS of each from /usr/bin/time -v (target: perfev
# <= half of perf's).  Exits non-zero only when a tool fails to run.
# Usage: bench/report.sh [BUILD]   (SAMPLES=400000 RUNS=3)
set -u
build=${1:-build}
perfev=$build/perfev
perf=${PERF:-perf}
runs=${RUNS:-3}
target=${SAMPLES:-400000}
file=/tmp/perfev-report-bench-$target.data

command -v "$perf" >/dev/null 2>&1 || { echo "report-bench: '$perf' not found (is Linux perf installed?)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "report-bench: /usr/bin/time missing (apt-get install time)" >&2; exit 1; }

. "$(dirname "$0")/common.bash"

record_deep "$file" "$target" report-bench
n=$(nsamples "$file")
echo "file: $file ($n samples, $(du -h "$file" | cut -f1))"

peak() { /usr/bin/time -v "$@" 2>&1 >/dev/null | awk '/Maximum resident/ {print $6}'; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for mode in "" "--no-children --sort sym" "--sort srcline"; do
  # shellcheck disable=SC2086
  "$perfev" report -i "$file" $mode 2>/dev/null | head -n -3 > "$tmp/a" || { echo "report-bench: perfev report failed" >&2; exit 1; }
  # shellcheck disable=SC2086
  "$perf" report --stdio -i "$file" $mode 2>/dev/null | head -n -3 > "$tmp/b"
  if cmp -s "$tmp/a" "$tmp/b"; then same="identical"; else same="DIFFERENT ($(diff "$tmp/a" "$tmp/b" | grep -c '^[<>]') lines)"; fi
  # shellcheck disable=SC2086
  run_a() { "$perfev" report -i "$file" $mode >/dev/null 2>&1; }
  # shellcheck disable=SC2086
  run_b() { "$perf" report --stdio -i "$file" $mode >/dev/null 2>&1; }
  pair_runs "$runs"
  ma=$(median "${a[@]}"); mb=$(median "${b[@]}")
  # shellcheck disable=SC2086
  ra=$(peak "$perfev" report -i "$file" $mode); rb=$(peak "$perf" report --stdio -i "$file" $mode)
  echo "mode '${mode:-children}': output $same"
  echo "  perfev report: ${ma}s, peak RSS ${ra} kB (median of $runs: ${a[*]})"
  echo "  perf report:   ${mb}s, peak RSS ${rb} kB (median of $runs: ${b[*]})"
  echo "  speed-up perf/perfev: $(echo "scale=2; $mb / $ma" | bc)x (target >= 5); memory perfev/perf: $(echo "scale=2; $ra / $rb" | bc) (target <= 0.5)"
done
