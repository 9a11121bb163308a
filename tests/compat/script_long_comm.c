// SPDX-License-Identifier: GPL-2.0-only
/* Long thread names print whole, as perf script prints them: a kworker's
 * /proc name carries its workqueue's ("kworker/u8:2-ext4-rsv-conversion",
 * 32 bytes; up to 63), perfev record synthesizes COMMs with it, and perfev
 * script cut it at 31 bytes.  A file holds COMM records with names of 15,
 * 31, 32, 40 and 63 bytes and a sample of each thread; perfev script must
 * print what perf script prints, by default and with -F comm,tid. */
#include <fcntl.h>
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"
#include "unit/record_build.h"
#include <perfev/perfev.h>

#define PERF "/usr/bin/perf"

static char dir[64];

static const char *const names[] = {
	"kworker/0:1-ev",
	"kworker/u8:1-kvfree_rcu_reclaim",
	"kworker/u8:2-ext4-rsv-conversion",
	"kworker/0:3-events_power_efficient-x",
	"kworker/1:2-a-workqueue-name-of-sixty-three-bytes-in-all-xxxxxx",
};
#define NNAMES (sizeof(names) / sizeof(names[0]))

static void write_file(const char *path)
{
	struct perf_event_attr a;
	static struct rb b;
	const uint64_t id = 7;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	struct pev_data_writer *w = pev_data_writer_new(fd, NULL);
	uint64_t t = 1000000000ull;

	CHECK(fd >= 0 && w);
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = 1000;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a.comm = a.task = 1;
	CHECK_EQ_INT(pev_data_writer_add_attr(w, &a, &id, 1, "cpu-clock"), 0);
	CHECK_OK(pev_data_features_from_host(pev_data_writer_features(w)));
	CHECK_OK(pev_data_writer_start(w));
	for (uint32_t i = 0; i < NNAMES; i++) {
		CHECK_EQ_INT(strlen(names[i]), i == 0 ? 14 : i == 1 ? 31 : i == 2 ? 32 :
						i == 3 ? 36 : 63);
		rb_begin(&b, PERF_RECORD_COMM, 0);
		rb_u32(&b, 100 + i);
		rb_u32(&b, 100 + i);
		rb_str(&b, names[i]);
		rb_end(&b);
		CHECK_OK(pev_data_writer_write(w, rb_p(&b), b.len));
	}
	for (uint32_t i = 0; i < NNAMES; i++) {
		t += 1000;
		rb_begin(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL);
		rb_u64(&b, 0xffffffff81000000ull + i);
		rb_u32(&b, 100 + i);
		rb_u32(&b, 100 + i);
		rb_u64(&b, t);
		rb_end(&b);
		CHECK_OK(pev_data_writer_write(w, rb_p(&b), b.len));
	}
	pev_data_writer_sample_time(w, 1000001000ull, t);
	CHECK_OK(pev_data_writer_finish(w));
	pev_data_writer_free(w);
	close(fd);
}

static void same_output(const char *file, const char *fields)
{
	char pa[128], pb[128];
	size_t la, lb;

	CHECK_EQ_INT(t_sh("%s script -i %s %s > %s/a.txt 2>/dev/null", t_perfev(), file,
			  fields, dir), 0);
	CHECK_EQ_INT(t_sh("%s script -i %s %s > %s/b.txt 2>/dev/null", PERF, file,
			  fields, dir), 0);
	snprintf(pa, sizeof(pa), "%s/a.txt", dir);
	snprintf(pb, sizeof(pb), "%s/b.txt", dir);
	char *a = t_slurp(pa, &la), *b = t_slurp(pb, &lb);

	for (size_t i = 0; i < NNAMES; i++)
		CHECK_MSG(strstr(b, names[i]), "perf script lacks '%s':\n%s", names[i], b);
	CHECK_MSG(la == lb && !memcmp(a, b, la), "'%s':\nperfev:\n%sperf:\n%s", fields, a, b);
	free(a);
	free(b);
}

int main(void)
{
	char f[128];

	if (access(PERF, X_OK))
		T_SKIP("%s is not installed", PERF);
	strcpy(dir, "/tmp/perfev-comm-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	snprintf(f, sizeof(f), "%s/c.data", dir);
	write_file(f);
	same_output(f, "-F comm,tid");
	same_output(f, "");
	t_sh("rm -rf %s", dir);
	return t_done();
}
