// SPDX-License-Identifier: GPL-2.0-only
/* A tiny JIT writing a jitdump as perf's jvmti agent does: NOP sleds in
 * anonymous executable memory, a jit-PID.dump in the current directory
 * (header, CODE_LOAD for "jit_alpha" and "jit_beta", then a CODE_MOVE of
 * beta to a second copy and a CLOSE), mapped PROT_READ|PROT_EXEC as the
 * marker perf inject looks for.  Runs the code for argv[1] ms (default
 * 300), both places of beta. Times are CLOCK_MONOTONIC (record -k mono).
 * With argv[2] = "info", alpha's load follows a DEBUG_INFO record (line
 * entries chosen to take every path of perf's .debug_line writer: special
 * opcodes, line and address advances, a file change, the "\xff" of "same
 * name") and beta's an UNWINDING_INFO record (an .eh_frame whose FDE
 * covers the sled, CFA = rsp + 8, and its .eh_frame_hdr), laid out for
 * the addresses perf inject gives them. */
#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define SLED 4096

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void put(FILE *f, const void *p, size_t n)
{
	if (fwrite(p, 1, n, f) != n)
		exit(2);
}

static void load(FILE *f, const char *name, const uint8_t *code, uint64_t size, uint64_t idx)
{
	uint32_t id = 0, total = (uint32_t)(16 + 40 + strlen(name) + 1 + size);
	uint64_t ts = now_ns(), addr = (uint64_t)(uintptr_t)code;
	uint32_t pid = (uint32_t)getpid(), tid = (uint32_t)syscall(SYS_gettid);

	put(f, &id, 4); put(f, &total, 4); put(f, &ts, 8);
	put(f, &pid, 4); put(f, &tid, 4); put(f, &addr, 8); put(f, &addr, 8);
	put(f, &size, 8); put(f, &idx, 8);
	put(f, name, strlen(name) + 1);
	put(f, code, size);
}

static void debug_info(FILE *f, const uint8_t *code)
{
	static const struct { uint32_t off; int32_t line; const char *name; } e[] = {
		{ 0x000, 10, "alpha.js" }, { 0x001, 11, "\xff" }, { 0x002, 9, "\xff" },
		{ 0x100, 5, "\xff" }, { 0x400, 300, "lib/other.js" }, { 0x401, 299, "lib/other.js" },
		{ 0x402, 305, "lib/other.js" }, { 0x800, 7, "alpha.js" }, { 0xc00, 1000, "alpha.js" },
	};
	uint32_t id = 2, total = 16 + 16, zero = 0;
	uint64_t ts = now_ns(), addr = (uint64_t)(uintptr_t)code, nr = sizeof(e) / sizeof(e[0]);

	for (size_t i = 0; i < nr; i++)
		total += 16 + (uint32_t)strlen(e[i].name) + 1;
	put(f, &id, 4); put(f, &total, 4); put(f, &ts, 8);
	put(f, &addr, 8); put(f, &nr, 8);
	for (size_t i = 0; i < nr; i++) {
		uint64_t a = addr + e[i].off;

		put(f, &a, 8); put(f, &e[i].line, 4); put(f, &zero, 4);
		put(f, e[i].name, strlen(e[i].name) + 1);
	}
}

/* .eh_frame (a CIE and one FDE over the SLED bytes at 0x80, then a zero
 * terminator) at E = 0x80 + SLED rounded to 8, and .eh_frame_hdr after it:
 * the addresses of perf's jitted file. */
