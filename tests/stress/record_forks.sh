#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Stress: perfev record -a -F max for SECS seconds (30) while a load forks
# and execs short processes continuously.  Checks: perfev ends when the
# workload does (a hang fails), exits 0, prints its LOST count; perf script
# and perf report read the file (exit 0); perf's sample and LOST record
# counts equal the ones perfev printed, its lost samples are at least
# perfev's, and perfev script prints as many samples.
#   tests/stress/record_forks.sh [BUILD] [SECS]
set -uo pipefail
build=${1:-build}
secs=${2:-30}
perfev=$build/perfev
tmp=$(mktemp -d /tmp/perfev-stress.XXXXXX)
fail=0
bad() { echo "FAIL: $*"; fail=1; }
# Two loops (one per core here) of fork + exec + exit.
loads=()
for _ in 1 2; do
  ( while :; do /bin/true; done ) &
  loads+=($!)
done
t0=$(date +%s.%N)
timeout -k 5 $((secs + 60)) "$perfev" record -a -F max -o "$tmp/r.data" -- sleep "$secs" \
  >"$tmp/rec.out" 2>"$tmp/rec.err"
rc=$?
t1=$(date +%s.%N)
kill "${loads[@]}" 2>/dev/null
wait "${loads[@]}" 2>/dev/null
cat "$tmp/rec.err"
printf 'record ran %.1f s for a %d s workload, exit %d, file %d MB\n' \
  "$(echo "$t1 - $t0" | bc)" "$secs" $rc $(( $(stat -c %s "$tmp/r.data") >> 20 ))
[ $rc -eq 0 ] || bad "perfev record exited $rc (124/137: still running $((secs + 60)) s after starting)"
samples=$(sed -nE 's/.*Captured and wrote .* \(([0-9]+) samples\).*/\1/p' "$tmp/rec.err")
lost=$(sed -nE 's/.*Lost ([0-9]+) samples.*/\1/p' "$tmp/rec.err")
lostrec=$(sed -nE 's/.*Lost [0-9]+ samples \(([0-9]+) LOST records\).*/\1/p' "$tmp/rec.err")
[ -n "$samples" ] || bad "no 'Captured and wrote ... samples' line"
# perf script: one line per sample; its closing warning gives the samples
# processed including the lost ones.
timeout 600 perf script -i "$tmp/r.data" >"$tmp/perf.txt" 2>"$tmp/perf.err" || bad "perf script exited $?"
pl=$(wc -l <"$tmp/perf.txt")
processed=$(sed -nE 's/.*Processed ([0-9]+) samples and lost.*/\1/p' "$tmp/perf.err")
nlost=$(perf report -i "$tmp/r.data" --stats 2>/dev/null | sed -nE 's/^ *LOST events: *([0-9]+).*/\1/p' | head -n1)
timeout 600 perf report --stdio -i "$tmp/r.data" >/dev/null 2>"$tmp/report.err" || bad "perf report exited $?"
timeout 600 "$perfev" script -i "$tmp/r.data" >"$tmp/pev.txt" 2>"$tmp/pev.err" || bad "perfev script exited $?"
vl=$(wc -l <"$tmp/pev.txt")
echo "samples: perfev record $samples, perf script $pl lines, perfev script $vl lines"
echo "lost: perfev record ${lost:-0} samples in ${lostrec:-0} LOST records; perf: $((${processed:-$pl} - pl)) samples, ${nlost:-0} LOST records"
[ "$pl" = "$samples" ] || bad "perf script printed $pl samples, perfev record said $samples"
[ "$vl" = "$pl" ] || bad "perfev script printed $vl lines, perf script $pl"
[ "${lostrec:-0}" = "${nlost:-0}" ] || bad "LOST records: perfev ${lostrec:-0}, perf ${nlost:-0}"
# perfev's count is the sum of the LOST records; perf's (from the
# LOST_SAMPLES records: the kernel's per-event totals) may add the samples
# lost after the last LOST record, never fewer.
if [ -n "$processed" ]; then
  [ "$((processed - pl))" -ge "${lost:-0}" ] || bad "lost samples: perfev ${lost:-0}, perf only $((processed - pl))"
elif [ -n "$lost" ] && [ "$lost" != 0 ]; then
  bad "perfev lost $lost samples, perf reports none lost"
fi
[ "${nlost:-0}" -gt 0 ] || echo "note: nothing was lost in this run (machine too slow to overflow the rings?)"
rm -rf "$tmp"
[ $fail -eq 0 ] && echo "PASS record_forks" || echo "FAIL record_forks"
exit $fail
