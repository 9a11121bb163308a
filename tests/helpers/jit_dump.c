/* A tiny JIT writing a jitdump as perf's jvmti agent does: NOP sleds in
 * anonymous executable memory, a jit-PID.dump in the current directory
 * (header, CODE_LOAD for "jit_alpha" and "jit_beta", then a CODE_MOVE of
 * beta to a second copy and a CLOSE), mapped PROT_READ|PROT_EXEC as the
 * marker perf inject looks for.  Runs the code for argv[1] ms (default
 * 300), both places of beta. Times are CLOCK_MONOTONIC (record -k mono). */
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

int main(int argc, char **argv)
{
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
	load(f, "jit_alpha", code, SLED, 0);
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
