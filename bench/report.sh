#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# perfev report --stdio against perf report --stdio on the same callchain
# file of at least 400k samples (perf record -g of a deep-stack workload,
# made once and cached under /tmp), in three modes: children (the
# default), --no-children --sort sym, and --sort srcline.  For each mode:
# both outputs compared (perf's closing tip left out); RUNS runs each
# (alternating) under /usr/bin/time: the median wall time, the median CPU
# time (user + sys: what to compare on a loaded machine, where wall time
# also counts the waits for a core), the ratios perf/perfev (target >= 5)
# and the median peak RSS (target: perfev <= half of perf's).  Exits
# non-zero only when a tool fails to run.
# Usage: bench/report.sh [BUILD]   (SAMPLES=400000 RUNS=3; SRCLINE=0 leaves
# out the srcline mode, where one perf run takes about 5 minutes)
set -u
build=${1:-build}
perfev=$build/perfev
perf=${PERF:-perf}
runs=${RUNS:-3}
target=${SAMPLES:-400000}
file=/tmp/perfev-report-bench-$target.data

command -v "$perf" >/dev/null 2>&1 || { echo "report-bench: '$perf' not found (is Linux perf installed?)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "report-bench: /usr/bin/time missing (apt-get install time)" >&2; exit 1; }

. "$(dirname "$0")/common.bash"

record_deep "$file" "$target" report-bench
n=$(nsamples "$file")
echo "file: $file ($n samples, $(du -h "$file" | cut -f1))"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# timed CMD...: appends the run's wall and CPU seconds and peak RSS (kB)
# to the arrays w, c and m.
timed() {
  /usr/bin/time -f '%e %U %S %M' -o "$tmp/t" "$@" >/dev/null 2>&1
  local wall user sys rss
  read -r wall user sys rss < <(tail -n 1 "$tmp/t")
  w+=("$wall"); c+=("$(echo "$user + $sys" | bc)"); m+=("$rss")
}

modes=("" "--no-children --sort sym")
[ "${SRCLINE:-1}" = 0 ] || modes+=("--sort srcline")
for mode in "${modes[@]}"; do
  # shellcheck disable=SC2086
  "$perfev" report -i "$file" $mode 2>/dev/null | head -n -3 > "$tmp/a" || { echo "report-bench: perfev report failed" >&2; exit 1; }
  # shellcheck disable=SC2086
  "$perf" report --stdio -i "$file" $mode 2>/dev/null | head -n -3 > "$tmp/b"
  if cmp -s "$tmp/a" "$tmp/b"; then same="identical"; else same="DIFFERENT ($(diff "$tmp/a" "$tmp/b" | grep -c '^[<>]') lines)"; fi
  aw=() ac=() am=() bw=() bc=() bm=()
  for ((i = 0; i < runs; i++)); do
    w=() c=() m=()
    # shellcheck disable=SC2086
    timed "$perfev" report -i "$file" $mode
    # shellcheck disable=SC2086
    timed "$perf" report --stdio -i "$file" $mode
    aw+=("${w[0]}") ac+=("${c[0]}") am+=("${m[0]}")
    bw+=("${w[1]}") bc+=("${c[1]}") bm+=("${m[1]}")
  done
  maw=$(median "${aw[@]}"); mac=$(median "${ac[@]}"); ra=$(median "${am[@]}"); ra=${ra%.*}
  mbw=$(median "${bw[@]}"); mbc=$(median "${bc[@]}"); rb=$(median "${bm[@]}"); rb=${rb%.*}
  echo "mode '${mode:-children}': output $same"
  echo "  perfev report: ${maw}s wall, ${mac}s cpu, peak RSS ${ra} kB (medians of $runs; cpu: ${ac[*]})"
  echo "  perf report:   ${mbw}s wall, ${mbc}s cpu, peak RSS ${rb} kB (medians of $runs; cpu: ${bc[*]})"
  echo "  speed-up perf/perfev: $(echo "scale=2; $mbc / $mac" | bc)x cpu, $(echo "scale=2; $mbw / $maw" | bc)x wall (target >= 5); memory perfev/perf: $(echo "scale=2; $ra / $rb" | bc) (target <= 0.5)"
done
