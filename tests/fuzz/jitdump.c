// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer: the jitdump reader (header, every record type, the debug
 * entries of DEBUG_INFO) on arbitrary bytes: every view it hands out lies
 * inside the buffer, names end inside it, positions only move forward;
 * the first CODE_LOADs are also written as perf's ELF files (into /tmp,
 * removed at once) with the DEBUG_INFO (its .debug_line) and
 * UNWINDING_INFO records before them, exercising the writer's sizes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <perfev/perfev.h>
#include <perfev/jit.h>

static void inside(const uint8_t *base, size_t len, const void *p, uint64_t n)
{
	const uint8_t *q = p;

	if (q < base || q > base + len || n > (uint64_t)(base + len - q))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pev_jitdump_header h;
	struct pev_jit_record r, dbg = { 0 }, unw = { 0 };
	struct pev_jit_elf_extra x = { .hdr = &h };
	size_t pos, loads = 0;

	if (pev_jitdump_header_read(data, size, &h) < 0)
		return 0;
	pos = h.total_size;
	for (;;) {
		size_t before = pos;
		int rc = pev_jitdump_next(data, size, &h, &pos, &r);

		if (rc <= 0)
			break;
		if (pos <= before || pos > size || pos - before != r.total_size)
			abort();
		switch (r.id) {
		case PEV_JIT_CODE_LOAD:
			inside(data, size, r.u.load.name, strlen(r.u.load.name) + 1);
			inside(data, size, r.u.load.code, r.u.load.code_size);
			if (loads++ < 2 && r.u.load.code_size < (1 << 16)) {
				char path[64];

				snprintf(path, sizeof(path), "/tmp/pev-fuzz-jit-%d.so", (int)getpid());
				x.debug = dbg.id == PEV_JIT_CODE_DEBUG_INFO ? &dbg : NULL;
				x.unwinding = unw.u.unwinding.data;
				x.unwinding_size = unw.u.unwinding.unwinding_size;
				x.eh_frame_hdr_size = unw.u.unwinding.eh_frame_hdr_size;
				if (pev_jit_write_elf_extra(path, 62, r.u.load.name, r.u.load.code_addr,
							    r.u.load.code, r.u.load.code_size, &x, NULL) == 0)
					unlink(path);
			}
			break;
		case PEV_JIT_CODE_DEBUG_INFO: {
			struct pev_jit_debug_entry e;
			size_t off = 0;
			uint64_t idx = 0;

			inside(data, size, r.u.debug_info.entries, r.u.debug_info.entries_len);
			while (pev_jitdump_debug_entry(&h, &r, &off, &idx, &e) > 0) {
				if (off > r.u.debug_info.entries_len)
					abort();
				if (e.name)
					inside(data, size, e.name, strlen(e.name) + 1);
			}
			dbg = r;
			break;
		}
		case PEV_JIT_CODE_UNWINDING_INFO:
			inside(data, size, r.u.unwinding.data, r.u.unwinding.unwinding_size);
			unw = r;
			break;
		default:
			break;
		}
	}
	return 0;
}
