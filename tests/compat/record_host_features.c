// SPDX-License-Identifier: GPL-2.0-only
/* The machine-description features read from sysfs (CACHE, MEM_TOPOLOGY,
 * CPU_PMU_CAPS, PMU_CAPS) are the same in a file perf 6.1 records here,
 * in a file `perfev record` writes here, and in what
 * pev_data_features_from_host() fills: the same features present, with
 * byte-identical payloads; and `perf report --header-only -I` prints the
 * same cache and memory lines for both files. */
#include <sys/wait.h>
#include <unistd.h>

#include "cliutil.h"
#include "testutil.h"
#include <perfev/perfev.h>

#define PERF "/usr/bin/perf"

static const unsigned feats[] = { PEV_FEAT_CACHE, PEV_FEAT_MEM_TOPOLOGY,
				  PEV_FEAT_CPU_PMU_CAPS, PEV_FEAT_PMU_CAPS };

static void record(char *const argv[], const char *what)
{
	struct t_run r;

	if (t_run_argv(argv, NULL, &r))
		T_FATAL("cannot run %s", argv[0]);
	if (r.exit_code) {
		printf("%s%s", r.out, r.err);
		if (!strcmp(what, "perf"))
			T_SKIP("perf record could not record cpu-clock here");
		T_FATAL("%s record failed (exit %d)", what, r.exit_code);
	}
	t_run_free(&r);
}

/* The header lines of one file's cache and memory sections. */
static char *header_lines(const char *path)
{
	char *argv[] = { PERF, "report", "--header-only", "-I", "-i",
			 (char *)path, NULL };
	struct t_run r;

	if (t_run_argv(argv, NULL, &r) || r.exit_code)
		T_FATAL("perf report --header-only -I -i %s failed", path);
	size_t cap = strlen(r.out) + 1, len = 0;
	char *keep = calloc(1, cap);
	bool in = false;

	for (char *l = strtok(r.out, "\n"); l; l = strtok(NULL, "\n")) {
		/* the sections and their indented entry lines */
		if (!strncmp(l, "# CPU cache info:", 17) ||
		    !strncmp(l, "# memory nodes", 14))
			in = true;
		else if (in && strncmp(l, "#  ", 3))
			in = false;
		if (in)
			len += (size_t)snprintf(keep + len, cap - len, "%s\n", l);
	}
	t_run_free(&r);
	return keep;
}

int main(void)
{
	char dir[] = "/tmp/pev-hostfeat-XXXXXX", pp[128], qp[128], err[256];

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	snprintf(pp, sizeof(pp), "%s/perf.data", dir);
	snprintf(qp, sizeof(qp), "%s/perfev.data", dir);
	char *pargv[] = { PERF, "record", "-q", "-e", "cpu-clock", "-o", pp,
			  "--", "true", NULL };
	char *qargv[] = { (char *)t_perfev(), "record", "-q", "-e", "cpu-clock",
			  "-o", qp, "--", "true", NULL };

	record(pargv, "perf");
	record(qargv, "perfev");

	struct pev_data *p = pev_data_open(pp, NULL, err, sizeof(err));
	struct pev_data *q = pev_data_open(qp, NULL, err, sizeof(err));
	struct pev_data_features host = { 0 };

	if (!p || !q)
		T_FATAL("cannot open the files: %s", err);
	CHECK_OK(pev_data_features_from_host(&host));
	if (access("/sys/devices/system/cpu/cpu0/cache/index0", F_OK))
		printf("# no cache sysfs here: CACHE compared empty\n");
	for (int i = 0; i < 4; i++) {
		unsigned feat = feats[i];
		const char *name = pev_feat_name(feat);
		size_t plen = 0, qlen = 0, hlen = 0;
		const void *pb = pev_data_feature_raw(p, feat, &plen);
		const void *qb = pev_data_feature_raw(q, feat, &qlen);
		void *hb = NULL;
		int r = pev_data_feature_encode(&host, feat, false, &hb, &hlen);

		printf("# %s: perf %s (%zu bytes)\n", name,
		       pb ? "writes it" : "leaves it out", plen);
		CHECK_MSG(!pb == !qb, "%s: perf %s, perfev record %s", name,
			  pb ? "has it" : "has not", qb ? "has it" : "has not");
		CHECK_MSG(!pb == (r == -ENOENT), "%s: perf %s, from_host %s",
			  name, pb ? "has it" : "has not",
			  r == 0 ? "has it" : "has not");
		if (pb && qb)
			CHECK_MSG(plen == qlen && !memcmp(pb, qb, plen),
				  "%s: perfev record's %zu bytes differ from "
				  "perf's %zu", name, qlen, plen);
		if (pb && hb)
			CHECK_MSG(plen == hlen && !memcmp(pb, hb, plen),
				  "%s: from_host's %zu bytes differ from "
				  "perf's %zu", name, hlen, plen);
		free(hb);
	}
	/* where perf writes these, the files say so (not vacuous) */
	CHECK(pev_data_feature_raw(p, PEV_FEAT_PMU_CAPS, NULL) != NULL);
	CHECK(pev_data_feature_raw(p, PEV_FEAT_CACHE, NULL) != NULL);

	char *pl = header_lines(pp), *ql = header_lines(qp);

	CHECK_MSG(!strcmp(pl, ql), "perf report -I lines differ:\n"
		  "perf's file:\n%sperfev's file:\n%s", pl, ql);
	if (!access("/sys/devices/system/cpu/cpu0/cache/index0", F_OK))
		CHECK(strstr(pl, "# CPU cache info:\n#  L1") != NULL);
	free(pl);
	free(ql);
	pev_data_features_release(&host);
	pev_data_close(p);
	pev_data_close(q);
	char cmd[160];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd)) {}
	return t_done();
}
