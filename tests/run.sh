#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Run every test program under BUILD/tests: exit 0 pass, 77 skip, else fail.
# Prints one line per test and, last, "N passed, N failed, N skipped".
# TEST_TIMES=FILE appends each test's seconds and name to FILE.
#
# A failing test listed in tests/retry-once runs once more: its first
# failure is printed ("RETRY name"), and it passes if the second run does;
# the second-last line then names it.
#
# Skips are checked against tests/expected-skips (one test name per line,
# e.g. "live/event_pfm_live  libpfm4 finds no CPU PMU on this VM"; '#'
# starts a comment).  With CI=true or STRICT_SKIPS=1 a skip not listed there
# is a failure: a regression that turns passing tests into skips (an attr
# builder that breaks, so the kernel refuses every event) cannot stay green.
set -u
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
expected=${EXPECTED_SKIPS:-$here/expected-skips}
strict=0
[ "${CI:-}" = true ] || [ "${STRICT_SKIPS:-0}" = 1 ] && strict=1
pass=0 fail=0 skip=0 failed=()
export PERFEV_BUILD=$build PERFEV=$build/perfev
tmo=${TEST_TIMEOUT:-120}

retried=()
. "$here/listed.sh"

for t in $(find "$build/tests" -type f -executable ! -path '*/helpers/*' | sort); do
  name=${t#"$build"/tests/}
  t0=$SECONDS
  out=$(timeout "$tmo" "$t" 2>&1); rc=$?
  if [ $rc -ne 0 ] && [ $rc -ne 77 ] && listed "$here/retry-once" "$name"; then
    echo "RETRY $name (exit $rc): in tests/retry-once, running it again; the first run's failure:"
    echo "$out" | grep -A 8 '^FAIL ' | head -n 60 | sed 's/^/    /'
    out=$(timeout "$tmo" "$t" 2>&1); rc=$?
    [ $rc -eq 0 ] && retried+=("$name")
  fi
  [ -n "${TEST_TIMES:-}" ] && echo "$((SECONDS - t0))s $name" >>"$TEST_TIMES"
  case $rc in
    0)  pass=$((pass+1)); echo "PASS $name";;
    77) why=$(echo "$out" | grep -i 'skip' | tail -n1)
        if [ "$strict" = 1 ] && ! listed "$expected" "$name"; then
          fail=$((fail+1)); failed+=("$name")
          echo "FAIL $name (skipped, and not in tests/expected-skips): $why"
        else
          skip=$((skip+1)); echo "SKIP $name: $why"
        fi;;
    *)  fail=$((fail+1)); failed+=("$name"); echo "FAIL $name (exit $rc)"
        # the failed checks with what follows each, then the end of the output
        echo "$out" | grep -A 8 '^FAIL ' | head -n 60 | sed 's/^/    /'
        echo "    ..."; echo "$out" | tail -n 10 | sed 's/^/    /';;
  esac
done
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
[ ${#retried[@]} -gt 0 ] && echo "passed on a second run (tests/retry-once): ${retried[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
