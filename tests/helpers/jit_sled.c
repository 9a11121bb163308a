// SPDX-License-Identifier: GPL-2.0-only
/* A tiny "JIT" for the perf-map tests: copies a NOP sled ending in `ret`
 * into anonymous executable memory, writes /tmp/perf-PID.map with the
 * lines of the file named by argv[1] (each "START SIZE NAME" with START an
 * offset from the code's base, written as an absolute address), then
 * calls the sled for argv[2] milliseconds (default 300) and removes
 * nothing: the test reads the map file after we exit and deletes it.
 *
 * Lines that do not start with '+' are copied as they are (to test
 * malformed input); a line "+OFF REST" becomes "<base+OFF in hex>REST". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define SLED 8192

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	unsigned char *code = mmap(NULL, SLED, PROT_READ | PROT_WRITE | PROT_EXEC,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char path[64], line[4096];
	FILE *in, *out;
	double ms = argc > 2 ? atof(argv[2]) : 300;

	if (argc < 2 || code == MAP_FAILED)
		return 2;
	memset(code, 0x90, SLED - 1);
	code[SLED - 1] = 0xc3;
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	in = fopen(argv[1], "r");
	out = fopen(path, "w");
	if (!in || !out)
		return 2;
	/* fgets keeps embedded text exactly; a last line without '\n' stays
	 * so. */
	while (fgets(line, sizeof(line), in)) {
		if (line[0] == '+') {
			char *rest;
			unsigned long off = strtoul(line + 1, &rest, 16);

			fprintf(out, "%lx%s", (unsigned long)code + off, rest);
		} else {
			fputs(line, out);
		}
	}
	fclose(in);
	fclose(out);
	void (*fn)(void) = (void (*)(void))code;
	double end = now() + ms / 1000;

	while (now() < end)
		for (int i = 0; i < 100; i++)
			fn();
	return 0;
}
