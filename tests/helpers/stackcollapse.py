#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""An independent stackcollapse: `perf script` (default output, with call
chains) on stdin, folded stacks on stdout, following the rules of Brendan
Gregg's stackcollapse-perf.pl (names, [dso] for unknown code, tidying,
byte-order sort).  Options: --pid, --tid (comm-PID, comm-PID/TID),
--kernel (_[k]), --period (count the period, not samples).  Written for
the tests from the script's documented behaviour; perfev's own code is not
used."""
import collections
import re
import sys

opts = set(sys.argv[1:])
agg = collections.Counter()
stack, head = [], None


def tidy(f):
    f = f.replace(';', ':')
    if not re.search(r'\.\(.*\)\.', f):
        f = re.sub(r'\((?!anonymous namespace\)).*', '', f)
    return f.replace('"', '').replace("'", '')


def flush():
    global stack, head
    if head is not None:
        comm, pid, tid, period = head
        name = comm
        if '--tid' in opts:
            name = '%s-%s/%s' % (comm, pid, tid)
        elif '--pid' in opts:
            name = '%s-%s' % (comm, pid)
        agg[';'.join([name.replace(' ', '_')] + stack)] += period if '--period' in opts else 1
    stack, head = [], None


for line in sys.stdin.buffer:
    line = line.decode('utf-8', 'surrogateescape').rstrip('\n')
    if not line.strip():
        flush()
        continue
    if not line.startswith((' ', '\t')):
        flush()
        m = re.match(r'^\s*(\S.*?)\s+(?:(\d+)/)?(\d+)\s+(?:\[\d+\]\s+)?[\d.]+:\s+(\d+)\s+\S+:', line)
        if not m:
            m = re.match(r'^\s*(\S.*?)\s+(?:(\d+)/)?(\d+)\s', line)
            head = (m.group(1), m.group(2) or m.group(3), m.group(3), 1)
        else:
            head = (m.group(1), m.group(2) or m.group(3), m.group(3), int(m.group(4)))
        continue
    m = re.match(r'^\s*(\w+)\s*(.+) \((\S*)\)', line)
    if not m:
        continue
    pc, raw, mod = m.groups()
    func = re.sub(r'\+0x[\da-f]+$', '', raw)
    if func == '[unknown]' and mod != '[unknown]':
        func = '[' + mod.split('/')[-1] + ']'
    func = tidy(func)
    if '--kernel' in opts and re.search(r'(kernel\.|vmlinux$)', mod):
        func += '_[k]'
    stack.insert(0, func)
flush()
out = sys.stdout.buffer
for k in sorted(agg, key=lambda s: s.encode('utf-8', 'surrogateescape')):
    out.write(('%s %d\n' % (k, agg[k])).encode('utf-8', 'surrogateescape'))
