// SPDX-License-Identifier: GPL-2.0-only
/* The machine-description features of a file perfev records (NRCPUS,
 * CPUDESC, CPUID, TOTAL_MEM, CPU_TOPOLOGY, NUMA_TOPOLOGY, PMU_MAPPINGS)
 * print in `perf report --header-only -I` exactly as those of a file perf
 * 6.1 records on the same machine; then the same under a fake topology:
 * in a private mount namespace, each CPU's sysfs topology directory is
 * replaced by a copy whose ids differ from each other (socket 2, die 1,
 * core 5 + 2 * cpu), so that a socket read from die_id, or core and socket
 * swapped, shows.  There perf's header lines are also checked against the
 * hand-written ids, perfev's stat prefixes (--per-socket/-die/-core)
 * against them, and pev_cpu_topology and the reader (on perf's file and on
 * ours) against them.  perfev report --header-only -I prints both files'
 * headers as perf's does. */
#include <dirent.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <perfev/perfev.h>
#include <perfev/topology.h>
#include "cliutil.h"
#include "testutil.h"

#define PERF "/usr/bin/perf"
/* perf's reader drops the whole topology when a socket or die id exceeds
 * the CPU count, so: socket 2 and die 1 (socket 1, die 0 with one CPU). */
static int SOCKET = 2, DIE = 1;
#define CORE(cpu) (5 + 2 * (cpu))

static char dir[] = "/tmp/pev-htopo-XXXXXX";

static void record(const char *prog, const char *out)
{
	char *argv[] = { (char *)prog, "record", "-q", "-e", "cpu-clock", "-o", (char *)out,
			 "--", "true", NULL };
	struct t_run r;

	if (t_run_argv(argv, NULL, &r) < 0)
		T_FATAL("cannot run %s", prog);
	if (r.exit_code)
		T_FATAL("%s record: exit %d\n%s", prog, r.exit_code, r.err);
	t_run_free(&r);
}

/* The lines perf report -I prints for the machine-description features,
 * the node's free memory (it changes between two recordings) masked. */
static char *header_lines(const char *path)
{
	static const char *const keep[] = {
		"# hostname :", "# os release :", "# arch :", "# nrcpus online :",
		"# nrcpus avail :", "# cpudesc :", "# cpuid :", "# total memory :",
		"# sibling ", "# CPU ", "# node", "# pmu mappings:",
	};
	char *argv[] = { PERF, "report", "--header-only", "-I", "-i", (char *)path, NULL };
	struct t_run r;

	if (t_run_argv(argv, NULL, &r) < 0 || r.exit_code)
		T_FATAL("perf report --header-only -I -i %s failed", path);
	size_t cap = strlen(r.out) + 1, len = 0;
	char *out = calloc(1, cap);

	for (char *l = strtok(r.out, "\n"); l; l = strtok(NULL, "\n")) {
		bool k = false;

		for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
			k |= !strncmp(l, keep[i], strlen(keep[i]));
		if (!strncmp(l, "# CPU cache", 11))
			k = false;
		if (!k)
			continue;
		char *fr = strstr(l, "free = ");
		if (fr)
			snprintf(fr, strlen(fr) + 1, "free = N kB");
		len += (size_t)snprintf(out + len, cap - len, "%s\n", l);
	}
	t_run_free(&r);
	return out;
}

/* perfev report --header-only -I prints the whole header as perf's does,
 * the topology, caches and memory nodes in full. */
