# SPDX-License-Identifier: GPL-2.0-only
# listed FILE NAME: true when NAME is the first word of a line of FILE
# ('#' starts a comment): tests/expected-skips and tests/retry-once, read by
# tests/run.sh and tests/valgrind/run.sh.
listed() {
  [ -f "$1" ] && sed 's/#.*//' "$1" | awk '{print $1}' | grep -qxF "$2"
}
