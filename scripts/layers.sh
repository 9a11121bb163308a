#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Who calls whom in the library and the CLI, read from the built objects
# (readelf: the global names each object defines, with their visibility,
# and the ones it needs).
#   scripts/layers.sh [BUILD [SRC]]   (BUILD defaults to build, SRC to the
#                                      tree this script is in; make first)
# Prints one line per pair of lib/ folders, "FROM -> TO  N" (N names taken),
# then one per pair of CLI folders (cli/main.c is "main", cli/common/ is
# "common", every other cli/X/ a command; "lib" the whole library), with a
# mark on each edge that breaks a rule, then every loop of calls between
# files.  Exit 1 when anything is marked or loops, else 0; 2 when BUILD
# holds no objects.
#
# The rules:
#   lib/     a folder calls only the folders before it in order (below).
#   cli/     common/ calls no command folder (nor main.c); a command folder
#            calls no other one, except the edges in allowed (below, each
#            with its reason); main.c takes from a command folder only its
#            cmd_* entry points; nothing calls main.c; the library calls
#            no CLI code; the CLI takes from the library only what
#            libperfev.so exports (PEV_EXPORT, a pev_* name kept by
#            lib/libperfev.map), never a lib-internal function.
#   both     no loop of calls between files (every file's callers and
#            callees can be read as a stack of layers).
# An object whose source file is gone (a stale .o left in BUILD after a
# file moved) is named and skipped, not read as code.
set -u
build=${1:-build}
src=${2:-$(cd "$(dirname "$0")/.." && pwd)}
# The flow, bottom first: a folder may call only the folders before it.
order=(core explain pmu event target count sample region data symbol unwind filter profile)
# CLI command folders that may call another one: "FROM TO reason".
allowed=(
  "diff report diff compares two report tables: it loads, sorts and prints them with report's code"
)
[ -d "$build/lib" ] || [ -d "$build/cli" ] || { echo "layers: no $build/lib nor $build/cli: run make first" >&2; exit 2; }

rank() { local i; for i in "${!order[@]}"; do [ "${order[$i]}" = "$1" ] && { echo "$i"; return; }; done; echo 99; }

tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
objs=() stale=()
while IFS= read -r o; do
  if [ -f "$src/${o%.o}.c" ]; then objs+=("$o"); else stale+=("$o"); fi
