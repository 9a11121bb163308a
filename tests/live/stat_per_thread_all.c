// SPDX-License-Identifier: GPL-2.0-only
/* perfev stat --per-thread -a: every thread of the system, one line each
 * (those that counted something), as perf 6.1 prints it.
 *
 * This test's own threads are the known ones: ptall_a and ptall_b live
 * through every round; ptall_c is made for each round and exits in it.
 * When the tool's command (sh) signals "go", each calls getppid a known
 * number of times (ptall_a also starts a short-lived thread, ptall_sub,
 * whose calls its row takes through inherit, as perf counts them), then
 * the command ends.  syscalls:sys_enter_getppid is exact, so each row's
 * count is known from the calls alone.  The lines of perfev and perf are
 * compared byte for byte (ptall_a, ptall_b: the same tid in both runs;
 * ptall_c: after its comm-tid column), in the human layout (duration_time
 * too: on every thread's line), and field by
 * field in CSV with -I (the intervals' counts add up to the calls).  Last,
 * a run under a soft descriptor limit of 16: one per thread is needed. */
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/stat.h>

#include "stat_util.h"

#define PERF "/usr/bin/perf"
#define EV "syscalls:sys_enter_getppid"

enum { A, B, C, NT };
static const char *const names[NT] = { "ptall_a", "ptall_b", "ptall_c" };
static const long calls[NT] = { 3000, 1000, 2000 };
#define SUB_CALLS 500L
/* what each row must say: ptall_a's row holds ptall_sub's calls */
static const long expect[NT] = { 3000 + SUB_CALLS, 1000, 2000 };

static pid_t tids[NT];
static pthread_barrier_t ready, go, end;
static char go_fifo[128], done_fifo[128];
static volatile int round_done;

static void getppid_n(long n)
{
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
}

static void *sub_fn(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "ptall_sub");
	getppid_n(SUB_CALLS);
	return NULL;
}

/* ptall_a and ptall_b: one batch per round, forever */
static void *keeper(void *arg)
{
	int i = (int)(long)arg;

	prctl(PR_SET_NAME, names[i]);
	tids[i] = (pid_t)syscall(SYS_gettid);
	pthread_barrier_wait(&ready);
	for (;;) {
		pthread_t sub;
		pthread_barrier_wait(&go);
		if (i == A && pthread_create(&sub, NULL, sub_fn, NULL))
			abort();
		getppid_n(calls[i]);
		if (i == A)
			pthread_join(sub, NULL);
		pthread_barrier_wait(&end);
	}
	return NULL;
}

/* ptall_c: one batch, then it exits */
static void *once(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, names[C]);
	tids[C] = (pid_t)syscall(SYS_gettid);
	pthread_barrier_wait(&ready);
	pthread_barrier_wait(&go);
	getppid_n(calls[C]);
	return NULL;
}

/* Waits for the tool's command to say go, releases the threads, and
 * lets the command end once they are done. */
static void *coordinator(void *arg)
{
	pthread_t c = *(pthread_t *)arg;
	char b[8];
	int fd = open(go_fifo, O_RDONLY);

	if (fd < 0 || read(fd, b, sizeof(b)) < 0)
		abort();
	close(fd);
	pthread_barrier_wait(&go);
	pthread_barrier_wait(&end);
	pthread_join(c, NULL);
	/* the command lasts 300 ms more: with -I 100 the calls are in
	 * intervals the tools print (perf 6.1 printed no interval at all
	 * when the whole round took under 100 ms on a quiet machine) */
	usleep(300000);
	fd = open(done_fifo, O_WRONLY);
	if (fd < 0 || write(fd, "\n", 1) != 1)
		abort();
	close(fd);
	round_done = 1;
	return NULL;
}

/* One round: ptall_c made, then the tool run with the command that
 * starts the batch; the tool's stderr. */
static char *round_run(const char *const *tool_args)
{
	pthread_t c, co;
	char script[512];
	char *argv[32];
	int n = 0;
	struct t_run r;

	if (pthread_create(&c, NULL, once, NULL))
		T_FATAL("pthread_create failed");
	pthread_barrier_wait(&ready);
	round_done = 0;
	if (pthread_create(&co, NULL, coordinator, &c))
		T_FATAL("pthread_create failed");
	snprintf(script, sizeof(script), "echo > %s && read x < %s", go_fifo, done_fifo);
	for (const char *const *a = tool_args; *a; a++)
		argv[n++] = (char *)*a;
	argv[n++] = "--";
	argv[n++] = "sh";
	argv[n++] = "-c";
	argv[n++] = script;
	argv[n] = NULL;
	/* perf 6.1 gives up when a process ends while it walks /proc
	 * ("failed to parse CPUs map": other work on the machine), before it
	 * starts the command: run it again, the threads still wait */
	for (int tries = 0;; tries++) {
		if (t_run_argv(argv, NULL, &r) < 0)
			T_FATAL("cannot run %s", argv[0]);
		if (round_done || tries == 4 || !strstr(r.err, "failed to parse CPUs map"))
			break;
		t_run_free(&r);
	}
	if (!round_done || r.exit_code != 0) {
		/* the threads wait for a go that never comes: end here */
		T_FATAL("'%s %s' exited %d before the threads ran:\n%s", argv[0], argv[1],
			r.exit_code, r.err);
	}
	pthread_join(co, NULL);
	free(r.out);
	return r.err;
}

