#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# `make check-arm64`'s runner: every unit test of BUILD (static and shared
# variants) and every fuzz harness's committed corpus (BUILD/fuzz/<harness>,
# the standalone driver) under qemu-aarch64.  Exit 0 pass, 77 skip, else
# fail; a skip must be listed in tests/arm64/skips with its reason.  Prints
# one line per test and, last, "N passed, N failed, N skipped".
set -u
build=${1:-build-arm64}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# The arm64 loader and libraries come from Debian's multiarch packages
# (libc6:arm64 puts /lib/ld-linux-aarch64.so.1 where qemu finds it): no -L.
# With -L /usr/aarch64-linux-gnu, qemu 7.2 (bookworm) hangs every fork() of
# a dynamically linked guest (a five-line fork/waitpid program does), so -L
# is only the fallback when the multiarch loader is missing.
qemu=(qemu-aarch64)
if [ ! -e /lib/ld-linux-aarch64.so.1 ]; then
  qemu+=(-L "${QEMU_LD_PREFIX:-/usr/aarch64-linux-gnu}")
fi
tmo=${TEST_TIMEOUT:-120}
pass=0 fail=0 skip=0 failed=()
if ! command -v qemu-aarch64 >/dev/null; then
  echo "perfev: qemu-aarch64 is missing (Debian: qemu-user); run scripts/deps.sh as root" >&2
  exit 1
fi
listed() { sed 's/#.*//' "$here/skips" | awk '{print $1}' | grep -qxF "$1"; }
result() {	# name rc output
  case $2 in
    0)  pass=$((pass+1)); echo "PASS $1";;
    77) why=$(echo "$3" | grep -i 'skip' | tail -n1)
        if listed "$1"; then skip=$((skip+1)); echo "SKIP $1: $why"
        else fail=$((fail+1)); failed+=("$1")
          echo "FAIL $1 (skipped, and not in tests/arm64/skips): $why"; fi;;
    *)  fail=$((fail+1)); failed+=("$1"); echo "FAIL $1 (exit $2)"
        echo "$3" | grep -A 8 '^FAIL ' | head -n 40 | sed 's/^/    /'
        echo "    ..."; echo "$3" | tail -n 10 | sed 's/^/    /';;
  esac
}
# The arm64 binaries must really be arm64 (a native build in the wrong
# folder would pass for the wrong reason).
probe=$build/tests/unit/sys_helpers
if ! od -An -tx1 -j18 -N2 "$probe" 2>/dev/null | grep -q 'b7 00'; then
  echo "perfev: $probe is not an arm64 (EM_AARCH64) program: build with make ARCH=arm64" >&2
  exit 1
fi
export PERFEV_BUILD=$build PERFEV=$build/perfev
for t in $(find "$build/tests/unit" "$build/tests/shared" -type f -executable 2>/dev/null | sort); do
  name=${t#"$build"/tests/}
  out=$(cd "$root" && timeout -k 2 "$tmo" "${qemu[@]}" "$t" 2>&1); rc=$?
  result "$name" "$rc" "$out"
done
for d in "$build"/fuzz/*; do
  [ -x "$d" ] || continue
  h=$(basename "$d")
  out=$(cd "$root" && timeout -k 2 "$tmo" "${qemu[@]}" "$d" "tests/fuzz/corpus/$h" 2>&1); rc=$?
  result "fuzz/$h" "$rc" "$out"
done
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
