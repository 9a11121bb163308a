#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Reads tests/mutants/list (format described at its top).
  mutant.py LIST names            the mutant names, one a line
  mutant.py LIST info NAME        'file' line, then 'tests' line, then 'about'
  mutant.py LIST apply NAME ROOT  applies NAME to ROOT/file (exit 1 if an
                                  'old' text does not occur exactly once)"""
import sys


def parse(path):
    muts = []
    for rec in open(path).read().split('\n\n'):
        d = {'pairs': []}
        for line in rec.splitlines():
            if line.startswith('#') or ': ' not in line:
                continue
            k, v = line.split(': ', 1)
            v = v.replace('\\n', '\n').replace('\\t', '\t')
            if k == 'old':
                d['pairs'].append([v, None])
            elif k == 'new':
                d['pairs'][-1][1] = v
            else:
                d[k] = v
        if 'name' in d:
            muts.append(d)
    return muts


def main():
    muts = parse(sys.argv[1])
    cmd = sys.argv[2]
    if cmd == 'names':
        print('\n'.join(m['name'] for m in muts))
        return 0
    m = next((m for m in muts if m['name'] == sys.argv[3]), None)
    if m is None:
        print('no mutant %s' % sys.argv[3], file=sys.stderr)
        return 1
    if cmd == 'info':
        print(m['file'])
        print(m['tests'])
        print(m.get('about', ''))
        return 0
    path = sys.argv[4] + '/' + m['file']
    s = open(path).read()
    for old, new in m['pairs']:
        if s.count(old) != 1:
            print('%s: %r occurs %d times in %s' % (m['name'], old, s.count(old), m['file']),
                  file=sys.stderr)
            return 1
        s = s.replace(old, new)
    open(path, 'w').write(s)
    return 0


sys.exit(main())
