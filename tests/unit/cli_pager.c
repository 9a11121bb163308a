// SPDX-License-Identifier: GPL-2.0-only
/* cli/common/pager.c (compiled in here): the pager runs only when stdout is a
 * terminal (a pty from util-linux's `script`); $PERF_PAGER wins over
 * $PAGER; "cat" or "" means none; stderr goes through it when it is a
 * terminal; LESS=FRSX is set for it when LESS is unset (the default
 * `less -FRSX`); the output is complete when the program exits (the
 * pager is waited for). */
#include <limits.h>
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"
#include "../../cli/common/pager.c"
#include "../../cli/common/signals.c"

static char self[PATH_MAX], dir[64];

static char *run_tty(const char *env)
{
	char path[128];
	size_t len;

	CHECK_EQ_INT(t_sh("cd %s && script -q -e -c \"env %s %s child\" /dev/null > out.txt < /dev/null",
			  dir, env, self), 0);
	snprintf(path, sizeof(path), "%s/out.txt", dir);
	return t_slurp(path, &len);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "probe"))
		return 0;
	if (argc > 1 && !strcmp(argv[1], "child")) {
		bool on = pager_start(true);

		for (int i = 0; i < 200; i++)
			printf("line%d\n", i);
		fprintf(stderr, "err-line\n");
		printf("started=%d active=%d\n", on, pager_active());
		return 0;
	}
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0)
		T_FATAL("readlink /proc/self/exe");
	self[n] = '\0';
	/* The checks run this program again from sh: an arm64 build under
	 * qemu-user cannot be executed by the kernel without binfmt_misc. */
	if (t_sh("%s probe >/dev/null 2>&1", self) != 0)
		T_SKIP("the shell cannot execute this program again (a foreign-architecture "
		       "build under qemu-user without binfmt_misc?)");
	if (access("/usr/bin/script", X_OK))
		T_SKIP("no /usr/bin/script (util-linux) to give the program a terminal");
	strcpy(dir, "/tmp/perfev-pager-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");

	char *t = run_tty("-u PERF_PAGER PAGER='sed s/^/P:/'");
	CHECK_MSG(t && strstr(t, "P:line0") && strstr(t, "P:line199") && strstr(t, "P:started=1 active=1"),
		  "$PAGER not used: %.200s", t ? t : "");
	CHECK_MSG(t && strstr(t, "P:err-line"), "stderr (a terminal) not through the pager");
	free(t);

	t = run_tty("PERF_PAGER='sed s/^/Q:/' PAGER='sed s/^/P:/'");
	CHECK_MSG(t && strstr(t, "Q:line0") && !strstr(t, "P:"), "$PERF_PAGER does not win: %.200s",
		  t ? t : "");
	free(t);

	t = run_tty("-u PERF_PAGER PAGER=cat");
	CHECK_MSG(t && strstr(t, "started=0 active=0") && strstr(t, "line199"), "PAGER=cat: %.200s",
		  t ? t : "");
	free(t);
	t = run_tty("PERF_PAGER= PAGER='sed s/^/P:/'");
	CHECK_MSG(t && strstr(t, "started=0") && !strstr(t, "P:"), "PERF_PAGER='': %.200s", t ? t : "");
	free(t);

	/* LESS for the default: set to FRSX when unset, kept otherwise */
	t = run_tty("-u PERF_PAGER -u LESS PAGER='echo LESS=\\$LESS; cat'");
	CHECK_MSG(t && strstr(t, "LESS=FRSX"), "LESS not set: %.200s", t ? t : "");
	free(t);
	t = run_tty("-u PERF_PAGER LESS=R PAGER='echo LESS=\\$LESS; cat'");
	CHECK_MSG(t && (strstr(t, "LESS=R\r") || strstr(t, "LESS=R\n")), "LESS overridden: %.200s", t ? t : "");
	free(t);

	/* stdout not a terminal: no pager, whatever PAGER says */
	CHECK_EQ_INT(t_sh("env PAGER='sed s/^/P:/' %s child > %s/plain.txt 2>/dev/null", self, dir), 0);
	char path[128];
	size_t len;

	snprintf(path, sizeof(path), "%s/plain.txt", dir);
	t = t_slurp(path, &len);
	CHECK_MSG(t && strstr(t, "started=0") && !strstr(t, "P:"), "pager without a terminal");
	free(t);
	t_sh("rm -rf %s", dir);
	return t_done();
}
