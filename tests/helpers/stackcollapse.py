#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""An independent stackcollapse: `perf script` (default output, with call
chains) on stdin, folded stacks on stdout, following the rules of Brendan
Gregg's stackcollapse-perf.pl (names, [dso] for unknown code, tidying,
byte-order sort), but for argument lists (cut_args).  Options: --pid, --tid (comm-PID, comm-PID/TID),
--kernel (_[k]), --period (count the period, not samples).  Written for
the tests from the script's documented behaviour; perfev's own code is not
used."""
import collections
import re
import sys

opts = set(sys.argv[1:])
agg = collections.Counter()
stack, head = [], None


QUALS = (' const', ' volatile', ' &&', ' &', ' noexcept')


def cut_args(f):
    """stackcollapse-perf.pl cuts a name at its first '(' (but
    "(anonymous namespace)" and Go's "pkg.(*T).m"); perfev (README:
    folded) cuts only an argument list that ends the name (with the
    qualifiers after it), opened outside any bracket and not the "()" of
    operator(), so that "drop_in_place<(A,B)>" stays whole."""
    end = len(f)
    more = True
    while more:
        more = False
        for q in QUALS:
            if end > len(q) and f[:end].endswith(q):
                end -= len(q)
                more = True
    if end < 2 or f[end - 1] != ')':
        return f
    depth, op = 0, None
    for i in range(end - 1, -1, -1):
        if f[i] == ')':
            depth += 1
        elif f[i] == '(':
            depth -= 1
            if depth == 0:
                op = i
                break
    if not op or f.startswith('(anonymous namespace)', op):
        return f
    head = f[:op]
    if re.search(r'(?<!\w)operator$', head):
        return f
    bare = re.sub(r'(?<!\w)operator *[<>=!+\-*/%&|^~,()\[\]]*', 'operator', head)
    if sum(1 if c in '<({[' else -1 if c in '>)}]' else 0 for c in bare):
        return f
    return head.rstrip(' ') or f


def tidy(f):
    f = cut_args(f.replace(';', ':'))
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
