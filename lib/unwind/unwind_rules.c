// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The release of unwind_fast.c's cached CFI rules, apart from it because
 * unwind_mods.c, which unwind_fast.c calls, releases them too. */
#include <stdlib.h>
#include <string.h>

#include "unwind/unwind_rules.h"
#include "unwind/unwind_state.h"

void pev__rules_clear(struct unwind_state *u)
{
	for (size_t i = 0; u->rules && i < u->rules_size; i++)
		free(u->rules[i].ops);
	if (u->rules)
		memset(u->rules, 0, u->rules_size * sizeof(*u->rules));
	u->rules_used = 0;
}
