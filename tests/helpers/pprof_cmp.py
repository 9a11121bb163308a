#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Compares `go tool pprof -top` with `perfev report --stdio -g none
--sort sym` (independent parsers of both texts).

usage: pprof_cmp.py flat|cum PPROF_TOP REPORT [TOLERANCE]

flat: pprof's flat% against report --no-children's Overhead;
cum:  pprof's cum% against report --children's Children column.
Report entries are "[x] name" (" (inlined)" dropped); names without a
symbol (report's 0x... addresses, pprof's [dso] and [unknown]) and names
report shows more than once (one name in two DSOs, or both inlined and
not) are left out.  Every other report entry at or above 0.5% must be in
pprof's list within TOLERANCE percent points (default 0.1); prints what
it compared and exits 1 on a difference."""
import re
import sys


def norm(name):
    """perf's " (inlined)", pprof's " (inline)" and the compiler's clone
    suffixes pprof leaves out (.constprop.0, .isra.0, .part.0, .cold)"""
    for tail in (" (inlined)", " (inline)", " (partial-inline)"):
        if name.endswith(tail):
            name = name[: -len(tail)]
    return re.sub(r"(\.(constprop|isra|part|cold|lto_priv|localalias)(\.\d+)?)+$", "", name)


def pprof_top(path, col):
    out = {}
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.match(r"\s*(\S+)\s+([\d.]+)%\s+([\d.]+)%\s+(\S+)\s+([\d.]+)%\s+(.*\S)\s*$", line)
        if not m:
            continue
        name = norm(m.group(6))
        pct = float(m.group(2) if col == "flat" else m.group(5))
        if name in out:
            out[name] = None  # two nodes of one name: ambiguous
        else:
            out[name] = pct
    return out


def report(path, col):
    out, seen = {}, {}
    for line in open(path, encoding="utf-8", errors="replace"):
        if line.startswith("#") or not line.strip():
            continue
        if col == "flat":
            m = re.match(r"\s*([\d.]+)%\s+\[(.)\]\s+(.*\S)\s*$", line)
            if not m:
                continue
            pct, name = float(m.group(1)), m.group(3)
        else:
            m = re.match(r"\s*([\d.]+)%\s+([\d.]+)%\s+\[(.)\]\s+(.*\S)\s*$", line)
            if not m:
                continue
            pct, name = float(m.group(1)), m.group(4)
        name = norm(name)
        seen[name] = seen.get(name, 0) + 1
        out[name] = pct
    return {n: p for n, p in out.items() if seen[n] == 1}


def main():
    col, ppath, rpath = sys.argv[1:4]
    tol = float(sys.argv[4]) if len(sys.argv) > 4 else 0.1
    pp, rep = pprof_top(ppath, col), report(rpath, col)
    compared, bad = 0, 0
    for name, pct in sorted(rep.items(), key=lambda x: -x[1]):
        if pct < 0.5 or name.startswith("[") or re.match(r"^(0x)?[0-9a-f]+$", name):
            continue
        if name not in pp:
            print(f"MISSING {col} {name}: report {pct:.2f}%, not in pprof's list")
            bad += 1
            continue
        if pp[name] is None:
            continue
        compared += 1
        if abs(pp[name] - pct) > tol + 1e-9:
            print(f"DIFF {col} {name}: report {pct:.2f}%, pprof {pp[name]:.2f}%")
            bad += 1
    print(f"{col}: {compared} functions compared, {bad} differences")
    if compared == 0:
        print("nothing compared")
        return 1
    return 1 if bad else 0


sys.exit(main())
