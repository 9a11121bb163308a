// SPDX-License-Identifier: GPL-2.0-only
/* perf.data compatibility with Linux perf (/usr/bin/perf as the oracle):
 * files we record (file, pipe and zstd) are read by perf report/script
 * with no warnings and the same samples; files perf records (file, pipe,
 * -z) are read by us with the same (time, tid, ip, period) per sample. */
#include <fcntl.h>
#include <inttypes.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../testutil.h"
#include <perfev/perfev.h>

#define PERF "/usr/bin/perf"
#define LOOP "i=0; while [ $i -lt 150000 ]; do i=$((i+1)); done"

static char dir[64];

struct sample { uint64_t time, ip, period; uint32_t tid; };

static int run(const char *cmd)
{
	int st = system(cmd);

	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char *slurp_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 1 << 22);
	size_t n = f ? fread(buf, 1, (1 << 22) - 1, f) : 0;

	buf[n] = 0;
	if (f)
		fclose(f);
	return buf;
}

/* Records a busy shell child into `path` with the library. */
static long record_ours(const char *path, bool pipe, int level)
{
	int go[2];

	if (pipe2(go, O_CLOEXEC))
		T_FATAL("pipe");
	pid_t child = fork();

	if (child == 0) {
		char c;

		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(126);
		execl("/bin/sh", "sh", "-c", LOOP, (char *)NULL);
		_exit(127);
	}
	close(go[0]);
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = 500000;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			PERF_SAMPLE_PERIOD;
	a.disabled = 1;
	a.enable_on_exec = 1;
	a.sample_id_all = 1;
	a.mmap = a.mmap2 = a.comm = a.comm_exec = a.task = 1;
	int fd = pev_sys_open(&a, child, -1, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0 && t_probe_attr(&a, child, -1) < 0)
		T_SKIP("the kernel refuses a raw perf_event_open of the test's attr");
	if (fd < 0)
		T_FATAL("perf_event_open: %s", strerror(-fd));
	uint64_t id;

	CHECK_OK(pev_ioc_id(fd, &id));
	struct pev_ring *ring = pev_ring_new(fd, NULL, NULL);

	if (!ring)
		T_FATAL("ring: %s", strerror(errno));
	int out = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	struct pev_data_writer_opts o = { .size = sizeof(o), .pipe = pipe,
					  .compress_level = level };
	struct pev_data_writer *w = pev_data_writer_new(out, &o);
	static const char *const argv[] = { "perfev", "record", "--", "sh" };

	CHECK_OK(pev_data_writer_add_attr(w, &a, &id, 1, "cpu-clock"));
	CHECK_OK(pev_data_features_from_host(pev_data_writer_features(w)));
	CHECK_OK(pev_data_features_set_cmdline(pev_data_writer_features(w), 4, argv));
	CHECK_OK(pev_data_writer_start(w));
	struct pev_synth_opts so = { .size = sizeof(so), .attr = &a, .id = id };

	CHECK(pev_synth_kernel_mmap(&so, pev_data_writer_emit, w) == 1);
	CHECK(pev_synth_modules(&so, pev_data_writer_emit, w) >= 0);
	CHECK(pev_synth_process(child, &so, pev_data_writer_emit, w) >= 3);
	if (write(go[1], "g", 1) != 1)
		T_FATAL("write");
	close(go[1]);
	bool done = false;
	int st;

	for (;;) {
		if (!done && waitpid(child, &st, WNOHANG) == child)
			done = true;
		if (!done)
			pev_ring_poll(&ring, 1, 20, NULL);
		if (pev_ring_read_init(ring) > 0) {
			struct pev_ring_span sp[2];
			int n = pev_ring_read_spans(ring, sp);
			const void *bufs[2] = { sp[0].data, n > 1 ? sp[1].data : NULL };
			size_t lens[2] = { sp[0].size, n > 1 ? sp[1].size : 0 };

			CHECK_OK(pev_data_writer_writev(w, bufs, lens, (size_t)n));
			CHECK_OK(pev_ring_read_done(ring));
			CHECK_OK(pev_data_writer_finished_round(w));
		} else if (done) {
			break;
		}
	}
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);

	/* our own count, and SAMPLE_TIME, from our reader */
	char err[512];
	struct pev_data_writer *wr = w;
	struct pev_data *d;
	struct pev_data_event ev;
	long samples = 0;
	uint64_t first = UINT64_MAX, last = 0;

	if (!pipe) {
		/* SAMPLE_TIME needs the times: read back what was written */
		d = pev_data_open(path, NULL, err, sizeof(err));
		if (!d)
			T_FATAL("reopen: %s", err);
		while (pev_data_next(d, &ev) > 0)
			if (ev.rec.type == PERF_RECORD_SAMPLE) {
				if (ev.rec.u.sample.time < first)
					first = ev.rec.u.sample.time;
				if (ev.rec.u.sample.time > last)
					last = ev.rec.u.sample.time;
			}
		pev_data_close(d);
		if (first <= last)
			pev_data_writer_sample_time(wr, first, last);
	}
	CHECK_OK(pev_data_writer_finish(w));
	pev_data_writer_free(w);
	pev_ring_free(ring);
	close(fd);
	close(out);
	d = pev_data_open(path, NULL, err, sizeof(err));
	if (!d)
		T_FATAL("open ours: %s", err);
	while (pev_data_next_ordered(d, &ev) > 0)
		samples += ev.rec.type == PERF_RECORD_SAMPLE;
	CHECK_EQ_U64(pev_data_nr_out_of_order(d), 0);
	pev_data_close(d);
	return samples;
}

