// SPDX-License-Identifier: GPL-2.0-only
/* perfev record's sample-content and target options build the attrs perf
 * 6.1 builds: each option's bits are asserted exactly on the attrs read
 * back from the file, and (when /usr/bin/perf is installed) every attr
 * is compared field by field with the one perf record writes for the same
 * command line (but ksymbol and bpf_event, which perfev does not ask). */
#include <stddef.h>
#include "record_util.h"

#define FLAG(name) (1ULL << (name))
enum {	/* bits of the attr's flag word (offset 40) */
	F_DISABLED = 0, F_INHERIT = 1, F_EXCL_USER = 4, F_EXCL_KERNEL = 5,
	F_MMAP = 8, F_FREQ = 10, F_INHERIT_STAT = 11, F_ENABLE_ON_EXEC = 12,
	F_MMAP_DATA = 17, F_EXCL_GUEST = 20, F_WRITE_BACKWARD = 27,
	F_NAMESPACES = 28, F_KSYMBOL = 29, F_BPF_EVENT = 30, F_CGROUP = 32,
};

struct attrs {
	size_t n;
	struct perf_event_attr a[4];
};

static uint64_t flags_of(const struct perf_event_attr *a)
{
	uint64_t f;

	memcpy(&f, (const char *)a + 40, 8);
	return f;
}

static bool read_attrs(const char *path, struct attrs *out)
{
	char err[256];
	struct pev_data_open_opts o = { .size = sizeof(o) };
	struct pev_data *d = pev_data_open(path, &o, err, sizeof(err));

	memset(out, 0, sizeof(*out));
	if (!d)
		return false;
	const struct pev_decoder *dec = pev_data_decoder(d);

	out->n = pev_decoder_nr_attrs(dec);
	for (size_t i = 0; i < out->n && i < 4; i++)
		out->a[i] = *pev_decoder_attr(dec, i);
	pev_data_close(d);
	return true;
}

/* `<prog> record -q -B -e cpu-clock -o out OPTS -- record_work -m 10`. */
static int record(const char *prog, const char *out, const char *opts)
{
	char cmd[2048];
	struct t_run r;
	int code;

	snprintf(cmd, sizeof(cmd), "%s record -q -B -e cpu-clock -o %s %s -- %s -m 10 "
		 ">/dev/null", prog, out, opts, rt_work());
	if (t_run_argv((char *const[]){ "sh", "-c", cmd, NULL }, NULL, &r))
		return -1;
	code = r.exit_code;
	if (code)
		fprintf(stderr, "%s %s: exit %d: %s\n", prog, opts, code, r.err);
	t_run_free(&r);
	return code;
}

/* perf's file for case k (recorded up front, all at once: perf record
 * takes over a second each here, mostly waiting). */
static const char *perf_file(size_t k)
{
	static char path[64][512];

	snprintf(path[k], sizeof(path[k]), "/tmp/perfev-rt-%d-attr-perf-%zu.data",
		 (int)getpid(), k);
	return path[k];
}

static bool have_perf;

static void perf_record_all(const char *const *opts, size_t n)
{
	static char cmd[16384];
	size_t len = 0;
	struct t_run r;

	have_perf = !access("/usr/bin/perf", X_OK);
	if (!have_perf)
		return;
	for (size_t k = 0; k < n && len < sizeof(cmd) - 1024; k++)
		len += (size_t)snprintf(cmd + len, sizeof(cmd) - len,
					"/usr/bin/perf record -q -B -e cpu-clock -o %s %s -- "
					"%s -m 10 >/dev/null 2>&1 &\n", perf_file(k), opts[k],
					rt_work());
	snprintf(cmd + len, sizeof(cmd) - len, "wait\n");
	CHECK_OK(t_run_argv((char *const[]){ "sh", "-c", cmd, NULL }, NULL, &r));
	t_run_free(&r);
}

