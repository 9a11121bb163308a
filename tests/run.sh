#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Run every test program under BUILD/tests: exit 0 pass, 77 skip, else fail.
# Prints one line per test and, last, "N passed, N failed, N skipped".
# TEST_TIMES=FILE appends each test's seconds and name to FILE.
#
# The unit, shared-library, meta and compat tests run TEST_JOBS at a time
# (default 2): each works on its own files, and most of a compat test's time
# is perf and perfev reading them.  Then the live and fault tests run one at
# a time, on a quiet machine: they count the kernel's events exactly,
# measure time and signals, attach to other processes and set limits.
# Within a phase the lines come as the tests end.
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
export PERFEV_BUILD=$build PERFEV=$build/perfev
tmo=${TEST_TIMEOUT:-120}
jobs=${TEST_JOBS:-2}
res=$(mktemp -d /tmp/perfev-run.XXXXXX)
trap 'rm -rf "$res"' EXIT
. "$here/listed.sh"

# run_one TEST: runs it (and once more if tests/retry-once lists it and it
# failed), prints its lines at once, and leaves pass/fail/skip (and
# "retried") in $res/NAME.*.
run_one() {
  local t=$1 name=${1#"$build"/tests/} key out rc t0 why st
  key=$res/$(echo "$name" | tr / _)
  t0=$SECONDS
  out=$(timeout "$tmo" "$t" 2>&1); rc=$?
  {
    if [ $rc -ne 0 ] && [ $rc -ne 77 ] && listed "$here/retry-once" "$name"; then
      echo "RETRY $name (exit $rc): in tests/retry-once, running it again; the first run's failure:"
      echo "$out" | grep -A 8 '^FAIL ' | head -n 60 | sed 's/^/    /'
      out=$(timeout "$tmo" "$t" 2>&1); rc=$?
      [ $rc -eq 0 ] && : >"$key.retried"
    fi
    [ -n "${TEST_TIMES:-}" ] && echo "$((SECONDS - t0))s $name" >>"$TEST_TIMES"
    case $rc in
      0)  st=pass; echo "PASS $name";;
      77) why=$(echo "$out" | grep -i 'skip' | tail -n1)
          if [ "$strict" = 1 ] && ! listed "$expected" "$name"; then
            st=fail; echo "FAIL $name (skipped, and not in tests/expected-skips): $why"
          else
            st=skip; echo "SKIP $name: $why"
          fi;;
      *)  st=fail; echo "FAIL $name (exit $rc)"
          # the failed checks with what follows each, then the end of the output
          echo "$out" | grep -A 8 '^FAIL ' | head -n 60 | sed 's/^/    /'
          echo "    ..."; echo "$out" | tail -n 10 | sed 's/^/    /';;
    esac
  } >"$key.out"
  echo "$st" >"$key.st"
  cat "$key.out"
}
export -f run_one listed
export build here expected strict tmo res

all=$(find "$build/tests" -type f -executable ! -path '*/helpers/*' | sort)
par=$(echo "$all" | grep -E "^$build/tests/(unit|shared|meta|compat)/")
ser=$(echo "$all" | grep -vE "^$build/tests/(unit|shared|meta|compat)/")
[ -n "$par" ] && echo "$par" | xargs -P "$jobs" -I{} bash -c 'run_one "$1"' _ {}
for t in $ser; do run_one "$t"; done

pass=0 fail=0 skip=0 failed=() retried=()
for t in $all; do
  name=${t#"$build"/tests/}
  key=$res/$(echo "$name" | tr / _)
  case $(cat "$key.st" 2>/dev/null) in
    pass) pass=$((pass+1));;
    skip) skip=$((skip+1));;
    *)    fail=$((fail+1)); failed+=("$name");;
  esac
  [ -e "$key.retried" ] && retried+=("$name")
done
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
[ ${#retried[@]} -gt 0 ] && echo "passed on a second run (tests/retry-once): ${retried[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