done < <(cd "$build" && find lib cli -name '*.o' 2>/dev/null | LC_ALL=C sort)
[ ${#objs[@]} -gt 0 ] || { echo "layers: no object of lib/ or cli/ in $build: run make first" >&2; exit 2; }
if [ ${#stale[@]} -gt 0 ]; then
  echo "skipped, their source is gone (stale objects; make clean removes them):"
  printf '  %s/%s\n' "$build" "${stale[@]}"
fi

# "NAME FILE VIS" for every global definition, "NAME FILE" for every need
# (FILE as the source it was built from: lib/core/sys.c).
for o in "${objs[@]}"; do
  readelf -sW "$build/$o" | awk -v f="${o%.o}.c" '
    $1 ~ /^[0-9]+:$/ && NF >= 8 && ($5 == "GLOBAL" || $5 == "WEAK") {
      if ($(NF - 1) == "UND") print "U", $NF, f; else print "D", $NF, f, $6 }'
done >"$tmp/syms"
awk '$1 == "D" {print $2, $3, $4}' "$tmp/syms" | LC_ALL=C sort -k1,1 >"$tmp/defs"
awk '$1 == "U" {print $2, $3}' "$tmp/syms" | LC_ALL=C sort -k1,1 >"$tmp/uses"
# "CALLER CALLEE NAME VIS", one line per name.
LC_ALL=C join "$tmp/uses" "$tmp/defs" | awk '$2 != $3 {print $2, $3, $1, $4}' | LC_ALL=C sort >"$tmp/edges"

bad=0 libbad=0 clibad=0
echo "library folders (caller -> callee, names taken):"
awk '{split($1, a, "/"); split($2, b, "/"); if (a[1] == "lib" && b[1] == "lib" && a[2] != b[2]) print a[2], b[2]}' \
  "$tmp/edges" | LC_ALL=C sort | uniq -c |
  while read -r n from to; do
    mark=""
    if [ "$(rank "$from")" -le "$(rank "$to")" ]; then mark="   <- runs up the flow"; fi
    printf '  %-8s -> %-8s %4d%s\n' "$from" "$to" "$n" "$mark"
  done | tee "$tmp/folders"
grep -q 'runs up' "$tmp/folders" && libbad=1

# The CLI: folder pairs, then the names behind each marked edge.
echo "cli folders (caller -> callee, names taken):"
printf '%s\n' "${allowed[@]}" >"$tmp/allowed"
awk -v allowed="$tmp/allowed" '
  function unit(f, p) {
    if (f == "cli/main.c") return "main"
    split(f, p, "/")
    return p[1] == "lib" ? "lib" : p[2]
  }
  BEGIN {
    while ((getline line < allowed) > 0) {
      split(line, w, " "); why = line
      sub(/^[^ ]+ +[^ ]+ +/, "", why)
      ok[w[1] SUBSEP w[2]] = why
    }
  }
  {
    from = $1; to = $2; name = $3; vis = $4
    if (from !~ /^cli\// && to !~ /^cli\//) next
    u = unit(from); v = unit(to)
    if (u == v) next
    key = u SUBSEP v
    if (!(key in n)) { keys[++nk] = key }
    n[key]++
    why = ""
    if (u == "lib")
      why = "the library calls the CLI"
    else if (v == "lib") {
      if (vis != "DEFAULT" || name !~ /^pev_/)
        why = "not exported by libperfev (lib-internal)"
    } else if (v == "main")
      why = "calls into main.c"
    else if (u == "common")
      why = "common/ calls a command folder"
    else if (u == "main") {
      if (v != "common" && name !~ /^cmd_/)
        why = "main.c takes more than the cmd_* entry points"
    } else if (v != "common" && !(key in ok))
      why = "command folders call each other (not an allowed edge)"
    if (why != "") {
      bad[key] = why
      names[key] = names[key] sprintf("\n      %s (%s -> %s)", name, from, to)
    }
  }
  END {
    for (i = 1; i <= nk; i++) {
      key = keys[i]; split(key, p, SUBSEP)
      mark = key in bad ? "   <- " bad[key] : (key in ok ? "   (allowed: " ok[key] ")" : "")
      printf "  %-8s -> %-8s %4d%s\n", p[1], p[2], n[key], mark
    }
    for (i = 1; i <= nk; i++)
      if (keys[i] in bad) {
        split(keys[i], p, SUBSEP)
        printf "    %s -> %s takes:%s\n", p[1], p[2], names[keys[i]]
      }
  }' "$tmp/edges" >"$tmp/cli"
# lines in the order: common, commands, main, lib (then their names)
{ grep '^  [a-z]' "$tmp/cli" | LC_ALL=C sort -s -k1,1 | awk '
    {l[NR] = $0; u[NR] = $1}
    END {
      for (pass = 1; pass <= 4; pass++)
        for (i = 1; i <= NR; i++) {
          r = u[i] == "common" ? 1 : u[i] == "main" ? 3 : u[i] == "lib" ? 4 : 2
          if (r == pass) print l[i]
        }
    }'
  grep -v '^  [a-z]' "$tmp/cli"; } | tee "$tmp/cli_sorted"
grep -q ' <- ' "$tmp/cli_sorted" && clibad=1

# Loops between files: the strongly connected components of the file graph
# (Tarjan), each printed with the calls that close it.
awk '
  function strong(v,   i, w) {
    idx[v] = low[v] = ++counter; stack[++sp] = v; on[v] = 1
    for (i = 1; i <= nadj[v]; i++) {
      w = adj[v, i]
      if (!(w in idx)) { strong(w); if (low[w] < low[v]) low[v] = low[w] }
      else if (on[w] && idx[w] < low[v]) low[v] = idx[w]
    }
    if (low[v] == idx[v]) {
      ncomp++; size[ncomp] = 0
      do { w = stack[sp--]; on[w] = 0; comp[w] = ncomp; size[ncomp]++ } while (w != v)
    }
  }
  {
    if (!($1 in seen)) { seen[$1] = 1; node[++nn] = $1 }
    if (!($2 in seen)) { seen[$2] = 1; node[++nn] = $2 }
    e = $1 SUBSEP $2
    if (!(e in names)) { adj[$1, ++nadj[$1]] = $2; edge[++ne] = e }
    names[e] = names[e] " " $3
  }
  END {
    for (i = 1; i <= nn; i++) if (!(node[i] in idx)) strong(node[i])
    for (i = 1; i <= ne; i++) {
      split(edge[i], p, SUBSEP)
      c = comp[p[1]]
      if (c == comp[p[2]] && size[c] > 1)
        printf "%d %s -> %s:%s\n", c, p[1], p[2], names[edge[i]]
    }
  }' "$tmp/edges" | LC_ALL=C sort -k1,1n -k2 >"$tmp/loops"
if [ -s "$tmp/loops" ]; then
  echo "files that call each other in a loop (each loop: the calls that close it):"
  awk '$1 != last { last = $1; printf "  loop %d:\n", ++k } { $1 = ""; print "   " $0 }' "$tmp/loops"
  grep -q ' cli/' "$tmp/loops" && clibad=1
  grep -q ' lib/' "$tmp/loops" && libbad=1
else
  echo "no loop of calls between files"
fi
[ $libbad = 0 ] && echo "lib: no problem" || echo "lib: problems above"
[ $clibad = 0 ] && echo "cli: no problem" || echo "cli: problems above"
[ $libbad = 0 ] && [ $clibad = 0 ] || bad=1
exit $bad