static void same_as_perf(size_t k, const char *opts, const struct attrs *ours)
{
	const uint64_t ignore = FLAG(F_KSYMBOL) | FLAG(F_BPF_EVENT);
	struct attrs p;

	if (!have_perf)
		return;
	CHECK_MSG(read_attrs(perf_file(k), &p), "perf record %s wrote no file", opts);
	unlink(perf_file(k));
	CHECK_MSG(p.n == ours->n, "%s: perf %zu attrs, perfev %zu", opts, p.n, ours->n);
	for (size_t i = 0; i < p.n && i < ours->n && i < 4; i++) {
		const struct perf_event_attr *x = &ours->a[i], *y = &p.a[i];

		CHECK_MSG(x->type == y->type && x->config == y->config,
			  "%s: attr %zu: type/config", opts, i);
		CHECK_MSG(x->sample_type == y->sample_type,
			  "%s: attr %zu: sample_type %#llx, perf %#llx", opts, i,
			  (unsigned long long)x->sample_type,
			  (unsigned long long)y->sample_type);
		CHECK_MSG(x->read_format == y->read_format,
			  "%s: attr %zu: read_format %#llx, perf %#llx", opts, i,
			  (unsigned long long)x->read_format,
			  (unsigned long long)y->read_format);
		CHECK_MSG(x->sample_period == y->sample_period,
			  "%s: attr %zu: period %llu, perf %llu", opts, i,
			  (unsigned long long)x->sample_period,
			  (unsigned long long)y->sample_period);
		CHECK_MSG((flags_of(x) & ~ignore) == (flags_of(y) & ~ignore),
			  "%s: attr %zu: flags %#llx, perf %#llx", opts, i,
			  (unsigned long long)(flags_of(x) & ~ignore),
			  (unsigned long long)(flags_of(y) & ~ignore));
		CHECK_MSG(x->sample_regs_user == y->sample_regs_user &&
			  x->sample_regs_intr == y->sample_regs_intr &&
			  x->branch_sample_type == y->branch_sample_type,
			  "%s: attr %zu: regs/branch masks", opts, i);
	}
}

struct expect {
	const char *opts;
	size_t nattrs;
	uint64_t sample_type;	/* of attr 0 */
	uint64_t read_format;	/* of attr 0, beyond ID|LOST */
	uint64_t flags_set;	/* of attr 0 */
	uint64_t flags_clear;	/* of attr 0 */
	uint64_t regs_user, regs_intr;
};

#define BASE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME)
#define P PERF_SAMPLE_PERIOD

