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
helper=$build/tests/helpers/script_deep
file=/tmp/perfev-report-bench-$target.data

command -v "$perf" >/dev/null 2>&1 || { echo "report-bench: '$perf' not found (is Linux perf installed?)" >&2; exit 1; }
[ -x "$helper" ] || { echo "report-bench: '$helper' missing; run make first" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "report-bench: /usr/bin/time missing (apt-get install time)" >&2; exit 1; }

nsamples() { "$perf" report -i "$1" --stats 2>/dev/null | awk '/SAMPLE events:/ {print $3; exit}'; }

if [ ! -s "$file" ] || [ "$(nsamples "$file")" -lt "$target" ] 2>/dev/null; then
  freq=20000
  max=$(cat /proc/sys/kernel/perf_event_max_sample_rate 2>/dev/null || echo 20000)
  [ "$max" -lt "$freq" ] && freq=$max
  ncpu=$(nproc)
  secs=$(( target / (freq * ncpu) + 2 ))
  while :; do
    echo "report-bench: recording ~$target samples (-F $freq, ${secs}s, $ncpu threads)..." >&2
    "$perf" record -q -e cpu-clock -F "$freq" -g -o "$file.tmp" -- \
      "$helper" $((secs * 1000)) 40 "$ncpu" >/dev/null 2>&1 || { echo "report-bench: perf record failed" >&2; exit 1; }
    n=$(nsamples "$file.tmp")
    [ -n "$n" ] && [ "$n" -ge "$target" ] && break
    secs=$(( secs * 3 / 2 + 1 ))
  done
  mv "$file.tmp" "$file"
fi
n=$(nsamples "$file")
echo "file: $file ($n samples, $(du -h "$file" | cut -f1))"

now() { date +%s.%N; }
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {m = NR % 2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2; printf "%.3f", m}'; }
peak() { /usr/bin/time -v "$@" 2>&1 >/dev/null | awk '/Maximum resident/ {print $6}'; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for mode in "" "--no-children --sort sym" "--sort srcline"; do
  # shellcheck disable=SC2086
  "$perfev" report -i "$file" $mode 2>/dev/null | head -n -3 > "$tmp/a" || { echo "report-bench: perfev report failed" >&2; exit 1; }
  # shellcheck disable=SC2086
  "$perf" report --stdio -i "$file" $mode 2>/dev/null | head -n -3 > "$tmp/b"
  if cmp -s "$tmp/a" "$tmp/b"; then same="identical"; else same="DIFFERENT ($(diff "$tmp/a" "$tmp/b" | grep -c '^[<>]') lines)"; fi
  a=() b=()
  for ((i = 0; i < runs; i++)); do
    # shellcheck disable=SC2086
    t0=$(now); "$perfev" report -i "$file" $mode >/dev/null 2>&1; t1=$(now)
    a+=("$(echo "$t1 - $t0" | bc)")
    # shellcheck disable=SC2086
    t0=$(now); "$perf" report --stdio -i "$file" $mode >/dev/null 2>&1; t1=$(now)
    b+=("$(echo "$t1 - $t0" | bc)")
  done
  ma=$(median "${a[@]}"); mb=$(median "${b[@]}")
  # shellcheck disable=SC2086
  ra=$(peak "$perfev" report -i "$file" $mode); rb=$(peak "$perf" report --stdio -i "$file" $mode)
  echo "mode '${mode:-children}': output $same"
  echo "  perfev report: ${ma}s, peak RSS ${ra} kB (median of $runs: ${a[*]})"
  echo "  perf report:   ${mb}s, peak RSS ${rb} kB (median of $runs: ${b[*]})"
  echo "  speed-up perf/perfev: $(echo "scale=2; $mb / $ma" | bc)x (target >= 5); memory perfev/perf: $(echo "scale=2; $ra / $rb" | bc) (target <= 0.5)"
done
