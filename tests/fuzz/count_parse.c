// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz the counting parsers: pev_read_parse (first byte = read_format,
 * second = room for values, the rest = the read() buffer) and the CPU/id
 * list parsers (the whole input as a string). */
#include <stdlib.h>
#include <string.h>
#include <perfev/perfev.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pev_read_value vals[8];
	int cpus[64];
	pid_t ids[64];
	uint64_t ena, run;

	if (size >= 2) {
		int n = pev_read_parse(data + 2, size - 2, data[0] & 0x3f, vals,
				       (size_t)(data[1] % 9), &ena, &run);
		if (n > 8)
			abort();
	}
	char *s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = 0;
	int n = pev_cpulist_parse(s, cpus, 64);
	if (n > 64)
		abort();
	for (int i = 1; i > 0 && i < n; i++)
		if (cpus[i] <= cpus[i - 1] || cpus[i] >= PEV_MAX_CPUS)
			abort();
	pev_idlist_parse(s, ids, 64);
	free(s);
	return 0;
}
