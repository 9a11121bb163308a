#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# completions/perfev.bash, asked the way bash asks it at a TAB: COMP_LINE,
# COMP_POINT, and COMP_WORDS/COMP_CWORD split at blanks and at the word
# break characters (':' and '=' among them), then _perfev; readline puts a
# reply in place of the text after the last break character.  Run with
# bash-completion loaded (when installed) and in a plain bash, with PATH
# finding the perfev under test first.  The expected values are perf's
# names, written here by hand, not read from perfev.
set -u
if [ "${1-}" != --inner ]; then
  start=$PWD
  cd "$(dirname "$0")/../.." || exit 1
  perfev=${PERFEV:-build/perfev}
  case $perfev in
    /*) ;;
    *) if [ -x "$start/$perfev" ]; then perfev=$start/$perfev; else perfev=$PWD/$perfev; fi;;
  esac
  [ -x "$perfev" ] || { echo "FAIL $perfev is not built (make all)"; exit 1; }
  [ "$(basename "$perfev")" = perfev ] || { echo "FAIL $perfev: the completion runs 'perfev' from PATH"; exit 1; }
  export PATH="$(dirname "$perfev"):$PATH" COMPLETION=$PWD/completions/perfev.bash
  rc=0
  if [ -f /usr/share/bash-completion/bash_completion ]; then
    echo "== with bash-completion"
    bash --norc --noprofile "$0" --inner /usr/share/bash-completion/bash_completion || rc=1
  else
    echo "NOTE: bash-completion is not installed (apt-get install bash-completion): plain bash only"
  fi
  echo "== plain bash (complete only)"
  bash --norc --noprofile "$0" --inner || rc=1
  exit $rc
fi

# --- inner: one bash, bash-completion loaded when $2 names it ---
if [ -n "${2-}" ]; then
  # shellcheck disable=SC1090
  . "$2" || { echo "FAIL cannot load $2"; exit 1; }
fi
# shellcheck disable=SC1090
. "$COMPLETION" || { echo "FAIL cannot source $COMPLETION"; exit 1; }
[ "$(complete -p perfev 2>/dev/null)" != "" ] || { echo "FAIL no 'complete ... perfev' after sourcing"; exit 1; }
bad=0
fail() { echo "FAIL $*"; bad=$((bad+1)); }

# comp LINE: the words the line becomes after a TAB at its end, as readline
# leaves them: each reply with the part of the blank-separated word before
# the last break character put back (sched: + sched_switch).
comp() {
  local line=$1 wb=${COMP_WORDBREAKS-$' \t\n"\'><=;|&(:'} cw='' c i
  COMP_LINE=$line COMP_POINT=${#line} COMP_WORDS=()
  for ((i = 0; i < ${#line}; i++)); do
    c=${line:i:1}
    if [[ $c == [[:blank:]] ]]; then
      [[ -n $cw ]] && COMP_WORDS+=("$cw"); cw=''
    elif [[ $wb == *"$c"* ]]; then
      [[ -n $cw ]] && COMP_WORDS+=("$cw"); COMP_WORDS+=("$c"); cw=''
    else
      cw+=$c
    fi
  done
  COMP_WORDS+=("$cw")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  local word=${line##*[[:blank:]]} text
  text=$word
  for ((i = ${#word} - 1; i >= 0; i--)); do
    [[ $wb == *"${word:i:1}"* ]] && { text=${word:i+1}; break; }
  done
  COMPREPLY=()
  # bash passes: command name, word being completed, word before it
  _perfev "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}" 2>/dev/null
  for c in "${COMPREPLY[@]}"; do
    printf '%s\n' "${word%"$text"}$c"
  done
}

# has LINE WORD...: each WORD is among the completions of LINE
has() {
  local line=$1 out w
  shift
  out=$(comp "$line")
  for w in "$@"; do
    grep -qxF -- "$w" <<<"$out" || fail "'$line<TAB>' does not offer '$w' (offers: $(head -c 300 <<<"$out" | tr '\n' ' '))"
  done
}
# only LINE WORD: WORD is the one completion
only() {
  local out
  out=$(comp "$1")
  [ "$out" = "$2" ] || fail "'$1<TAB>' gives '$(tr '\n' ' ' <<<"$out")', not just '$2'"
}
none() {
  local out
  out=$(comp "$1")
  [ -z "$out" ] || fail "'$1<TAB>' offers '$(head -c 200 <<<"$out" | tr '\n' ' ')'; nothing matches"
}

only 'perfev rep' report
has 'perfev ' record stat report script list diff convert
only 'perfev report --sor' --sort
has 'perfev report --' --input --sort --fields --call-graph --no-pager
has 'perfev stat -' --event --repeat --all-cpus
# perf's sort keys (perf-report(1))
has 'perfev report --sort ' comm dso sym symbol pid cpu socket srcline parent time weight local_weight trace period overhead
has 'perfev report -s ' comm dso sym pid
has 'perfev report --sort=co' --sort=comm
has 'perfev report -s comm,d' comm,dso
has 'perfev report -F ' overhead sample period comm dso sym
none 'perfev report --sort zzq'
has 'perfev diff -s ' comm dso sym pid cpu
# the formats the README names for convert --to
has 'perfev convert --to ' folded pprof json firefox speedscope chrome html
only 'perfev convert --to spe' speedscope
# perf script's -F fields (perf-script(1))
has 'perfev script -F ' ip sym comm tid time pid cpu event dso period
has 'perfev script -F ip,s' ip,sym ip,symoff
has 'perfev stat -e ' cycles instructions task-clock context-switches cpu-clock
has 'perfev record -e cpu-c' cpu-cycles cpu-clock
if [ -d /sys/kernel/tracing/events/sched/sched_switch ] || [ -d /sys/kernel/debug/tracing/events/sched/sched_switch ]; then
  has 'perfev stat -e sched:sched_sw' sched:sched_switch
  has 'perfev record -e cycles,sched:sched_sw' cycles,sched:sched_switch
else
  echo "NOTE: no tracefs with sched/sched_switch here: tracepoint names not checked"
fi
# a command after --: its name from PATH
if type -P ls >/dev/null; then
  has 'perfev record -- l' ls
  has 'perfev stat -- l' ls
  has 'perfev stat -r 3 -- l' ls
fi
# file names
d=$(mktemp -d) || exit 1
touch "$d/perf.data.zq1" "$d/perf.data.zq2"
mkdir "$d/perf.dir"
(
  cd "$d" || exit 1
  has 'perfev report -i perf.data.z' perf.data.zq1 perf.data.zq2
  has 'perfev script --input perf.data.zq' perf.data.zq1
  has 'perfev report --input=perf.data.zq' --input=perf.data.zq1
  has 'perfev record -o perf.d' perf.dir perf.data.zq1
  exit $bad
) || bad=$((bad + $?))
rm -rf "$d"
# the perfev typed with a path is the one asked
mv_path=$(type -P perfev)
only "$mv_path rep" report

echo "$bad problems"
[ "$bad" -eq 0 ]
