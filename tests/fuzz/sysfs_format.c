// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer: the PMU format-file parser and the bit scatterer. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <perfev/perfev.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	char err[128];
	int word;
	uint64_t mask, c = 0;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (pev_pmu_format_parse(text, &word, &mask, err, sizeof(err)) == 0) {
		if (word < 0 || word > 3 || !mask)
			abort();
		uint64_t max = pev_pmu_format_max(mask);
		if (pev_pmu_format_apply(mask, max, &c) || c != mask)
			abort();
		if (max != ~0ULL && pev_pmu_format_apply(mask, max + 1, &c) != -ERANGE)
			abort();
	}
	free(text);
	return 0;
}
