// SPDX-License-Identifier: GPL-2.0-only
/* The thread/map model from constructed MMAP2 / FORK / COMM(exec) / EXIT
 * records: maps per process, fork copies, threads share, exec keeps maps
 * until replaced (as perf), comms, kernel maps and kernel symbols from a
 * constructed kallsyms file. */
#include <elf.h>
#include <unistd.h>

#include "testutil.h"
#include <perfev/perfev.h>
#include <perfev/symbols.h>

static struct pev_record mmap2(uint32_t pid, uint64_t addr, uint64_t len,
			       uint64_t pgoff, const char *file)
{
	struct pev_record r;

	memset(&r, 0, sizeof(r));
	r.type = PERF_RECORD_MMAP2;
	r.misc = pid == (uint32_t)-1 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	r.u.mmap.pid = pid;
	r.u.mmap.tid = pid;
	r.u.mmap.addr = addr;
	r.u.mmap.len = len;
	r.u.mmap.pgoff = pgoff;
	r.u.mmap.prot = 5;
	r.u.mmap.filename = file;
	return r;
}

static struct pev_record fork_rec(uint32_t type, uint32_t pid, uint32_t tid,
				  uint32_t ppid, uint32_t ptid)
{
	struct pev_record r;

	memset(&r, 0, sizeof(r));
	r.type = type;
	r.u.fork.pid = pid;
	r.u.fork.tid = tid;
	r.u.fork.ppid = ppid;
	r.u.fork.ptid = ptid;
	return r;
}

static struct pev_record comm(uint32_t pid, uint32_t tid, const char *c, bool exec)
{
	struct pev_record r;

	memset(&r, 0, sizeof(r));
	r.type = PERF_RECORD_COMM;
	r.misc = exec ? PERF_RECORD_MISC_COMM_EXEC : 0;
	r.u.comm.pid = pid;
	r.u.comm.tid = tid;
	r.u.comm.exec = exec;
	r.u.comm.comm = c;
	return r;
}

static const char *dso_at(struct pev_machine *m, uint32_t pid, uint64_t ip, uint64_t *map_ip)
{
	struct pev_addr_loc al;
	int rc = pev_machine_resolve(m, pid, ip, PERF_RECORD_MISC_USER, &al);

	if (map_ip)
		*map_ip = al.map_ip;
	return rc == 0 && al.dso ? pev_dso_name(al.dso) : "(none)";
}

#define FEED(m, rec) do { struct pev_record feed_rec_ = (rec); CHECK_OK(pev_machine_process(m, &feed_rec_)); } while (0)

