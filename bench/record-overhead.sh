#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Overhead of sampling with call chains: the deep-stack CPU-bound workload
# (examples/deepstack) bare, under `perfev record -F 20000 -g` and under
# `perf record -F 20000 -g`, in alternating runs; prints the median wall
# times, their ratios to bare, and the samples and lost samples of each.
#   bench/record-overhead.sh [BUILD] [RUNS]     (build, 7)
set -u
build=${1:-build}
runs=${2:-7}
perfev=$build/perfev
work=$build/examples/deepstack
tmp=${TMPDIR:-/tmp}/perfev-bench.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
[ -x "$perfev" ] && [ -x "$work" ] || { echo "build first: make -j2" >&2; exit 1; }
perf=$(command -v perf || true)
rate=20000
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate 2>/dev/null || echo 0)
if [ "$max" -lt "$rate" ]; then
  echo "note: perf_event_max_sample_rate is $max: both tools lower -F $rate to it"
fi

now() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

: >"$tmp/bare"; : >"$tmp/floor"; : >"$tmp/perfev"; : >"$tmp/perf"
floor=$build/examples/sample_floor
for ((i = 0; i < runs; i++)); do
  t0=$(now); "$work"; t1=$(now)
  echo $(( (t1 - t0) / 1000 )) >>"$tmp/bare"
  # the kernel's own cost: the same sampling, rings drained without being read
  [ -x "$floor" ] && echo $(( $("$floor" $rate -g -- "$work") * 1000 )) >>"$tmp/floor"
  t0=$(now); "$perfev" record -F $rate -g -o "$tmp/x" -- "$work" 2>"$tmp/x.err"; t1=$(now)
  echo $(( (t1 - t0) / 1000 )) >>"$tmp/perfev"
  grep -o '([0-9]* samples)' "$tmp/x.err" | tr -dc '0-9' >>"$tmp/perfev.samples"; echo >>"$tmp/perfev.samples"
  lost=$(sed -n 's/.*Lost \([0-9]*\) samples.*/\1/p' "$tmp/x.err"); echo "${lost:-0}" >>"$tmp/perfev.lost"
  if [ -n "$perf" ]; then
    t0=$(now); "$perf" record -F $rate -g -o "$tmp/y" -- "$work" 2>"$tmp/y.err"; t1=$(now)
    echo $(( (t1 - t0) / 1000 )) >>"$tmp/perf"
    grep -o '([0-9]* samples)' "$tmp/y.err" | tr -dc '0-9' >>"$tmp/perf.samples"; echo >>"$tmp/perf.samples"
    lost=$("$perf" report --stdio -i "$tmp/y" 2>/dev/null | sed -n 's/^# Total Lost Samples: \([0-9]*\).*/\1/p')
    echo "${lost:-0}" >>"$tmp/perf.lost"
  fi
done

bare=$(median <"$tmp/bare")
printf '%-28s %10s %8s %10s %8s\n' "" "median ms" "ratio" "samples" "lost"
printf '%-28s %10.1f %8s %10s %8s\n' "bare" "$(echo "$bare/1000" | bc -l)" "1.000" "-" "-"
if [ -s "$tmp/floor" ]; then
  f=$(median <"$tmp/floor")
  printf '%-28s %10.1f %8.3f %10s %8s\n' "kernel floor (no-cost reader)" "$(echo "$f/1000" | bc -l)" "$(echo "$f/$bare" | bc -l)" "-" "-"
fi
for t in perfev perf; do
  [ -s "$tmp/$t" ] || continue
  m=$(median <"$tmp/$t")
  printf '%-28s %10.1f %8.3f %10s %8s\n' "$t record -F $rate -g" "$(echo "$m/1000" | bc -l)" \
    "$(echo "$m/$bare" | bc -l)" "$(median <"$tmp/$t.samples")" "$(median <"$tmp/$t.lost")"
done
