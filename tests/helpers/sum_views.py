#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Sum of the values of one function's samples in a perfev convert output,
read as each format's consumer reads it (independent of perfev's code):
  sum_views.py FORMAT FILE FUNCTION
prints "<samples> <total value>" over the samples whose stack holds
FUNCTION.  FORMAT: folded, json, speedscope, firefox, chrome, or
pprof-raw (the text of `go tool pprof -raw`, its last value column)."""
import gzip
import json
import sys

fmt, path, fn = sys.argv[1:4]
n = total = 0
if fmt == 'folded':
    for line in open(path, encoding='utf-8'):
        stack, v = line.rsplit(' ', 1)
        if fn in stack.split(';'):
            n += 1
            total += int(v)
elif fmt == 'json':
    for line in open(path, encoding='utf-8'):
        r = json.loads(line)
        if r.get('type') == 'sample' and r.get('event') == 'offcpu-time' and \
           any(f.get('symbol') == fn for f in r.get('callchain', [])):
            n += 1
            total += r['period']
elif fmt == 'speedscope':
    d = json.load(open(path, encoding='utf-8'))
    names = [f['name'] for f in d['shared']['frames']]
    for p in d['profiles']:
        for st, w in zip(p['samples'], p['weights']):
            if any(names[i] == fn for i in st):
                n += 1
                total += w
elif fmt == 'firefox':
    d = json.load(gzip.open(path, 'rt', encoding='utf-8'))
    for t in d['threads']:
        strs = t['stringArray'] if 'stringArray' in t else t['stringTable']
        ft, fu, stk, s = t['frameTable'], t['funcTable'], t['stackTable'], t['samples']
        w = s.get('weight') or [1] * len(s['stack'])
        for si, wi in zip(s['stack'], w):
            names = set()
            while si is not None:
                names.add(strs[fu['name'][ft['func'][stk['frame'][si]]]])
                si = stk['prefix'][si]
            if fn in names:
                n += 1
                total += wi
elif fmt == 'chrome':
    d = json.load(open(path, encoding='utf-8'))
    sf = d['stackFrames']
    for e in d['traceEvents']:
        if e.get('ph') != 'P' or 'sf' not in e:
            continue
        k, names = e['sf'], set()
        while k is not None:
            names.add(sf[k]['name'])
            k = sf[k].get('parent')
        if fn in names:
            n += 1
            total += e['args']['weight']
elif fmt == 'pprof-raw':
    import re
    text = open(path, encoding='utf-8').read()
    samples = text.split('\nSamples:\n', 1)[1].split('\nLocations\n', 1)
    locs = set()
    for line in samples[1].split('\n'):
        m = re.match(r'\s*(\d+): 0x[0-9a-f]+ M=\d+ (\S+)', line)
        if m and m.group(2) == fn:
            locs.add(m.group(1))
    for line in samples[0].split('\n')[1:]:
        m = re.match(r'\s*([\d\s]+): ([\d\s]+)$', line.rstrip())
        if m and locs & set(m.group(2).split()):
            n += 1
            total += int(m.group(1).split()[-1])
print(n, total)