int main(void)
{
	char ksyms[] = "/tmp/perfev-kallsyms-XXXXXX";
	int fd = mkstemp(ksyms);
	static const char ktext[] =
		"ffffffff81000000 T _text\n"
		"ffffffff81000100 T do_work\n"
		"ffffffff81000200 t helper\n";

	CHECK(fd >= 0);
	CHECK(write(fd, ktext, sizeof(ktext) - 1) == (ssize_t)(sizeof(ktext) - 1));
	close(fd);

	struct pev_dso_cache_opts o = { .size = sizeof(o), .buildid_dir = "",
					.kallsyms = ksyms, .no_debug_files = true };
	struct pev_dso_cache *c = pev_dso_cache_new(&o);
	struct pev_machine *m = pev_machine_new(c);
	uint64_t mip;

	CHECK(c && m);
	if (!m)
		return 1;
	CHECK_STR(pev_machine_comm(m, 0, 0), "swapper");
	CHECK_STR(pev_machine_comm(m, 77, 77), ":77");
	CHECK_EQ_INT(pev_machine_nr_maps(m, 100), -ENOENT);

	/* Process 100: two libraries. */
	FEED(m, comm(100, 100, "parent", false));
	FEED(m, mmap2(100, 0x400000, 0x2000, 0x1000, "/fake/app"));
	FEED(m, mmap2(100, 0x7f0000000000, 0x10000, 0, "/fake/libc.so"));
	CHECK_EQ_INT(pev_machine_nr_maps(m, 100), 2);
	CHECK_STR(dso_at(m, 100, 0x400010, &mip), "/fake/app");
	CHECK_EQ_U64(mip, 0x1010);	/* ip - start + pgoff */
	CHECK_STR(dso_at(m, 100, 0x3fffff, &mip), "(none)");
	CHECK_EQ_U64(mip, 0x3fffff);	/* unmapped: the ip itself */
	CHECK_STR(dso_at(m, 100, 0x402000, NULL), "(none)");	/* end is exclusive */
	CHECK_STR(dso_at(m, 100, 0x7f000000ffff, NULL), "/fake/libc.so");

	/* A map over the middle of another cuts it in two. */
	FEED(m, mmap2(100, 0x7f0000004000, 0x1000, 0, "/fake/plugin.so"));
	CHECK_EQ_INT(pev_machine_nr_maps(m, 100), 4);
	CHECK_STR(dso_at(m, 100, 0x7f0000004800, NULL), "/fake/plugin.so");
	CHECK_STR(dso_at(m, 100, 0x7f0000005010, &mip), "/fake/libc.so");
	CHECK_EQ_U64(mip, 0x5010);	/* the tail keeps its file offset */

	/* A thread shares the process's maps and inherits the comm. */
	FEED(m, fork_rec(PERF_RECORD_FORK, 100, 101, 100, 100));
	CHECK_STR(pev_machine_comm(m, 100, 101), "parent");
	CHECK_EQ_INT(pev_machine_nr_maps(m, 100), 4);
	FEED(m, comm(100, 101, "worker", false));
	CHECK_STR(pev_machine_comm(m, 100, 101), "worker");
	CHECK_STR(pev_machine_comm(m, 100, 100), "parent");

	/* A new process copies the parent's maps; later changes stay apart. */
	FEED(m, fork_rec(PERF_RECORD_FORK, 200, 200, 100, 100));
	CHECK_EQ_INT(pev_machine_nr_maps(m, 200), 4);
	CHECK_STR(pev_machine_comm(m, 200, 200), "parent");
	FEED(m, mmap2(200, 0x500000, 0x1000, 0, "/fake/child-only"));
	CHECK_EQ_INT(pev_machine_nr_maps(m, 200), 5);
	CHECK_EQ_INT(pev_machine_nr_maps(m, 100), 4);
	CHECK_STR(dso_at(m, 100, 0x500000, NULL), "(none)");
	CHECK_STR(dso_at(m, 200, 0x500000, NULL), "/fake/child-only");

	/* exec: the comm changes; old maps stay until new MMAPs cut them
	 * (perf's behaviour), unless the machine is told to reset. */
	FEED(m, comm(200, 200, "newprog", true));
	CHECK_STR(pev_machine_comm(m, 200, 200), "newprog");
	CHECK_STR(dso_at(m, 200, 0x400010, NULL), "/fake/app");
	FEED(m, mmap2(200, 0x400000, 0x1000, 0, "/fake/newprog"));
	CHECK_STR(dso_at(m, 200, 0x400010, NULL), "/fake/newprog");
	CHECK_STR(dso_at(m, 200, 0x401010, NULL), "/fake/app");	/* uncovered rest */
	pev_machine_set_flags(m, PEV_MACHINE_EXEC_RESETS_MAPS);
	FEED(m, comm(200, 200, "again", true));
	CHECK_EQ_INT(pev_machine_nr_maps(m, 200), 0);
	CHECK_STR(dso_at(m, 200, 0x400010, NULL), "(none)");
	pev_machine_set_flags(m, 0);

	/* EXIT keeps the thread for late samples. */
	FEED(m, fork_rec(PERF_RECORD_EXIT, 100, 101, 100, 100));
	CHECK_STR(pev_machine_comm(m, 100, 101), "worker");

	/* Anonymous memory is named as perf names JIT maps. */
	FEED(m, mmap2(100, 0x600000, 0x1000, 0, "//anon"));
	CHECK_STR(dso_at(m, 100, 0x600000, NULL), "/tmp/perf-100.map");

	/* Kernel maps (pid -1): the kernel map runs to the end of the address
	 * space; symbols come from the kallsyms file given. */
	FEED(m, mmap2((uint32_t)-1, 0xffffffff81000000, 0x1000, 0xffffffff81000000,
		      "[kernel.kallsyms]_text"));
	CHECK_EQ_INT(pev_machine_nr_maps(m, -1), 1);
	struct pev_addr_loc al;

	/* A kernel-space value met in user mode (frame-pointer garbage in a
	 * user call chain) is looked up in the process's maps only, as perf
	 * 6.1 does (it prints "[unknown] ([unknown])" for it). */
	CHECK_EQ_INT(pev_machine_resolve(m, 100, 0xffffffff81000105, PERF_RECORD_MISC_USER, &al),
		     -ENOENT);
	CHECK(!al.dso && !al.sym);
	/* With no mode given, a kernel-space address is the kernel's. */
	CHECK_OK(pev_machine_resolve(m, 100, 0xffffffff81000105, 0, &al));
	CHECK(al.kernel && al.dso && al.sym);
	CHECK_STR(pev_dso_name(al.dso), "[kernel.kallsyms]");
	CHECK_EQ_U64(al.map_ip, 0xffffffff81000105);	/* identity */
	CHECK_STR(al.sym ? al.sym->name : NULL, "do_work");
	CHECK_EQ_U64(al.sym_off, 5);
	CHECK_OK(pev_machine_resolve(m, 100, 0xffffffff81000210, PERF_RECORD_MISC_KERNEL, &al));
	CHECK_STR(al.sym ? al.sym->name : NULL, "helper");
	CHECK_EQ_U64(al.sym_off, 0x10);
	/* Same again: from the cache, same answer. */
	CHECK_OK(pev_machine_resolve(m, 100, 0xffffffff81000210, PERF_RECORD_MISC_KERNEL, &al));
	CHECK_STR(al.sym ? al.sym->name : NULL, "helper");
	/* User space of a process that does not exist. */
	CHECK_EQ_INT(pev_machine_resolve(m, 999, 0x1234, PERF_RECORD_MISC_USER, &al), -ENOENT);
	CHECK(!al.dso && al.map_ip == 0x1234);

	pev_machine_free(m);
	pev_dso_cache_free(c);
	pev_machine_free(NULL);
	pev_dso_cache_free(NULL);
	unlink(ksyms);
	return t_done();
}
