// SPDX-License-Identifier: GPL-2.0-only
/* perfev stat --per-socket/--per-die/--per-core/--per-node: counted in a
 * cgroup (-a -G) so that only our getppid loop is seen, the units' counts
 * add up to exactly N; the human lines are byte-identical to perf 6.1's
 * (the counts are exact, and human output shows no run times); the
 * prefixes follow sysfs's topology; CSV and JSON carry perf's columns and
 * keys; the modes need -a or -C. */
#include <sys/stat.h>
#include <perfev/target.h>
#include <perfev/topology.h>
#include "stat_util.h"

static char cg_path[300], cg_name[64], loop[512], mnt[200];

static void cleanup(void)
{
	if (cg_path[0])
		rmdir(cg_path);
}

/* perfev (or perf) stat MODE -a -G cg [-x, | -j] on the loop doing n calls. */
static void run_in_cgroup(const char *prog, const char *mode, const char *fmt, int n,
			  struct t_run *r)
{
	char script[1024], *argv[16];
	int i = 0;

	snprintf(script, sizeof(script), "echo $$ > %s/cgroup.procs && exec %s %d", cg_path,
		 loop, n);
	argv[i++] = (char *)prog;
	argv[i++] = "stat";
	argv[i++] = "-e";
	argv[i++] = "syscalls:sys_enter_getppid";
	argv[i++] = "-a";
	argv[i++] = "-G";
	argv[i++] = cg_name;
	argv[i++] = (char *)mode;
	if (fmt)
		argv[i++] = (char *)fmt;
	argv[i++] = "--";
	argv[i++] = "sh";
	argv[i++] = "-c";
	argv[i++] = script;
	argv[i] = NULL;
	if (t_run_argv(argv, NULL, r) < 0)
		T_FATAL("cannot run %s", prog);
}

/* Sum the CSV counts ("<not counted>" is 0); -1 on a malformed line. */
static long long csv_sum(char *text, int *lines)
{
	long long sum = 0;
	char *cur = text, *l;

	*lines = 0;
	while ((l = t_next_line(&cur))) {
		char *f[16];
		int n = t_split(l, ",", f, 16);
		if (n < 5)
			return -1;
		(*lines)++;
		if (strcmp(f[2], "<not counted>"))
			sum += strtoll(f[2], NULL, 10);
	}
	return sum;
}

/* The lines of a report that start with the unit prefix. */
static void unit_lines(const char *text, char c, char *out, size_t size)
{
	size_t n = 0;
	out[0] = '\0';
	for (const char *p = text; *p; ) {
		size_t len = strcspn(p, "\n");
		if (*p == c && n + len + 2 < size) {
			memcpy(out + n, p, len);
			n += len;
			out[n++] = '\n';
			out[n] = '\0';
		}
		p += len + (p[len] == '\n');
	}
}

/* perf's and our line for one unit, field by field: the prefix, the CPU
 * count, the unit and event name exactly; the count (msec of cpu-clock,
 * two runs of sleep 0.05) within a factor of 3 of each other; "CPUs
 * utilized" within 0.1 (a clock on one CPU for the whole run: about 1). */
static void compare_unit_line(const char *mode, const char *pl, const char *ql)
{
	char pb[4096], qb[4096], *pt[16], *qt[16], *sp, *sq;
	int np = 0, nq = 0;

	snprintf(pb, sizeof(pb), "%s", pl);
	snprintf(qb, sizeof(qb), "%s", ql);
	for (char *t = strtok_r(pb, " \n", &sp); t && np < 16; t = strtok_r(NULL, " \n", &sp))
		pt[np++] = t;
	for (char *t = strtok_r(qb, " \n", &sq); t && nq < 16; t = strtok_r(NULL, " \n", &sq))
		qt[nq++] = t;
	CHECK_MSG(np == nq && np >= 7, "%s: fields differ:\nperf:   %s\nperfev: %s", mode, pl, ql);
	if (np != nq || np < 7)
		return;
	for (int i = 0; i < np; i++) {
		if (i == 2 || i == 6) {
			double a = strtod(pt[i], NULL), b = strtod(qt[i], NULL);
			bool ok = i == 2 ? a > 0 && b > 0 && a < 3 * b && b < 3 * a
					 : a - b < 0.1 && b - a < 0.1;
			CHECK_MSG(ok, "%s: field %d: perf %s, perfev %s", mode, i, pt[i], qt[i]);
		} else {
			CHECK_MSG(!strcmp(pt[i], qt[i]), "%s: field %d: perf '%s', perfev '%s'",
				  mode, i, pt[i], qt[i]);
		}
	}
}

static void mask_digits(char *s)
{
	for (; *s; s++)
		if (isdigit((unsigned char)*s))
			*s = '0';
}