static void same_full_header(const char *path)
{
	char *pa[] = { PERF, "report", "--header-only", "-I", "-i", (char *)path, NULL };
	char *qa[] = { (char *)t_perfev(), "report", "--header-only", "-I", "-i", (char *)path, NULL };
	struct t_run p, q;

	if (t_run_argv(pa, NULL, &p) < 0 || p.exit_code)
		T_FATAL("perf report --header-only -I -i %s failed", path);
	CHECK_OK(t_run_argv(qa, NULL, &q));
	CHECK_EQ_INT(q.exit_code, 0);
	CHECK_MSG(strstr(p.out, "# CPU cache info:") && strstr(p.out, "# memory nodes"),
		  "%s: perf's -I header lacks the cache or memory lines:\n%s", path, p.out);
	size_t line, at;
	const char *qo = q.out ? q.out : "";

	CHECK_MSG(!t_first_diff(p.out, strlen(p.out), qo, strlen(qo), &line, &at),
		  "%s: -I header differs at line %zu:\n  perfev: %.200s\n  perf:   %.200s",
		  path, line, qo + at, p.out + at);
	t_run_free(&p);
	t_run_free(&q);
}

static void compare_with_perf(const char *tag)
{
	char pp[128], qp[128];

	snprintf(pp, sizeof(pp), "%s/perf-%s.data", dir, tag);
	snprintf(qp, sizeof(qp), "%s/perfev-%s.data", dir, tag);
	record(PERF, pp);
	record(t_perfev(), qp);
	char *pl = header_lines(pp), *ql = header_lines(qp);

	CHECK_MSG(strstr(pl, "# nrcpus online") && strstr(pl, "# sibling sockets") &&
		  strstr(pl, "# CPU 0: Core ID") && strstr(pl, "# node0 cpu list"),
		  "%s: perf's own header lacks lines expected here:\n%s", tag, pl);
	CHECK_MSG(!strcmp(pl, ql), "%s: perf report -I differs:\nperf's file:\n%sperfev's "
		  "file:\n%s", tag, pl, ql);
	same_full_header(pp);
	same_full_header(qp);
	free(pl);
	free(ql);
}

static void copy_file(const char *from, const char *to)
{
	size_t n;
	char *s = t_slurp(from, &n);
	FILE *f = fopen(to, "w");

	if (!s || !f)
		T_FATAL("cannot copy %s to %s", from, to);
	fputs(s, f);
	fclose(f);
	free(s);
}

static void write_num(const char *d, const char *name, int v)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", d, name);
	f = fopen(path, "w");
	if (!f)
		T_FATAL("cannot write %s", path);
	fprintf(f, "%d\n", v);
	fclose(f);
}

/* Replace cpuN/topology by a copy with the hand-chosen ids. */
static void fake_topology(int ncpu)
{
	char tmp[128], src[256], dst[256], from[512], to[512];

	if (unshare(CLONE_NEWNS) || mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL))
		T_FATAL("private mount namespace: %s", strerror(errno));
	snprintf(tmp, sizeof(tmp), "%s/sys", dir);
	if (mkdir(tmp, 0755) || mount("tmpfs", tmp, "tmpfs", 0, "size=1m"))
		T_FATAL("tmpfs on %s: %s", tmp, strerror(errno));
	for (int cpu = 0; cpu < ncpu; cpu++) {
		snprintf(src, sizeof(src), "/sys/devices/system/cpu/cpu%d/topology", cpu);
		snprintf(dst, sizeof(dst), "%s/cpu%d", tmp, cpu);
		if (mkdir(dst, 0755))
			T_FATAL("mkdir %s", dst);
		DIR *d = opendir(src);
		struct dirent *e;

		while (d && (e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(from, sizeof(from), "%s/%s", src, e->d_name);
			snprintf(to, sizeof(to), "%s/%s", dst, e->d_name);
			copy_file(from, to);
		}
		if (d)
			closedir(d);
		write_num(dst, "physical_package_id", SOCKET);
		write_num(dst, "die_id", DIE);
		write_num(dst, "core_id", CORE(cpu));
		if (mount(dst, src, NULL, MS_BIND, NULL))
			T_FATAL("bind %s on %s: %s", dst, src, strerror(errno));
	}
}

static int sysfs_id(int cpu, const char *name)
{
	char path[256];
	long v = -1;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, name);
	if (t_read_long(path, &v))
		T_FATAL("cannot read %s", path);
	return (int)v;
}

