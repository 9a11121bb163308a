#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Writes seeds of the unwind fuzz harness (tests/fuzz/corpus/unwind/) for
the fast walk's CFI expressions and signal frames: 1 flags byte, the 20
user registers of perf's x86-64 dwarf mask, a 2-byte dump length, the
dump, then the .eh_frame of the ELF the harness writes (.text at 0x1000,
.eh_frame at 0x2000, mapped at 0x400000)."""
import os, struct

out = os.path.join(os.path.dirname(__file__), "corpus", "unwind")
os.makedirs(out, exist_ok=True)

MAP, TEXT, EH = 0x400000, 0x1000, 0x2000
SP = 0x7FFD00001000
# perf's register order: AX BX CX DX SI DI BP SP IP FLAGS CS SS R8..R15
R_BP, R_SP, R_IP = 6, 7, 8


def uleb(v):
    b = bytearray()
    while True:
        c = v & 0x7F
        v >>= 7
        b.append(c | (0x80 if v else 0))
        if not v:
            return bytes(b)


def sleb(v):
    b = bytearray()
    while True:
        c = v & 0x7F
        v >>= 7
        done = (v == 0 and not c & 0x40) or (v == -1 and c & 0x40)
        b.append(c | (0 if done else 0x80))
        if done:
            return bytes(b)


def pad4(b):
    return b + b"\0" * (-len(b) % 4)    # DW_CFA_nop


def cie(aug, insns=b""):
    body = struct.pack("<I", 0) + b"\1" + aug + b"\0" + uleb(1) + sleb(-8) + uleb(16)
    body += uleb(1) + b"\x1b"            # 'R': pcrel sdata4
    body = pad4(body + insns)
    return struct.pack("<I", len(body)) + body


class Frame:
    def __init__(self):
        self.b = bytearray()
        self.cies = {}

    def add_cie(self, name, aug, insns=b""):
        self.cies[name] = len(self.b)
        self.b += cie(aug, insns)

    def fde(self, cie_name, start, size, insns):
        at = len(self.b)
        field = EH + at + 8              # pc_begin's address
        body = struct.pack("<I", at + 4 - self.cies[cie_name])
        body += struct.pack("<iI", TEXT + start - field, size) + uleb(0) + insns
        body = pad4(body)
        self.b += struct.pack("<I", len(body)) + body


def expr(reg_or_none, ops, op=0x10):
    if reg_or_none is None:               # DW_CFA_def_cfa_expression
        return b"\x0f" + uleb(len(ops)) + ops
    return bytes([op]) + uleb(reg_or_none) + uleb(len(ops)) + ops


def breg(r, off):
    return bytes([0x70 + r]) + sleb(off)


def seed(name, flags, regs, stack, eh):
    r = [0] * 20
    for k, v in regs.items():
        r[k] = v
    data = bytes([flags]) + struct.pack("<20Q", *r) + struct.pack("<H", len(stack)) + stack + eh
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)


def standard_cie_insns():
    return b"\x0c" + uleb(7) + uleb(8) + bytes([0x80 | 16]) + uleb(1)   # CFA rsp+8, RA at cfa-8


# 1. glibc's __restore_rt: 'zRS', the CFA and every register read from
#    the ucontext at rsp + 40..168; the interrupted pc starts an FDE of
#    its own (looked up at pc, not pc - 1), whose caller is 0.
f = Frame()
f.add_cie("sig", b"zRS")
f.add_cie("std", b"zR", standard_cie_insns())
uc = {8: 40, 9: 48, 10: 56, 11: 64, 12: 72, 13: 80, 14: 88, 15: 96, 5: 104, 4: 112,
      6: 120, 3: 128, 1: 136, 0: 144, 2: 152, 7: 160, 16: 168}
ins = expr(None, breg(7, 160) + b"\x06")          # DW_OP_deref
for reg, off in uc.items():
    ins += expr(reg, breg(7, off))
f.fde("sig", 0x0FF, 0x10, ins)                     # __restore_rt - 1 ...
f.fde("std", 0x800, 0x100, b"")
stack = bytearray(512)
struct.pack_into("<Q", stack, 120, SP + 0x300)     # rbp
struct.pack_into("<Q", stack, 160, SP + 0x100)     # the interrupted rsp
struct.pack_into("<Q", stack, 168, MAP + TEXT + 0x800)
seed("sigframe_restore_rt", 3, {R_IP: MAP + TEXT + 0x100, R_SP: SP, R_BP: 1}, bytes(stack), bytes(f.b))
seed("sigframe_stack_map", 7, {R_IP: MAP + TEXT + 0x100, R_SP: SP, R_BP: 1}, bytes(stack[:200]), bytes(f.b))

# 2. A PLT stub's CFA: rsp + 8 + ((rip & 15) >= 11) * 8.
f = Frame()
f.add_cie("std", b"zR", standard_cie_insns())
plt = breg(7, 8) + breg(16, 0) + b"\x3f\x1a\x3b\x2a\x33\x24\x22"
f.fde("std", 0x200, 0x100, expr(None, plt))
stack = bytearray(64)
struct.pack_into("<QQ", stack, 0, MAP + TEXT + 0x210, MAP + TEXT + 0x220)
seed("plt_cfa_expr", 3, {R_IP: MAP + TEXT + 0x20B, R_SP: SP, R_BP: SP + 32}, bytes(stack), bytes(f.b))
seed("plt_guess_no_fde", 11, {R_IP: MAP + TEXT + 0x900, R_SP: SP, R_BP: 0}, bytes(stack), bytes(f.b))

# 3. Expressions libunwind evaluates and some it refuses: val_expression,
#    branches, deref_size, DW_OP_regN, a division by 0, DW_OP_piece.
f = Frame()
f.add_cie("std", b"zR", standard_cie_insns())
skip = b"\x2f" + struct.pack("<h", 1) + b"\x96"    # skip over a nop
bra = b"\x31\x28" + struct.pack("<h", 2) + b"\x30\x30\x96"
f.fde("std", 0x000, 0x40, expr(None, breg(7, 16) + skip + bra + b"\x1c") +
      expr(6, breg(7, 0) + b"\x94\x04", 0x16) +    # val_expression: 4-byte deref
      expr(3, b"\x53"))                            # DW_CFA_expression rbx = DW_OP_reg3
f.fde("std", 0x040, 0x40, expr(None, breg(7, 8) + b"\x30\x1b") +   # / 0
      expr(12, b"\x30\x93\x08"))                   # DW_OP_piece: refused
f.fde("std", 0x080, 0x40, expr(None, breg(6, 0) + b"\x06\x23\x10") +
      expr(16, breg(7, 0) + b"\x2f" + struct.pack("<h", -3)))       # a loop
stack = bytearray(256)
for i in range(0, 256, 8):
    struct.pack_into("<Q", stack, i, MAP + TEXT + 0x40 + (i * 8) % 0x80)
seed("expr_ops", 3, {R_IP: MAP + TEXT + 0x10, R_SP: SP, R_BP: SP + 64, 1: 5}, bytes(stack), bytes(f.b))
seed("expr_loop", 3, {R_IP: MAP + TEXT + 0x90, R_SP: SP, R_BP: SP + 8}, bytes(stack), bytes(f.b))
