#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Run the unit, CLI and library tests under valgrind memcheck: each test
# program under valgrind, and every perfev it starts (through $PERFEV, a
# wrapper that runs perfev under valgrind too).  A test fails if it fails as
# usual or if any valgrind log shows an error or a definite leak.
#   tests/valgrind/run.sh [BUILD] [TEST-NAME-REGEX]
# Tests listed in tests/valgrind/exclude (one "dir/name  reason" a line) do
# not run: they measure time or overhead that valgrind's slowdown breaks.
# Of the compat tests, only those tests/valgrind/compat lists run (CI time).
set -u
build=${1:-build}
only=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
command -v valgrind >/dev/null || { echo "perfev: error: valgrind not installed (scripts/deps.sh)" >&2; exit 1; }
logs=$(mktemp -d /tmp/perfev-vg.XXXXXX)
vgopts=(--error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite
        --show-leak-kinds=definite --track-fds=no --num-callers=30 --quiet
        --suppressions=$here/perfev.supp)
# the wrapper the tests find as $PERFEV
wrap=$logs/perfev
cat >"$wrap" <<W
#!/bin/sh
exec valgrind ${vgopts[*]} --log-file=\${PERFEV_VG_LOGS:-$logs}/perfev.%p.log "$root/$build/perfev" "\$@"
W
chmod +x "$wrap"
# perfev finds its libexec helper next to itself: the wrapper's too
if [ -x "$root/$build/perfev-read-vdso32" ]; then ln -s "$root/$build/perfev-read-vdso32" "$logs/"; fi
# Tests that run perfev as another user (setpriv to nobody) need to reach
# the wrapper and write their logs: the folder is open as /tmp is.
chmod 1777 "$logs"
export PERFEV_BUILD=$build PERFEV=$wrap PERFEV_VALGRIND=1
tmo=${TEST_TIMEOUT:-300}
# Two tests at a time by default (VG_JOBS): valgrind runs one thread of a
# program at a time, so a 2-core machine runs two of them in about half the
# time; each test has its own log folder.
jobs=${VG_JOBS:-2}
run_one() {
  local t=$1 name=${1#"$build"/tests/} d
  d=$logs/run.$(echo "$name" | tr / _)
  mkdir -p "$d" && chmod 1777 "$d"
  local t0 out rc bad dt
  t0=$(date +%s)
  out=$(PERFEV_VG_LOGS=$d timeout -k 5 "$tmo" valgrind "${vgopts[@]}" --log-file="$d/test.%p.log" "$t" 2>&1); rc=$?
  # With --quiet a log holds only errors ("==PID== Invalid read ...",
  # "==PID== N bytes in 1 blocks are definitely lost ...", their indented
  # stacks) and valgrind's warnings; any error line fails the test.
  bad=$(grep -lE '^==[0-9]+== [^ ]' "$d"/*.log 2>/dev/null |
        while read -r l; do grep -qvE '^(==[0-9]+== (Warning|WARNING|$| )|--[0-9]+--)' "$l" && echo "$l"; done)
  dt=$(( $(date +%s) - t0 ))
  {
    if [ -n "$bad" ] || { [ $rc -ne 0 ] && [ $rc -ne 77 ]; }; then
      echo "FAIL $name (exit $rc, ${dt}s)"
      echo "$out" | tail -n 15 | sed 's/^/    /'
      for l in $bad; do sed 's/^/    /' "$l" | head -n 60; done
    elif [ $rc -eq 77 ]; then
      echo "SKIP $name: $(echo "$out" | grep -i skip | tail -n1)"
    else
      echo "PASS $name (${dt}s)"
    fi
  } > "$d/result"
  [ -n "$bad" ] && touch "$d/vgerror"
  rm -f "$d"/*.log
  cat "$d/result"
}
export -f run_one
export build logs tmo
start=$(date +%s)
list=()
for t in $(find "$build/tests/unit" "$build/tests/live" "$build/tests/compat" -type f -executable 2>/dev/null | sort); do
  name=${t#"$build"/tests/}
  [ -n "$only" ] && ! [[ $name =~ $only ]] && continue
  if grep -qE "^$name( |$)" "$here/exclude" 2>/dev/null; then continue; fi
  # compat tests: only those tests/valgrind/compat lists (CI time)
  if [[ $name == compat/* ]] && ! grep -qxF "$name" "$here/compat"; then continue; fi
  list+=("$t")
done
# vgopts is an array: passed to the workers through a file they source
declare -p vgopts > "$logs/vgopts.sh"
printf '%s\n' "${list[@]}" |
  xargs -P "$jobs" -I{} bash -c 'source "$logs/vgopts.sh"; run_one "$1"' _ {}
# A test of tests/retry-once that failed without a valgrind error runs
# once more (its first failure printed above); a memory error never does.
retried=()
. "$here/../listed.sh"
for t in "${list[@]}"; do
  name=${t#"$build"/tests/}
  d=$logs/run.$(echo "$name" | tr / _)
  [ "$(head -c 4 "$d/result" 2>/dev/null)" = FAIL ] && [ ! -e "$d/vgerror" ] || continue
  listed "$here/../retry-once" "$name" || continue
  echo "RETRY $name: in tests/retry-once, running it again"
  (source "$logs/vgopts.sh"; rm -rf "$d"; run_one "$t")
  [ "$(head -c 4 "$d/result" 2>/dev/null)" = PASS ] && retried+=("$name")
done
pass=0 fail=0 skip=0 failed=()
for t in "${list[@]}"; do
  name=${t#"$build"/tests/}
  r=$logs/run.$(echo "$name" | tr / _)/result
  case $(head -c 4 "$r" 2>/dev/null) in
    PASS) pass=$((pass+1)) ;;
    SKIP) skip=$((skip+1)) ;;
    *) fail=$((fail+1)); failed+=("$name") ;;
  esac
done
rm -rf "$logs"
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
[ ${#retried[@]} -gt 0 ] && echo "passed on a second run (tests/retry-once): ${retried[*]}"
echo "valgrind: $pass passed, $fail failed, $skip skipped in $(( $(date +%s) - start ))s (${jobs} at a time)"
[ "$fail" -eq 0 ]