static void check_reader(const char *path, int ncpu)
{
	char err[256];
	struct pev_data *d = pev_data_open(path, NULL, err, sizeof(err));

	if (!d)
		T_FATAL("open %s: %s", path, err);
	const struct pev_data_features *f = pev_data_features(d);

	CHECK_EQ_INT(f->nr_topo_cpus, ncpu);
	for (int cpu = 0; cpu < ncpu && cpu < (int)f->nr_topo_cpus; cpu++) {
		CHECK_EQ_INT(f->topo_cpus[cpu].socket_id, SOCKET);
		CHECK_EQ_INT(f->topo_cpus[cpu].die_id, DIE);
		CHECK_EQ_INT(f->topo_cpus[cpu].core_id, CORE(cpu));
	}
	pev_data_close(d);
}

int main(void)
{
	int ncpu = (int)sysconf(_SC_NPROCESSORS_CONF);
	char line[128], pp[160];

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (geteuid())
		T_SKIP("needs root for a private mount namespace");
	if (access("/sys/devices/system/cpu/cpu0/topology/die_id", R_OK))
		T_SKIP("no die_id in sysfs (kernel before 5.2)");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	if (ncpu < 2)
		SOCKET = 1, DIE = 0;

	/* this machine as it is */
	compare_with_perf("real");

	/* a topology whose ids all differ */
	fake_topology(ncpu);
	for (int cpu = 0; cpu < ncpu; cpu++) {
		struct pev_cpu_topology t;

		CHECK_EQ_INT(sysfs_id(cpu, "physical_package_id"), SOCKET);
		CHECK_EQ_INT(sysfs_id(cpu, "core_id"), CORE(cpu));
		CHECK_EQ_INT(pev_cpu_topology(cpu, &t), 0);
		CHECK_EQ_INT(t.socket, SOCKET);
		CHECK_EQ_INT(t.die, DIE);
		CHECK_EQ_INT(t.core, CORE(cpu));
	}
	compare_with_perf("fake");
	snprintf(pp, sizeof(pp), "%s/perf-fake.data", dir);
	char *pl = header_lines(pp);

	for (int cpu = 0; cpu < ncpu; cpu++) {
		snprintf(line, sizeof(line), "# CPU %d: Core ID %d, Die ID %d, Socket ID %d\n", cpu,
			 CORE(cpu), DIE, SOCKET);
		CHECK_MSG(strstr(pl, line), "perf's header lacks '%s' (the fake sysfs?):\n%s",
			  line, pl);
	}
	free(pl);
	check_reader(pp, ncpu);
	snprintf(pp, sizeof(pp), "%s/perfev-fake.data", dir);
	check_reader(pp, ncpu);

	/* stat's prefixes, from sysfs as set here */
	static const char *const modes[] = { "--per-socket", "--per-die", "--per-core" };
	for (int m = 0; m < 3; m++) {
		struct t_run r;

		CHECK_OK(T_RUN_PERFEV(&r, "stat", (char *)modes[m], "-C", "0", "-x,", "-e",
				      "cpu-clock", "true"));
		if (m == 0)
			snprintf(line, sizeof(line), "S%d,1,", SOCKET);
		else if (m == 1)
			snprintf(line, sizeof(line), "S%d-D%d,1,", SOCKET, DIE);
		else
			snprintf(line, sizeof(line), "S%d-D%d-C%d,1,", SOCKET, DIE, CORE(0));
		CHECK_MSG(!strncmp(r.err, line, strlen(line)), "%s: '%s' not at the start of\n%s",
			  modes[m], line, r.err);
		t_run_free(&r);
	}

	char cmd[200];
	for (int cpu = 0; cpu < ncpu; cpu++) {
		snprintf(cmd, sizeof(cmd), "/sys/devices/system/cpu/cpu%d/topology", cpu);
		umount2(cmd, MNT_DETACH);
	}
	snprintf(cmd, sizeof(cmd), "%s/sys", dir);
	umount2(cmd, MNT_DETACH);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd)) {}
	return t_done();
}
