// SPDX-License-Identifier: GPL-2.0-only
/* Synthesis for the current process: FORK and COMM for our thread with
 * the right pid/tid and comm, an MMAP2 for our own executable, the kernel
 * map from /proc/kallsyms; every record decodes with its trailer. */
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "../testutil.h"
#include <perfev/perfev.h>

struct seen {
	struct pev_decoder *dec;
	int comm, fork, mmap_exe, kernel, total;
	char exe[4096];
	uint64_t kaddr;
};

static int collect(const void *rec, size_t len, void *user)
{
	struct seen *s = user;
	struct pev_record r;
	int e = pev_record_decode(s->dec, rec, len, &r);

	CHECK_EQ_INT(e, 0);
	if (e < 0)
		return 0;
	s->total++;
	if (r.type != PERF_RECORD_MMAP) {
		CHECK(r.has_sample_id);
		CHECK_EQ_U64(r.sample_id.id, 42);
		CHECK_EQ_U64(r.sample_id.time, 0);
	}
	switch (r.type) {
	case PERF_RECORD_COMM:
		if (r.u.comm.pid == (uint32_t)getpid() &&
		    r.u.comm.tid == (uint32_t)getpid()) {
			CHECK_STR(r.u.comm.comm, "synth_self");
			CHECK_EQ_U64(r.sample_id.pid, getpid());
			CHECK_EQ_U64(r.sample_id.tid, getpid());
			s->comm++;
		}
		break;
	case PERF_RECORD_FORK:
		if (r.u.fork.tid == (uint32_t)getpid()) {
			CHECK_EQ_U64(r.u.fork.pid, getpid());
			CHECK_EQ_U64(r.u.fork.ppid, getppid());
			s->fork++;
		}
		break;
	case PERF_RECORD_MMAP2:
		CHECK_EQ_U64(r.u.mmap.pid, getpid());
		CHECK_EQ_U64(r.u.mmap.tid, getpid());
		CHECK(r.u.mmap.prot & PROT_EXEC);
		if (!strcmp(r.u.mmap.filename, s->exe)) {
			struct stat st;

			CHECK_OK(stat(s->exe, &st));
			CHECK_EQ_U64(r.u.mmap.ino, st.st_ino);
			CHECK_EQ_U64(r.u.mmap.maj, major(st.st_dev));
			CHECK_EQ_U64(r.u.mmap.min, minor(st.st_dev));
			CHECK((uint64_t)(uintptr_t)&collect >= r.u.mmap.addr &&
			      (uint64_t)(uintptr_t)&collect < r.u.mmap.addr + r.u.mmap.len);
			CHECK_EQ_U64(r.misc, PERF_RECORD_MISC_USER);
			s->mmap_exe++;
		}
		break;
	case PERF_RECORD_MMAP:
		CHECK_EQ_U64(r.u.mmap.pid, UINT32_MAX);
		CHECK_STR(r.u.mmap.filename, "[kernel.kallsyms]_text");
		CHECK_EQ_U64(r.misc, PERF_RECORD_MISC_KERNEL);
		CHECK_EQ_U64(r.u.mmap.addr, s->kaddr);
		CHECK_EQ_U64(r.u.mmap.pgoff, s->kaddr);
		CHECK(r.u.mmap.len > 0);
		s->kernel++;
		break;
	}
	return 0;
}

int main(void)
{
	struct perf_event_attr a;
	struct seen s = { 0 };
	uint64_t id = 42;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	a.sample_id_all = 1;
	s.dec = pev_decoder_new();
	CHECK_OK(pev_decoder_add_attr(s.dec, &a, &id, 1));
	ssize_t n = readlink("/proc/self/exe", s.exe, sizeof(s.exe) - 1);

	CHECK(n > 0);
	FILE *k = fopen("/proc/kallsyms", "r");
	char line[512], name[256], t;
	unsigned long long addr;

	while (k && fgets(line, sizeof(line), k))
		if (sscanf(line, "%llx %c %255s", &addr, &t, name) == 3 &&
		    !strcmp(name, "_text")) {
			s.kaddr = addr;
			break;
		}
	if (k)
		fclose(k);
	struct pev_synth_opts o = { .size = sizeof(o), .attr = &a, .id = id };
	long r = pev_synth_process(getpid(), &o, collect, &s);

	CHECK(r >= 3);
	CHECK_EQ_INT(r, s.total);
	CHECK_EQ_INT(s.comm, 1);
	CHECK_EQ_INT(s.fork, 1);
	CHECK_EQ_INT(s.mmap_exe >= 1, 1);
	CHECK_EQ_INT(pev_synth_kernel_mmap(&o, collect, &s), 1);
	CHECK_EQ_INT(s.kernel, 1);
	CHECK_EQ_INT(pev_synth_process(999999999, &o, collect, &s), -ESRCH);
	CHECK(pev_synth_modules(&o, collect, &s) >= 0);
	/* build ids: our own executable (the toolchain adds one) and the
	 * kernel's */
	uint8_t bid[20];
	int b = pev_elf_build_id(s.exe, bid, sizeof(bid));

	CHECK_EQ_INT(b, 20);	/* Debian's gcc links with --build-id */
	b = pev_kernel_build_id(bid, sizeof(bid));
	if (access("/sys/kernel/notes", R_OK) == 0)
		CHECK_EQ_INT(b, 20);
	CHECK_EQ_INT(pev_elf_build_id("/proc/self/status", bid, 20), -ENOEXEC);
	pev_decoder_free(s.dec);
	return t_done();
}
