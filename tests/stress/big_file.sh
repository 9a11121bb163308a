#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Stress (outside CI): perfev script and the library's reader on a 1 GB
# perf.data file stay within bounded memory (they stream; the file is
# mapped or read a window at a time, never held).  The file is recorded
# here: -a -F max with DWARF call chains (8 KiB stacks) under a fork load,
# stopped by --max-size.  Peak RSS (GNU time's %M, getrusage for the
# reader) must stay under LIMIT_MB (256) whatever the file size.
#   tests/stress/big_file.sh [BUILD] [SIZE (1G)] [FILE]
# With FILE given and present, it is read instead of recorded.
set -uo pipefail
build=${1:-build}
size=${2:-1G}
limit_mb=${LIMIT_MB:-256}
perfev=$build/perfev
tmp=$(mktemp -d /tmp/perfev-big.XXXXXX)
file=${3:-$tmp/big.data}
fail=0
bad() { echo "FAIL: $*"; fail=1; }
if [ ! -s "$file" ]; then
  loads=()
  for _ in 1 2; do ( while :; do /bin/true; done ) & loads+=($!); done
  timeout -k 5 1800 "$perfev" record -a -F max --call-graph dwarf --max-size "$size" -o "$file" \
    >/dev/null 2>"$tmp/rec.err"
  rc=$?
  kill "${loads[@]}" 2>/dev/null; wait "${loads[@]}" 2>/dev/null
  cat "$tmp/rec.err"
  [ $rc -eq 0 ] || bad "perfev record exited $rc"
fi
mb=$(( $(stat -c %s "$file") >> 20 ))
echo "file: $file, $mb MB"
/usr/bin/time -f '%M %e' -o "$tmp/t1" "$perfev" script -i "$file" 2>"$tmp/s.err" | wc -l >"$tmp/lines"
rc=${PIPESTATUS[0]}
[ $rc -eq 0 ] || bad "perfev script exited $rc: $(tail -n 3 "$tmp/s.err")"
read -r rss secs <"$tmp/t1"
echo "perfev script: $(cat "$tmp/lines") lines in $secs s, peak RSS $((rss / 1024)) MB"
[ $((rss / 1024)) -lt "$limit_mb" ] || bad "perfev script peak RSS $((rss / 1024)) MB >= $limit_mb MB"
for mode in -r ""; do
  out=$("$build/tests/helpers/data_walk" $mode "$file") || bad "data_walk $mode failed"
  if [ -n "$mode" ]; then echo "reader (file order): $out"; else echo "reader (time order): $out"; fi
  r=$(echo "$out" | sed -nE 's/.*maxrss_kb ([0-9]+).*/\1/p')
  [ $((${r:-0} / 1024)) -lt "$limit_mb" ] || bad "reader $mode peak RSS $((r / 1024)) MB"
done
rm -rf "$tmp"	# a FILE given on the command line is not in it
[ $fail -eq 0 ] && echo "PASS big_file" || echo "FAIL big_file"
exit $fail
