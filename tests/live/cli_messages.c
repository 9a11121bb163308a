// SPDX-License-Identifier: GPL-2.0-only
/* The messages of issue 17, each checked against an independent probe:
 * - an empty file: every reader's error names that file, not "perf.data"
 *   (perf too refuses the file: "zero-sized data (FILE)");
 * - archive takes -i FILE as the other readers do (it used to refuse -i),
 *   and packs the same members as with the argument (tar -t);
 * - record/stat -C N with N not online (the test reads sysfs): "CPU N is
 *   not online" with sysfs's online list, not "No such device";
 * - a command without execute permission (stat, record): "not executable",
 *   not "check the command's name and PATH"; a directory likewise;
 * - --call-graph lbr where the test finds no LBR-capable PMU in sysfs:
 *   says LBR needs an Intel PMU, not "invalid call graph mode". */
#include <sys/stat.h>
#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"

static char dir[] = "/tmp/pev_msg_XXXXXX";

static void run(struct t_run *r, char *const *argv)
{
	CHECK_OK(t_run_argv(argv, NULL, r));
	printf("%s %s %s: exit %d: %s", argv[1], argv[2] ? argv[2] : "",
	       argv[2] && argv[3] ? argv[3] : "", r->exit_code, r->err);
}

static void empty_file(void)
{
	char empty[300];
	struct t_run r;

	snprintf(empty, sizeof(empty), "%s/empty.data", dir);
	CHECK_EQ_INT(t_sh("cd %s && : > empty.data", dir), 0);
	if (access(PERF, X_OK) == 0) {
		CHECK_OK(t_run_argv((char *const[]){ PERF, "report", "--stdio", "-i", empty, NULL },
				    NULL, &r));
		CHECK_MSG(strstr(r.err, "zero-sized data"), "perf report on an empty file: %s", r.err);
		t_run_free(&r);
	}
	const char *const cmds[][6] = {
		{ "report", "--stdio", "-i", NULL },
		{ "script", "-i", NULL },
		{ "buildid-list", "-i", NULL },
		{ "archive", NULL },
		{ "convert", "--to", "folded", "-i", NULL },
		{ "inject", "-o", "/dev/null", "-i", NULL },
	};
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		char *argv[10] = { (char *)t_perfev() };
		int n = 1;

		for (int k = 0; cmds[i][k]; k++)
			argv[n++] = (char *)cmds[i][k];
		argv[n++] = empty;
		run(&r, argv);
		CHECK_MSG(r.exit_code == 1, "%s: exit %d", cmds[i][0], r.exit_code);
		CHECK_MSG(strstr(r.err, "'") && strstr(r.err, "empty.data") &&
			  !strstr(r.err, "perf.data") && strstr(r.err, "empty"),
			  "%s on an empty file: %s", cmds[i][0], r.err);
		t_run_free(&r);
	}
}

static void archive_i(void)
{
	struct t_run r;
	char data[300], missing[300];

	snprintf(missing, sizeof(missing), "%s/missing.data", dir);
	run(&r, (char *const[]){ (char *)t_perfev(), "archive", "-i", missing, NULL });
	CHECK_MSG(r.exit_code == 1 && strstr(r.err, "'") && strstr(r.err, "missing.data") &&
		  !strstr(r.err, "unknown option"), "archive -i MISSING: %s", r.err);
	t_run_free(&r);

	snprintf(data, sizeof(data), "%s/a.data", dir);
	run(&r, (char *const[]){ (char *)t_perfev(), "record", "-q", "-e", "cpu-clock", "-o", data,
				 "--", "sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done",
				 NULL });
	CHECK_EQ_INT(r.exit_code, 0);
	t_run_free(&r);
	run(&r, (char *const[]){ (char *)t_perfev(), "archive", "-i", data, NULL });
	CHECK_MSG(r.exit_code == 0, "archive -i FILE: exit %d", r.exit_code);
	t_run_free(&r);
	CHECK_EQ_INT(t_sh("cd %s && tar tjf a.data.tar.bz2 | sort > with_i && rm a.data.tar.bz2", dir),
		     0);
	run(&r, (char *const[]){ (char *)t_perfev(), "archive", data, NULL });
	CHECK_EQ_INT(r.exit_code, 0);
	t_run_free(&r);
	CHECK_EQ_INT(t_sh("cd %s && tar tjf a.data.tar.bz2 | sort > with_arg && test -s with_arg && "
			  "cmp with_i with_arg", dir), 0);
}

