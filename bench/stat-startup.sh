#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# perfev stat's start-up cost against perf's: both count
# task-clock,page-faults,context-switches of `true`, run alternately
# (hyperfine, warmed up, no shell in between).  Prints each median and the
# ratio perfev/perf (target: <= 0.2).  Exits non-zero only when a tool
# fails to run, never on a missed target.
set -u
build=${1:-build}
perfev=$build/perfev
perf=${PERF:-perf}
runs=${RUNS:-100}
ev=task-clock,page-faults,context-switches
tru=$(command -v true)

"$perfev" stat -e "$ev" "$tru" >/dev/null 2>&1 || { echo "stat-startup: '$perfev stat' failed" >&2; exit 1; }
if ! "$perf" stat -e "$ev" "$tru" >/dev/null 2>&1; then
  echo "stat-startup: '$perf stat' failed (is Linux perf installed?)" >&2
  exit 1
fi

median_ms() { sort -n | awk '{a[NR]=$1} END {m = NR % 2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2; printf "%.3f", m * 1000}'; }

if command -v hyperfine >/dev/null 2>&1; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  # hyperfine interleaves nothing by itself; two commands in one call run
  # back to back, so run it in rounds to alternate.
  : >"$tmp/a"; : >"$tmp/b"
  rounds=5
  per=$(( (runs + rounds - 1) / rounds ))
  for ((i = 0; i < rounds; i++)); do
    hyperfine -N --warmup 5 --runs "$per" --style none --export-json "$tmp/j.json" \
      "$perfev stat -e $ev -o /dev/null $tru" "$perf stat -e $ev -o /dev/null $tru" >/dev/null 2>&1 \
      || { echo "stat-startup: hyperfine failed" >&2; exit 1; }
    python3 - "$tmp/j.json" "$tmp/a" "$tmp/b" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["results"]
for r, out in zip(d, sys.argv[2:]):
    with open(out, "a") as f:
        f.write("".join("%.9f\n" % t for t in r["times"]))
PY
  done
  a=$(median_ms <"$tmp/a"); b=$(median_ms <"$tmp/b")
else
  # Fallback: a loop of alternating runs, timed with date +%s%N.
  a_t=(); b_t=()
  for ((i = 0; i < runs; i++)); do
    s=$(date +%s%N); "$perfev" stat -e "$ev" -o /dev/null "$tru" || exit 1; e=$(date +%s%N)
    a_t+=("$(( e - s ))")
    s=$(date +%s%N); "$perf" stat -e "$ev" -o /dev/null "$tru" || exit 1; e=$(date +%s%N)
    b_t+=("$(( e - s ))")
  done
  a=$(printf '%s\n' "${a_t[@]}" | awk '{print $1/1e9}' | median_ms)
  b=$(printf '%s\n' "${b_t[@]}" | awk '{print $1/1e9}' | median_ms)
fi
ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", (b > 0) ? a / b : 0 }')
echo "perfev stat -e $ev true: median $a ms"
echo "perf   stat -e $ev true: median $b ms"
echo "ratio perfev/perf: $ratio (target <= 0.2)"
exit 0
