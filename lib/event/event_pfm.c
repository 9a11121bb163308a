// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* CPU-specific event names through libpfm4.  pfm_initialize() sets up
 * libpfm's own process-wide tables; it runs once, lazily, and only when a
 * name is otherwise unknown and a CPU PMU exists.
 *
 * libpfm4 is loaded with dlopen() at that moment rather than linked: its
 * event tables carry tens of thousands of relocations, which cost every
 * program linked with libperfev about a millisecond at start-up whether
 * it ever asks libpfm anything or not. */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perfmon/pfmlib.h>

#include "event/event_internal.h"

/* pfmlib_perf_event.h brings its own copy of perf_event.h, which clashes
 * with <linux/perf_event.h>; this is its pfm_perf_encode_arg_t, an ABI
 * that libpfm versions by its size field. */
typedef struct {
	struct perf_event_attr *attr;
	char **fstr;
	size_t size;
	int idx;
	int cpu;
	int flags;
	int pad0;
} pfm_perf_encode_arg_t;

/* The three libpfm4 entry points used, resolved once under pfm_once. */
static struct {
	pfm_err_t (*initialize)(void);
	pfm_err_t (*get_pmu_info)(pfm_pmu_t pmu, pfm_pmu_info_t *info);
	int (*get_os_event_encoding)(const char *str, int dfl_plm, pfm_os_t os, void *args);
} pfm;

static pthread_once_t pfm_once = PTHREAD_ONCE_INIT;
static int pfm_state;		/* 0 ok, else -errno; written once under pfm_once */

static void pfm_init(void)
{
	int nactive = 0;
	pfm_pmu_t p;
	void *h = dlopen("libpfm.so.4", RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		pfm_state = -ENOSYS;	/* libpfm4 is not installed */
		return;
	}
	*(void **)&pfm.initialize = dlsym(h, "pfm_initialize");
	*(void **)&pfm.get_pmu_info = dlsym(h, "pfm_get_pmu_info");
	*(void **)&pfm.get_os_event_encoding = dlsym(h, "pfm_get_os_event_encoding");
	if (!pfm.initialize || !pfm.get_pmu_info || !pfm.get_os_event_encoding ||
	    pfm.initialize() != PFM_SUCCESS) {
		pfm_state = -ENODEV;
		return;		/* the handle stays open: libpfm may hold state */
	}
	pfm_for_all_pmus(p) {
		pfm_pmu_info_t info;
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm.get_pmu_info(p, &info) == PFM_SUCCESS && info.is_present &&
		    info.type == PFM_PMU_TYPE_CORE)
			nactive++;
	}
	pfm_state = nactive ? 0 : -ENODEV;
}

PEV_EXPORT int pev_pfm_encode(const char *name, struct pev_attr *out)
{
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;
	int r;

	if (!name || !out)
		return -EINVAL;
	pthread_once(&pfm_once, pfm_init);
	if (pfm_state)
		return pfm_state;
	memset(&attr, 0, sizeof(attr));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &attr;
	arg.size = sizeof(arg);
	r = pfm.get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	if (r != PFM_SUCCESS)
		return r == PFM_ERR_NOTFOUND ? -ENOENT : -EINVAL;
	memset(out, 0, sizeof(*out));
	out->attr = attr;
	out->attr.size = sizeof(struct perf_event_attr);
	return 0;
}

int pev__parse_pfm(struct parse_ctx *c, size_t pos, size_t len)
{
	struct pev_attr a;
	char name[PEV_NAME_MAX + 1];
	int r;

	if (c->opts.no_pfm || len > PEV_NAME_MAX || !pev__have_cpu_pmu(c))
		return 0;
	memcpy(name, c->spec + pos, len);
	name[len] = '\0';
	r = pev_pfm_encode(name, &a);
	if (r == -ENODEV || r == -ENOENT || r == -EINVAL || r == -ENOSYS)
		return 0;
	if (r < 0)
		return pev__perr(c, pos, len, -r, "libpfm4 cannot encode '%s'", name);
	struct pev_event *e = pev__new_event(c, pos, a.attr.type, a.attr.config, name, len, "cpu");
	if (!e)
		return -ENOMEM;
	uint64_t size = e->attr.attr.size;
	e->attr.attr = a.attr;
	e->attr.attr.size = (uint32_t)size;
	/* libpfm sets the privilege levels it was asked for (PLM0|PLM3),
	 * i.e. user and kernel; keep perf's host-only default. */
	e->attr.attr.exclude_guest = 1;
	return 1;
}