static void unwinding_info(FILE *f)
{
	uint8_t eh[52 + 20];
	const int32_t E = (0x80 + SLED + 7) & ~7, H = E + 52;
	uint32_t id = 4, total = 16 + 24 + sizeof(eh);
	uint64_t ts = now_ns(), usize = sizeof(eh), hsize = 20, mapped = (sizeof(eh) + 7) & ~7ul;
	int32_t v;

	memset(eh, 0, sizeof(eh));
	/* CIE: length 20, id 0, version 1, "zR", code align 1, data align
	 * -8, return address r16, aug data: FDE pointers pcrel|sdata4;
	 * def_cfa rsp+8, r16 at cfa-8. */
	static const uint8_t cie[24] = { 20, 0, 0, 0, 0, 0, 0, 0, 1, 'z', 'R', 0, 1, 0x78, 16, 1, 0x1b,
					 0x0c, 7, 8, 0x90, 1, 0, 0 };
	memcpy(eh, cie, 24);
	/* FDE: length 20, CIE pointer 28 (back to offset 0), pc_begin pcrel,
	 * pc_range SLED, no aug data. */
	eh[24] = 20;
	eh[28] = 28;
	v = 0x80 - (E + 32);
	memcpy(eh + 32, &v, 4);
	v = SLED;
	memcpy(eh + 36, &v, 4);
	/* eh_frame_hdr: version 1, eh_frame_ptr pcrel|sdata4, count udata4,
	 * table datarel|sdata4; one entry (code start, FDE). */
	uint8_t *h = eh + 52;

	h[0] = 1; h[1] = 0x1b; h[2] = 0x03; h[3] = 0x3b;
	v = E - (H + 4);
	memcpy(h + 4, &v, 4);
	v = 1;
	memcpy(h + 8, &v, 4);
	v = 0x80 - H;
	memcpy(h + 12, &v, 4);
	v = E + 24 - H;
	memcpy(h + 16, &v, 4);
	put(f, &id, 4); put(f, &total, 4); put(f, &ts, 8);
	put(f, &usize, 8); put(f, &hsize, 8); put(f, &mapped, 8);
	put(f, eh, sizeof(eh));
}

int main(int argc, char **argv)
{
	int info = argc > 2 && !strcmp(argv[2], "info");
	double ms = argc > 1 ? atof(argv[1]) : 300;
	uint8_t *code = mmap(NULL, 3 * SLED, PROT_READ | PROT_WRITE | PROT_EXEC,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char path[64];

	if (code == MAP_FAILED)
		return 2;
	for (int k = 0; k < 3; k++) {
		memset(code + k * SLED, 0x90, SLED - 1);
		code[k * SLED + SLED - 1] = 0xc3;
	}
	snprintf(path, sizeof(path), "jit-%d.dump", (int)getpid());
	FILE *f = fopen(path, "w+");

	if (!f)
		return 2;
	uint32_t hdr32[6] = { 0x4A695444, 1, 40, EM_X86_64, 0, (uint32_t)getpid() };
	uint64_t hdr64[2] = { now_ns(), 0 };

	put(f, hdr32, sizeof(hdr32));
	put(f, hdr64, sizeof(hdr64));
	fflush(f);
	/* The marker: perf record sees this executable mapping of the dump. */
	void *marker = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fileno(f), 0);

	if (marker == MAP_FAILED)
		return 2;
	if (info)
		debug_info(f, code);
	load(f, "jit_alpha", code, SLED, 0);
	if (info)
		unwinding_info(f);
	load(f, "jit_beta", code + SLED, SLED, 1);
	fflush(f);
	void (*alpha)(void) = (void (*)(void))code;
	void (*beta)(void) = (void (*)(void))(code + SLED);
	void (*moved)(void) = (void (*)(void))(code + 2 * SLED);
	uint64_t half = now_ns() + (uint64_t)(ms * 500000);

	while (now_ns() < half)
		for (int i = 0; i < 50; i++) {
			alpha();
			beta();
		}
	/* beta moves to the third sled. */
	uint32_t id = 1, total = 16 + 48, pid = (uint32_t)getpid(), tid = (uint32_t)syscall(SYS_gettid);
	uint64_t ts = now_ns(), vma = 0, from = (uint64_t)(uintptr_t)(code + SLED),
		 to = (uint64_t)(uintptr_t)(code + 2 * SLED), size = SLED, idx = 1;

	put(f, &id, 4); put(f, &total, 4); put(f, &ts, 8);
	put(f, &pid, 4); put(f, &tid, 4); put(f, &vma, 8); put(f, &from, 8); put(f, &to, 8);
	put(f, &size, 8); put(f, &idx, 8);
	fflush(f);
	uint64_t end = now_ns() + (uint64_t)(ms * 500000);

	while (now_ns() < end)
		for (int i = 0; i < 50; i++)
			moved();
	id = 3;
	total = 16;
	ts = now_ns();
	put(f, &id, 4); put(f, &total, 4); put(f, &ts, 8);
	fclose(f);
	munmap(marker, 4096);
	return 0;
}