/* The line of out that contains key (NULL when none); malloc'd. */
static char *line_with(const char *out, const char *key)
{
	const char *p = strstr(out, key);

	if (!p)
		return NULL;
	const char *s = p, *e = strchr(p, '\n');
	while (s > out && s[-1] != '\n')
		s--;
	return strndup(s, e ? (size_t)(e - s) : strlen(s));
}

/* "%16s-%-8d ": perf's comm-tid column in the human layout */
static void human_key(char *key, size_t size, int i, pid_t tid)
{
	snprintf(key, size, "%16s-%-8d ", names[i], (int)tid);
}

/* One human output (who: "perf" or "perfev"; c_tid: ptall_c of its run):
 * a line per known thread with its count, largest first, no ptall_sub,
 * perf's header and the footer of a system-wide run. */
static void check_human(const char *out, const char *who, pid_t c_tid)
{
	const char *pos[NT];
	static const char head[] = "\n Performance counter stats for 'system wide':\n\n";

	for (int i = 0; i < NT; i++) {
		char key[64];
		human_key(key, sizeof(key), i, i == C ? c_tid : tids[i]);
		char *l = line_with(out, key);
		pos[i] = strstr(out, key);
		if (!l) {
			T_FAIL("%s has no line '%s':\n%s", who, key, out);
			continue;
		}
		CHECK_MSG(strtol(l + strlen(key), NULL, 10) == expect[i],
			  "%s: '%s', expected %ld %s", who, l, expect[i], EV);
		free(l);
	}
	/* duration_time: the run's time on every thread's line, as perf 6.1
	 * reads the tool events (after the tracepoint's lines) */
	char first[64] = "";
	for (int i = 0; i < NT; i++) {
		char key[64];
		human_key(key, sizeof(key), i, i == C ? c_tid : tids[i]);
		const char *p = pos[i] ? strstr(pos[i] + 1, key) : NULL;
		char *l = p ? line_with(p, key) : NULL;
		char val[64] = "";
		if (l)
			sscanf(l + strlen(key), "%63s", val);
		CHECK_MSG(l && strstr(l, " ns   duration_time") && (!*first || !strcmp(val, first)),
			  "%s: no duration_time line for %s with the others' value (%s):\n%s",
			  who, names[i], first, out);
		if (!*first)
			snprintf(first, sizeof(first), "%s", val);
		free(l);
	}
	/* largest count first (a: 3500, c: 2000, b: 1000) */
	if (pos[A] && pos[B] && pos[C])
		CHECK_MSG(pos[A] < pos[C] && pos[C] < pos[B],
			  "%s's rows are not by count, largest first:\n%s", who, out);
	/* ptall_sub started after the listing: its calls are in ptall_a's row */
	CHECK_MSG(!strstr(out, "ptall_sub"), "%s lists ptall_sub:\n%s", who, out);
	CHECK_MSG(!strncmp(out, head, strlen(head)), "%s's header:\n%s", who, out);
	const char *f = strstr(out + strlen(head), "\n\n ");
	CHECK_MSG(f && strstr(f, "seconds time elapsed") && !strstr(f, "seconds user"),
		  "%s's footer:\n%s", who, out);
}

/* -x, -I: "time,comm-tid,count,unit,event,runtime,pcnt,," per interval
 * with counts.  The sum of thread i's counts; shape gets the fields that
 * do not change with timing (all but time, count, runtime). */
static long csv_sum(const char *out, int i, pid_t tid, const char *who, char *shape,
		    size_t size)
{
	char key[64];
	long sum = 0;
	char *copy = strdup(out), *cur = copy, *l;

	snprintf(key, sizeof(key), ",%s-%d,", names[i], (int)tid);
	while ((l = t_next_line(&cur))) {
		if (!strstr(l, key))
			continue;
		char *f[16];
		int n = t_split(l, ",", f, 16);
		CHECK_MSG(n == 9, "%s: %d fields in an interval line", who, n);
		if (n < 9)
			continue;
		sum += strtol(f[2], NULL, 10);
		/* the time, "%6lu.%09lu" as perf's */
		CHECK_MSG(strlen(f[0]) == 16 && f[0][6] == '.', "%s: time field '%s'", who, f[0]);
		snprintf(shape, size, "%s,%s,%s,%s,%s,%s", f[1], f[3], f[4], f[6], f[7], f[8]);
	}
	free(copy);
	return sum;
}

/* A descriptor per thread: more than a soft limit of 16 allows (perf
 * raises it to the hard limit; the command keeps 16). */
