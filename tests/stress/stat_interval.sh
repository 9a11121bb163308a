#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Stress: perfev stat -I 10 for SECS seconds (60) on a workload that
# sleeps 1 ms in a loop.  The test samples perfev's VmRSS from
# /proc/PID/status every second: after the first 5 s it may not grow by more
# than 256 kB.  No interval is lost: every interval has a line for each
# event, the timestamps increase by at least 9 ms (the last, partial
# interval excepted) (perf's timing: the next
# interval starts when the last one was printed, so a loaded machine makes
# them longer, never shorter), and the context-switches of all the interval
# lines add up to the --summary count (a dropped interval loses its delta).
#   tests/stress/stat_interval.sh [BUILD] [SECS]
set -uo pipefail
build=${1:-build}
secs=${2:-60}
perfev=$build/perfev
tmp=$(mktemp -d /tmp/perfev-stress.XXXXXX)
fail=0
bad() { echo "FAIL: $*"; fail=1; }
"$perfev" stat -I 10 -x, --summary -e task-clock,context-switches -o "$tmp/stat.csv" -- \
  python3 -c "import time
end = time.monotonic() + $secs
while time.monotonic() < end: time.sleep(0.001)" &
pid=$!
: >"$tmp/rss"
for ((i = 0; i < secs + 30; i++)); do
  sleep 1
  r=$(sed -nE 's/^VmRSS:[[:space:]]+([0-9]+) kB/\1/p' /proc/$pid/status 2>/dev/null) || break
  [ -n "$r" ] || break
  echo "$r" >>"$tmp/rss"
done
timeout -k 2 30 tail --pid=$pid -f /dev/null
wait $pid
rc=$?
[ $rc -eq 0 ] || bad "perfev stat exited $rc"
n=$(wc -l <"$tmp/rss")
first=$(sed -n 5p "$tmp/rss")
max=$(tail -n +5 "$tmp/rss" | sort -n | tail -n1)
min=$(sort -n "$tmp/rss" | head -n1)
echo "RSS over $n samples: min $min kB, at 5 s ${first:-?} kB, max after 5 s ${max:-?} kB, last $(tail -n1 "$tmp/rss") kB"
[ -n "$first" ] && [ $((max - first)) -le 256 ] || bad "RSS grew from $first kB to $max kB"
# interval lines: TIME,VALUE,UNIT,EVENT,...; then summary,VALUE,...
grep -vE '^(#|$)' "$tmp/stat.csv" >"$tmp/lines"
awk -F, -v secs="$secs" '
  $1 ~ /summary/ { if ($4 == "context-switches") total = $2; next }
  { t = $1 + 0; n[t]++; if (!(t in seen)) { seen[t] = 1; ts[k++] = t }
    if ($4 == "context-switches") sum += $2 }
  END {
    bad = 0; maxgap = 0; mingap = 1e9
    for (i = 0; i < k; i++) {
      if (n[ts[i]] != 2) { printf "interval %s has %d lines\n", ts[i], n[ts[i]]; bad = 1 }
      # the last interval is the partial one perf prints at the end
      if (i) { g = ts[i] - ts[i-1]; if (g > maxgap) maxgap = g; if (g < mingap && i < k - 1) mingap = g }
    }
    printf "intervals: %d over %.3f s (%.1f per second), gaps %.1f to %.1f ms; context-switches: intervals add up to %d, summary %d\n",
      k, ts[k-1], k / ts[k-1], mingap * 1000, maxgap * 1000, sum, total
    if (mingap < 0.009) { print "two intervals less than 9 ms apart"; bad = 1 }
    if (maxgap > 1.0) { print "no interval line for more than 1 s"; bad = 1 }
    if (ts[k-1] < secs - 1) { print "the intervals stop early"; bad = 1 }
    if (sum != total || total == 0) { print "the intervals do not add up to the summary"; bad = 1 }
    exit bad
  }' "$tmp/lines" || bad "interval lines"
rm -rf "$tmp"
[ $fail -eq 0 ] && echo "PASS stat_interval" || echo "FAIL stat_interval"
exit $fail
