// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The explanation builder every explainer writes through (explain.c,
 * explain_einval.c, explain_env.c), and small facts they share; it calls
 * none of them. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "explain/explain_priv.h"

void pev__xp_set(struct pev__xp *x, enum pev_explain_kind kind, const char *fmt, ...)
{
	va_list ap;

	x->out->kind = kind;
	va_start(ap, fmt);
	vsnprintf(x->out->reason, sizeof(x->out->reason), fmt, ap);
	va_end(ap);
	x->out->remedy[0] = '\0';
}

void pev__xp_remedy(struct pev__xp *x, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(x->out->remedy, sizeof(x->out->remedy), fmt, ap);
	va_end(ap);
}

void pev__xp_remedy_add(struct pev__xp *x, const char *fmt, ...)
{
	size_t n = strlen(x->out->remedy);
	va_list ap;

	if (n + 1 >= sizeof(x->out->remedy))
		return;
	va_start(ap, fmt);
	vsnprintf(x->out->remedy + n, sizeof(x->out->remedy) - n, fmt, ap);
	va_end(ap);
}

bool pev__explain_kernel_address(uint64_t addr)
{
#if defined(__x86_64__) || defined(__aarch64__)
	return addr >= 0xffff800000000000ULL;
#else
	return addr >= 0xc0000000ULL;
#endif
}
