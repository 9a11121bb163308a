// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer: the kallsyms parser and lookups on what it builds (every
 * symbol found at its start, ranges sorted and non-empty). */
#include <stdlib.h>
#include <string.h>
#include <perfev/perfev.h>
#include <perfev/symbols.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pev_symtab *st = pev_kallsyms_parse((const char *)data, size);

	if (!st)
		return 0;
	size_t n = pev_symtab_count(st);
	uint64_t prev = 0;

	for (size_t i = 0; i < n; i++) {
		const struct pev_symbol *s = pev_symtab_symbol(st, i);

		if (!s || !s->name || (i && s->start <= prev))
			abort();
		prev = s->start;
		/* Only a symbol at the very top address may be empty. */
		if (s->end <= s->start) {
			if (s->start != UINT64_MAX || s->end != UINT64_MAX)
				abort();
			continue;
		}
		const struct pev_symbol *f = pev_symtab_lookup(st, s->start);

		if (!f || f->start > s->start)
			abort();
		pev_symtab_lookup(st, s->end);
		pev_symtab_lookup(st, s->start - 1);
	}
	pev_symtab_free(st);
	return 0;
}