static void offline_cpu(void)
{
	size_t len;
	char *online = t_slurp("/sys/devices/system/cpu/online", &len);
	char *p = online, cpu[32];
	long max = -1;

	online[strcspn(online, "\n")] = 0;
	if (!online[0])
		T_SKIP("no /sys/devices/system/cpu/online");
	/* the highest CPU the list names: the last number in it */
	while (*p) {
		if (*p < '0' || *p > '9') {
			p++;
			continue;
		}
		max = strtol(p, &p, 10);
	}
	snprintf(cpu, sizeof(cpu), "%ld", max + 1);
	char want[64];

	snprintf(want, sizeof(want), "CPU %ld is not online", max + 1);
	for (int i = 0; i < 2; i++) {
		struct t_run r;
		char out[300];

		snprintf(out, sizeof(out), "%s/c.data", dir);
		if (i == 0)
			run(&r, (char *const[]){ (char *)t_perfev(), "stat", "-C", cpu, "true", NULL });
		else
			run(&r, (char *const[]){ (char *)t_perfev(), "record", "-C", cpu, "-o", out,
						 "true", NULL });
		CHECK_MSG(r.exit_code != 0 && strstr(r.err, want) && strstr(r.err, online),
			  "-C %s (online %s): %s", cpu, online, r.err);
		t_run_free(&r);
	}
	free(online);
}

static void not_executable(void)
{
	char f[300], d[300];

	snprintf(f, sizeof(f), "%s/noexec", dir);
	snprintf(d, sizeof(d), "%s/subdir", dir);
	CHECK_EQ_INT(t_sh("printf '#!/bin/sh\\necho hi\\n' > %s && chmod 644 %s && mkdir %s", f, f, d), 0);
	if (access(f, X_OK) == 0)
		T_SKIP("%s (mode 644) is executable here", f);
	const char *cmds[] = { f, "/etc/passwd", d };
	for (size_t k = 0; k < 3; k++) {
		for (int i = 0; i < 2; i++) {
			struct t_run r;
			char out[300];

			snprintf(out, sizeof(out), "%s/x.data", dir);
			if (i == 0)
				run(&r, (char *const[]){ (char *)t_perfev(), "stat", (char *)cmds[k], NULL });
			else
				run(&r, (char *const[]){ (char *)t_perfev(), "record", "-o", out, (char *)cmds[k],
							 NULL });
			CHECK_MSG(r.exit_code == 127 && strstr(r.err, cmds[k]) &&
				  strstr(r.err, k == 2 ? "a directory" : "not executable") &&
				  !strstr(r.err, "PATH"), "%s %s: %s", i ? "record" : "stat", cmds[k], r.err);
			t_run_free(&r);
		}
	}
}

static void lbr(void)
{
	struct t_run r;
	char out[300];

	if (!access("/sys/bus/event_source/devices/cpu/caps/branches", F_OK) ||
	    !access("/sys/bus/event_source/devices/cpu_core/caps/branches", F_OK)) {
		printf("note: this PMU has LBR (caps/branches); the lbr check is left out\n");
		return;
	}
	snprintf(out, sizeof(out), "%s/l.data", dir);
	run(&r, (char *const[]){ (char *)t_perfev(), "record", "--call-graph", "lbr", "-o", out, "true",
				 NULL });
	CHECK_MSG(r.exit_code == 2 && strstr(r.err, "LBR") && strstr(r.err, "Intel PMU") &&
		  !strstr(r.err, "invalid call graph mode"), "--call-graph lbr: %s", r.err);
	t_run_free(&r);
}

int main(void)
{
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp: %s", strerror(errno));
	empty_file();
	archive_i();
	offline_cpu();
	not_executable();
	lbr();
	t_sh("rm -rf %s", dir);
	return t_done();
}
