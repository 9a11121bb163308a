// SPDX-License-Identifier: GPL-2.0-only
/* perfev script (a file, and a pipe on stdin) and perfev list under
 * injected syscall failures; the rules are in fault.h.  A script that
 * exits 0 must have printed what perf script prints for the same input. */
#include "fault.h"

#define F "-F comm,tid,time,period,event,ip"
#define SCRIPT "@P script " F " -i @I/in.data"
/* a real pipe (a FIFO, so that -P can name it), fed by cat */
#define FEED "mkfifo @D/ff && (cat @I/in.pipe >@D/ff &)"
#define SCRIPTP "@P script " F " -i - <@D/ff"

static const struct fx_case cases[] = {
	/* the input file */
	{ "file openat EACCES", "-P @I/in.data -e inject=openat:error=EACCES:when=1+",
	  SCRIPT, FX_ERR, "in.data|Permission denied", 0, NULL },
	{ "file openat EMFILE", "-P @I/in.data -e inject=openat:error=EMFILE:when=1+",
	  SCRIPT, FX_ERR, "in.data|Too many open files", 0, NULL },
	{ "file openat ENOMEM", "-P @I/in.data -e inject=openat:error=ENOMEM:when=1+",
	  SCRIPT, FX_ERR, "in.data|Cannot allocate memory", 0, NULL },
	{ "file mmap ENOMEM", "-P @I/in.data -e inject=mmap:error=ENOMEM:when=1+",
	  SCRIPT, FX_ANY, "in.data|Cannot allocate memory", C_SCRIPT, NULL },
	{ "file read EIO", "-P @I/in.data -e inject=read,pread64:error=EIO:when=1+",
	  SCRIPT, FX_ANY, "in.data|Input/output error", C_SCRIPT, NULL },
	{ "file read EINTR", "-P @I/in.data -e inject=read,pread64:error=EINTR:when=1",
	  SCRIPT, FX_OK, NULL, C_SCRIPT, NULL },
	/* side inputs: symbols are extras, their loss is no failure */
	{ "kallsyms openat EACCES", "-P /proc/kallsyms -e inject=openat:error=EACCES:when=1+",
	  SCRIPT, FX_OK, NULL, C_SCRIPT, NULL },
	{ "openat EMFILE later (dsos)", "-e inject=openat:error=EMFILE:when=@O3+",
	  SCRIPT, FX_ANY, "Too many open files", C_SCRIPT, NULL },
	/* stdout */
	{ "stdout write ENOSPC", "-P @D/out -e inject=write:error=ENOSPC:when=1+",
	  SCRIPT, FX_ERR, "No space left on device", 0, NULL },
	{ "stdout write EIO later (-D)", "-P @D/out -e inject=write:error=EIO:when=2+",
	  "@P script -D -i @I/in.big", FX_ERR, "Input/output error", 0, NULL },
	{ "stdout write EINTR", "-P @D/out -e inject=write:error=EINTR:when=1",
	  SCRIPT, FX_OK, NULL, C_SCRIPT, NULL },
	{ "stdout write EAGAIN", "-P @D/out -e inject=write:error=EAGAIN:when=2",
	  SCRIPT, FX_OK, NULL, C_SCRIPT, NULL },
	/* a pipe on stdin */
	{ "pipe read EIO first", "-P @D/ff -e inject=read:error=EIO:when=1+",
	  SCRIPTP, FX_ERR, "Input/output error", 0, FEED },
	{ "pipe read EIO later", "-P @D/ff -e inject=read:error=EIO:when=2+",
	  SCRIPTP, FX_ERR, "Input/output error", 0, FEED },
	{ "pipe read EINTR", "-P @D/ff -e inject=read:error=EINTR:when=2",
	  SCRIPTP, FX_OK, NULL, C_SCRIPTP, FEED },
	{ "pipe read EAGAIN", "-P @D/ff -e inject=read:error=EAGAIN:when=1",
	  SCRIPTP, FX_OK, NULL, C_SCRIPTP, FEED },
	{ "pipe stdout ENOSPC", "-P @D/out -e inject=write:error=ENOSPC:when=1+",
	  SCRIPTP, FX_ERR, "No space left on device", 0, FEED },
	/* perfev list */
	{ "list stdout ENOSPC", "-P @D/out -e inject=write:error=ENOSPC:when=1+",
	  "@P list", FX_ERR, "No space left on device", 0, NULL },
	{ "list stdout EIO later", "-P @D/out -e inject=write:error=EIO:when=2+",
	  "@P list", FX_ERR, "Input/output error", 0, NULL },
	{ "list openat EMFILE (sysfs)", "-e inject=openat:error=EMFILE:when=@O2+",
	  "@P list", FX_ANY, "cannot read PMU|Too many open files", C_LIST | C_WARN, NULL },
	{ "list openat EACCES later", "-e inject=openat:error=EACCES:when=@O6",
	  "@P list", FX_ANY, "Permission denied", C_LIST | C_WARN, NULL },
	{ "list read EIO (sysfs)", "-e inject=read:error=EIO:when=@R1+",
	  "@P list", FX_ANY, "cannot read PMU|Input/output error", C_LIST | C_WARN, NULL },
	{ "list read EINTR", "-e inject=read:error=EINTR:when=@R2",
	  "@P list", FX_OK, NULL, C_LIST, NULL },
	{ "list tracepoint mount EPERM", "-e inject=mount:error=EPERM:when=1+",
	  "@P list tracepoint", FX_ANY, "tracefs|not permitted", C_MNTNS | C_WARN,
	  "umount /sys/kernel/tracing 2>/dev/null; umount /sys/kernel/debug/tracing 2>/dev/null; true" },
};

int main(void)
{
	fx_init();
	/* The inputs, and perf script's output of each: the expected text. */
	if (t_sh("cd %s && %s record -q -e task-clock -F 5000 -o in.data -- %s/record_work -m 60 &&"
		 " %s record -q -e task-clock -F 5000 -o - -- %s/record_work -m 60 >in.pipe &&"
		 " %s record -q -e task-clock -c 25000 -o in.big -- %s/record_work -m 100 &&"
		 " perf script " F " -i in.data >expect.data 2>/dev/null &&"
		 " perf script " F " -i - <in.pipe >expect.pipe 2>/dev/null",
		 fx_root, fx_perfev, fx_helpers, fx_perfev, fx_helpers, fx_perfev, fx_helpers))
		T_FATAL("cannot make the inputs in %s", fx_root);
	return fx_run_all(cases, sizeof(cases) / sizeof(cases[0]));
}
