#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Every tracked source file names its license on its first line (its second
# after a #! line or an HTML doctype): the library (lib/, include/,
# examples/, man/libperfev*) "LGPL-2.1 OR BSD-2-Clause", everything else
# "GPL-2.0-only" (see COPYING).  Data files (corpora, expected outputs,
# JSON, Markdown, the license texts, perfev.pc.in) carry none.
set -u
cd "$(dirname "$0")/../.." || exit 1
# The tracked files; outside a git checkout (a release tarball, the
# scratch copy of tests/mutants/run.sh) the Makefile and every file of the
# source folders but the ignored ones.
list_files() {
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files
  else
    { echo Makefile
      find .ci cli completions examples include lib libexec man scripts bench tests -type f \
        ! -path 'tests/js/node_modules/*' ! -path 'tests/fuzz/artifacts/*' ! -name '*.o' ! -name 'perf.data*' 2>/dev/null
    } | sort
  fi
}
bad=0 n=0
while IFS= read -r f; do
  case "$f" in
    COPYING|LICENSES/*|*.md|*.json|*.dump|perfev.pc.in|tests/fuzz/corpus/*|tests/data/*) continue;;
  esac
  [ -f "$f" ] || continue
  n=$((n+1))
  case "$f" in
    lib/*|include/*|examples/*|man/libperfev*) want='LGPL-2.1 OR BSD-2-Clause';;
    *) want='GPL-2.0-only';;
  esac
  got=$(head -n 2 "$f" | grep -o 'SPDX-License-Identifier: [A-Za-z0-9.+ -]*[A-Za-z0-9.+]' | head -n 1)
  got=${got#SPDX-License-Identifier: }
  if [ -z "$got" ]; then
    echo "FAIL $f: no SPDX-License-Identifier line in its first two lines (add one: $want)"; bad=$((bad+1))
  elif [ "$got" != "$want" ]; then
    echo "FAIL $f: SPDX-License-Identifier is '$got', files under ${f%%/*}/ are '$want' (COPYING)"; bad=$((bad+1))
  fi
done < <(list_files)
for t in COPYING LICENSES/GPL-2.0-only.txt LICENSES/LGPL-2.1.txt LICENSES/BSD-2-Clause.txt; do
  [ -s "$t" ] || { echo "FAIL $t is missing"; bad=$((bad+1)); }
done
[ "$n" -gt 400 ] || { echo "FAIL only $n source files seen: is git ls-files working?"; bad=$((bad+1)); }
echo "$n source files checked, $bad problems"
[ "$bad" -eq 0 ]
