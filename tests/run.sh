#!/usr/bin/env bash
# Run every test program under BUILD/tests: exit 0 pass, 77 skip, else fail.
# Prints one line per test and, last, "N passed, N failed, N skipped".
set -u
build=${1:-build}
pass=0 fail=0 skip=0 failed=()
export PERFEV_BUILD=$build PERFEV=$build/perfev
tmo=${TEST_TIMEOUT:-120}
for t in $(find "$build/tests" -type f -executable ! -path '*/helpers/*' | sort); do
  name=${t#"$build"/tests/}
  out=$(timeout "$tmo" "$t" 2>&1); rc=$?
  case $rc in
    0)  pass=$((pass+1)); echo "PASS $name";;
    77) skip=$((skip+1)); echo "SKIP $name: $(echo "$out" | grep -i 'skip' | tail -n1)";;
    *)  fail=$((fail+1)); failed+=("$name"); echo "FAIL $name (exit $rc)"; echo "$out" | tail -n 25 | sed 's/^/    /';;
  esac
done
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
