#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The cost of self-monitoring on this machine (issue 9): a read(2) of one
# counter, a group read of three software counters, the control page's
# seqlock read (with time extrapolation where the page allows it), rdpmc
# bare and through the library where a PMU allows it, a region begin/end
# pair (target: <= 1.2x the two group reads it needs; <= 1.2x a bare
# rdpmc sequence per read where rdpmc works), and the calibration (a
# thread's first begin/end with and without PERFEV_CALIBRATE, alternated).
# Exits non-zero only when the program fails to run, never on a missed target.
set -u
build=${1:-build}
prog=$build/bench/region_cost
iters=${ITERS:-20000}
rounds=${ROUNDS:-15}
[ -x "$prog" ] || { echo "region: '$prog' missing; run make first" >&2; exit 1; }
PERFEV_OUTPUT=none "$prog" "$iters" "$rounds" || exit 1

# Calibration: alternate 5 runs each of a process whose threads time their
# first begin/end (open + calibration) with calibration on and off.
on=() off=()
for i in 1 2 3 4 5; do
  on+=("$(PERFEV_OUTPUT=none "$prog" --first 15 | awk '{print $(NF-5)}')") || exit 1
  off+=("$(PERFEV_OUTPUT=none PERFEV_CALIBRATE=0 "$prog" --first 15 | awk '{print $(NF-5)}')") || exit 1
done
med() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print (NR % 2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
m_on=$(med "${on[@]}"); m_off=$(med "${off[@]}")
echo "a thread's first begin/end: ${m_on} ns calibrated, ${m_off} ns with PERFEV_CALIBRATE=0"
awk -v a="$m_on" -v b="$m_off" 'BEGIN {printf "calibration (8 empty pairs, once per thread): %.0f ns\n", a - b}'
