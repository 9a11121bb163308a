#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Compares `perfev convert --to json` (JSON lines) with `perf data
convert --to-json` (one document) on the same file, both parsed with the
json module.

usage: json_cmp.py PERF_JSON PERFEV_JSONL [--user-prefix]

Every line of perfev's output must parse; the first is the header, whose
"headers" must equal perf's except captured-on (the file's mtime: same
value, but perf also reads it) - compared too.  The samples must match
one for one, in order: timestamp, pid, tid, cpu (when perf has it), comm,
and the callchain: perfev's inline frames ("inlined": true) are left out,
then each frame's ip, and its symbol and dso where perf gives them (perf
leaves both out without a symbol).  --user-prefix (DWARF files, where perf
lists the kernel's chain and the sampled user ip while perfev adds the
unwound callers): perf's chain must be a prefix of perfev's."""
import json
import sys


def main():
    perf_path, ours_path = sys.argv[1:3]
    prefix = "--user-prefix" in sys.argv[3:]
    perf = json.load(open(perf_path, encoding="utf-8", errors="replace"))
    lines = []
    with open(ours_path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            try:
                lines.append(json.loads(line))
            except ValueError as e:
                print(f"line {n} is not JSON: {e}: {line[:200]}")
                return 1
    bad = 0
    if not lines or lines[0].get("type") != "header":
        print("the first line is not the header")
        return 1
    head = lines[0]
    if head.get("linux-perf-json-version") != perf.get("linux-perf-json-version"):
        print("linux-perf-json-version differs")
        bad += 1
    for k, v in perf["headers"].items():
        if head["headers"].get(k) != v:
            print(f"header {k}: perf {v!r}, perfev {head['headers'].get(k)!r}")
            bad += 1
    ours = [x for x in lines[1:] if x.get("type") == "sample"]
    theirs = perf["samples"]
    if len(ours) != len(theirs):
        print(f"{len(theirs)} samples in perf's output, {len(ours)} in perfev's")
        return 1
    frames = 0
    for i, (a, b) in enumerate(zip(ours, theirs)):
        for k in ("timestamp", "pid", "tid", "cpu", "comm"):
            if k in b and a.get(k) != b[k]:
                if bad < 10:
                    print(f"sample {i} {k}: perf {b[k]!r}, perfev {a.get(k)!r}")
                bad += 1
        if "cpu" in a and "cpu" not in b:
            print(f"sample {i}: perfev has a cpu, perf none")
            bad += 1
        ca = [f for f in a["callchain"] if not f.get("inlined")]
        cb = b["callchain"]
        if (len(ca) < len(cb)) if prefix else (len(ca) != len(cb)):
            if bad < 10:
                print(f"sample {i}: {len(cb)} frames in perf's chain, {len(ca)} in perfev's")
            bad += 1
            continue
        for fa, fb in zip(ca, cb):
            frames += 1
            for k in ("ip", "symbol", "dso"):
                if k in fb and fa.get(k) != fb[k]:
                    if bad < 10:
                        print(f"sample {i} frame {fb['ip']} {k}: perf {fb[k]!r}, perfev {fa.get(k)!r}")
                    bad += 1
    print(f"{len(ours)} samples, {frames} frames compared, {bad} differences")
    return 1 if bad or not ours else 0


sys.exit(main())
