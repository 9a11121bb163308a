# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the bench/*.sh scripts (not a benchmark itself: `make bench`
# runs bench/*.sh only).  Needs $perf; record_deep also $build.

# The number of samples in a perf.data file, as perf counts them.
nsamples() { "$perf" report -i "$1" --stats 2>/dev/null | awk '/SAMPLE events:/ {print $3; exit}'; }

# record_deep FILE TARGET NAME: makes FILE (kept as a cache) a perf record -g
# of the deep-stack helper holding at least TARGET samples, unless it
# already does.  perf_event_max_sample_rate may refuse a high -F: it stays at
# a rate the kernel takes and records longer instead.
record_deep() {
  local file=$1 target=$2 name=$3 helper=$build/tests/helpers/script_deep
  [ -x "$helper" ] || { echo "$name: '$helper' missing; run make first" >&2; exit 1; }
  if [ -s "$file" ] && [ "$(nsamples "$file")" -ge "$target" ] 2>/dev/null; then
    return
  fi
  local freq=20000 max ncpu secs n
  max=$(cat /proc/sys/kernel/perf_event_max_sample_rate 2>/dev/null || echo 20000)
  [ "$max" -lt "$freq" ] && freq=$max
  ncpu=$(nproc)
  secs=$(( target / (freq * ncpu) + 2 ))
  while :; do
    echo "$name: recording ~$target samples (-F $freq, ${secs}s, $ncpu threads)..." >&2
    "$perf" record -q -e cpu-clock -F "$freq" -g -o "$file.tmp" -- \
      "$helper" $((secs * 1000)) 40 "$ncpu" >/dev/null 2>&1 || { echo "$name: perf record failed" >&2; exit 1; }
    n=$(nsamples "$file.tmp")
    [ -n "$n" ] && [ "$n" -ge "$target" ] && break
    secs=$(( secs * 3 / 2 + 1 ))
  done
  mv "$file.tmp" "$file"
}

now() { date +%s.%N; }
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {m = NR % 2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2; printf "%.3f", m}'; }

# pair_runs N: runs the caller's run_a and run_b alternately N times each;
# their wall times (seconds) land in the arrays a and b.
pair_runs() {
  local i t0 t1
  a=() b=()
  for ((i = 0; i < $1; i++)); do
    t0=$(now); run_a; t1=$(now)
    a+=("$(echo "$t1 - $t0" | bc)")
    t0=$(now); run_b; t1=$(now)
    b+=("$(echo "$t1 - $t0" | bc)")
  done
}
