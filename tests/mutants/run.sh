#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Mutation testing: plant each bug of tests/mutants/list, one at a time, in a
# scratch copy of this tree (tracked and untracked files, plus build/ so that
# builds are incremental), rebuild what the mutant's tests need, run those
# tests, and report which test killed it.  Every mutant must be killed.
#
#   tests/mutants/run.sh [NAME...]     all mutants, or the ones named
#   MUTANT_FULL=1 tests/mutants/run.sh run the whole suite (tests/run.sh)
#                                      for each mutant instead of its subset
#                                      (about 2 minutes a mutant)
#
# The subset of a mutant is the tests that cover the code it changes (its
# "tests:" line).  Before any mutant, the union of the subsets runs on the
# unchanged tree: a test that fails there would count as a kill, so the
# script stops.  Exit status: 0 when every mutant was killed, 1 otherwise.
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
list=$src/tests/mutants/list
tool="python3 $src/tests/mutants/mutant.py $list"
full=${MUTANT_FULL:-0}
tmo=${TEST_TIMEOUT:-180}

scratch=$(mktemp -d /tmp/perfev-mutants-XXXXXX)
trap 'rm -rf "$scratch"' EXIT
(cd "$src" && git ls-files -co --exclude-standard -z | xargs -0 cp -a --parents -t "$scratch")
[ -d "$src/build" ] && cp -a "$src/build" "$scratch/"
cd "$scratch" || exit 1
export PERFEV_BUILD=build PERFEV=build/perfev

names=("$@")
[ ${#names[@]} -eq 0 ] && mapfile -t names < <($tool names)

echo "building the scratch copy in $scratch"
make -j2 all >build.log 2>&1 || { tail -n 30 build.log; echo "mutants: the unchanged tree does not build"; exit 1; }

# The tests of a mutant, as paths under build/tests.
tests_of() { $tool info "$1" | sed -n 2p; }

# Prints the tests that fail (exit other than 0 and 77) twice in a row: a
# test that fails once and then passes is flaky (some compare sampled
# output with perf's), it is reported on stderr and not counted.
run_tests() {
  local t rc
  for t in "$@"; do
    timeout -k 2 "$tmo" "build/tests/$t" >"out.$$.txt" 2>&1; rc=$?
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ]; then
      grep -m3 FAIL "out.$$.txt" | sed "s|^|    $t: |" >&2
      timeout -k 2 "$tmo" "build/tests/$t" >"out.$$.txt" 2>&1; rc=$?
      [ "$rc" -eq 0 ] && echo "    ($t failed once, then passed: flaky, not counted)" >&2
    fi
    [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ] && printf '%s ' "$t"
    [ "$rc" -eq 77 ] && echo "    ($t skipped: $(grep -i skip "out.$$.txt" | tail -n1))" >&2
  done
  rm -f "out.$$.txt"
}

if [ "$full" != 1 ]; then
  all=$(for n in "${names[@]}"; do tests_of "$n"; done | tr ' ' '\n' | sort -u)
  echo "baseline: $(echo $all | wc -w) tests on the unchanged tree"
  bad=$(run_tests $all)
  if [ -n "$bad" ]; then
    echo "mutants: these fail without any mutant, fix them first: $bad"
    exit 1
  fi
fi

survived=0
table=()
for n in "${names[@]}"; do
  info=$($tool info "$n") || exit 1
  file=$(echo "$info" | sed -n 1p)
  tests=$(echo "$info" | sed -n 2p)
  about=$(echo "$info" | sed -n 3p)
  $tool apply "$n" "$scratch" || exit 1
  touch "$file"
  targets="build/perfev build/examples/workload $(ls tests/helpers/*.c | sed 's|^tests/\(.*\)\.c$|build/tests/\1|')"
  if [ "$full" = 1 ]; then
    make -j2 all >build.log 2>&1
  else
    make -j2 $targets $(for t in $tests; do echo "build/tests/$t"; done) >build.log 2>&1
  fi
  if [ $? -ne 0 ]; then
    killer="(does not build)"
  elif [ "$full" = 1 ]; then
    killer=$(tests/run.sh build 2>&1 | sed -n 's/^failed: //p')
  else
    killer=$(run_tests $tests)
  fi
  cp -a "$src/$file" "$scratch/$file"
  touch "$scratch/$file"
  if [ -z "$killer" ]; then
    survived=$((survived + 1))
    killer="SURVIVED"
  fi
  printf '%-28s %s\n' "$n" "$killer"
  table+=("$(printf '%-28s %-52s %s' "$n" "$killer" "$about")")
done

echo
printf '%-28s %-52s %s\n' "mutant" "killed by" "bug"
printf '%s\n' "${table[@]}"
echo "${#names[@]} mutants, $(( ${#names[@]} - survived )) killed, $survived survived"
[ "$survived" -eq 0 ]
