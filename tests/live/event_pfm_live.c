// SPDX-License-Identifier: GPL-2.0-only
/* CPU-specific names through libpfm4, and the fall-through to "unknown
 * event" when neither perfev nor libpfm knows a name. */
#include <dlfcn.h>
#include <perfev/perfev.h>
#include "testutil.h"

int main(void)
{
	struct pev_evlist *l = pev_evlist_new();
	struct pev_parse_error err;

	/* unknown everywhere: a clear error, whatever libpfm finds */
	CHECK_EQ_INT(pev_evlist_parse(l, "no_such_event_anywhere", NULL, &err), -ENOENT);
	CHECK_MSG(strstr(err.msg, "unknown event 'no_such_event_anywhere'"), "%s", err.msg);
	CHECK_EQ_INT(err.pos, 0);
	CHECK_EQ_INT(err.len, 22);
	CHECK_EQ_INT(pev_evlist_parse(l, "no_such_event_anywhere:u", NULL, &err), -ENOENT);
	CHECK_MSG(strstr(err.msg, "unknown event"), "%s", err.msg);

	struct pev_attr a;
	int r = pev_pfm_encode("INST_RETIRED", &a);
	CHECK_EQ_INT(pev_pfm_encode(NULL, &a), -EINVAL);
	if (r == -ENODEV) {
		/* The probe: libpfm4 itself, loaded here. */
		void *h = dlopen("libpfm.so.4", RTLD_NOW);
		int (*init)(void) = h ? (int (*)(void))dlsym(h, "pfm_initialize") : NULL;
		int (*find)(const char *) = h ? (int (*)(const char *))dlsym(h, "pfm_find_event") : NULL;
		int found = init && find && init() == 0 ? find("INST_RETIRED") : -1;

		pev_evlist_free(l);
		CHECK_MSG(found < 0, "libpfm4 encodes INST_RETIRED (%d) but perfev says ENODEV", found);
		if (t_failures)
			return t_done();
		T_SKIP("libpfm4 %s", h ? "finds no INST_RETIRED here" : "is not installed");
	}
	struct pev_pmu_list *pmus = pev_pmu_list_load(NULL);
	bool cpu_pmu = pmus && pev_pmu_list_find(pmus, "cpu");
	pev_pmu_list_free(pmus);
	/* libpfm knows this CPU: some generic name must encode */
	const char *names[] = { "INST_RETIRED", "INSTRUCTIONS", "RETIRED_INSTRUCTIONS",
				"INST_RETIRED:ANY_P", "CPU_CYCLES" };
	bool any = false;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && !any; i++)
		if (pev_pfm_encode(names[i], &a) == 0) {
			any = true;
			CHECK(a.attr.type == PERF_TYPE_RAW || a.attr.type == PERF_TYPE_HARDWARE ||
			      a.attr.type >= PERF_TYPE_MAX);
			if (cpu_pmu) {
				CHECK_OK(pev_evlist_parse(l, names[i], NULL, &err));
			} else {
				/* no CPU PMU: libpfm is not consulted, the name is unknown */
				CHECK_EQ_INT(pev_evlist_parse(l, names[i], NULL, &err), -ENOENT);
			}
		}
	CHECK_EQ_INT(pev_pfm_encode("NO_SUCH_PFM_EVENT_XYZ", &a), -ENOENT);
	if (!any)
		printf("libpfm is active but knows none of the generic names tried\n");
	pev_evlist_free(l);
	return t_done();
}
