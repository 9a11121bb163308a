#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Long fuzzing campaign: run each libFuzzer harness for SECS seconds (or the
# per-harness budget NAME=SECS) and print how many inputs it executed.
#
#   tests/fuzz/long.sh SECS [NAME[=SECS] ...]
#
# With no NAME every harness in build-fuzz/ runs.  Inputs found are kept in
# build-fuzz/corpus/NAME (persistent, so campaigns add up; minimize them into
# tests/fuzz/corpus/NAME with `make fuzz-merge`).  Crashes, leaks and
# sanitizer reports (the fuzz build has -fno-sanitize-recover=all) stop the
# harness, are saved under tests/fuzz/artifacts/ and make the script exit 1.
# Each harness's count is also appended to build-fuzz/counts.log
# (date name seconds executions status) so several campaigns can be summed.
# FUZZ_NICE (default 19) is the nice level, FUZZ_JOBS (default 1) the number
# of parallel workers (-fork=N; the count is then the sum of the workers').
set -euo pipefail
secs=${1:?usage: long.sh SECS [NAME[=SECS] ...]}
shift
nice_lvl=${FUZZ_NICE:-19}
jobs=${FUZZ_JOBS:-1}
mkdir -p tests/fuzz/artifacts build-fuzz/corpus
list=("$@")
if [ ${#list[@]} -eq 0 ]; then
  for f in build-fuzz/*; do [ -f "$f" ] && [ -x "$f" ] && list+=("$(basename "$f")"); done
fi
fail=0
total=0
for spec in "${list[@]}"; do
  n=${spec%%=*}
  t=$secs
  [ "$spec" != "$n" ] && t=${spec#*=}
  bin=build-fuzz/$n
  [ -x "$bin" ] || { echo "perfev: error: $bin not built (run make fuzz)" >&2; exit 2; }
  seeds=tests/fuzz/corpus/$n
  work=build-fuzz/corpus/$n
  mkdir -p "$seeds" "$work"
  log=build-fuzz/$n.log
  args=(-max_total_time="$t" -print_final_stats=1 -artifact_prefix=tests/fuzz/artifacts/"$n"-)
  [ "$jobs" -gt 1 ] && args+=(-fork="$jobs" -ignore_crashes=0 -ignore_ooms=0 -ignore_timeouts=0)
  rc=0
  nice -n "$nice_lvl" "$bin" "${args[@]}" "$work" "$seeds" >"$log" 2>&1 || rc=$?
  if [ "$jobs" -gt 1 ]; then
    # fork mode: the parent's last status line carries the total count
    execs=$(grep -oE '^#[0-9]+' "$log" | tail -n 1 | tr -d '#')
  else
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  fi
  execs=${execs:-0}
  # a sanitizer report or a leak fails even if the harness exited 0
  if [ $rc -ne 0 ] || grep -qE '^(==[0-9]+==ERROR|SUMMARY: (Address|UndefinedBehavior|Leak)Sanitizer)|runtime error:' "$log"; then
    st="FAIL(rc=$rc)"
    fail=1
    echo "fuzz $n: failed; log $log, tail:" >&2
    tail -n 30 "$log" >&2
  else
    st=ok
  fi
  printf '%-18s %8ss %12s executions  %s\n' "$n" "$t" "$execs" "$st"
  printf '%s %s %s %s %s\n' "$(date -u +%FT%TZ)" "$n" "$t" "$execs" "$st" >>build-fuzz/counts.log
  total=$((total + execs))
done
echo "total: $total executions"
exit $fail
