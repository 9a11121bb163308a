// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer: the perf map parser (/tmp/perf-PID.map text) and perf's tree
 * lookups on what it builds: the listing is sorted, every answer holds
 * the address by perf's rule, a lone entry with a size is found at its
 * start.  (A name may be empty: a NUL right after the numbers.) */
#include <stdlib.h>
#include <string.h>
#include <perfev/perfev.h>
#include <perfev/jit.h>

static bool holds(const struct pev_symbol *s, uint64_t a)
{
	return s->start <= a && (a < s->end || a == s->start);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pev_symtab *st = pev_perfmap_parse((const char *)data, size);

	if (!st)
		return 0;
	size_t n = pev_symtab_count(st);
	uint64_t prev = 0;

	for (size_t i = 0; i < n; i++) {
		const struct pev_symbol *s = pev_symtab_symbol(st, i);

		if (!s || !s->name || (i && s->start < prev))
			abort();
		prev = s->start;
		uint64_t probes[] = { s->start, s->start - 1, s->end, s->end - 1,
				      s->start + (s->end - s->start) / 2 };

		for (size_t k = 0; k < sizeof(probes) / sizeof(probes[0]); k++) {
			const struct pev_symbol *f = pev_symtab_lookup(st, probes[k]);

			if (f && !holds(f, probes[k]))
				abort();
		}
		/* Alone at its address range, an entry is always found. */
		if (n == 1 && s->end > s->start && pev_symtab_lookup(st, s->start) != s)
			abort();
	}
	if (pev_symtab_symbol(st, n))
		abort();
	pev_symtab_free(st);
	return 0;
}
