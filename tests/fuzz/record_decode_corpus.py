#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Writes the seed corpus of the record_decode fuzz harness
(tests/fuzz/corpus/record_decode/): 8 layout bytes, then records."""
import os, struct

out = os.path.join(os.path.dirname(__file__), "corpus", "record_decode")
os.makedirs(out, exist_ok=True)

TID, TIME, ID, CPU, PERIOD, STREAM = 1 << 1, 1 << 2, 1 << 6, 1 << 7, 1 << 8, 1 << 9
IP, ADDR, READ, CALLCHAIN, RAW, BRANCH = 1 << 0, 1 << 3, 1 << 4, 1 << 5, 1 << 10, 1 << 11
REGS_U, STACK, WEIGHT, DSRC, IDENT, TXN = 1 << 12, 1 << 13, 1 << 14, 1 << 15, 1 << 16, 1 << 17
REGS_I, PHYS, AUX, CGRP, DPS, CPS = 1 << 18, 1 << 19, 1 << 20, 1 << 21, 1 << 22, 1 << 23
TRAILER = TID | TIME | ID | STREAM | CPU | IDENT

def rec(t, body, misc=0):
    body += b"\0" * (-len(body) % 8)
    return struct.pack("<IHH", t, misc, 8 + len(body)) + body

def q(*v): return struct.pack("<%dQ" % len(v), *v)
def l(*v): return struct.pack("<%dI" % len(v), *v)
def s(x): b = x.encode() + b"\0"; return b + b"\0" * (-len(b) % 8)
def trailer(): return l(10, 11) + q(1000, 1, 5) + l(2, 0) + q(1)

def layout(st, rf=0, flags=1, ru=0, ri=0):
    return struct.pack("<IBBBB", st, rf, flags, ru, ri)

seeds = {}
seeds["mmap2_comm"] = layout(TRAILER) + rec(10, l(1, 2) + q(0x400000, 0x1000, 0) + l(8, 1) + q(5, 6) + l(5, 2) + s("/bin/true") + trailer(), 2) + rec(3, l(1, 2) + s("true") + trailer(), 1 << 13)
seeds["mmap_buildid"] = layout(TRAILER) + rec(10, l(1, 2) + q(1, 2, 3) + bytes([20, 0, 0, 0]) + bytes(range(20)) + l(5, 2) + s("/x") + trailer(), 1 << 14)
seeds["fork_exit"] = layout(TRAILER) + rec(7, l(1, 0, 2, 0) + q(9) + trailer()) + rec(4, l(1, 0, 2, 0) + q(9) + trailer())
seeds["lost_throttle"] = layout(TRAILER) + rec(2, q(1, 5) + trailer()) + rec(5, q(1, 1, 5) + trailer()) + rec(6, q(2, 1, 5) + trailer()) + rec(13, q(3) + trailer())
seeds["read_group"] = layout(TRAILER, 0x1f) + rec(8, l(1, 2) + q(2, 10, 20, 100, 1, 0, 200, 2, 0) + trailer())
seeds["aux_switch"] = layout(TRAILER) + rec(11, q(0, 4096, 3) + trailer()) + rec(12, l(1, 2) + trailer()) + rec(14, trailer(), 3 << 13) + rec(15, l(5, 6) + trailer(), 1 << 13)
seeds["ns_ksym_bpf"] = layout(TRAILER) + rec(16, l(1, 2) + q(2, 1, 2, 3, 4) + trailer()) + rec(17, q(0xffffffffc0000000) + l(64) + struct.pack("<HH", 1, 0) + s("bpf_prog") + trailer()) + rec(18, struct.pack("<HHI", 1, 0, 7) + bytes(8) + trailer())
seeds["cgroup_poke_hwid"] = layout(TRAILER) + rec(19, q(7) + s("/a/b") + trailer()) + rec(20, q(0xffffffff81000000) + struct.pack("<HH", 2, 3) + b"\x66\x90\xe8\x00\x00\0\0\0" + trailer()) + rec(21, q(3) + trailer())
seeds["sample_basic"] = layout(IP | TID | TIME | PERIOD | CPU, 0, 0) + rec(9, q(0x401000) + l(1, 2) + q(1000) + l(0, 0) + q(4000), 2)
seeds["sample_callchain"] = layout(IP | TID | CALLCHAIN, 0, 0) + rec(9, q(0x401000) + l(1, 2) + q(4, 2**64 - 128, 0xffffffff81000000, 2**64 - 512, 0x401000))
seeds["sample_raw_branch"] = layout(RAW | BRANCH, 0, 2) + rec(9, l(4) + b"abcd" + q(2, 7, 1, 2, 0x1231, 3, 4, 0x45))
seeds["sample_regs_stack"] = layout(REGS_U | STACK | REGS_I, 0, 0, 0x3, 0x1) + rec(9, q(2, 1, 2) + q(16) + b"s" * 16 + q(8) + q(2, 9))
seeds["sample_mem"] = layout(IDENT | IP | ADDR | WEIGHT | DSRC | TXN | PHYS | CGRP | DPS | CPS, 0, 0) + rec(9, q(1, 0x401000, 0xdead, 30, 0x68100142, 0x16, 0x1000, 5, 4096, 4096))
seeds["sample_read_aux"] = layout(READ | AUX | ID | STREAM, 0xf, 0) + rec(9, q(1, 3) + q(1, 7, 8) + q(5, 1) + q(8) + b"auxdata!")
seeds["two_events"] = layout(IP | TIME | CALLCHAIN, 0, 9) + rec(9, q(1, 0x401000, 5, 1, 2**64 - 512)) + rec(9, q(2, 0x401000, 5)) + rec(3, l(1, 2) + s("x") + q(5, 2))
seeds["user_records"] = layout(0) + rec(68, b"") + rec(82, b"") + rec(69, q(1, 1, 0, 0, 100)) + rec(73, q(1, 5) + b"comm\0".ljust(16, b"\0")) + rec(77, q(1, 5)) + rec(76, q(1) + l(0, 0) + q(1, 2, 3))
seeds["cpu_maps"] = layout(0) + rec(74, struct.pack("<HH3H", 0, 3, 0xffff, 1, 2)) + rec(74, struct.pack("<HHHII", 1, 2, 4, 9, 2)) + rec(74, struct.pack("<HHH", 1, 1, 8) + b"\0" * 4 + q(3)) + rec(74, struct.pack("<HBBHH", 2, 1, 0, 0, 3))
seeds["attr_update_conv"] = layout(0) + rec(64, struct.pack("<IIQQQQQ", 1, 64, 0, 4000, 7, 0, 1) + b"\0" * 16 + q(1, 2)) + rec(78, q(2, 1) + s("ev")) + rec(78, q(1, 1) + struct.pack("<d", 0.5)) + rec(79, q(31, 5, 6, 7, 8) + b"\1\1" + b"\0" * 6)
seeds["buildid_auxtrace"] = layout(0) + rec(67, l(2**32 - 1) + bytes(20) + bytes([20, 0, 0, 0]) + s("/bin/ls"), 1 << 15 | 2) + rec(70, l(1, 0) + q(1, 2)) + rec(71, q(0, 0, 1) + l(0, 1, 2, 0)) + rec(72, l(1, 2, 3, 4, 5, 1) + q(1, 2) + b"msg".ljust(64, b"\0") + l(0, 0))
seeds["compressed_feature"] = layout(0) + rec(83, q(4) + b"\x28\xb5\x2f\xfd") + rec(80, q(3) + l(5) + b"host") + rec(65, q(1) + b"cycles".ljust(64, b"\0")) + rec(66, l(0, 0)) + rec(84, q(0))

for name, data in seeds.items():
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
print(len(seeds), "seeds in", out)
