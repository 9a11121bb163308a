// SPDX-License-Identifier: GPL-2.0-only
/* A thread first seen without a name (by a sample, or a FORK from a
 * parent that has none: in a lossy system-wide file the synthesized COMMs
 * are missing) and named later by its COMM: perf 6.1 creates the thread
 * on the sample with the name ":TID" and its first COMM overrides that
 * name in place (thread__set_comm while comm_set is false), so the
 * entries made before the COMM show the later name and merge with those
 * made after it.  perfev showed them as ":TID" beside the named ones
 * (`report --sort pid,comm` printed "20666:sh  :20666" and "20666:sh
 * sh").  A file written here with our writer; perf report is the
 * oracle. */
#include <fcntl.h>
#include <unistd.h>

#include "report_cmp.h"
#include "built_file.h"
#include <perfev/perfev.h>

#define ST (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
	    PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)
#define TRAILER (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_IDENTIFIER)
#define ID 7

static uint64_t t = 1000000000ull;
static struct rb b;

static void comm(struct pev_data_writer *w, uint32_t pid, uint32_t tid, const char *name,
		 bool exec)
{
	t += 1000;
	rb_begin(&b, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0);
	rb_u32(&b, pid);
	rb_u32(&b, tid);
	rb_str(&b, name);
	rb_trailer(&b, TRAILER, pid, tid, t, ID, 0, 0);
	built_emit(w, &b);
}

static void fork_(struct pev_data_writer *w, uint32_t pid, uint32_t ppid)
{
	t += 1000;
	rb_begin(&b, PERF_RECORD_FORK, 0);
	rb_u32(&b, pid);
	rb_u32(&b, ppid);
	rb_u32(&b, pid);
	rb_u32(&b, ppid);
	rb_u64(&b, t);
	rb_trailer(&b, TRAILER, pid, pid, t, ID, 0, 0);
	built_emit(w, &b);
}

static void sample(struct pev_data_writer *w, uint32_t pid, uint32_t tid, int n)
{
	for (int i = 0; i < n; i++) {
		t += 1000;
		rb_begin(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		rb_u64(&b, ID);
		rb_u64(&b, 0x400000 + tid);
		rb_u32(&b, pid);
		rb_u32(&b, tid);
		rb_u64(&b, t);
		rb_u64(&b, 1000);
		built_emit(w, &b);
	}
}

static void write_file(const char *path, bool refork)
{
	int fd;
	struct pev_data_writer *w = built_start(path, ST, ID, &fd);

	if (!w)
		return;
	if (refork) {
		/* seen by samples, then forked again (perf replaces the
		 * thread: the first entries keep ":700", and the sample after
		 * the FORK, also ":700", joins them), then named */
		comm(w, 100, 100, "init", false);
		sample(w, 700, 700, 3);
		fork_(w, 700, 600);
		sample(w, 700, 700, 1);
		comm(w, 700, 700, "cat", true);
		sample(w, 700, 700, 2);
		fork_(w, 710, 700);
		sample(w, 710, 710, 1);
		goto end;
	}
	comm(w, 100, 100, "init", false);
	/* seen by samples, then named (exec): the first samples take the name */
	sample(w, 200, 200, 2);
	comm(w, 200, 200, "sh", true);
	sample(w, 200, 200, 3);
	/* forked from a named parent: named, the COMM is a new name */
	fork_(w, 300, 100);
	sample(w, 300, 300, 4);
	comm(w, 300, 300, "ls", true);
	sample(w, 300, 300, 5);
	/* a thread of process 400, named by a COMM without exec */
	sample(w, 400, 401, 6);
	comm(w, 400, 401, "worker", false);
	sample(w, 400, 401, 1);
	/* forked from a parent never named: unnamed until its COMM */
	fork_(w, 500, 600);
	sample(w, 500, 500, 7);
	/* its child, forked before that COMM: ":510", not its parent's ":500" */
	fork_(w, 510, 500);
	sample(w, 510, 510, 9);
	comm(w, 500, 500, "dd", true);
	sample(w, 500, 500, 8);
	comm(w, 510, 510, "tr", true);
	sample(w, 510, 510, 2);
end:
	pev_data_writer_sample_time(w, 1000000000ull, t);
	CHECK_OK(pev_data_writer_finish(w));
	pev_data_writer_free(w);
	close(fd);
}

int main(void)
{
	char file[300];

	(void)report_cmp_write;

	report_cmp_start("/tmp/perfev-latecomm-XXXXXX", false);
	snprintf(file, sizeof(file), "%s/late.data", dir);
	write_file(file, false);
	same_report("late COMM", file, "--sort pid,comm");
	same_report("late COMM", file, "--sort comm");
	same_report("late COMM", file, "--sort pid");
	same_report("late COMM", file, "");
	same_report("late COMM", file, "--sort comm,pid -n");
	same_report("late COMM", file, "--sort comm,dso -g none");
	same_report("late COMM", file, "--sort comm --comms sh,dd");
	/* not the pid key: perf shows there the name of the entry's own
	 * thread object (":700" for the replaced one), perfev the tid's */
	snprintf(file, sizeof(file), "%s/refork.data", dir);
	write_file(file, true);
	same_report("FORK again", file, "--sort comm");
	same_report("FORK again", file, "");
	return report_cmp_end();
}
