// SPDX-License-Identifier: GPL-2.0-only
/* Debug files from a debuginfod server: a program built here with -g and
 * then stripped is recorded by perf; a real `debuginfod` (started here on
 * 127.0.0.1, a free port, scanning a directory that holds only the
 * unstripped copy) serves its debuginfo by build id.  With DEBUGINFOD_URLS
 * pointing at it, every frame of the program that perfev script prints is
 * the one perf script prints when it reads the unstripped copy
 * (--symfs), byte for byte; without DEBUGINFOD_URLS they are [unknown].
 * (This perf is built without debuginfod, so --symfs is the oracle.)
 * Only the server started here is stopped. */
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"

#define PERF "/usr/bin/perf"
#define DEBUGINFOD "/usr/bin/debuginfod"

static char dir[64], perfev[4096];
static pid_t server;

static int free_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port = -1;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && !bind(fd, (struct sockaddr *)&a, sizeof(a)) &&
	    !getsockname(fd, (struct sockaddr *)&a, &len))
		port = ntohs(a.sin_port);
	close(fd);
	return port;
}

static void stop_server(void)
{
	if (server > 0) {
		kill(server, SIGTERM);
		waitpid(server, NULL, 0);
		server = 0;
	}
}

/* The lines naming the program, in order, as one string. */
static char *prog_lines(const char *file)
{
	size_t len, n = 0;
	char *t = t_slurp(file, &len), *out = calloc(1, len + 1), *save;

	for (char *l = strtok_r(t, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (!strstr(l, "/prog)"))
			continue;
		n += (size_t)sprintf(out + n, "%s\n", l);
	}
	free(t);
	return out;
}

int main(void)
{
	char path[256];

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	if (access(DEBUGINFOD, X_OK))
		T_SKIP("%s is not installed (Debian package debuginfod)", DEBUGINFOD);
	if (t_sh("gcc --version > /dev/null 2>&1"))
		T_SKIP("gcc is not installed");
	if (!realpath(t_perfev(), perfev))
		T_FATAL("perfev binary %s is missing", t_perfev());
	snprintf(dir, sizeof(dir), "/tmp/pev-dbgd-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	snprintf(path, sizeof(path), "%s/prog.c", dir);
	FILE *f = fopen(path, "w");

	/* middle_layer works as much as leaf_work: leaf_work sets up no
	 * frame, so a frame-pointer chain from it skips its caller, and the
	 * caller must be sampled itself to be named even on a loaded
	 * machine.  No call through the PLT: perf names PLT entries from a debug
	 * file but not from the --symfs copy, and that is not the point. */
	fputs("static volatile unsigned long sink;\n"
	      "static __attribute__((noinline)) void leaf_work(void)\n"
	      "{ for (int i = 0; i < 1000; i++) sink += i * 3; }\n"
	      "static __attribute__((noinline)) void middle_layer(void)\n"
	      "{ for (int i = 0; i < 10; i++) { leaf_work();\n"
	      "    for (int j = 0; j < 1000; j++) sink += j; } }\n"
	      "int main(void) { for (int i = 0; i < 15000; i++) middle_layer(); return 0; }\n", f);
	fclose(f);
	CHECK_EQ_INT(t_sh("cd %s && gcc -O1 -g -fno-omit-frame-pointer -Wl,--build-id -o prog.full prog.c"
			  " && cp prog.full prog && strip prog && mkdir -p srv symfs%s"
			  " && cp prog.full srv/ && cp prog.full symfs%s/prog", dir, dir, dir), 0);

	int port = free_port();

	if (port < 0)
		T_FATAL("no free port on 127.0.0.1");
	server = fork();
	if (server == 0) {
		char p[16], db[128], log[128];

		snprintf(p, sizeof(p), "%d", port);
		snprintf(db, sizeof(db), "%s/db.sqlite", dir);
		snprintf(log, sizeof(log), "%s/server.log", dir);
		if (!freopen(log, "w", stdout) || !freopen(log, "a", stderr) || chdir(dir))
			_exit(127);
		execl(DEBUGINFOD, DEBUGINFOD, "-F", "srv", "-p", p, "-d", db, (char *)NULL);
		_exit(127);
	}
	atexit(stop_server);
	/* Wait until the server has scanned srv/ and serves the debuginfo. */
	bool ready = false;

	for (int i = 0; i < 120 && !ready; i++) {
		ready = !t_sh("cd %s && DEBUGINFOD_URLS=http://127.0.0.1:%d DEBUGINFOD_CACHE_PATH=%s/probe"
			      " timeout 5 debuginfod-find debuginfo prog > /dev/null 2>&1", dir, port, dir);
		if (!ready) {
			t_sh("rm -rf %s/probe", dir);	/* its negative cache */
			usleep(250000);
		}
	}
	if (!ready)
		T_FATAL("debuginfod on port %d never served the debuginfo (see %s/server.log)", port, dir);

	CHECK_EQ_INT(t_sh("cd %s && timeout -k 2 60 %s record -q -g -e task-clock -o prog.data ./prog"
			  " > /dev/null 2>&1", dir, PERF), 0);
	CHECK_EQ_INT(t_sh("cd %s && %s script -i prog.data --symfs symfs > exp.txt 2>/dev/null", dir, PERF), 0);
	CHECK_EQ_INT(t_sh("cd %s && DEBUGINFOD_URLS=http://127.0.0.1:%d DEBUGINFOD_CACHE_PATH=%s/cache"
			  " %s script -i prog.data > got.txt", dir, port, dir, perfev), 0);
	CHECK_EQ_INT(t_sh("cd %s && env -u DEBUGINFOD_URLS %s script -i prog.data > none.txt", dir, perfev), 0);
	stop_server();

	char pe[128], pg[128], pn[128];

	snprintf(pe, sizeof(pe), "%s/exp.txt", dir);
	snprintf(pg, sizeof(pg), "%s/got.txt", dir);
	snprintf(pn, sizeof(pn), "%s/none.txt", dir);
	char *exp = prog_lines(pe), *got = prog_lines(pg), *none = prog_lines(pn);

	CHECK_MSG(strstr(exp, "middle_layer+") && strstr(exp, "leaf_work+"),
		  "perf --symfs does not name the static functions:\n%.400s", exp);
	CHECK_MSG(!strcmp(exp, got), "frames differ:\n-- perf --symfs:\n%.600s\n-- perfev:\n%.600s", exp, got);
	CHECK_MSG(!strstr(none, "middle_layer"), "without a server the names came from elsewhere");
	/* The file it used is in the debuginfod cache we named. */
	char cached[256];

	snprintf(cached, sizeof(cached), "%s/cache", dir);
	struct stat st;

	CHECK_MSG(stat(cached, &st) == 0, "nothing in DEBUGINFOD_CACHE_PATH");
	printf("program frames identical to perf --symfs (%zu bytes)\n", strlen(got));
	free(exp);
	free(got);
	free(none);
	if (!t_failures)
		t_sh("rm -rf %s", dir);
	return t_failures ? 1 : 0;
}