int main(void)
{
	const char *out = rt_tmp("attr.data");
	uint64_t all_regs = 0;
	bool x86 = false;

#if defined(__x86_64__)
	x86 = true;
	all_regs = 0xff0fff;	/* perf's PERF_REGS_MASK */
#endif
	const struct expect cases[] = {
		{ "", 1, BASE | P, 0, FLAG(F_INHERIT) | FLAG(F_ENABLE_ON_EXEC), 0, 0, 0 },
		{ "-d", 1, BASE | P | PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC, 0,
		  FLAG(F_MMAP_DATA), 0, 0, 0 },
		{ "--phys-data", 1, BASE | P | PERF_SAMPLE_PHYS_ADDR, 0, 0, 0, 0, 0 },
		{ "--data-page-size", 1, BASE | P | PERF_SAMPLE_DATA_PAGE_SIZE, 0, 0, 0, 0, 0 },
		{ "--code-page-size", 1, BASE | P | PERF_SAMPLE_CODE_PAGE_SIZE, 0, 0, 0, 0, 0 },
		{ "-T", 1, BASE | P, 0, 0, 0, 0, 0 },
		{ "--sample-cpu", 1, BASE | P | PERF_SAMPLE_CPU, 0, 0, 0, 0, 0 },
		{ "-c 10000", 1, BASE, 0, 0, FLAG(F_FREQ), 0, 0 },
		{ "-c 10000 -P", 1, BASE | P, 0, 0, FLAG(F_FREQ), 0, 0 },
		{ "-W", 1, BASE | P | (x86 ? PERF_SAMPLE_WEIGHT_STRUCT : PERF_SAMPLE_WEIGHT),
		  0, 0, 0, 0, 0 },
		{ "-R", 1, BASE | P | PERF_SAMPLE_RAW | PERF_SAMPLE_CPU, 0, 0, 0, 0, 0 },
		{ "-n", 1, BASE | P, 0, FLAG(F_FREQ), 0, 0, 0 },
		{ "-s", 1, BASE | P, PERF_FORMAT_TOTAL_TIME_ENABLED |
		  PERF_FORMAT_TOTAL_TIME_RUNNING, FLAG(F_INHERIT_STAT), 0, 0, 0 },
		{ "-I", 1, BASE | P | PERF_SAMPLE_REGS_INTR, 0, 0, 0, 0, all_regs },
		{ "--user-regs", 1, BASE | P | PERF_SAMPLE_REGS_USER, 0, 0, 0, all_regs, 0 },
		{ "--all-user", 1, BASE | P, 0, FLAG(F_EXCL_KERNEL), FLAG(F_EXCL_USER), 0, 0 },
		{ "--all-kernel", 1, BASE | P, 0, FLAG(F_EXCL_USER), FLAG(F_EXCL_KERNEL), 0, 0 },
		{ "--namespaces", 1, BASE | P, 0, FLAG(F_NAMESPACES), 0, 0, 0 },
		{ "--all-cgroups", 1, BASE | P | PERF_SAMPLE_CGROUP, 0, FLAG(F_CGROUP), 0, 0, 0 },
		{ "--overwrite", 1, BASE | P, 0, FLAG(F_WRITE_BACKWARD), 0, 0, 0 },
		/* perf: no inherit and no per-CPU rings, so no TIME unless -T */
		{ "--per-thread", 1, PERF_SAMPLE_IP | PERF_SAMPLE_TID | P, 0, 0,
		  FLAG(F_INHERIT), 0, 0 },
		{ "--per-thread -T", 1, BASE | P, 0, 0, FLAG(F_INHERIT), 0, 0 },
		/* -D: the events wait (no enable_on_exec); a dummy:HG tracks */
		{ "-D 10", 2, BASE | P | PERF_SAMPLE_IDENTIFIER, 0, FLAG(F_DISABLED),
		  FLAG(F_ENABLE_ON_EXEC) | FLAG(F_MMAP), 0, 0 },
		{ "-Iax,bx --user-regs=ip,sp", 1, BASE | P | PERF_SAMPLE_REGS_INTR |
		  PERF_SAMPLE_REGS_USER, 0, 0, 0, 0x180, 0x3 },
	};
	const size_t ncases = sizeof(cases) / sizeof(cases[0]);
	const char *opts[sizeof(cases) / sizeof(cases[0])];
	struct attrs a;

	for (size_t k = 0; k < ncases; k++)
		opts[k] = cases[k].opts;
	perf_record_all(opts, ncases);

	for (size_t k = 0; k < ncases; k++) {
		const struct expect *e = &cases[k];

		if (!x86 && (e->regs_user || e->regs_intr || !strcmp(e->opts, "-I") ||
			     !strcmp(e->opts, "--user-regs"))) {
			if (have_perf)
				unlink(perf_file(k));
			continue;
		}
		CHECK_EQ_INT(record(t_perfev(), out, e->opts), 0);
		CHECK_MSG(read_attrs(out, &a), "%s: cannot read the file", e->opts);
		CHECK_MSG(a.n == e->nattrs, "%s: %zu attrs", e->opts, a.n);
		CHECK_MSG(a.a[0].sample_type == e->sample_type, "%s: sample_type %#llx, want %#llx",
			  e->opts, (unsigned long long)a.a[0].sample_type,
			  (unsigned long long)e->sample_type);
		CHECK_MSG(a.a[0].read_format == (PERF_FORMAT_ID | e->read_format |
						 (a.a[0].read_format & PERF_FORMAT_LOST)),
			  "%s: read_format %#llx", e->opts,
			  (unsigned long long)a.a[0].read_format);
		CHECK_MSG((flags_of(&a.a[0]) & e->flags_set) == e->flags_set &&
			  !(flags_of(&a.a[0]) & e->flags_clear),
			  "%s: flags %#llx", e->opts, (unsigned long long)flags_of(&a.a[0]));
		CHECK_MSG(a.a[0].sample_regs_user == e->regs_user &&
			  a.a[0].sample_regs_intr == e->regs_intr, "%s: regs masks", e->opts);
		if (!strcmp(e->opts, "-n"))
			CHECK_EQ_U64(a.a[0].sample_period, 0);
		if (!strncmp(e->opts, "-D", 2) && a.n == 2) {
			/* perf's tracking dummy: period 1, no PERIOD, starts
			 * at the exec */
			CHECK_EQ_U64(a.a[1].type, PERF_TYPE_SOFTWARE);
			CHECK_EQ_U64(a.a[1].config, PERF_COUNT_SW_DUMMY);
			CHECK_EQ_U64(a.a[1].sample_period, 1);
			CHECK_EQ_U64(a.a[1].sample_type, BASE | PERF_SAMPLE_IDENTIFIER);
			CHECK((flags_of(&a.a[1]) & (FLAG(F_MMAP) | FLAG(F_ENABLE_ON_EXEC))) ==
			      (FLAG(F_MMAP) | FLAG(F_ENABLE_ON_EXEC)));
		}
		same_as_perf(k, e->opts, &a);
	}
	unlink(out);
	char old[600];

	snprintf(old, sizeof(old), "%s.old", out);
	unlink(old);
	return t_done();
}
