#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# `make demo`: perfev on the bundled workload, perf-style.
#   scripts/demo.sh BUILD
set -u
build=${1:-build}
perfev=$build/perfev
workload=$build/examples/workload

say() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }

if [ ! -x "$perfev" ] || [ ! -x "$workload" ]; then
  echo "demo: build first (make)" >&2
  exit 1
fi

if "$perfev" list -h >/dev/null 2>&1; then
  say "perfev list sw"
  "$perfev" list sw
fi

say "perfev stat $workload"
"$perfev" stat -- "$workload" -l 50000000 -p 1024 -s 10000

# The syscall tracepoint needs tracefs; mount it when we can (root).
tp=/sys/kernel/tracing/events/syscalls/sys_enter_getppid/id
if [ ! -r "$tp" ] && [ -d /sys/kernel/tracing ] && [ "$(id -u)" = 0 ]; then
  mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
fi
if [ -r "$tp" ]; then
  say "perfev stat -e task-clock,page-faults,syscalls:sys_enter_getppid $workload -s 10000"
  "$perfev" stat -e task-clock,page-faults,syscalls:sys_enter_getppid -- "$workload" -s 10000
  say "perfev stat -r 5 -x, -e task-clock,syscalls:sys_enter_getppid $workload -q -s 1234"
  "$perfev" stat -r 5 -x, -e task-clock,syscalls:sys_enter_getppid -- "$workload" -q -s 1234
else
  echo "(tracefs is not available: skipping the syscall tracepoint demo)"
fi

say "perfev stat -I 200 -e task-clock,page-faults $workload -S 700"
"$perfev" stat -I 200 -e task-clock,page-faults -- "$workload" -q -p 4096 -S 700

say "perfev stat -j -e task-clock $workload"
"$perfev" stat -j -e task-clock -- "$workload" -q

if "$perfev" record -h >/dev/null 2>&1 && [ -x "$build/examples/deepstack" ]; then
  data=$(mktemp /tmp/perfev-demo.XXXXXX)
  say "perfev record -F 999 -g -o $data $build/examples/deepstack"
  "$perfev" record -F 999 -g -o "$data" -- "$build/examples/deepstack"
  say "perfev script -i $data | head -n 24"
  "$perfev" script -i "$data" | head -n 24
  say "perfev report -i $data --no-children -g none | head -n 20"
  "$perfev" report -i "$data" --no-children -g none | head -n 20
  rm -f "$data" "$data.old"
fi
