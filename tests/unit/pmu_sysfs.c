// SPDX-License-Identifier: GPL-2.0-only
/* PMUs from a fake sysfs tree: type, formats, aliases with their side
 * files, cpumask, caps, and a clear error for a bad format file. */
#include <perfev/perfev.h>
#include "testutil.h"
#include "pmu_fake.h"

int main(void)
{
	char err[512] = "";

	fake_build();
	struct pev_pmu *p = pev_pmu_load(fake_root, "fakepmu", err, sizeof(err));
	CHECK_MSG(p, "load fakepmu: %s", err);
	if (!p)
		return 1;
	CHECK_STR(p->name, "fakepmu");
	CHECK_EQ_U64(p->type, 42);
	CHECK_EQ_U64(p->nr_formats, 5);
	CHECK_STR(p->formats[0].name, "c3");	/* sorted */
	const struct pev_pmu_format *f = pev_pmu_find_format(p, "scat");
	CHECK(f && f->word == 1 && f->mask == ((1ULL << 1) | (0x1fULL << 6) | (1ULL << 44)));
	f = pev_pmu_find_format(p, "c3");
	CHECK(f && f->word == 3 && f->mask == 0xf);
	f = pev_pmu_find_format(p, "hi");
	CHECK(f && f->word == 2 && f->mask == 1ULL << 63);
	CHECK(!pev_pmu_find_format(p, "nosuch"));

	CHECK_EQ_U64(p->nr_aliases, 4);
	const struct pev_pmu_alias *a = pev_pmu_find_alias(p, "energy");
	CHECK(a != NULL);
	if (a) {
		CHECK_STR(a->terms, "event=0x02");
		CHECK(a->scale == 2.3283064365386962890625e-10);
		CHECK_STR(a->unit, "Joules");
		CHECK(a->per_pkg);
		CHECK(a->snapshot);
	}
	a = pev_pmu_find_alias(p, "CYCLES-X");	/* case-insensitive like perf */
	CHECK(a && !strcmp(a->terms, "event=0x3c,umask=0x00") && a->scale == 1.0 &&
	      !strcmp(a->unit, "") && !a->per_pkg && !a->snapshot);
	CHECK_STR(p->cpumask, "0,2");
	CHECK(p->cpus == NULL);
	CHECK_EQ_U64(p->nr_caps, 2);
	CHECK_STR(pev_pmu_cap(p, "max_precise"), "3");
	CHECK_STR(pev_pmu_cap(p, "branches"), "32");
	CHECK(pev_pmu_cap(p, "nosuch") == NULL);
	pev_pmu_free(p);

	/* a bad format file: a clear error naming file and reason */
	err[0] = '\0';
	errno = 0;
	p = pev_pmu_load(fake_root, "badpmu", err, sizeof(err));
	CHECK(p == NULL && errno == EINVAL);
	CHECK_MSG(strstr(err, "badpmu/format/x") && strstr(err, "ends before it starts"), "err: %s", err);
	errno = 0;
	CHECK(pev_pmu_load(fake_root, "nosuch", err, sizeof(err)) == NULL && errno == ENOENT);
	CHECK(pev_pmu_load(fake_root, "../x", NULL, 0) == NULL && errno == EINVAL);

	/* the whole list: sorted, the bad PMU kept with its error */
	struct pev_pmu_list *l = pev_pmu_list_load(fake_root);
	CHECK(l != NULL);
	CHECK_EQ_U64(pev_pmu_list_count(l), 8);
	CHECK_STR(pev_pmu_list_get(l, 0)->name, "badpmu");
	CHECK(pev_pmu_list_get(l, 0)->error && strstr(pev_pmu_list_get(l, 0)->error, "format/x"));
	CHECK(pev_pmu_list_find(l, "uprobe") && pev_pmu_list_find(l, "uprobe")->type == 7);
	CHECK(pev_pmu_list_find_type(l, 42) && !strcmp(pev_pmu_list_find_type(l, 42)->name, "fakepmu"));
	CHECK(pev_pmu_list_get(l, 8) == NULL);
	pev_pmu_list_free(l);
	pev_pmu_list_free(NULL);
	pev_pmu_free(NULL);
	errno = 0;
	CHECK(pev_pmu_list_load("/nonexistent-root") == NULL && errno == ENOENT);

	/* tracefs walking over the fake tree */
	CHECK_EQ_INT(pev_tracepoint_id(fake_tracefs, "sched", "sched_switch"), 316);
	CHECK_EQ_INT(pev_tracepoint_id(fake_tracefs, "sched", "nosuch"), -ENOENT);
	CHECK_EQ_INT(pev_tracepoint_id(fake_tracefs, "..", "x"), -EINVAL);
	fake_cleanup();
	return t_done();
}
