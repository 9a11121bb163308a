#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# perfev convert on the same callchain file of at least 400k samples (the
# deep-stack recording bench/report.sh uses, made once and cached under
# /tmp): every format `perfev convert -h` lists, against `perfev report` on
# the file (target: each format within 1.5x of the report's CPU time) and
# against the usual route to folded stacks, `perf script` alone and, when
# stackcollapse-perf.pl is on the PATH, `perf script | stackcollapse-perf.pl`
# (target: folded >= 5x faster than perf script alone).  Also the size of
# each output (target: html under 5 MB).  RUNS runs each, alternating, under
# /usr/bin/time; medians of CPU time (user + sys) and wall time.  Exits
# non-zero only when a tool fails to run.
# Usage: bench/convert.sh [BUILD]   (SAMPLES=400000 RUNS=3 FORMATS="folded html")
set -u
build=${1:-build}
perfev=$build/perfev
perf=${PERF:-perf}
runs=${RUNS:-3}
target=${SAMPLES:-400000}
file=/tmp/perfev-report-bench-$target.data

command -v "$perf" >/dev/null 2>&1 || { echo "convert-bench: '$perf' not found (is Linux perf installed?)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "convert-bench: /usr/bin/time missing (apt-get install time)" >&2; exit 1; }

. "$(dirname "$0")/common.bash"

record_deep "$file" "$target" convert-bench
n=$(nsamples "$file")
echo "file: $file ($n samples, $(du -h "$file" | cut -f1))"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# cpu_of CMD...: runs CMD (through sh -c) once; prints "cpu wall"
cpu_of() {
  /usr/bin/time -f '%e %U %S' -o "$tmp/t" sh -c "$1" >/dev/null 2>&1 || { echo "convert-bench: failed: $1" >&2; exit 1; }
  local wall user sys
  read -r wall user sys < <(tail -n 1 "$tmp/t")
  echo "$(echo "$user + $sys" | bc) $wall"
}

# measure NAME CMD: RUNS runs; sets mc (median cpu) and mw (median wall)
declare -A MC MW
measure() {
  local name=$1 cmd=$2 cs=() ws=() c w
  for ((i = 0; i < runs; i++)); do
    read -r c w < <(cpu_of "$cmd")
    cs+=("$c"); ws+=("$w")
  done
  MC[$name]=$(median "${cs[@]}"); MW[$name]=$(median "${ws[@]}")
  printf '  %-22s %7ss cpu %7ss wall (medians of %d; cpu: %s)\n' "$name" "${MC[$name]}" "${MW[$name]}" "$runs" "${cs[*]}"
}

formats=${FORMATS:-$("$perfev" convert -h 2>/dev/null | awk '/^Formats:/ {on=1; next} on && /^  [a-z]/ {print $1}')}
[ -n "$formats" ] || { echo "convert-bench: no formats listed by '$perfev convert -h'" >&2; exit 1; }

measure "perfev report" "$perfev report -i $file > /dev/null"
measure "perf script" "$perf script -i $file > /dev/null"
if command -v stackcollapse-perf.pl >/dev/null 2>&1; then
  measure "perf script|collapse" "$perf script -i $file | stackcollapse-perf.pl > /dev/null"
fi
for f in $formats; do
  measure "convert $f" "$perfev convert -q -i $file --to $f -o $tmp/out.$f"
done
echo
rep=${MC[perfev report]}
for f in $formats; do
  sz=$(stat -c %s "$tmp/out.$f")
  printf '%-11s %9d bytes (%.2f MB)  cpu vs report: %.2fx (target <= 1.5)' "$f" "$sz" \
    "$(echo "$sz / 1048576" | bc -l)" "$(echo "${MC[convert $f]} / $rep" | bc -l)"
  [ "$f" = html ] && printf '  (target < 5 MB)'
  echo
done
if [ -n "${MC[convert folded]:-}" ]; then
  printf 'folded vs perf script alone: %.2fx faster (cpu; target >= 5), %.2fx (wall)\n' \
    "$(echo "${MC[perf script]} / ${MC[convert folded]}" | bc -l)" \
    "$(echo "${MW[perf script]} / ${MW[convert folded]}" | bc -l)"
  if [ -n "${MC[perf script|collapse]:-}" ]; then
    printf 'folded vs perf script | stackcollapse-perf.pl: %.2fx faster (cpu)\n' \
      "$(echo "${MC[perf script|collapse]} / ${MC[convert folded]}" | bc -l)"
  fi
fi