static long count_lines(const char *text)
{
	long n = 0;

	for (const char *p = text; *p; p++)
		n += *p == '\n';
	return n;
}

/* perf report and perf script on our file: empty stderr, same count. */
static void perf_reads_ours(const char *name, bool pipe, int level)
{
	char path[128], cmd[512], errp[128], outp[128];
	long ours = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ours = record_ours(path, pipe, level);
	printf("%s: %ld samples\n", name, ours);
	CHECK(ours > 20);
	snprintf(errp, sizeof(errp), "%s/err", dir);
	snprintf(outp, sizeof(outp), "%s/out", dir);
	const char *in = pipe ? "-i - <" : "-i";

	snprintf(cmd, sizeof(cmd), PERF " report --stdio %s %s >%s 2>%s", in,
		 path, outp, errp);
	CHECK_EQ_INT(run(cmd), 0);
	char *err = slurp_text(errp), *out = slurp_text(outp);

	CHECK_MSG(!*err, "%s: perf report wrote to stderr: %s", name, err);
	char want[64];

	snprintf(want, sizeof(want), "# Samples: %ld ", ours);
	CHECK_MSG(strstr(out, want) != NULL, "%s: perf report has no '%s'", name, want);
	CHECK_MSG(strstr(out, "of event 'cpu-clock'") != NULL, "%s: event name", name);
	CHECK_MSG(strstr(out, "sh ") != NULL, "%s: no 'sh' comm in the report", name);
	free(err);
	free(out);
	snprintf(cmd, sizeof(cmd), PERF " script %s %s >%s 2>%s", in, path,
		 outp, errp);
	CHECK_EQ_INT(run(cmd), 0);
	err = slurp_text(errp);
	out = slurp_text(outp);
	CHECK_MSG(!*err, "%s: perf script wrote to stderr: %s", name, err);
	CHECK_MSG(count_lines(out) == ours, "%s: perf script printed %ld samples, we wrote %ld",
		  name, count_lines(out), ours);
	free(err);
	free(out);
	if (!pipe) {
		snprintf(cmd, sizeof(cmd), PERF " report --header-only -i %s >%s 2>%s",
			 path, outp, errp);
		CHECK_EQ_INT(run(cmd), 0);
		out = slurp_text(outp);
		CHECK(strstr(out, "# perf version : perfev ") != NULL);
		CHECK(strstr(out, "# cmdline : perfev record -- sh") != NULL);
		CHECK(strstr(out, "# event : name = cpu-clock") != NULL);
		CHECK(strstr(out, "# time of first sample : ") != NULL);
		if (level)
			CHECK(strstr(out, "compressed (zstd)") != NULL ||
			      strstr(out, "missing features") == NULL ||
			      !strstr(strstr(out, "missing features"), "COMPRESSED"));
		free(out);
	}
}