static void check_nofile(const char *pev)
{
	char cmd[1024];
	struct t_run r;

	snprintf(cmd, sizeof(cmd), "ulimit -Sn 16 && exec %s stat --per-thread -a -x, -e %s "
		 "-- sh -c 'ulimit -Sn'", pev, "context-switches");
	CHECK_OK(t_run_argv((char *[]){ "sh", "-c", cmd, NULL }, NULL, &r));
	CHECK_MSG(r.exit_code == 0 && strstr(r.err, ",context-switches,") && !strcmp(r.out, "16\n"),
		  "--per-thread -a under ulimit -Sn 16: exit %d, stdout '%s', stderr:\n%s",
		  r.exit_code, r.out, r.err);
	t_run_free(&r);
}

int main(void)
{
	pthread_t ka, kb;
	char dir[] = "/tmp/perfev-ptall-XXXXXX";

	t_need_getppid_tracepoint();
	if (access(PERF, X_OK))
		T_SKIP("%s is not installed (the oracle for the layout)", PERF);
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp: %s", strerror(errno));
	snprintf(go_fifo, sizeof(go_fifo), "%s/go", dir);
	snprintf(done_fifo, sizeof(done_fifo), "%s/done", dir);
	if (mkfifo(go_fifo, 0600) || mkfifo(done_fifo, 0600))
		T_FATAL("mkfifo: %s", strerror(errno));
	pthread_barrier_init(&ready, NULL, 2);
	pthread_barrier_init(&go, NULL, NT + 1);	/* a, b, c, coordinator */
	pthread_barrier_init(&end, NULL, 3);		/* a, b, coordinator */
	if (pthread_create(&ka, NULL, keeper, (void *)(long)A))
		T_FATAL("pthread_create failed");
	pthread_barrier_wait(&ready);
	if (pthread_create(&kb, NULL, keeper, (void *)(long)B))
		T_FATAL("pthread_create failed");
	pthread_barrier_wait(&ready);
	const char *pev = t_perfev();

	/* the human layout */
	char *hp = round_run((const char *[]){ PERF, "stat", "--per-thread", "-a", "-e", EV, "-e",
					       "duration_time", NULL });
	pid_t c_perf = tids[C];
	char *he = round_run((const char *[]){ pev, "stat", "--per-thread", "-a", "-e", EV, "-e",
					       "duration_time", NULL });
	check_human(hp, "perf", c_perf);	/* the oracle agrees with the calls */
	check_human(he, "perfev", tids[C]);
	for (int i = 0; i < NT; i++) {
		/* ptall_c's tid differs between the runs: compare after its
		 * column (the same width: both under 8 digits) */
		char kp[64], ke[64];
		human_key(kp, sizeof(kp), i, i == C ? c_perf : tids[i]);
		human_key(ke, sizeof(ke), i, tids[i]);
		char *x = line_with(hp, kp), *y = line_with(he, ke);
		CHECK_MSG(x && y && strlen(kp) == strlen(ke) && !strcmp(x + strlen(kp), y + strlen(ke)),
			  "%s's line differs:\nperf:   '%s'\nperfev: '%s'", names[i],
			  x ? x : "(none)", y ? y : "(none)");
		free(x);
		free(y);
	}
	free(hp);
	free(he);

	/* CSV with -I: the intervals add up; perf's fields */
	char *cp = round_run((const char *[]){ PERF, "stat", "--per-thread", "-a", "-x,", "-I",
					       "100", "-e", EV, NULL });
	c_perf = tids[C];
	char *ce = round_run((const char *[]){ pev, "stat", "--per-thread", "-a", "-x,", "-I",
					       "100", "-e", EV, NULL });
	for (int i = 0; i < NT; i++) {
		char sp[256] = "", se[256] = "";
		long np = csv_sum(cp, i, i == C ? c_perf : tids[i], "perf", sp, sizeof(sp));
		long ne = csv_sum(ce, i, tids[i], "perfev", se, sizeof(se));
		CHECK_MSG(np == expect[i], "perf -I counts %ld for %s, expected %ld:\n%s", np,
			  names[i], expect[i], cp);
		CHECK_MSG(ne == expect[i], "perfev -I counts %ld for %s, expected %ld:\n%s", ne,
			  names[i], expect[i], ce);
		if (i != C)
			CHECK_MSG(!strcmp(sp, se), "CSV fields differ:\nperf:   %s\nperfev: %s",
				  sp, se);
	}
	CHECK_MSG(!strstr(ce, "ptall_sub"), "perfev -I lists ptall_sub:\n%s", ce);
	free(cp);
	free(ce);

	/* not under valgrind, which shows perfev a hard limit equal to the
	 * soft one */
	if (!getenv("PERFEV_VALGRIND"))
		check_nofile(pev);

	unlink(go_fifo);
	unlink(done_fifo);
	rmdir(dir);
	if (!t_failures)
		printf("ok\n");
	return t_failures ? 1 : 0;
}