int main(void)
{
	const char *b = getenv("PERFEV_BUILD");
	struct t_run r, pr;
	static const char *const modes[] = { "--per-socket", "--per-die", "--per-core",
					     "--per-node" };

	/* error path first: it needs nothing */
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "--per-core", "-e", "task-clock", "true"));
	CHECK_EQ_INT(r.exit_code, 2);
	CHECK(strstr(r.err, "--per-core needs CPUs to count on; add -a or -C") != NULL);
	t_run_free(&r);
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "--per-core", "-A", "-a", "-e", "task-clock", "true"));
	CHECK_EQ_INT(r.exit_code, 2);
	t_run_free(&r);

	/* the prefix follows sysfs, read here: CPU 0's unit, with -C 0 */
	struct pev_cpu_topology t0;
	long sock = -1, die = -1, core = -1;
	int node = -1;
	CHECK_OK(t_read_long("/sys/devices/system/cpu/cpu0/topology/physical_package_id", &sock));
	CHECK_OK(t_read_long("/sys/devices/system/cpu/cpu0/topology/die_id", &die));
	CHECK_OK(t_read_long("/sys/devices/system/cpu/cpu0/topology/core_id", &core));
	for (int k = 0; k < 1024 && node < 0; k++) {
		char np[80];
		snprintf(np, sizeof(np), "/sys/devices/system/cpu/cpu0/node%d", k);
		if (access(np, F_OK) == 0)
			node = k;
	}
	CHECK_EQ_INT(pev_cpu_topology(0, &t0), 0);
	CHECK_EQ_INT(t0.socket, sock);
	CHECK_EQ_INT(t0.die, die);
	CHECK_EQ_INT(t0.core, core);
	CHECK_EQ_INT(t0.node, node);
	CHECK_EQ_INT(pev_cpu_topology(-1, &t0), -EINVAL);
	CHECK_EQ_INT(pev_cpu_topology(PEV_MAX_CPUS - 1, &t0), -ENOENT);
	char want[4][64];
	snprintf(want[0], 64, "S%ld,1,", sock);
	snprintf(want[1], 64, "S%ld-D%ld,1,", sock, die);
	snprintf(want[2], 64, "S%ld-D%ld-C%ld,1,", sock, die, core);
	snprintf(want[3], 64, "N%d,1,", node);
	for (int i = 0; i < 4; i++) {
		CHECK_OK(T_RUN_PERFEV(&r, "stat", (char *)modes[i], "-C", "0", "-x,", "-e",
				      "cpu-clock", "sleep", "0.02"));
		CHECK_EQ_INT(r.exit_code, 0);
		CHECK_MSG(strncmp(r.err, want[i], strlen(want[i])) == 0, "%s: '%s' not at the "
			  "start of:\n%s", modes[i], want[i], r.err);
		t_run_free(&r);
	}
	/* JSON keys: the mode's name and "aggregate-number", then perf's */
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "--per-core", "-C", "0", "-j", "-e", "cpu-clock",
			      "sleep", "0.02"));
	struct t_json_kv kv[16];
	int n = t_json_object(strtok(r.err, "\n"), kv, 16);
	CHECK_EQ_INT(n, 9);
	if (n == 9) {
		CHECK_STR(kv[0].key, "core");
		CHECK_STR(kv[0].val, strtok(want[2], ","));
		CHECK_STR(kv[1].key, "aggregate-number");
		CHECK_STR(kv[1].val, "1");
		CHECK_STR(kv[2].key, "counter-value");
	}
	t_run_free(&r);
	/* -I: perf's heading for the mode */
	CHECK_OK(T_RUN_PERFEV(&r, "stat", "--per-die", "-a", "-I", "50", "-e", "cpu-clock",
			      "sleep", "0.07"));
	CHECK(strncmp(r.err, "#           time die          cpus             counts unit events\n",
		      66) == 0);
	t_run_free(&r);

	/* perf 6.1's lines: column for column with the digits masked (the
	 * layout), then field by field with the numbers compared */
	if (access("/usr/bin/perf", X_OK) == 0) {
		for (int i = 0; i < 4; i++) {
			static char a[4096], bb[4096];
			char *pa[] = { "/usr/bin/perf", "stat", (char *)modes[i], "-C", "0", "-e",
				       "cpu-clock", "sleep", "0.05", NULL };
			CHECK_OK(t_run_argv(pa, NULL, &pr));
			CHECK_OK(T_RUN_PERFEV(&r, "stat", (char *)modes[i], "-C", "0", "-e",
					      "cpu-clock", "sleep", "0.05"));
			unit_lines(pr.err, i == 3 ? 'N' : 'S', a, sizeof(a));
			unit_lines(r.err, i == 3 ? 'N' : 'S', bb, sizeof(bb));
			compare_unit_line(modes[i], a, bb);
			mask_digits(a);
			mask_digits(bb);
			CHECK(a[0] != '\0');
			CHECK_MSG(!strcmp(a, bb), "%s: perf printed\n%sperfev printed\n%s",
				  modes[i], a, bb);
			t_run_free(&pr);
			t_run_free(&r);
		}
	}

	/* exact counts in a cgroup */
	T_NEED_CGROUP2(mnt, sizeof(mnt));
	t_need_getppid_tracepoint();
	snprintf(loop, sizeof(loop), "%s/tests/helpers/getppid_loop", b && *b ? b : "build");
	if (access(loop, X_OK))
		T_SKIP("%s was not built", loop);
	snprintf(cg_name, sizeof(cg_name), "perfev-aggr-test-%d", (int)getpid());
	snprintf(cg_path, sizeof(cg_path), "%s/%s", mnt, cg_name);
	if (mkdir(cg_path, 0755))
		T_SKIP("cannot create %s: %s", cg_path, strerror(errno));
	atexit(cleanup);

	int lines;
	run_in_cgroup(t_perfev(), "--per-core", "-x,", 0, &r);
	long long base = csv_sum(r.err, &lines);
	CHECK_MSG(base >= 0 && base <= 4, "baseline %lld:\n%s", base, r.err);
	t_run_free(&r);
	for (int i = 0; i < 4; i++) {
		run_in_cgroup(t_perfev(), modes[i], "-x,", 777, &r);
		CHECK_EQ_INT(r.exit_code, 0);
		long long sum = csv_sum(r.err, &lines);
		CHECK_MSG(sum == base + 777, "%s: the units add up to %lld, not %lld:\n%s",
			  modes[i], sum, base + 777, r.err);
		CHECK(lines >= 1);
		t_run_free(&r);
	}
	return t_done();
}