/* perf record, then our reader: the same (time, tid, ip, period). */
static void we_read_perfs(const char *name, const char *opts, bool pipe)
{
	char path[128], cmd[512], outp[128];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(outp, sizeof(outp), "%s/script", dir);
	if (pipe)
		snprintf(cmd, sizeof(cmd), PERF " record -q -e cpu-clock -F 2000 %s "
			 "-o - -- sh -c '" LOOP "' >%s 2>/dev/null", opts, path);
	else
		snprintf(cmd, sizeof(cmd), PERF " record -q -e cpu-clock -F 2000 %s "
			 "-o %s -- sh -c '" LOOP "' 2>/dev/null", opts, path);
	CHECK_EQ_INT(run(cmd), 0);
	snprintf(cmd, sizeof(cmd), PERF " script -F tid,time,ip,period %s %s >%s 2>/dev/null",
		 pipe ? "-i - <" : "-i", path, outp);
	CHECK_EQ_INT(run(cmd), 0);
	char *text = slurp_text(outp);
	size_t cap = 100000, n = 0;
	struct sample *want = calloc(cap, sizeof(*want));

	for (char *l = strtok(text, "\n"); l && n < cap; l = strtok(NULL, "\n")) {
		unsigned long long s, us, period, ip;
		unsigned tid;

		if (sscanf(l, " %u %llu.%llu: %llu %llx", &tid, &s, &us, &period, &ip) == 5)
			want[n++] = (struct sample){ s * 1000000 + us, ip, period, tid };
	}
	free(text);
	CHECK_MSG(n > 20, "%s: perf script printed %zu samples", name, n);

	char err[512];
	struct pev_data *d = pev_data_open(path, NULL, err, sizeof(err));

	if (!d)
		T_FATAL("%s: open: %s", name, err);
	CHECK_EQ_INT(pev_data_is_pipe(d), pipe);
	CHECK_STR(pev_data_event_name(d, 0), "cpu-clock");
	CHECK(pev_data_features(d)->hostname != NULL);
	struct pev_data_event ev;
	size_t k = 0, bad = 0;
	int r;

	while ((r = pev_data_next_ordered(d, &ev)) > 0) {
		CHECK_EQ_INT(ev.decode_error, 0);
		if (ev.rec.type != PERF_RECORD_SAMPLE)
			continue;
		const struct pev_sample *s = &ev.rec.u.sample;

		if (k < n && (s->time / 1000 != want[k].time || s->ip != want[k].ip ||
			      s->period != want[k].period || s->tid != want[k].tid))
			bad++;
		k++;
	}
	CHECK_EQ_INT(r, 0);
	printf("%s: %zu samples from perf, %zu read\n", name, n, k);
	CHECK_MSG(k == n, "%s: we read %zu samples, perf script %zu", name, k, n);
	CHECK_MSG(bad == 0, "%s: %zu samples differ from perf script's", name, bad);
	pev_data_close(d);
	free(want);
}

int main(void)
{
	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	snprintf(dir, sizeof(dir), "/tmp/pev-data-compat.XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	perf_reads_ours("ours.data", false, 0);
	perf_reads_ours("ours-pipe.data", true, 0);
	perf_reads_ours("ours-z.data", false, 1);
	we_read_perfs("perf.data", "", false);
	we_read_perfs("perf-pipe.data", "", true);
	we_read_perfs("perf-z.data", "-z", false);
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (!t_failures)
		run(cmd);
	else
		printf("files kept in %s\n", dir);
	return t_done();
}
