// SPDX-License-Identifier: GPL-2.0-only
/* What perfev record's sample-content options put in the samples, with
 * exact values: -d on a write watchpoint (ADDR is the variable's address,
 * one sample per write), --all-user (no kernel samples), --per-thread (the
 * same exact count from a per-thread ring), --code-page-size (the page
 * size), --user-regs and -I (the sampled IP register is the sample's ip),
 * -D (nothing before the delay); and perf reads every file. */
#include <sys/wait.h>
#include "record_util.h"

struct sstats {
	bool ok;
	uint64_t samples, kernel, addr_other, user_samples;
	uint64_t page_ok, page_bad, uregs_ok, uregs_bad, iregs_ok, iregs_bad;
	uint64_t exec_time, first_time;
	uint64_t sample_type;
};

static const char *watch_work(void)
{
	static char path[512];
	const char *b = getenv("PERFEV_BUILD");

	snprintf(path, sizeof(path), "%s/tests/helpers/watch_work", b && *b ? b : "build");
	return path;
}

static struct sstats scan(const char *path, uint64_t want_addr)
{
	struct sstats s;
	char err[256];
	struct pev_data_open_opts o = { .size = sizeof(o) };
	struct pev_data *d = pev_data_open(path, &o, err, sizeof(err));
	struct pev_data_event ev;
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	int n;

	memset(&s, 0, sizeof(s));
	s.first_time = UINT64_MAX;
	if (!d)
		return s;
	s.sample_type = pev_decoder_attr(pev_data_decoder(d), 0)->sample_type;
	while ((n = pev_data_next(d, &ev)) > 0) {
		const struct pev_record *r = &ev.rec;

		if (ev.decode_error)
			continue;
		if (r->type == PERF_RECORD_COMM && r->u.comm.exec && !s.exec_time)
			s.exec_time = r->sample_id.time;
		if (r->type != PERF_RECORD_SAMPLE)
			continue;
		const struct pev_sample *sm = &r->u.sample;
		bool user = sm->ip < (1ULL << 47);

		s.samples++;
		s.user_samples += user;
		s.kernel += !user;
		if (sm->time && sm->time < s.first_time)
			s.first_time = sm->time;
		if (want_addr && sm->addr != want_addr)
			s.addr_other++;
		if (sm->fields & PERF_SAMPLE_CODE_PAGE_SIZE && user) {
			if (sm->code_page_size == page)
				s.page_ok++;
			else
				s.page_bad++;
		}
#if defined(__x86_64__)
		uint64_t v;
		/* PERF_REG_X86_IP = 8 */
		if (sm->fields & PERF_SAMPLE_REGS_USER && user && sm->regs_user.abi) {
			if (!pev_regs_get(&sm->regs_user, 8, &v) && v == sm->ip &&
			    sm->regs_user.nr == 20)
				s.uregs_ok++;
			else
				s.uregs_bad++;
		}
		if (sm->fields & PERF_SAMPLE_REGS_INTR && sm->regs_intr.abi) {
			if (!pev_regs_get(&sm->regs_intr, 8, &v) && v == sm->ip &&
			    sm->regs_intr.nr == 20)
				s.iregs_ok++;
			else
				s.iregs_bad++;
		}
#endif
	}
	s.ok = n == 0;
	pev_data_close(d);
	return s;
}

static struct t_run sh(const char *cmd)
{
	struct t_run r;

	CHECK_OK(t_run_argv((char *const[]){ "sh", "-c", (char *)cmd, NULL }, NULL, &r));
	return r;
}

/* perf report and perf script (with extra fields) read the file without
 * a warning; returns perf script's output (malloc'd) or NULL. */
static char *perf_reads(const char *out, const char *fields)
{
	char cmd[1024];
	struct t_run r;
	char *text;

	if (access("/usr/bin/perf", X_OK))
		return NULL;
	snprintf(cmd, sizeof(cmd), "/usr/bin/perf report --stdio -i %s", out);
	r = sh(cmd);
	CHECK_MSG(r.exit_code == 0 && !strstr(r.err, "WARNING") && !strstr(r.err, "rror"),
		  "perf report %s: exit %d: %s", out, r.exit_code, r.err);
	t_run_free(&r);
	snprintf(cmd, sizeof(cmd), "/usr/bin/perf script -i %s %s%s", out,
		 fields ? "-F " : "", fields ? fields : "");
	r = sh(cmd);
	CHECK_MSG(r.exit_code == 0 && !strstr(r.err, "WARNING") && !strstr(r.err, "rror"),
		  "perf script %s: exit %d: %s", fields ? fields : "", r.exit_code, r.err);
	text = r.out;
	r.out = NULL;
	t_run_free(&r);
	return text;
}

/* What perf's own reader sees in out: the exec's time, the first
 * sample's, and the number of samples (perf script --show-task-events);
 * false when perf is not installed. */
