#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Every man/*.scd builds with scdoc, and what it builds is clean troff:
# groff -man -ww -z (every warning) prints nothing, mandoc -T lint prints no
# ERROR, UNSUPP or WARNING and no STYLE message but the allowed ones below,
# and man -l renders it with its NAME section.
#
# The page is built as the Makefile builds it: scdoc, then
# scripts/man-tidy.awk, which drops the .P macros scdoc 1.11 writes where
# they do nothing (mandoc's "skipping paragraph macro: PP empty").
# Allowed, because scdoc writes them for any page:
#   WARNING: empty block: RS    scdoc's nested list items open an empty .RS
#   STYLE: input text line longer than 80 bytes   scdoc copies a source
#            line as it is; man and groff fill the text all the same
#   STYLE: lower case character in document title
#            the title is the command's name, perfev-report, as in perf's
#            pages; scdoc writes it as the source's first line has it
# Any other STYLE message (trailing whitespace, ...) is the page's to fix.
set -u
cd "$(dirname "$0")/../.." || exit 1
for t in scdoc groff; do
  if ! command -v "$t" >/dev/null 2>&1; then
    echo "SKIP: $t is not installed (apt-get install scdoc groff-base)"; exit 77
  fi
done
have_mandoc=1 have_man=1
command -v mandoc >/dev/null 2>&1 || { have_mandoc=0; echo "NOTE: no mandoc: its lint is not run (apt-get install mandoc)"; }
command -v man >/dev/null 2>&1 || { have_man=0; echo "NOTE: no man: man -l is not run (apt-get install man-db)"; }

allowed='STYLE: lower case character in document title|STYLE: input text line longer than 80 bytes|WARNING: empty block: RS'
bad=0 n=0
fail() { echo "FAIL $*"; bad=$((bad+1)); }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

shopt -s nullglob
for src in man/*.scd; do
  n=$((n+1))
  name=$(basename "$src" .scd)		# perfev-report.1
  out=$tmp/$name
  if ! scdoc <"$src" >"$out.raw" 2>"$tmp/err"; then
    fail "$src: scdoc: $(head -n 3 "$tmp/err")"; continue
  fi
  awk -f scripts/man-tidy.awk "$out.raw" >"$out" || { fail "$src: scripts/man-tidy.awk failed"; continue; }
  [ -s "$out" ] || { fail "$src: scdoc wrote nothing"; continue; }
  # The title line names the page as its file does: perfev-report(1).
  title=$(head -n 1 "$src")
  [ "$title" = "${name%.*}(${name##*.})" ] ||
    fail "$src: line 1 is '$title'; the file's name wants '${name%.*}(${name##*.})'"
  msg=$(groff -man -ww -z "$out" 2>&1)
  [ -z "$msg" ] || fail "$src: groff -man -ww warns:"$'\n'"$msg"
  if [ "$have_mandoc" = 1 ]; then
    msg=$(mandoc -T lint "$out" 2>&1 | grep -Ev "$allowed")
    [ -z "$msg" ] || fail "$src: mandoc -T lint:"$'\n'"$msg"
    case $msg in *"missing end of block: RS"*)
      echo "    (scdoc leaves an indented block that ends the page open: end the page with an unindented paragraph, e.g. SEE ALSO)";;
    esac
  fi
  if [ "$have_man" = 1 ]; then
    if ! MANWIDTH=80 MAN_KEEP_FORMATTING= man -P cat -l "$out" >"$tmp/txt" 2>"$tmp/err"; then
      fail "$src: man -l fails: $(head -n 3 "$tmp/err")"
    elif ! grep -q '^NAME' "$tmp/txt" || ! grep -q "${name%.*}" "$tmp/txt"; then
      fail "$src: man -l renders no NAME section naming ${name%.*}"
    elif [ -s "$tmp/err" ]; then
      fail "$src: man -l: $(head -n 3 "$tmp/err")"
    fi
  fi
done
if [ "$n" -eq 0 ]; then
  fail "no man/*.scd pages"
fi
echo "$n pages checked, $bad problems"
[ "$bad" -eq 0 ]
