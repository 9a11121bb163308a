// SPDX-License-Identifier: GPL-2.0-only
/* task=1 sideband on an inherited dummy event: forking a child that exits
 * gives exactly one PERF_RECORD_FORK (child pid/tid, our pid/tid as
 * parent) and one PERF_RECORD_EXIT for the child, decoded with
 * pev_record_decode.  The kernel refuses mmap of an inherited event with
 * cpu = -1, so the event is opened on each online CPU with its own ring. */
#include <sys/wait.h>
#include <perfev/perfev.h>
#include "ring_live.h"

#define MAX_CPUS 64

int main(void)
{
	int cpus[MAX_CPUS];
	int ncpu = pev_cpus_online(cpus, MAX_CPUS);
	if (ncpu < 0)
		T_FATAL("pev_cpus_online: %s", strerror(-ncpu));

	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_DUMMY;
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_IDENTIFIER;
	a.task = 1;
	a.comm = 1;
	a.comm_exec = 1;
	a.sample_id_all = 1;
	a.inherit = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;

	/* Why per CPU: an inherited task event with cpu = -1 cannot be mapped. */
	struct perf_event_attr any = a;
	int fany = pev_sys_open(&any, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	skip_if_cannot_open(fany, &a, 0, -1, "dummy, inherit, cpu -1");
	struct pev_ring_opts o = { .size = sizeof(o), .data_pages = 1 };
	errno = 0;
	struct pev_ring *bad = pev_ring_new(fany, &o, NULL);
	CHECK(bad == NULL);
	CHECK_EQ_INT(errno, EINVAL);
	pev_ring_free(bad);
	close(fany);

	struct pev_decoder *d = pev_decoder_new();
	CHECK(d != NULL);
	int fds[MAX_CPUS];
	struct pev_ring *rings[MAX_CPUS];
	uint64_t ids[MAX_CPUS];
	for (int i = 0; i < ncpu; i++) {
		struct perf_event_attr c = a;
		fds[i] = pev_sys_open(&c, 0, cpus[i], -1, PERF_FLAG_FD_CLOEXEC);
		skip_if_cannot_open(fds[i], &a, 0, cpus[i], "dummy, inherit, per cpu");
		rings[i] = map_ring(fds[i], 8, PEV_RING_FORWARD);
		CHECK_OK(pev_ioc_id(fds[i], &ids[i]));
	}
	CHECK_EQ_INT(pev_decoder_add_attr(d, &a, ids, (size_t)ncpu), 0);

	pid_t me = getpid(), mytid = gettid();
	pid_t child = fork();
	if (child < 0)
		T_FATAL("fork: %s", strerror(errno));
	if (child == 0) {
		usleep(20000);
		_exit(0);
	}
	int status = 0;
	CHECK_EQ_INT(waitpid(child, &status, 0), child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	for (int i = 0; i < ncpu; i++)
		CHECK_OK(pev_ioc_disable(fds[i], false));

	unsigned forks = 0, exits = 0, other_fork = 0, other_exit = 0, total = 0;
	for (int i = 0; i < ncpu; i++) {
		const struct perf_event_header *h;
		if (pev_ring_read_init(rings[i]) <= 0)
			continue;
		while (pev_ring_read_next(rings[i], &h) > 0) {
			struct pev_record rec;
			total++;
			int rc = pev_record_decode(d, h, h->size, &rec);
			CHECK_MSG(rc == 0, "decode type %u: %s (%s at %zu)", h->type,
				  strerror(-rc), rec.error.field ? rec.error.field : "?",
				  rec.error.offset);
			if (rc)
				continue;
			CHECK(rec.has_sample_id);
			CHECK_EQ_U64(rec.sample_id.id, ids[i]);
			if (rec.type == PERF_RECORD_FORK) {
				const struct pev_record_fork *f = &rec.u.fork;
				if (f->pid != (uint32_t)child) {
					other_fork++;
					continue;
				}
				forks++;
				CHECK_EQ_INT(f->tid, child);
				CHECK_EQ_INT(f->ppid, me);
				CHECK_EQ_INT(f->ptid, mytid);
				CHECK(f->time != 0);
				/* Written in the parent's context. */
				CHECK_EQ_INT(rec.sample_id.pid, me);
				CHECK_EQ_INT(rec.sample_id.tid, mytid);
				/* The kernel reads the clock twice: the
				 * trailer's time and the body's differ a bit. */
				CHECK(rec.sample_id.time != 0);
				CHECK(rec.sample_id.time + 10000000 > f->time &&
				      f->time + 10000000 > rec.sample_id.time);
			} else if (rec.type == PERF_RECORD_EXIT) {
				const struct pev_record_fork *f = &rec.u.fork;
				if (f->pid != (uint32_t)child) {
					other_exit++;
					continue;
				}
				exits++;
				CHECK_EQ_INT(f->tid, child);
				CHECK_EQ_INT(f->ppid, me);
				CHECK_EQ_INT(f->ptid, me);	/* the kernel puts the pid here */
				/* Written by the exiting child through its
				 * inherited event. */
				CHECK_EQ_INT(rec.sample_id.pid, child);
				CHECK_EQ_INT(rec.sample_id.tid, child);
			}
		}
		CHECK_OK(pev_ring_read_done(rings[i]));
	}
	printf("%d cpus, %u records: %u FORK and %u EXIT of child %d, other fork %u exit %u\n",
	       ncpu, total, forks, exits, (int)child, other_fork, other_exit);
	CHECK_EQ_INT(forks, 1);
	CHECK_EQ_INT(exits, 1);
	CHECK_EQ_INT(other_fork, 0);
	CHECK_EQ_INT(other_exit, 0);

	for (int i = 0; i < ncpu; i++) {
		pev_ring_free(rings[i]);
		close(fds[i]);
	}
	pev_decoder_free(d);
	return t_done();
}