struct pstats {
	uint64_t exec_us, first_us, samples;
};

static bool perf_times(const char *out, struct pstats *p)
{
	char cmd[1024];
	struct t_run r;

	memset(p, 0, sizeof(*p));
	if (access("/usr/bin/perf", X_OK))
		return false;
	snprintf(cmd, sizeof(cmd), "/usr/bin/perf script -i %s --show-task-events "
		 "-F comm,tid,time,event", out);
	r = sh(cmd);
	CHECK_MSG(r.exit_code == 0, "perf script: %s", r.err);
	for (char *l = strtok(r.out, "\n"); l; l = strtok(NULL, "\n")) {
		char *colon = strstr(l, ": ");
		char *t = colon;
		if (!colon)
			continue;
		while (t > l && t[-1] != ' ')
			t--;
		uint64_t us = (uint64_t)(strtod(t, NULL) * 1e6 + 0.5);
		if (strstr(colon, "PERF_RECORD_COMM exec") && !p->exec_us)
			p->exec_us = us;
		else if (strstr(colon, ": cpu-clock:")) {
			if (!p->samples++)
				p->first_us = us;
		}
	}
	t_run_free(&r);
	return true;
}

int main(void)
{
	const char *out = rt_tmp("samples.data");
	char ev[64], cmd[2048], *text;
	struct t_run r;
	struct sstats s;
	uint64_t addr;

	/* The watched variable's address (the helper turns off ASLR). */
	CHECK_OK(t_run_argv((char *const[]){ (char *)watch_work(), "-a", NULL }, NULL, &r));
	addr = strtoull(r.out, NULL, 16);
	t_run_free(&r);
	CHECK(addr != 0);
	snprintf(ev, sizeof(ev), "mem:%#llx:w", (unsigned long long)addr);

	/* -d --all-user: one sample per write, ADDR exact, no kernel ip (the
	 * kernel's ELF loader writes the page too: excluded). */
	CHECK_OK(T_RUN_PERFEV(&r, "record", "-q", "-d", "--all-user", "-c", "1", "-e", ev,
			      "-o", (char *)out, "--", (char *)watch_work(), "-n", "1000"));
	if (r.exit_code) {
		/* The probe: a raw 8-byte write watchpoint on a variable of ours. */
		static volatile long probe_var;
		struct perf_event_attr pa = { .size = sizeof(pa), .type = PERF_TYPE_BREAKPOINT,
					      .bp_type = 2 /* HW_BREAKPOINT_W */,
					      .bp_addr = (uintptr_t)&probe_var, .bp_len = 8,
					      .sample_period = 1, .exclude_kernel = 1 };
		int p = t_probe_attr(&pa, 0, -1);
		if (p < 0)
			T_SKIP("no write watchpoints here: a raw one is refused (%s)", strerror(-p));
	}
	CHECK_MSG(r.exit_code == 0, "%s", r.err);
	t_run_free(&r);
	s = scan(out, addr);
	CHECK(s.ok);
	CHECK_EQ_U64(s.samples, 1000);
	CHECK_EQ_U64(s.addr_other, 0);
	CHECK_EQ_U64(s.kernel, 0);
	CHECK(s.sample_type & PERF_SAMPLE_ADDR);
	text = perf_reads(out, "ip,addr");
	CHECK(!text || strstr(text, "555555") != NULL);
	free(text);

	/* --per-thread: cpu -1, one ring for the thread, the same count. */
	CHECK_OK(T_RUN_PERFEV(&r, "record", "-q", "--per-thread", "--all-user", "-d", "-c", "1",
			      "-e", ev, "-o", (char *)out, "--", (char *)watch_work(), "-n",
			      "777"));
	CHECK_MSG(r.exit_code == 0, "%s", r.err);
	t_run_free(&r);
	s = scan(out, addr);
	CHECK(s.ok);
	CHECK_EQ_U64(s.samples, 777);
	CHECK_EQ_U64(s.addr_other, 0);
	CHECK(!(s.sample_type & PERF_SAMPLE_TIME));	/* as perf: no -T */
	free(perf_reads(out, NULL));

	/* --code-page-size: the user samples' code pages are base pages. */
	CHECK_OK(T_RUN_PERFEV(&r, "record", "-q", "--code-page-size", "-e", "cpu-clock",
			      "-F", "2000", "-o", (char *)out, "--", (char *)rt_work(), "-m",
			      "100"));
	CHECK_MSG(r.exit_code == 0, "%s", r.err);
	t_run_free(&r);
	s = scan(out, 0);
	CHECK(s.ok && s.samples >= 20);
	CHECK_MSG(s.page_ok >= 10 && s.page_bad == 0, "page sizes: %llu ok, %llu other",
		  (unsigned long long)s.page_ok, (unsigned long long)s.page_bad);
	free(perf_reads(out, "ip,code_page_size"));

#if defined(__x86_64__)
	/* --user-regs: 20 registers; IP is the ip of every user sample. */
	CHECK_OK(T_RUN_PERFEV(&r, "record", "-q", "--user-regs", "-e", "cpu-clock", "-F",
			      "2000", "-o", (char *)out, "--", (char *)rt_work(), "-m", "100"));
	CHECK_MSG(r.exit_code == 0, "%s", r.err);
	t_run_free(&r);
	s = scan(out, 0);
	CHECK(s.ok && s.user_samples >= 20);
	CHECK_MSG(s.uregs_ok >= 20 && s.uregs_bad == 0, "uregs: %llu ok, %llu bad",
		  (unsigned long long)s.uregs_ok, (unsigned long long)s.uregs_bad);
	text = perf_reads(out, "ip,uregs");
	CHECK(!text || (strstr(text, "IP:0x") && strstr(text, "R15:0x")));
	free(text);

	/* -I: the interrupted registers; IP is the sample's ip, user or
	 * kernel. */
	CHECK_OK(T_RUN_PERFEV(&r, "record", "-q", "-I", "-e", "cpu-clock", "-F", "2000",
			      "-o", (char *)out, "--", (char *)rt_work(), "-m", "100"));
	CHECK_MSG(r.exit_code == 0, "%s", r.err);
	t_run_free(&r);
	s = scan(out, 0);
	CHECK(s.ok && s.samples >= 20);
	CHECK_MSG(s.iregs_ok == s.samples && s.iregs_bad == 0, "iregs: %llu of %llu",
		  (unsigned long long)s.iregs_ok, (unsigned long long)s.samples);
	text = perf_reads(out, "ip,iregs");
	CHECK(!text || (strstr(text, "IP:0x") && strstr(text, "FLAGS:0x")));
	free(text);
#endif

	/* -D 200: the events start 200 ms after the exec (the dummy sees the
	 * exec at once); fewer samples than without. */
	snprintf(cmd, sizeof(cmd), "%s record -D 200 -e cpu-clock -F 1000 -o %s -- %s -m 500",
		 t_perfev(), out, rt_work());
	r = sh(cmd);
	CHECK_MSG(r.exit_code == 0, "%s", r.err);
	CHECK(strstr(r.err, "Events disabled\nEvents enabled\n") != NULL);
	t_run_free(&r);
	s = scan(out, 0);
	CHECK(s.ok && s.samples > 0 && s.exec_time > 0);
	/* the delay as perf's reader sees it, and ours agreeing with it */
	struct pstats ps;
	if (perf_times(out, &ps)) {
		CHECK_MSG(ps.samples > 0 && ps.exec_us > 0 && ps.first_us >= ps.exec_us + 190000,
			  "perf script: first sample %.3f ms after the exec (%llu samples)",
			  ((double)ps.first_us - (double)ps.exec_us) / 1e3,
			  (unsigned long long)ps.samples);
		CHECK_EQ_U64(s.samples, ps.samples);
		CHECK_EQ_U64(s.first_time / 1000, ps.first_us);	/* perf prints whole us */
	}
	CHECK_MSG(s.first_time >= s.exec_time + 190000000ULL,
		  "first sample %.3f ms after the exec",
		  (double)(s.first_time - s.exec_time) / 1e6);
	uint64_t delayed = s.samples;

	free(perf_reads(out, NULL));
	CHECK_OK(T_RUN_PERFEV(&r, "record", "-q", "-e", "cpu-clock", "-F", "1000", "-o",
			      (char *)out, "--", (char *)rt_work(), "-m", "500"));
	t_run_free(&r);
	s = scan(out, 0);
	CHECK_MSG(s.ok && s.samples > delayed, "%llu samples without -D, %llu with",
		  (unsigned long long)s.samples, (unsigned long long)delayed);
	if (perf_times(out, &ps)) {
		CHECK_EQ_U64(s.samples, ps.samples);
		CHECK_MSG(ps.first_us < ps.exec_us + 100000, "without -D: first sample "
			  "%.3f ms after the exec", ((double)ps.first_us - (double)ps.exec_us) / 1e3);
	}

	/* -D -1: the events are never enabled (no control fd): only the
	 * side band. */
	CHECK_OK(T_RUN_PERFEV(&r, "record", "-q", "-D", "-1", "-e", "cpu-clock", "-o",
			      (char *)out, "--", (char *)rt_work(), "-m", "50"));
	CHECK_EQ_INT(r.exit_code, 0);
	t_run_free(&r);
	s = scan(out, 0);
	CHECK(s.ok && s.exec_time > 0);
	CHECK_EQ_U64(s.samples, 0);
	if (perf_times(out, &ps)) {
		CHECK(ps.exec_us > 0);
		CHECK_EQ_U64(ps.samples, 0);
	}

	unlink(out);
	snprintf(cmd, sizeof(cmd), "%s.old", out);
	unlink(cmd);
	return t_done();
}
