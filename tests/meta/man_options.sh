#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Every command has a man page whose OPTIONS section documents exactly the
# options of its table: the set `perfev CMD --list-opts` prints (the table)
# equals the set of *--NAME* (and, for an option without a long name,
# *-X*) in the section's term lines.  The table's set is checked against an
# independent reading of it too, the `perfev CMD -h` text, and a page's
# "-X, --NAME" pairs against -h's.  Every public header (but perfev.h, which
# only includes the others) has its libperfev-NAME(3) page, and perfev(1)
# and libperfev(3) exist.
set -u
start=$PWD
cd "$(dirname "$0")/../.." || exit 1
perfev=${PERFEV:-build/perfev}
case $perfev in
  /*) ;;
  *) if [ -x "$start/$perfev" ]; then perfev=$start/$perfev; else perfev=$PWD/$perfev; fi;;
esac
[ -x "$perfev" ] || { echo "FAIL $perfev is not built (make all)"; exit 1; }

bad=0
fail() { echo "FAIL $*"; bad=$((bad+1)); }

# The options a page documents: its OPTIONS section (to the next "# "
# heading), term lines (starting with '*').  A term line naming long options
# counts those; one naming none counts its short ones.  Pairs "-X --NAME"
# of a term line go to the file $2.
page_opts() {
  awk -v pairs="$2" '
    /^# / { in_opts = ($0 ~ /^# OPTIONS[ \t]*$/); next }
    !in_opts || !/^\*/ { next }
    {
      line = $0; longs = ""; shorts = ""
      while (match(line, /\*--[A-Za-z0-9][A-Za-z0-9_-]*[*=[ ]/)) {
        longs = longs " " substr(line, RSTART + 1, RLENGTH - 2)
        line = substr(line, RSTART + RLENGTH)
      }
      line = $0
      while (match(line, /\*-[A-Za-z0-9?][*, =[]/)) {
        shorts = shorts " " substr(line, RSTART + 1, 2)
        line = substr(line, RSTART + RLENGTH)
      }
      n = split(longs, l, " "); m = split(shorts, s, " ")
      if (n) { for (i = 1; i <= n; i++) print l[i] } else { for (i = 1; i <= m; i++) print s[i] }
      if (n == 1 && m == 1) print s[1], l[1] > pairs
    }' "$1" | sort -u
}

# The options `-h` shows: "    -s, --sort <key>", "        --stdio",
# "    -g [...]" (short only).  Pairs "-X --NAME" go to the file $2.
help_opts() {
  "$perfev" "$1" -h 2>&1 | awk -v pairs="$2" '
    /^    (    |-[^ -], )--[A-Za-z0-9]/ {
      s = substr($0, 5); short = ""
      if (s ~ /^-[^ -], /) { short = substr(s, 1, 2); s = substr(s, 5) } else s = substr(s, 5)
      sub(/[ [<=].*/, "", s); print s
      if (short != "") print short, s > pairs
      next
    }
    /^    -[^ -]([ [<]|$)/ { print substr($0, 5, 2) }' | sort -u
}

cmds=$("$perfev" --list-cmds) || { echo "FAIL perfev --list-cmds"; exit 1; }
[ "$(wc -w <<<"$cmds")" -ge 10 ] || fail "perfev --list-cmds names only: $cmds"
grep -qw report <<<"$cmds" || fail "perfev --list-cmds lacks report: $cmds"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
nopts=0
for c in $cmds; do
  page=man/perfev-$c.1.scd
  table=$("$perfev" "$c" --list-opts) || { fail "perfev $c --list-opts exits $?"; continue; }
  tr ' ' '\n' <<<"$table" | grep . | sort -u >"$tmp/table"
  nopts=$((nopts + $(wc -l <"$tmp/table")))
  : >"$tmp/hpairs"; : >"$tmp/ppairs"
  help_opts "$c" "$tmp/hpairs" >"$tmp/help"
  if ! cmp -s "$tmp/table" "$tmp/help"; then
    fail "perfev $c: --list-opts and -h show different options:"
    diff "$tmp/table" "$tmp/help" | sed -n 's/^</    --list-opts only:/p;s/^>/    -h only:/p'
  fi
  if [ ! -f "$page" ]; then
    fail "$page is missing: perfev $c needs its man page"
    continue
  fi
  grep -q '^# OPTIONS' "$page" || fail "$page has no '# OPTIONS' section"
  page_opts "$page" "$tmp/ppairs" >"$tmp/page"
  while IFS= read -r o; do
    fail "perfev $c $o is in the option table but not in $page: document it"
  done < <(comm -23 "$tmp/table" "$tmp/page")
  while IFS= read -r o; do
    fail "$page documents $o, which perfev $c does not have (perfev $c --list-opts): remove it, or add the option"
  done < <(comm -13 "$tmp/table" "$tmp/page")
  # A documented "-X, --NAME" pairs the letter with the name -h does.
  while read -r s l; do
    grep -qx -- "$s $l" "$tmp/hpairs" ||
      fail "$page: $s, $l; but perfev $c -h shows $(grep -- " $l\$" "$tmp/hpairs" | cut -d' ' -f1 | grep . || echo "no short option") for $l"
  done <"$tmp/ppairs"
done
[ "$nopts" -ge 100 ] || fail "only $nopts options in all --list-opts: is it working?"

for p in man/perfev.1.scd man/libperfev.3.scd; do
  [ -f "$p" ] || fail "$p is missing"
done
nh=0
for h in include/perfev/*.h; do
  n=$(basename "$h" .h)
  [ "$n" = perfev ] && continue
  nh=$((nh+1))
  [ -f "man/libperfev-$n.3.scd" ] || fail "man/libperfev-$n.3.scd is missing: $h is public and needs its page"
done
[ "$nh" -ge 5 ] || fail "only $nh public headers seen in include/perfev"

echo "$(wc -w <<<"$cmds") commands, $nopts options, $nh headers checked, $bad problems"
[ "$bad" -eq 0 ]
