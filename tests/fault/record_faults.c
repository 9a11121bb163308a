// SPDX-License-Identifier: GPL-2.0-only
/* perfev record (to a file and to `-o -`) under injected syscall failures;
 * the rules are in fault.h.  Whenever perfev says a file was written (exit
 * 0, or "cut back"), perf script must read it and find as many samples as
 * the summary says. */
#include "fault.h"

#define PEFD "-P 'anon_inode:[perf_event]'"
#define OUTF "-P @D/perf.data"
#define WORK "-- @H/record_work -m 60"
#define REC "@P record -e task-clock -c 100000 -o @D/perf.data " WORK
#define RECP "@P record -e task-clock -c 100000 -o - " WORK

static const struct fx_case cases[] = {
	/* opening the events and their rings */
	{ "perf_event_open EACCES", "-e inject=perf_event_open:error=EACCES:when=1+",
	  REC, FX_ERR, "cannot open 'task-clock'", C_FILE, NULL },
	{ "perf_event_open EMFILE", "-e inject=perf_event_open:error=EMFILE:when=1+",
	  REC, FX_ERR, "cannot open 'task-clock'|too many open files", C_FILE, NULL },
	{ "perf_event_open EINTR retried", "-e inject=perf_event_open:error=EINTR:when=1",
	  REC, FX_OK, NULL, C_FILE, NULL },
	{ "mmap ring ENOMEM every", PEFD " -e inject=mmap:error=ENOMEM:when=1+",
	  REC, FX_ERR, "ring|Cannot allocate memory", C_FILE, NULL },
	{ "mmap ring EPERM first (smaller ring)", PEFD " -e inject=mmap:error=EPERM:when=1",
	  REC, FX_OK, NULL, C_FILE, NULL },
	{ "mmap ring EPERM every", PEFD " -e inject=mmap:error=EPERM:when=1+",
	  REC, FX_ERR, "ring", C_FILE, NULL },
	{ "ioctl EIO every, two events", PEFD " -e inject=ioctl:error=EIO:when=1+",
	  "@P record -e task-clock,cpu-clock -c 100000 -o @D/perf.data " WORK, FX_ANY,
	  "Input/output error", C_FILE, NULL },
	{ "ioctl EINTR retried", PEFD " -e inject=ioctl:error=EINTR:when=1",
	  "@P record -e task-clock,cpu-clock -c 100000 -o @D/perf.data " WORK, FX_OK,
	  NULL, C_FILE, NULL },
	{ "ioctl EIO later", PEFD " -e inject=ioctl:error=EIO:when=3+",
	  REC, FX_ANY, "Input/output error", C_FILE, NULL },
	/* waiting: poll on the rings, the workload's end */
	{ "poll EINTR retried", "-e inject=poll:error=EINTR:when=1",
	  REC, FX_OK, NULL, C_FILE, NULL },
	{ "poll EINTR later", "-e inject=poll:error=EINTR:when=3",
	  REC, FX_OK, NULL, C_FILE, NULL },
	{ "poll ENOMEM every", "-e inject=poll:error=ENOMEM:when=1+",
	  REC, FX_ANY, "poll|Cannot allocate memory", C_FILE, NULL },
	{ "pidfd_open ENOSYS", "-e inject=pidfd_open:error=ENOSYS:when=1+",
	  REC, FX_OK, NULL, C_FILE, NULL },
	{ "wait4 EINTR retried", "-e inject=wait4:error=EINTR:when=1",
	  REC, FX_OK, NULL, C_FILE, NULL },
	{ "clone EAGAIN", "-e inject=clone,clone3,fork,vfork:error=EAGAIN:when=1+",
	  REC, FX_ERR, "Resource temporarily unavailable", 0, NULL },
	{ "execve EACCES", "-e inject=execve:error=EACCES:when=1+",
	  REC, FX_ERR, "record_work|Permission denied", 0, NULL },
	/* the output file: open, rename of the old one, writes, cut back */
	{ "openat EACCES", OUTF " -e inject=openat:error=EACCES:when=1+",
	  REC, FX_ERR, "perf.data|Permission denied", 0, NULL },
	{ "openat ENOSPC", OUTF " -e inject=openat:error=ENOSPC:when=1+",
	  REC, FX_ERR, "perf.data|No space left on device", 0, NULL },
	{ "openat EMFILE", OUTF " -e inject=openat:error=EMFILE:when=1+",
	  REC, FX_ERR, "perf.data|Too many open files", 0, NULL },
	{ "rename EACCES (old file kept)", OUTF " -e inject=rename:error=EACCES:when=1+",
	  REC, FX_ERR, "perf.data|Permission denied", C_OLD, "echo old >perf.data" },
	{ "rename EIO (old file kept)", OUTF " -e inject=rename:error=EIO:when=1+",
	  REC, FX_ERR, "perf.data|Input/output error", C_OLD, "echo old >perf.data" },
	{ "pwrite64 ENOSPC header", OUTF " -e inject=pwrite64:error=ENOSPC:when=1+",
	  REC, FX_ERR, "write the header of|perf.data|No space left on device", C_FILE, NULL },
	{ "pwrite64 ENOSPC records", OUTF " -e inject=pwrite64:error=ENOSPC:when=16+",
	  REC, FX_ERR, "perf.data|No space left on device", C_FILE, NULL },
	{ "pwrite64 EIO features", OUTF " -e inject=pwrite64:error=EIO:when=24+",
	  REC, FX_ERR, "perf.data|Input/output error", C_FILE, NULL },
	{ "pwrite64 EIO once", OUTF " -e inject=pwrite64:error=EIO:when=18",
	  REC, FX_ERR, "perf.data|Input/output error", C_FILE, NULL },
	{ "pwrite64 ENOSPC records -z", OUTF " -e inject=pwrite64:error=ENOSPC:when=16+",
	  "@P record -z -e task-clock -c 100000 -o @D/perf.data " WORK, FX_ERR,
	  "perf.data|No space left on device", C_FILE, NULL },
	{ "pwrite64 EINTR retried", OUTF " -e inject=pwrite64:error=EINTR:when=2",
	  REC, FX_OK, NULL, C_FILE, NULL },
	{ "pwrite64 EAGAIN retried", OUTF " -e inject=pwrite64:error=EAGAIN:when=17",
	  REC, FX_OK, NULL, C_FILE, NULL },
	{ "ftruncate EIO", OUTF " -e inject=ftruncate:error=EIO:when=1+",
	  REC, FX_ANY, "perf.data|Input/output error", C_FILE, NULL },
	{ "ftruncate EPERM", OUTF " -e inject=ftruncate:error=EPERM:when=1+",
	  REC, FX_ANY, "perf.data|Operation not permitted", C_FILE, NULL },
	{ "mmap file ENOMEM (build ids)", OUTF " -e inject=mmap:error=ENOMEM:when=1+",
	  REC, FX_ANY, "build ids|Cannot allocate memory", C_FILE | C_WARN, NULL },
	/* -o -: the stream */
	{ "pipe write ENOSPC first", "-P @D/out -e inject=write:error=ENOSPC:when=1+",
	  RECP, FX_ERR, "write the header of|No space left on device", C_PIPE, NULL },
	{ "pipe write EIO later", "-P @D/out -e inject=write:error=EIO:when=6+",
	  RECP, FX_ERR, "Input/output error", C_PIPE, NULL },
	{ "pipe write EINTR retried", "-P @D/out -e inject=write:error=EINTR:when=3",
	  RECP, FX_OK, NULL, C_PIPE, NULL },
	{ "pipe write EAGAIN retried", "-P @D/out -e inject=write:error=EAGAIN:when=4",
	  RECP, FX_OK, NULL, C_PIPE, NULL },
	{ "pipe mmap ring ENOMEM", PEFD " -e inject=mmap:error=ENOMEM:when=1+",
	  RECP, FX_ERR, "ring|Cannot allocate memory", C_PIPE, NULL },
	{ "pipe poll EINTR", "-e inject=poll:error=EINTR:when=2",
	  RECP, FX_OK, NULL, C_PIPE, NULL },
	/* -a with no command, ended by --timeout-like means: a short sleep */
	{ "-a read EIO (sysfs, /proc)", "-e inject=read:error=EIO:when=@R30",
	  "@P record -a -e cpu-clock -c 1000000 -o @D/perf.data -- sleep 0.2", FX_ANY,
	  "Input/output error", C_FILE, NULL },
	/* tracefs mount refused */
	{ "mount EPERM tracefs", "-e inject=mount:error=EPERM:when=1+",
	  "@P record -e sched:sched_process_exec -o @D/perf.data -- true", FX_ERR,
	  "tracefs|not permitted", C_MNTNS,
	  "umount /sys/kernel/tracing 2>/dev/null; umount /sys/kernel/debug/tracing 2>/dev/null; true" },
};

int main(void)
{
	fx_init();
	return fx_run_all(cases, sizeof(cases) / sizeof(cases[0]));
}
