#!/usr/bin/env bash
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
helper=$build/tests/helpers/script_deep
file=/tmp/perfev-script-bench-$target.data

command -v "$perf" >/dev/null 2>&1 || { echo "script-throughput: '$perf' not found (is Linux perf installed?)" >&2; exit 1; }
[ -x "$helper" ] || { echo "script-throughput: '$helper' missing; run make first" >&2; exit 1; }

nsamples() { "$perf" report -i "$1" --stats 2>/dev/null | awk '/SAMPLE events:/ {print $3; exit}'; }

if [ ! -s "$file" ] || [ "$(nsamples "$file")" -lt "$target" ] 2>/dev/null; then
  # perf_event_max_sample_rate may refuse a high -F: stay at a rate the
  # kernel takes and record longer instead.
  freq=20000
  max=$(cat /proc/sys/kernel/perf_event_max_sample_rate 2>/dev/null || echo 20000)
  [ "$max" -lt "$freq" ] && freq=$max
  ncpu=$(nproc)
  secs=$(( target / (freq * ncpu) + 2 ))
  while :; do
    echo "script-throughput: recording ~$target samples (-F $freq, ${secs}s, $ncpu threads)..." >&2
    "$perf" record -q -e cpu-clock -F "$freq" -g -o "$file.tmp" -- \
      "$helper" $((secs * 1000)) 40 "$ncpu" >/dev/null 2>&1 || { echo "script-throughput: perf record failed" >&2; exit 1; }
    n=$(nsamples "$file.tmp")
    [ -n "$n" ] && [ "$n" -ge "$target" ] && break
    secs=$(( secs * 3 / 2 + 1 ))
  done
  mv "$file.tmp" "$file"
fi
n=$(nsamples "$file")

"$perfev" script -i "$file" >/dev/null || { echo "script-throughput: '$perfev script' failed" >&2; exit 1; }
"$perf" script -i "$file" >/dev/null 2>&1 || { echo "script-throughput: '$perf script' failed" >&2; exit 1; }

now() { date +%s.%N; }
a=() b=()
for ((i = 0; i < runs; i++)); do
  t0=$(now); "$perfev" script -i "$file" >/dev/null; t1=$(now)
  a+=("$(echo "$t1 - $t0" | bc)")
  t0=$(now); "$perf" script -i "$file" >/dev/null 2>&1; t1=$(now)
  b+=("$(echo "$t1 - $t0" | bc)")
done
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {m = NR % 2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2; printf "%.3f", m}'; }
ma=$(median "${a[@]}"); mb=$(median "${b[@]}")
echo "file: $file ($n samples, $(du -h "$file" | cut -f1))"
echo "perfev script: ${ma}s (median of $runs: ${a[*]})"
echo "perf script:   ${mb}s (median of $runs: ${b[*]})"
echo "speed-up perf/perfev: $(echo "scale=2; $mb / $ma" | bc)x (target >= 3)"
