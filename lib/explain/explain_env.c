// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Causes outside the event: a seccomp filter (container runtime) or a
 * security module that refuses every perf_event_open of this process, told
 * apart from a refusal of this one event by a probe (a trivially allowed
 * open) and /proc/self/status; and whether exclude_* bits really are what
 * the PMU refused. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <perfev/explain.h>
#include <perfev/sys.h>

#include "explain/explain_priv.h"

/* The settings fields added after the first release, when s->size covers
 * them (an older caller's struct ends before). */
static bool has_env_fields(const struct pev_system_settings *s)
{
	return s->size >= offsetof(struct pev_system_settings, probe_err) +
			  sizeof(s->probe_err);
}

/* Would the probe (task-clock, this process, user space) pass the
 * paranoid and capability checks? */
static bool probe_allowed(const struct pev__xp *x)
{
	return x->priv || (x->s->paranoid != PEV_SETTING_UNKNOWN && x->s->paranoid <= 2);
}

static const char *err_name(int err)
{
	switch (err) {
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case ENOSYS: return "ENOSYS";
	default: return "that error";
	}
}

bool pev__explain_blocked(struct pev__xp *x, int err)
{
	const struct pev_system_settings *s = x->s;

	if (!has_env_fields(s))
		return false;
	/* ENOSYS with the perf sysctls present: the kernel has perf events,
	 * so something in front of the syscall answered. */
	bool enosys_filtered = err == ENOSYS && s->seccomp_mode == 2 &&
			       (s->probe_err == ENOSYS ||
				(s->probe_err == -1 && s->paranoid != PEV_SETTING_UNKNOWN));
	bool refused_all = (err == EPERM || err == EACCES) && s->probe_err == err &&
			   probe_allowed(x);

	if (enosys_filtered || (refused_all && s->seccomp_mode == 2)) {
		char filters[48] = "";
		if (s->seccomp_filters != PEV_SETTING_UNKNOWN && s->seccomp_filters > 0)
			snprintf(filters, sizeof(filters), ", %ld filter%s", s->seccomp_filters,
				 s->seccomp_filters == 1 ? "" : "s");
		pev__xp_set(x, PEV_EXPLAIN_SECCOMP,
			    "perf_event_open is blocked by a seccomp filter (Seccomp: 2%s in /proc/self/status; a container runtime?): even a user-space task-clock of this process gets %s",
			    filters, err_name(err));
		pev__xp_remedy(x, "allow perf_event_open in the seccomp profile (docker/podman: '--security-opt seccomp=unconfined' or a profile that allows perf_event_open), or run on the host");
		return true;
	}
	if (refused_all && s->seccomp_mode == 0) {
		char allows[64];
		if (x->priv)
			snprintf(allows, sizeof(allows), "%s", x->cap);
		else
			snprintf(allows, sizeof(allows), "kernel.perf_event_paranoid %ld", s->paranoid);
		pev__xp_set(x, PEV_EXPLAIN_DENIED,
			    "every perf_event_open of this process is refused (%s), even a user-space task-clock that %s allows: a security module (SELinux, AppArmor) or kernel lockdown refuses it",
			    err_name(err), allows);
		pev__xp_remedy(x, "check the audit log ('dmesg', 'ausearch -m avc')");
		return true;
	}
	return false;
}

/* The PMU refused an exclude_* bit only when the same event without its
 * exclude bits opens.  Live: try it.  Given settings: at least require
 * that perf_event_open works at all here. */
bool pev__explain_exclude_matters(struct pev__xp *x)
{
	if (!x->live)
		return has_env_fields(x->s) && x->s->probe_err == 0;

	struct perf_event_attr a = x->a;
	a.exclude_user = a.exclude_kernel = a.exclude_hv = a.exclude_idle = 0;
	a.exclude_host = a.exclude_guest = 0;
	a.exclude_callchain_kernel = a.exclude_callchain_user = 0;
	a.disabled = 1;
	a.enable_on_exec = 0;
	int fd = pev_sys_open(&a, x->c.pid, x->c.cpu, -1,
			      x->c.flags & ~(unsigned long)PERF_FLAG_FD_OUTPUT);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}
