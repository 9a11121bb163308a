// SPDX-License-Identifier: GPL-2.0-only
/* perfev stat under injected syscall failures (see fault.h for the rules
 * each case is held to).  `when=1` fails the first call, `when=N+` every
 * call from the Nth; -P limits a fault to calls on perf_event fds. */
#include "fault.h"

#define PEFD "-P 'anon_inode:[perf_event]'"
#define STAT "@P stat -e task-clock -- @H/record_work -m 30"
#define STAT2 "@P stat -e task-clock,cpu-clock -- @H/record_work -m 30"

static const struct fx_case cases[] = {
	/* perf_event_open: the first event, a later one, retried EINTR */
	{ "perf_event_open EPERM first", "-e inject=perf_event_open:error=EPERM:when=1+",
	  STAT, FX_ERR, "cannot open 'task-clock'|EPERM", 0, NULL },
	{ "perf_event_open EACCES first", "-e inject=perf_event_open:error=EACCES:when=1+",
	  STAT, FX_ERR, "cannot open 'task-clock'", 0, NULL },
	{ "perf_event_open ENOSYS first", "-e inject=perf_event_open:error=ENOSYS:when=1+",
	  STAT, FX_ERR, "cannot open 'task-clock'", 0, NULL },
	{ "perf_event_open EMFILE first", "-e inject=perf_event_open:error=EMFILE:when=1+",
	  STAT, FX_ERR, "cannot open 'task-clock'|too many open files", 0, NULL },
	{ "perf_event_open ENOMEM first", "-e inject=perf_event_open:error=ENOMEM:when=1+",
	  STAT, FX_ERR, "cannot open 'task-clock'", 0, NULL },
	{ "perf_event_open EMFILE second", "-e inject=perf_event_open:error=EMFILE:when=2+",
	  STAT2, FX_ANY, "cpu-clock|too many open files", C_STAT | C_WARN, NULL },
	{ "perf_event_open EINTR retried", "-e inject=perf_event_open:error=EINTR:when=1",
	  STAT, FX_OK, NULL, C_STAT | C_SPIN30, NULL },
	{ "perf_event_open EAGAIN retried", "-e inject=perf_event_open:error=EAGAIN:when=1",
	  STAT, FX_OK, NULL, C_STAT | C_SPIN30, NULL },
	/* ioctl and read on the counters */
	{ "ioctl EIO every", PEFD " -e inject=ioctl:error=EIO:when=1+",
	  STAT, FX_ERR, "Input/output error", 0, NULL },
	{ "ioctl EINTR retried", PEFD " -e inject=ioctl:error=EINTR:when=1",
	  STAT, FX_OK, NULL, C_STAT | C_SPIN30, NULL },
	{ "read EIO first", PEFD " -e inject=read:error=EIO:when=1+",
	  STAT, FX_ERR, "cannot read|Input/output error", 0, NULL },
	{ "read EINTR retried", PEFD " -e inject=read:error=EINTR:when=1",
	  STAT, FX_OK, NULL, C_STAT | C_SPIN30, NULL },
	{ "read EIO later (-I)", PEFD " -e inject=read:error=EIO:when=3+",
	  "@P stat -I 20 -e task-clock -- @H/record_work -m 100", FX_ERR,
	  "cannot read|Input/output error", 0, NULL },
	/* waiting for the workload */
	{ "poll EINTR retried", "-e inject=poll:error=EINTR:when=1",
	  STAT, FX_OK, NULL, C_STAT | C_SPIN30, NULL },
	{ "poll ENOMEM every", "-e inject=poll:error=ENOMEM:when=1+",
	  STAT, FX_ANY, "poll|Cannot allocate memory", C_STAT | C_SPIN30, NULL },
	{ "poll EINTR -I later", "-e inject=poll:error=EINTR:when=3",
	  "@P stat -I 20 -e task-clock -- @H/record_work -m 100", FX_OK, NULL, 0, NULL },
	{ "pidfd_open ENOSYS fallback", "-e inject=pidfd_open:error=ENOSYS:when=1+",
	  STAT, FX_OK, NULL, C_STAT | C_SPIN30, NULL },
	{ "pidfd_open EPERM fallback", "-e inject=pidfd_open:error=EPERM:when=1+",
	  STAT, FX_OK, NULL, C_STAT | C_SPIN30, NULL },
	{ "pidfd_open EMFILE fallback", "-e inject=pidfd_open:error=EMFILE:when=1+",
	  STAT, FX_OK, NULL, C_STAT | C_SPIN30, NULL },
	{ "pidfd_open ENOSYS -p PID", "-e inject=pidfd_open:error=ENOSYS:when=1+",
	  "@P stat -e task-clock -p $w", FX_OK, NULL, C_STAT,
	  "@H/record_work -s -m 300 & w=$!" },
	{ "pidfd_open ENOSYS -r 3", "-e inject=pidfd_open:error=ENOSYS:when=1+",
	  "@P stat -r 3 -e task-clock -- true", FX_OK, NULL, C_STAT, NULL },
	{ "wait4 EINTR retried", "-e inject=wait4:error=EINTR:when=1",
	  STAT, FX_OK, NULL, C_STAT | C_SPIN30, NULL },
	{ "wait4 EINTR second", "-e inject=wait4:error=EINTR:when=2",
	  STAT, FX_OK, NULL, C_STAT | C_SPIN30, NULL },
	/* starting the workload: fork, exec */
	{ "clone EAGAIN", "-e inject=clone,clone3,fork,vfork:error=EAGAIN:when=1+",
	  STAT, FX_ERR, "Resource temporarily unavailable", 0, NULL },
	{ "clone ENOMEM", "-e inject=clone,clone3,fork,vfork:error=ENOMEM:when=1+",
	  STAT, FX_ERR, "Cannot allocate memory", 0, NULL },
	{ "execve EACCES", "-e inject=execve:error=EACCES:when=1+",
	  STAT, FX_ERR, "record_work|Permission denied", 0, NULL },
	{ "execve ENOMEM", "-e inject=execve:error=ENOMEM:when=1+",
	  STAT, FX_ERR, "record_work|Cannot allocate memory", 0, NULL },
	{ "execve ENOENT", "-e inject=execve:error=ENOENT:when=1+",
	  STAT, FX_ERR, "record_work|No such file", 0, NULL },
	/* the CLI makes no prctl call; the case keeps it so */
	{ "prctl EPERM", "-e inject=prctl:error=EPERM:when=1+",
	  STAT, FX_OK, NULL, C_STAT | C_SPIN30, NULL },
	/* writing the counts: stderr by default, -o FILE */
	{ "write -o ENOSPC", "-P @D/counts -e inject=write:error=ENOSPC:when=1+",
	  "@P stat -o @D/counts -e task-clock -- true", FX_ERR,
	  "counts|No space left on device", 0, NULL },
	{ "write -o -I EIO later", "-P @D/counts -e inject=write:error=EIO:when=3+",
	  "@P stat -I 20 -o @D/counts -e task-clock -- @H/record_work -m 100", FX_ERR,
	  "counts|Input/output error", 0, NULL },
	{ "write -x stdout ENOSPC", "-P @D/out -e inject=write:error=ENOSPC:when=1+",
	  "@P stat -x, -o /dev/stdout -e task-clock -- true", FX_ERR,
	  "No space left on device", 0, NULL },
	{ "openat -o EACCES", "-P @D/counts -e inject=openat:error=EACCES:when=1+",
	  "@P stat -o @D/counts -e task-clock -- true", FX_ERR,
	  "counts|Permission denied", 0, NULL },
	/* tracefs: mounted by perfev when missing; mount refused */
	{ "mount EPERM tracefs", "-e inject=mount:error=EPERM:when=1+",
	  "@P stat -e sched:sched_process_exec -- true", FX_ERR,
	  "tracefs|not permitted", C_MNTNS,
	  "umount /sys/kernel/tracing 2>/dev/null; "
	  "umount /sys/kernel/debug/tracing 2>/dev/null; true" },
};

int main(void)
{
	fx_init();
	return fx_run_all(cases, sizeof(cases) / sizeof(cases[0]));
}
