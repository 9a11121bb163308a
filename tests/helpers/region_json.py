#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Reads a region report written with PERFEV_OUTPUT=json:FILE, strictly
(the json module; the document's shape and every field's type checked),
and prints one tab-separated line per region, thread and event:

    region tid calls event unit value raw enabled running fraction overhead error

(error "-" when null), after a first line "events E1<TAB>E2..." and
"calibrated true|false".  Exit 1 with a message when anything is off.

usage: region_json.py FILE"""
import json
import sys


def fail(msg):
    print("region_json.py: " + msg, file=sys.stderr)
    sys.exit(1)


def want(obj, key, types, where):
    if not isinstance(obj, dict) or key not in obj:
        fail("%s: no key %r" % (where, key))
    v = obj[key]
    # bool is an int in python: refuse it where a number is wanted
    if not isinstance(v, types) or (isinstance(v, bool) and bool not in types):
        fail("%s: %r is %r, not %s" % (where, key, v, types))
    return v


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        doc = json.load(f)
    want(doc, "pid", (int,), "top")
    cal = want(doc, "calibrated", (bool,), "top")
    events = want(doc, "events", (list,), "top")
    if not all(isinstance(e, str) for e in events):
        fail("events: not all strings")
    print("events\t" + "\t".join(events))
    print("calibrated\t" + ("true" if cal else "false"))
    num = (int, float)
    for i, r in enumerate(want(doc, "regions", (list,), "top")):
        where = "regions[%d]" % i
        name = want(r, "region", (str,), where)
        tid = want(r, "tid", (int,), where)
        want(r, "comm", (str,), where)
        calls = want(r, "calls", (int,), where)
        counters = want(r, "counters", (list,), where)
        if len(counters) != len(events):
            fail("%s: %d counters for %d events" % (where, len(counters), len(events)))
        for k, c in enumerate(counters):
            w = "%s.counters[%d]" % (where, k)
            ev = want(c, "event", (str,), w)
            if ev != events[k]:
                fail("%s: event %r, expected %r" % (w, ev, events[k]))
            err = c.get("error", 0)
            if err is not None and not isinstance(err, str):
                fail("%s: error %r is neither null nor a string" % (w, err))
            print("\t".join(str(x) for x in (
                name, tid, calls, ev, want(c, "unit", (str,), w),
                repr(float(want(c, "value", num, w))), want(c, "raw", (int,), w),
                want(c, "enabled", (int,), w), want(c, "running", (int,), w),
                repr(float(want(c, "fraction", num, w))),
                repr(float(want(c, "overhead", num, w))),
                "-" if err is None else err)))


if __name__ == "__main__":
    main()
