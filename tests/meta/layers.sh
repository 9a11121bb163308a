#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/layers.sh passes on the build under test ($PERFEV_BUILD, default
# build): the lib/ folders call down their flow, the CLI keeps its rules
# (common/ calls no command, commands call each other only through the
# allowed edges, main.c takes only cmd_* entry points, the CLI takes only
# exported names from the library) and no files call each other in a loop.
# First it proves it can fail: fake trees of three or four tiny objects,
# each with one planted problem, must make it exit 1 naming that problem,
# and a clean one exit 0.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${PERFEV_BUILD:-build}
case $build in /*) ;; *) build=$PWD/$build;; esac
layers=$here/scripts/layers.sh
cc=${CC:-cc}
command -v readelf >/dev/null && command -v "$cc" >/dev/null ||
  { echo "SKIP: needs readelf and a C compiler ($cc)"; exit 77; }
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
# fake NAME FILE=CODE...: sources under $tmp/NAME/src, objects under
# $tmp/NAME/build (as make lays them out), built -fvisibility=hidden as
# the library is; PEV is the library's export mark.
fake() {
  local name=$1 spec f; shift
  for spec in "$@"; do
    f=${spec%%=*}
    mkdir -p "$tmp/$name/src/$(dirname "$f")" "$tmp/$name/build/$(dirname "$f")"
    printf '#define PEV __attribute__((visibility("default")))\n%s\n' "${spec#*=}" >"$tmp/$name/src/$f"
    "$cc" -c -fvisibility=hidden -o "$tmp/$name/build/${f%.c}.o" "$tmp/$name/src/$f" ||
      { fail "cannot compile the fake $name/$f"; return 1; }
  done
}
# expect NAME RC TEXT: layers.sh on the fake tree NAME exits RC and says TEXT.
expect() {
  local out rc
  out=$(bash "$layers" "$tmp/$1/build" "$tmp/$1/src" 2>&1); rc=$?
  if [ "$rc" != "$2" ]; then
    fail "fake tree '$1': layers.sh exit $rc, want $2; it said:"; echo "$out" | sed 's/^/    /'
  elif ! grep -qF -- "$3" <<<"$out"; then
    fail "fake tree '$1': layers.sh does not say '$3'; it said:"; echo "$out" | sed 's/^/    /'
  fi
}

lib='lib/core/z.c=PEV int pev_z(void) { return 1; } int pev__hidden(void) { return 2; }'
pmu='lib/pmu/p.c=int pev_z(void); PEV int pev_p(void) { return pev_z(); }'
report='cli/report/x.c=int pev_z(void); int helper(void); int report_load(void) { return pev_z() + helper(); } int cmd_report(void) { return report_load(); }'
common='cli/common/c.c=int helper(void) { return 3; }'
diff='cli/diff/y.c=int report_load(void); int cmd_diff(void) { return report_load(); }'
main='cli/main.c=int cmd_report(void); int cmd_diff(void); int main(void) { return cmd_report() + cmd_diff(); }'

fake clean "$lib" "$pmu" "$report" "$common" "$diff" "$main" && {
  expect clean 0 "cli: no problem"
  expect clean 0 "(allowed: diff"
  # a stale object (its source gone) is named and skipped, not read
  cp "$tmp/clean/build/cli/diff/y.o" "$tmp/clean/build/cli/common/gone.o"
  expect clean 0 "cli/common/gone.o"
}
fake loop "$lib" "$common" "$main" "$diff" \
  'cli/report/x.c=int pev_z(void); int report_sort(void); int report_load(void) { return pev_z(); } int cmd_report(void) { return report_sort(); }' \
  'cli/report/w.c=int report_load(void); int report_sort(void) { return report_load(); }' && {
  expect loop 1 "cli/report/w.c -> cli/report/x.c: report_load"
  expect loop 1 "cli: problems above"
}
fake common_up "$lib" "$report" "$diff" "$main" \
  'cli/common/c.c=int report_load(void); int helper(void) { return report_load(); }' &&
  expect common_up 1 "common   -> report      1   <- common/ calls a command folder"
fake sideways "$lib" "$common" "$main" \
  'cli/report/x.c=int pev_z(void); int helper(void); int diff_show(void); int report_load(void) { return pev_z() + helper(); } int cmd_report(void) { return report_load() + diff_show(); }' \
  'cli/diff/y.c=int report_load(void); int diff_show(void) { return 1; } int cmd_diff(void) { return report_load(); }' &&
  expect sideways 1 "report   -> diff        1   <- command folders call each other"
fake internal "$lib" "$common" "$diff" "$main" \
  'cli/report/x.c=int pev__hidden(void); int helper(void); int report_load(void) { return pev__hidden() + helper(); } int cmd_report(void) { return report_load(); }' && {
  expect internal 1 "not exported by libperfev"
  expect internal 1 "pev__hidden (cli/report/x.c -> lib/core/z.c)"
}
fake main_deep "$lib" "$report" "$common" "$diff" \
  'cli/main.c=int cmd_report(void); int report_load(void); int main(void) { return cmd_report() + report_load(); }' &&
  expect main_deep 1 "main.c takes more than the cmd_* entry points"
fake lib_up "$report" "$common" "$diff" "$main" \
  'lib/core/z.c=int pev_p(void); PEV int pev_z(void) { return pev_p(); }' \
  'lib/pmu/p.c=PEV int pev_p(void) { return 1; }' && {
  expect lib_up 1 "core     -> pmu         1   <- runs up the flow"
  expect lib_up 1 "lib: problems above"
}

# The real build.
if [ ! -d "$build/cli" ] && [ ! -d "$build/lib" ]; then
  fail "no objects in $build (PERFEV_BUILD): build it first"
else
  out=$(bash "$layers" "$build" "$here" 2>&1); rc=$?
  if [ $rc -ne 0 ]; then
    fail "scripts/layers.sh $build exits $rc:"; echo "$out" | sed 's/^/    /'
  fi
fi
[ $fails -eq 0 ] && echo ok
[ $fails -eq 0 ]
