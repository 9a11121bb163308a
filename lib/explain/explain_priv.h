/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Private to lib/explain/explain*.c: the explanation builder and small helpers. */
#ifndef PEV_EXPLAIN_PRIV_H
#define PEV_EXPLAIN_PRIV_H

#include <perfev/explain.h>

/* One explanation being built. */
struct pev__xp {
	struct pev_explain_ctx c;		/* the caller's, defaults filled in */
	struct perf_event_attr a;		/* copy of *c.attr, or zeros */
	bool have_attr;
	bool live;				/* settings were read here */
	const struct pev_system_settings *s;
	bool priv;				/* perfmon-capable */
	const char *cap;			/* "CAP_PERFMON" or "CAP_SYS_ADMIN" */
	struct pev_explanation *out;
};

/* explain_xp.c, under every explainer: set the kind and the reason /
 * remedy text (printf-style). */
void pev__xp_set(struct pev__xp *x, enum pev_explain_kind kind,
		 const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void pev__xp_remedy(struct pev__xp *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Append to the remedy. */
void pev__xp_remedy_add(struct pev__xp *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* True for an address in the kernel half of the address space. */
bool pev__explain_kernel_address(uint64_t addr);

/* Per-errno explainers (explain_einval.c). */
void pev__explain_einval(struct pev__xp *x);
void pev__explain_noent(struct pev__xp *x, int err);	/* ENOENT, ENODEV, EOPNOTSUPP */
/* CPU number checks shared by EINVAL and ENODEV; true when one matched. */
bool pev__explain_bad_cpu(struct pev__xp *x);


/* explain_env.c: a seccomp filter or security module refusing every open
 * (true when it set the explanation); whether exclude bits matter. */
bool pev__explain_blocked(struct pev__xp *x, int err);
bool pev__explain_exclude_matters(struct pev__xp *x);

/* explain_settings.c */
int pev__explain_proc_uid(pid_t pid, uid_t *uid);
bool pev__explain_kernel_before(const struct pev_system_settings *s,
				long major, long minor);

#endif
