#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Checks a `perfev convert --to firefox|speedscope|chrome` file: its
structure (each format's rules, written from the formats' documentation:
the Firefox Profiler's processed format version 52 as in
src/types/profile.js of firefox-devtools/profiler at that version,
speedscope's file-format-schema.json, Chrome's Trace Event Format), and
its content against `perf script` of the same perf.data:

  check_views.py FORMAT FILE SCRIPT [--period] [--switches SWITCHES]

SCRIPT: `perf script -F comm,pid,tid,time,period,event,ip,sym,dso --ns`
(with call chains).  Per thread, the number of samples, the total weight
(samples, or periods with --period), the sample times from the file's
first sample (firefox, chrome; to the ns), the process's name (the
comm of its main thread, else the thread's), the multiset of stacks (names
root first, tidied as stackcollapse-perf.pl tidies them, "[dso]" for
code without a symbol) must equal perf's, and the thread name perf's
last comm.  SWITCHES (chrome): `perf script --show-switch-events -F
comm,pid,tid,time --ns`, or for a file without switch records the
sched:sched_switch samples (`-F comm,pid,tid,time,event,trace --ns`):
the on-CPU slices per thread (an IN followed by an OUT; prev_pid goes
out, next_pid comes in) and their total time must equal the chrome
file's "on-cpu" "X" events.
perfev's own code is not used.  Prints what it checked; exits 1 on the
first difference."""
import collections
import gzip
import json
import re
import sys

CURRENT_PROCESSED_VERSION = 70   # src/app-logic/constants.ts, 2026-08
WRITTEN_VERSION, WRITTEN_GECKO = 52, 31


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


def tidy(f):
    f = re.sub(r'\+0x[\da-f]+$', '', f)
    f = f.replace(';', ':')
    if not re.search(r'\.\(.*\)\.', f):
        f = re.sub(r'\((?!anonymous namespace\)).*', '', f)
    return f.replace('"', '').replace("'", '').strip()


def perf_threads(path, period):
    """(pid, tid) -> dict(comm, n, weight, stacks Counter)"""
    th = {}
    cur = None
    stack = []

    def flush():
        nonlocal cur, stack
        if cur:
            tid, pid, comm, per, ns = cur
            t = th.setdefault((pid, tid), dict(comm=comm, n=0, weight=0, times=[],
                                        stacks=collections.Counter()))
            t['comm'] = comm
            t['n'] += 1
            t['times'].append(ns)
            t['weight'] += per if period else 1
            t['stacks'][tuple(stack)] += 1
        cur, stack = None, []

    with open(path, 'rb') as f:
        for line in f:
            line = line.decode('utf-8', 'surrogateescape').rstrip('\n')
            if not line.strip():
                flush()
                continue
            if not line.startswith((' ', '\t')):
                flush()
                m = re.match(r'^\s*(\S.*?)\s+(-?\d+)/(-?\d+)\s+(\d+)\.(\d{9}):\s+(\d+)\s+\S+:', line)
                check(m, 'cannot read perf script line %r' % line)
                cur = (int(m.group(3)), int(m.group(2)), m.group(1), int(m.group(6)),
                       int(m.group(4)) * 10**9 + int(m.group(5)))
                continue
            # "ip sym+off (dso)": the DSO is all inside the last
            # parentheses ("/memfd:x (deleted)" has a space)
            m = re.match(r'^\s*([0-9a-f]+)\s+(.+?) \((.*)\)$', line)
            if not m:
                continue
            pc, raw, mod = m.groups()
            func = re.sub(r'\+0x[\da-f]+$', '', raw)
            if func == '[unknown]' and mod != '[unknown]':
                func = '[' + mod.split('/')[-1] + ']'
            stack.insert(0, tidy(func))
    flush()
    return th


def compare(fmt, ours, perf):
    """ours: (pid, tid) -> dict(name, n, weight, stacks)"""
    check(set(ours) == set(perf), '%s: threads %s, perf script has %s' %
          (fmt, sorted(ours), sorted(perf)))
    perf_first = min(min(p['times']) for p in perf.values())
    ours_first = min((min(o['times']) for o in ours.values() if o.get('times')), default=0)
    for key, p in sorted(perf.items()):
        o = ours[key]
        tid = '%d/%d' % key
        check(o['n'] == p['n'], '%s: %s has %d samples, perf script %d' % (fmt, tid, o['n'], p['n']))
        check(o['weight'] == p['weight'], '%s: %s weighs %d, perf script %d' %
              (fmt, tid, o['weight'], p['weight']))
        if o['stacks'] != p['stacks']:
            a, b = o['stacks'] - p['stacks'], p['stacks'] - o['stacks']
            fail('%s: %s stacks differ: only ours %s; only perf %s' %
                 (fmt, tid, list(a.items())[:2], list(b.items())[:2]))
        if 'times' in o:
            # the times, from the first sample of the file, to the ns
            a = sorted(x - ours_first for x in o['times'])
            b = sorted(x - perf_first for x in p['times'])
            check(a == b, '%s: %s sample times differ from perf script\'s: first %s' %
                  (fmt, tid, [(x, y) for x, y in zip(a, b) if x != y][:3]))
        if 'process' in o:
            main = perf.get((key[0], key[0]), p)
            check(o['process'] == main['comm'], '%s: %s is in process %r, perf script %r' %
                  (fmt, tid, o['process'], main['comm']))
        check(o['name'] == p['comm'], '%s: %s named %r, perf script %r' % (fmt, tid, o['name'], p['comm']))
        print('%s: %s (%s): %d samples, weight %d, %d distinct stacks, as perf script' %
              (fmt, tid, p['comm'], p['n'], p['weight'], len(p['stacks'])))


def table(t, keys, what):
    """a processed-format table: exactly these columns, each `length` long"""
    check(isinstance(t, dict), what + ' is not an object')
    check(set(t) == set(keys) | {'length'}, '%s has columns %s, want %s' %
          (what, sorted(t), sorted(set(keys) | {'length'})))
    n = t['length']
    for k in keys:
        check(isinstance(t[k], list) and len(t[k]) == n, '%s.%s is not %d long' % (what, k, n))
    return n


def idx(v, n, what, nullable=False, minus_one=False):
    if v is None and nullable:
        return
    if v == -1 and minus_one:
        return
    check(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < n,
          '%s = %r out of range [0, %d)' % (what, v, n))


def firefox(path):
    with gzip.open(path, 'rb') as f:
        prof = json.load(f)
    meta = prof['meta']
    check(meta['preprocessedProfileVersion'] == WRITTEN_VERSION, 'preprocessedProfileVersion %r' % meta['preprocessedProfileVersion'])
    check(meta['preprocessedProfileVersion'] <= CURRENT_PROCESSED_VERSION, 'newer than the profiler')
    check(meta['version'] == WRITTEN_GECKO, 'meta.version %r' % meta['version'])
    for k, ty in (('interval', (int, float)), ('startTime', (int, float)), ('processType', int),
                  ('product', str), ('stackwalk', int), ('markerSchema', list),
                  ('categories', list), ('symbolicated', bool)):
        check(isinstance(meta.get(k), ty), 'meta.%s is %r' % (k, meta.get(k)))
    check(meta['interval'] > 0, 'meta.interval <= 0')
    cats = meta['categories']
    for c in cats:
        check(set(c) == {'name', 'color', 'subcategories'} and c['subcategories'], 'category %r' % c)
    libs = prof['libs']
    for lib in libs:
        check(set(lib) == {'arch', 'name', 'path', 'debugName', 'debugPath', 'breakpadId', 'codeId'},
              'lib %r' % lib)
        check(re.fullmatch(r'([0-9A-F]{33})?', lib['breakpadId']), 'breakpadId %r' % lib['breakpadId'])
    ours = {}
    for t in prof['threads']:
        for k in ('processType', 'processStartupTime', 'processShutdownTime', 'registerTime',
                  'unregisterTime', 'pausedRanges', 'name', 'isMainThread', 'pid', 'tid',
                  'samples', 'markers', 'stackTable', 'frameTable', 'stringArray', 'funcTable',
                  'resourceTable', 'nativeSymbols'):
            check(k in t, 'thread without %s' % k)
        check(isinstance(t['pid'], str), 'pid is not a string (version 47)')
        strings = t['stringArray']
        check(all(isinstance(s, str) for s in strings), 'stringArray')
        rt = t['resourceTable']
        nres = table(rt, ['lib', 'name', 'host', 'type'], 'resourceTable')
        for i in range(nres):
            idx(rt['lib'][i], len(libs), 'resourceTable.lib')
            idx(rt['name'][i], len(strings), 'resourceTable.name')
        ft = t['funcTable']
        nfunc = table(ft, ['name', 'isJS', 'relevantForJS', 'resource', 'fileName', 'lineNumber',
                           'columnNumber'], 'funcTable')
        for i in range(nfunc):
            idx(ft['name'][i], len(strings), 'funcTable.name')
            idx(ft['resource'][i], nres, 'funcTable.resource', minus_one=True)
            idx(ft['fileName'][i], len(strings), 'funcTable.fileName', nullable=True)
            check(isinstance(ft['isJS'][i], bool) and isinstance(ft['relevantForJS'][i], bool), 'isJS')
        fr = t['frameTable']
        nframe = table(fr, ['address', 'inlineDepth', 'category', 'subcategory', 'func',
                            'nativeSymbol', 'innerWindowID', 'implementation', 'line', 'column'],
                       'frameTable')
        for i in range(nframe):
            idx(fr['func'][i], nfunc, 'frameTable.func')
            idx(fr['category'][i], len(cats), 'frameTable.category', nullable=True)
            c = fr['category'][i]
            if c is not None:
                idx(fr['subcategory'][i], len(cats[c]['subcategories']), 'frameTable.subcategory', nullable=True)
            check(isinstance(fr['address'][i], int), 'frameTable.address')
        st = t['stackTable']
        nstack = table(st, ['frame', 'category', 'subcategory', 'prefix'], 'stackTable')
        for i in range(nstack):
            idx(st['frame'][i], nframe, 'stackTable.frame')
            idx(st['category'][i], len(cats), 'stackTable.category')
            idx(st['subcategory'][i], len(cats[st['category'][i]]['subcategories']), 'stackTable.subcategory')
            # a prefix before its stack: no cycles
            idx(st['prefix'][i], i, 'stackTable.prefix of %d' % i, nullable=True)
        table(t['nativeSymbols'], ['libIndex', 'address', 'name', 'functionSize'], 'nativeSymbols')
        table(t['markers'], ['data', 'name', 'startTime', 'endTime', 'phase', 'category'], 'markers')
        sm = t['samples']
        check(set(sm) == {'stack', 'time', 'weight', 'weightType', 'length'}, 'samples columns %s' % sorted(sm))
        ns = sm['length']
        for k in ('stack', 'time', 'weight'):
            check(len(sm[k]) == ns, 'samples.%s length' % k)
        check(sm['weightType'] == 'samples', 'weightType')
        check(all(a <= b for a, b in zip(sm['time'], sm['time'][1:])), 'sample times not sorted')
        stacks = collections.Counter()
        for s in sm['stack']:
            idx(s, nstack, 'samples.stack', nullable=True)
            names = []
            while s is not None:
                names.insert(0, tidy(strings[ft['name'][fr['func'][st['frame'][s]]]]))
                s = st['prefix'][s]
            stacks[tuple(names)] += 1
        tid = t['tid']
        key = (int(t['pid']), tid)
        check(key not in ours, 'thread %s twice' % (key,))
        check(t['isMainThread'] == (str(tid) == t['pid']), 'isMainThread')
        ours[key] = dict(name=t['name'], process=t['processName'], n=ns,
                         weight=sum(sm['weight']), stacks=stacks,
                         times=[round(x * 10**6) for x in sm['time']])
    return ours


def speedscope(path):
    with open(path, 'rb') as f:
        doc = json.load(f)
    check(doc['$schema'] == 'https://www.speedscope.app/file-format-schema.json', '$schema')
    frames = doc['shared']['frames']
    ours = {}
    check(0 <= doc.get('activeProfileIndex', 0) < max(1, len(doc['profiles'])), 'activeProfileIndex')
    for p in doc['profiles']:
        check(p['type'] == 'sampled', 'type')
        check(len(p['samples']) == len(p['weights']), 'samples and weights differ in length')
        check(p['unit'] in ('none', 'nanoseconds'), 'unit')
        check(p['endValue'] - p['startValue'] == sum(p['weights']), 'endValue - startValue is not the total')
        stacks = collections.Counter()
        for s in p['samples']:
            for i in s:
                idx(i, len(frames), 'frame index')
            stacks[tuple(tidy(frames[i]['name']) for i in s)] += 1
        m = re.fullmatch(r'(.*) (-?\d+)/(-?\d+)', p['name'])
        check(m, 'profile name %r' % p['name'])
        ours[(int(m.group(2)), int(m.group(3)))] = dict(name=m.group(1), n=len(p['samples']),
                                     weight=sum(p['weights']), stacks=stacks)
    return ours


def us(t):
    """a trace-event time (microseconds, 3 decimals) in ns"""
    return round(t * 1000)


def stack_slices_check(stack_slices, points, oncpu):
    """The "X" slices of the functions on the stack: they nest (a slice is
    inside its parent or apart from it), none crosses an on-CPU slice's
    edge, and at each sample lasting some time, the slices over it are
    its stack, root first."""
    for tid, sl in stack_slices.items():
        # (stable: slices of the same start and end keep the file's
        # order, parent first, the order viewers keep)
        sl.sort(key=lambda x: (x[0], -x[1]))
        open_ = []
        for a, b, name in sl:
            while open_ and open_[-1][1] <= a:
                open_.pop()
            check(not open_ or b <= open_[-1][1], '%s: slice %s [%d, %d] crosses its parent %r' %
                  (tid, name, a, b, open_[-1] if open_ else None))
            open_.append((a, b, name))
        spans = [(us(x), us(x) + us(d)) for x, d in oncpu.get(tid, [])]
        for a, b, name in sl:
            for x, y in spans:
                check(b <= x or a >= y or (x <= a and b <= y),
                      '%s: slice %s [%d, %d] crosses on-CPU [%d, %d]' % (tid, name, a, b, x, y))
        import bisect
        starts = [x[0] for x in sl]
        checked = 0
        for t, names_ in points.get(tid, []):
            over = [x for x in sl[:bisect.bisect_right(starts, t)] if x[0] <= t < x[1]]
            if not over:
                continue    # a sample of no length (the next came at once)
            got = [x[2] for x in over]
            check(got == names_, '%s: at %d ns the slices are %s, the sample %s' % (tid, t, got, names_))
            checked += 1
        print('chrome: %s: %d stack slices nest, %d samples under their stacks' % ('%d/%d' % tid, len(sl), checked))


def chrome(path, switches):
    with open(path, 'rb') as f:
        doc = json.load(f)
    sf = doc['stackFrames']
    for k, v in sf.items():
        check(isinstance(v.get('name'), str) and isinstance(v.get('category'), str), 'stackFrame %s' % k)
        if 'parent' in v:
            check(v['parent'] in sf, 'parent %r of %s missing' % (v['parent'], k))
            check(int(v['parent']) < int(k), 'parent %s after %s: a cycle is possible' % (v['parent'], k))
    names, pnames, ours, slices = {}, {}, {}, collections.defaultdict(list)
    stack_slices, points = collections.defaultdict(list), collections.defaultdict(list)
    for e in doc['traceEvents']:
        check(e.get('ph') in ('M', 'P', 'X'), 'event phase %r' % e.get('ph'))
        check(isinstance(e.get('pid'), int) and isinstance(e.get('tid'), int), 'pid/tid %r' % e)
        if e['ph'] == 'M':
            if e['name'] == 'thread_name':
                names[(e['pid'], e['tid'])] = e['args']['name']
            elif e['name'] == 'process_name':
                pnames[e['pid']] = e['args']['name']
            continue
        check(isinstance(e.get('ts'), (int, float)) and e['ts'] >= 0, 'ts %r' % e)
        if e['ph'] == 'X':
            check(e['dur'] >= 0, 'dur')
            if e['cat'] == 'sched':
                slices[(e['pid'], e['tid'])].append((e['ts'], e['dur']))
            else:
                check(e['cat'] == 'stack' and isinstance(e['args']['dso'], str), 'X event %r' % e)
                stack_slices[(e['pid'], e['tid'])].append((us(e['ts']), us(e['ts']) + us(e['dur']), tidy(e['name'])))
            continue
        check(e.get('sf', '1') in sf, 'sf %r missing' % e.get('sf'))
        o = ours.setdefault((e['pid'], e['tid']), dict(name=None, n=0, weight=0, times=[],
                                                        stacks=collections.Counter()))
        o['times'].append(us(e['ts']))
        check(e['pid'] in pnames, 'pid %d without process_name' % e['pid'])
        names_ = []
        k = e.get('sf')   # none: an empty stack
        while k is not None:
            names_.insert(0, tidy(sf[k]['name']))
            k = sf[k].get('parent')
        o['n'] += 1
        o['weight'] += e['args']['weight']
        o['stacks'][tuple(names_)] += 1
        points[(e['pid'], e['tid'])].append((us(e['ts']), names_))
    for key, o in ours.items():
        check(key in names, '%s without thread_name' % (key,))
        o['name'] = names[key]
        check(key[0] in pnames, 'pid %d without process_name' % key[0])
        o['process'] = pnames[key[0]]
    stack_slices_check(stack_slices, points, slices)
    if switches:
        want = collections.defaultdict(list)
        state = {}
        # switch records name a tid; the threads shown are (pid, tid)
        by_tid = {k[1]: k for k in ours if k[1] > 0}
        with open(switches, 'rb') as f:
            for line in f:
                line = line.decode('utf-8', 'surrogateescape')
                m = re.match(r'^\s*(\S.*?)\s+(-?\d+)/(-?\d+)\s+(\d+)\.(\d+):\s+PERF_RECORD_SWITCH(?:_CPU_WIDE)?\s+(IN|OUT)', line)
                t = None
                if m:
                    t = int(m.group(4)) * 10**9 + int(m.group(5))
                    moves = [(int(m.group(3)), m.group(6))]
                else:
                    # the tracepoint: prev_pid goes out, next_pid comes in
                    m = re.match(r'^\s*(\S.*?)\s+(-?\d+)/(-?\d+)\s+(\d+)\.(\d+):\s+sched:sched_switch:.* prev_pid=(\d+) .*==>.* next_pid=(\d+) ', line)
                    if not m:
                        continue
                    t = int(m.group(4)) * 10**9 + int(m.group(5))
                    moves = [(int(m.group(6)), 'OUT'), (int(m.group(7)), 'IN')]
                for tid, what in moves:
                    if tid not in by_tid:
                        continue
                    tid = by_tid[tid]
                    if what == 'IN':
                        state[tid] = t
                    elif state.get(tid) is not None and t >= state[tid]:
                        want[tid].append(t - state[tid])
                        state[tid] = None
        check(set(want) == set(slices), 'slices for threads %s, perf script %s' % (sorted(slices), sorted(want)))
        for tid in want:
            name = '%d/%d' % tid
            got = sum(round(d * 1000) for _, d in slices[tid])
            check(len(slices[tid]) == len(want[tid]), '%s: %d slices, perf script %d' % (name, len(slices[tid]), len(want[tid])))
            check(got == sum(want[tid]), '%s: %d ns on CPU, perf script %d' % (name, got, sum(want[tid])))
            print('chrome: %s: %d on-CPU slices, %d ns, as perf script' % (name, len(want[tid]), got))
    return ours


def main():
    args = sys.argv[1:]
    period = '--period' in args
    switches = None
    if '--switches' in args:
        switches = args[args.index('--switches') + 1]
        del args[args.index('--switches'):args.index('--switches') + 2]
    args = [a for a in args if a != '--period']
    fmt, path, script = args
    perf = perf_threads(script, period)
    check(perf, 'perf script shows no samples')
    ours = {'firefox': firefox, 'speedscope': speedscope,
            'chrome': lambda p: chrome(p, switches)}[fmt](path)
    compare(fmt, ours, perf)


main()
