// SPDX-License-Identifier: GPL-2.0-only
/* perfev report's weight keys (weight, local_weight, ins_lat,
 * local_ins_lat; p_stage_cyc and local_p_stage_cyc, which perf 6.1 drops
 * on x86) on a perf.data built here with PERF_SAMPLE_WEIGHT_STRUCT
 * (this VM has no PMU that fills it): compared with perf report --stdio
 * byte for byte, and hand-checked: local_ins_lat groups the samples by
 * the latency in bits 32-47 of the weight, ins_lat prints it times the
 * entry's samples. */
#include <fcntl.h>
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"
#include "unit/data_util.h"

#define PERF "/usr/bin/perf"

static char dir[64], perfev[4096];

/* (ip, weight low 32 bits, ins_lat, p_stage_cyc) per sample */
static const uint64_t samples[][4] = {
	{ 0x1000, 100, 7, 1 }, { 0x1000, 100, 7, 1 }, { 0x1000, 100, 7, 2 },
	{ 0x2000, 50, 3, 0 }, { 0x2000, 50, 3, 0 }, { 0x1000, 100, 9, 0 },
	{ 0x3000, 20, 7, 0 },
};

static void write_file(const char *path)
{
	struct perf_event_attr a;
	unsigned char buf[128] __attribute__((aligned(8)));
	const uint64_t id = 7;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	struct pev_data_writer *w = pev_data_writer_new(fd, NULL);
	uint64_t t = 1000000000ull;

	CHECK(fd >= 0 && w);
	du_attr(&a, PERF_COUNT_SW_CPU_CLOCK);
	a.sample_type |= PERF_SAMPLE_WEIGHT_STRUCT;
	CHECK_EQ_INT(pev_data_writer_add_attr(w, &a, &id, 1, "cpu-clock"), 0);
	CHECK_OK(pev_data_writer_start(w));
	CHECK_OK(pev_data_writer_write(w, buf, du_comm(buf, &a, id, 10, 10, "wl", t)));
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		size_t len = du_sample(buf, id, samples[i][0], 10, 10, ++t, 0, 1000);
		uint64_t wv = samples[i][1] | samples[i][2] << 32 | samples[i][3] << 48;
		struct perf_event_header h;

		memcpy(buf + len, &wv, 8);
		memcpy(&h, buf, 8);
		h.size += 8;
		memcpy(buf, &h, 8);
		CHECK_OK(pev_data_writer_write(w, buf, len + 8));
	}
	pev_data_writer_sample_time(w, 1000000001ull, t);
	CHECK_OK(pev_data_writer_finish(w));
	pev_data_writer_free(w);
	close(fd);
}

/* perfev's output without perf's closing tip (the lines after the last
 * entry), and perf's, compared. */
static char *report(const char *file, const char *opts)
{
	char p[128];
	size_t len;
	int rc = t_sh("%s report -i %s %s 2>&1 | grep -v '^# (' > %s/a.txt", perfev, file, opts, dir);

	CHECK_MSG(rc == 0, "perfev report %s: %d", opts, rc);
	CHECK_EQ_INT(t_sh("%s report --stdio -i %s %s 2>/dev/null | grep -v '^# (' > %s/b.txt",
			  PERF, file, opts, dir), 0);
	if (t_sh("cmp -s %s/a.txt %s/b.txt", dir, dir)) {
		t_sh("diff %s/b.txt %s/a.txt | head -20", dir, dir);
		T_FAIL("%s: perfev and perf differ (perf <, perfev >)", opts);
	} else {
		printf("%s: identical\n", opts);
	}
	snprintf(p, sizeof(p), "%s/a.txt", dir);
	return t_slurp(p, &len);
}

int main(void)
{
	char file[128];
	static const char *const opts[] = {
		"--sort weight", "--sort local_weight", "--sort ins_lat",
		"--sort local_ins_lat", "--sort local_weight,ins_lat",
		"--sort sym,local_ins_lat", "--sort p_stage_cyc",
		"--sort local_p_stage_cyc,sym", "--sort weight,local_ins_lat -n", NULL,
	};

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	snprintf(perfev, sizeof(perfev), "%s", getenv("PERFEV") ? getenv("PERFEV") : "build/perfev");
	strcpy(dir, "/tmp/perfev-rweight-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	snprintf(file, sizeof(file), "%s/w.data", dir);
	write_file(file);
	for (size_t i = 0; opts[i]; i++)
		free(report(file, opts[i]));

	/* by hand: 7 samples of period 1000; latency 7: 4 samples (57.14%),
	 * 3: 2 (28.57%), 9: 1 (14.29%) */
	char *s = report(file, "--sort local_ins_lat");

	CHECK(s && strstr(s, "\n    57.14%  7                  \n") &&
	      strstr(s, "\n    28.57%  3                  \n") &&
	      strstr(s, "\n    14.29%  9                  \n"));
	free(s);
	s = report(file, "--sort ins_lat");
	CHECK(s && strstr(s, "\n    57.14%  28           \n") &&
	      strstr(s, "\n    28.57%  6            \n"));
	free(s);
	t_sh("rm -rf %s", dir);
	return t_done();
}
