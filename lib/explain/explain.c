// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* errno + attr + target + system settings -> what went wrong and what to
 * do.  The checks for each errno are ranked by the order in which the
 * kernel makes them (kernel/events/core.c: perf_copy_attr, then
 * perf_event_open, perf_event_alloc, the PMU's event_init, the context and
 * group checks), so the first match is the field the kernel refused. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>

#include <perfev/explain.h>
#include <perfev/sys.h>

#include "explain/explain_priv.h"

static const char *const kind_names[PEV_EXPLAIN__COUNT] = {
	[PEV_EXPLAIN_UNKNOWN] = "unknown",
	[PEV_EXPLAIN_ATTR_SIZE] = "attr-size",
	[PEV_EXPLAIN_ATTR_UNKNOWN_FIELD] = "attr-unknown-field",
	[PEV_EXPLAIN_GROUP_TOO_BIG] = "group-too-big",
	[PEV_EXPLAIN_PARANOID_ALL] = "paranoid-all",
	[PEV_EXPLAIN_PARANOID_CPU] = "paranoid-cpu",
	[PEV_EXPLAIN_PARANOID_KERNEL] = "paranoid-kernel",
	[PEV_EXPLAIN_PARANOID_TRACEPOINT] = "paranoid-tracepoint",
	[PEV_EXPLAIN_OTHER_USER] = "other-user",
	[PEV_EXPLAIN_SIGTRAP_PERM] = "sigtrap-perm",
	[PEV_EXPLAIN_NAMESPACES_PERM] = "namespaces-perm",
	[PEV_EXPLAIN_BREAKPOINT_KERNEL] = "breakpoint-kernel",
	[PEV_EXPLAIN_LOCKDOWN] = "lockdown",
	[PEV_EXPLAIN_EXCLUDE_UNSUPPORTED] = "exclude-unsupported",
	[PEV_EXPLAIN_DENIED] = "denied",
	[PEV_EXPLAIN_BAD_GROUP_FD] = "bad-group-fd",
	[PEV_EXPLAIN_BAD_CGROUP_FD] = "bad-cgroup-fd",
	[PEV_EXPLAIN_PMU_BUSY] = "pmu-busy",
	[PEV_EXPLAIN_BAD_ADDRESS] = "bad-address",
	[PEV_EXPLAIN_INTERRUPTED] = "interrupted",
	[PEV_EXPLAIN_TOO_MANY_FILES] = "too-many-files",
	[PEV_EXPLAIN_SYSTEM_FILES] = "system-files",
	[PEV_EXPLAIN_NO_PROCESS] = "no-process",
	[PEV_EXPLAIN_NO_HW_PMU] = "no-hw-pmu",
	[PEV_EXPLAIN_UNKNOWN_EVENT] = "unknown-event",
	[PEV_EXPLAIN_UNKNOWN_PMU] = "unknown-pmu",
	[PEV_EXPLAIN_PMU_CPU_MISMATCH] = "pmu-cpu-mismatch",
	[PEV_EXPLAIN_CPU_OFFLINE] = "cpu-offline",
	[PEV_EXPLAIN_NO_SAMPLING] = "no-sampling",
	[PEV_EXPLAIN_BRANCH_STACK] = "branch-stack",
	[PEV_EXPLAIN_PRECISE] = "precise",
	[PEV_EXPLAIN_AUX_OUTPUT] = "aux-output",
	[PEV_EXPLAIN_NO_BP_SLOT] = "no-bp-slot",
	[PEV_EXPLAIN_NO_PMU_ROOM] = "no-pmu-room",
	[PEV_EXPLAIN_STACK_USER_UNSUPPORTED] = "stack-user-unsupported",
	[PEV_EXPLAIN_NO_PERF_SYSCALL] = "no-perf-syscall",
	[PEV_EXPLAIN_MAX_STACK] = "max-stack",
	[PEV_EXPLAIN_FLAGS] = "flags",
	[PEV_EXPLAIN_RESERVED_BITS] = "reserved-bits",
	[PEV_EXPLAIN_SAMPLE_TYPE] = "sample-type",
	[PEV_EXPLAIN_READ_FORMAT] = "read-format",
	[PEV_EXPLAIN_BRANCH_TYPE] = "branch-type",
	[PEV_EXPLAIN_REGS] = "regs",
	[PEV_EXPLAIN_STACK_USER_SIZE] = "stack-user-size",
	[PEV_EXPLAIN_WEIGHT] = "weight",
	[PEV_EXPLAIN_INHERIT_THREAD] = "inherit-thread",
	[PEV_EXPLAIN_REMOVE_ON_EXEC] = "remove-on-exec",
	[PEV_EXPLAIN_SIGTRAP_NO_REMOVE] = "sigtrap-no-remove",
	[PEV_EXPLAIN_SAMPLE_FREQ] = "sample-freq",
	[PEV_EXPLAIN_SAMPLE_PERIOD] = "sample-period",
	[PEV_EXPLAIN_CGROUP_NEEDS_CPU] = "cgroup-needs-cpu",
	[PEV_EXPLAIN_CPU_INVALID] = "cpu-invalid",
	[PEV_EXPLAIN_ANY_PID_ANY_CPU] = "any-pid-any-cpu",
	[PEV_EXPLAIN_INHERIT_SAMPLE_READ] = "inherit-sample-read",
	[PEV_EXPLAIN_GROUP_PINNED] = "group-pinned",
	[PEV_EXPLAIN_SIGTRAP_NEEDS_TASK] = "sigtrap-needs-task",
	[PEV_EXPLAIN_CLOCKID] = "clockid",
	[PEV_EXPLAIN_BREAKPOINT] = "breakpoint",
	[PEV_EXPLAIN_GROUP_MISMATCH] = "group-mismatch",
	[PEV_EXPLAIN_CONFIG] = "config",
	[PEV_EXPLAIN_TRACEPOINT_ID] = "tracepoint-id",
	[PEV_EXPLAIN_INVALID] = "invalid",
	[PEV_EXPLAIN_SECCOMP] = "seccomp",
};

PEV_EXPORT const char *pev_explain_kind_name(enum pev_explain_kind kind)
{
	return (unsigned)kind < PEV_EXPLAIN__COUNT ? kind_names[kind] : NULL;
}

/* ---- E2BIG ---- */

struct attr_field {
	unsigned off, len;
	const char *name;
	const char *since;	/* the kernel that added it */
};

static const struct attr_field attr_fields[] = {
	{ 0, 4, "type", "2.6.31" }, { 4, 4, "size", "2.6.31" },
	{ 8, 8, "config", "2.6.31" }, { 16, 8, "sample_period", "2.6.31" },
	{ 24, 8, "sample_type", "2.6.31" }, { 32, 8, "read_format", "2.6.31" },
	{ 40, 8, "the flag bits (disabled..sigtrap)", "2.6.31" },
	{ 48, 4, "wakeup_events", "2.6.31" }, { 52, 4, "bp_type", "2.6.33" },
	{ 56, 8, "config1 (bp_addr)", "2.6.33" },
	{ 64, 8, "config2 (bp_len)", "2.6.39" },
	{ 72, 8, "branch_sample_type", "3.4" },
	{ 80, 8, "sample_regs_user", "3.7" },
	{ 88, 4, "sample_stack_user", "3.7" }, { 92, 4, "clockid", "4.1" },
	{ 96, 8, "sample_regs_intr", "3.19" },
	{ 104, 4, "aux_watermark", "4.1" },
	{ 108, 2, "sample_max_stack", "4.8" },
	{ 110, 2, "__reserved_2", NULL },
	{ 112, 4, "aux_sample_size", "5.5" },
	{ 116, 4, "__reserved_3", NULL },
	{ 120, 8, "sig_data", "5.13" },
	{ 128, 8, "config3", "6.3" },
};

static const struct attr_field *field_at(long off)
{
	for (size_t i = 0; i < sizeof(attr_fields) / sizeof(attr_fields[0]); i++)
		if ((unsigned long)off >= attr_fields[i].off &&
		    (unsigned long)off < attr_fields[i].off + attr_fields[i].len)
			return &attr_fields[i];
	return NULL;
}

static void explain_e2big(struct pev__xp *x)
{
	const struct perf_event_attr *ua = x->c.attr;
	long ksize = x->s->attr_size;
	long off = x->c.first_unknown_offset;
	char kbuf[48];

	if (ua && ua->size && (ua->size < PERF_ATTR_SIZE_VER0 || ua->size > 4096)) {
		pev__xp_set(x, PEV_EXPLAIN_ATTR_SIZE,
			    "attr.size %u is %s", ua->size,
			    ua->size < PERF_ATTR_SIZE_VER0 ?
			    "below the smallest attr (64 bytes)" :
			    "above a page (4096 bytes)");
		pev__xp_remedy(x, "set attr.size to sizeof(struct perf_event_attr)");
		return;
	}
	/* Find the offset ourselves when the caller did not (the attr is
	 * readable up to its size: the kernel just read it). */
	if (off < PERF_ATTR_SIZE_VER0 && ua && ksize != PEV_SETTING_UNKNOWN &&
	    ua->size > ksize && ua->size <= 4096)
		off = pev_attr_first_unknown(ua, ua->size, (size_t)ksize);
	if (ksize != PEV_SETTING_UNKNOWN)
		snprintf(kbuf, sizeof(kbuf), "the first %ld bytes", ksize);
	else
		snprintf(kbuf, sizeof(kbuf), "fewer bytes");
	if (off >= PERF_ATTR_SIZE_VER0) {
		const struct attr_field *f = field_at(off);
		if (f && f->since)
			pev__xp_set(x, PEV_EXPLAIN_ATTR_UNKNOWN_FIELD,
				    "attr byte %ld (%s, Linux %s) is set, but this kernel knows only %s of the attr",
				    off, f->name, f->since, kbuf);
		else
			pev__xp_set(x, PEV_EXPLAIN_ATTR_UNKNOWN_FIELD,
				    "attr byte %ld (%s) is set, but this kernel knows only %s of the attr",
				    off, f ? f->name : "beyond every field this library knows",
				    kbuf);
		pev__xp_remedy(x, f && f->since ?
			       "leave that field zero, or use a kernel >= %s" :
			       "leave that byte zero%s", f && f->since ? f->since : "");
		return;
	}
	if (ua && ksize != PEV_SETTING_UNKNOWN && ua->size > ksize) {
		pev__xp_set(x, PEV_EXPLAIN_ATTR_UNKNOWN_FIELD,
			    "attr.size %u is above this kernel's %ld bytes and a byte beyond them is set",
			    ua->size, ksize);
		pev__xp_remedy(x, "leave the fields this kernel does not know zero");
		return;
	}
	pev__xp_set(x, PEV_EXPLAIN_GROUP_TOO_BIG,
		    "the group's read or sample record would be too large (too many events in one group)");
	pev__xp_remedy(x, "split the group into smaller groups");
}

/* ---- EACCES / EPERM ---- */

static void paranoid_now(struct pev__xp *x, char *buf, size_t size)
{
	if (x->s->paranoid == PEV_SETTING_UNKNOWN)
		snprintf(buf, size, "its value could not be read");
	else
		snprintf(buf, size, "it is %ld", x->s->paranoid);
}

/* The target's owner: given, or read from /proc when settings are live. */
static bool target_owner(struct pev__xp *x, uid_t *uid)
{
	if (x->c.pid <= 0 || (x->c.flags & PERF_FLAG_PID_CGROUP))
		return false;
	if (x->c.target_uid_known) {
		*uid = x->c.target_uid;
		return true;
	}
	return x->live && pev__explain_proc_uid(x->c.pid, uid) == 0;
}

static bool paranoid_denied(struct pev__xp *x)
{
	const struct perf_event_attr *a = &x->a;
	const struct pev_system_settings *s = x->s;
	long need = 2;
	enum pev_explain_kind kind = PEV_EXPLAIN_PARANOID_ALL;
	bool cpu_wide = x->c.pid == -1 || (x->c.flags & PERF_FLAG_PID_CGROUP);
	char now[48];

	if (x->priv)
		return false;
	if (x->have_attr && (!a->exclude_kernel ||
			     (a->sample_type & PERF_SAMPLE_PHYS_ADDR))) {
		need = 1;
		kind = PEV_EXPLAIN_PARANOID_KERNEL;
	}
	if (cpu_wide) {
		need = 0;
		kind = PEV_EXPLAIN_PARANOID_CPU;
	}
	if (x->have_attr && a->type == PERF_TYPE_TRACEPOINT &&
	    (a->sample_type & PERF_SAMPLE_RAW)) {
		need = -1;
		kind = PEV_EXPLAIN_PARANOID_TRACEPOINT;
	}
	if (s->paranoid != PEV_SETTING_UNKNOWN && s->paranoid <= need)
		return false;
	/* paranoid 2 allows what needs 2; an unknown value at "need 2" says
	 * nothing either. */
	if (kind == PEV_EXPLAIN_PARANOID_ALL && s->paranoid == PEV_SETTING_UNKNOWN)
		return false;
	paranoid_now(x, now, sizeof(now));
	switch (kind) {
	case PEV_EXPLAIN_PARANOID_TRACEPOINT:
		pev__xp_set(x, kind, "raw tracepoint data (PERF_SAMPLE_RAW) needs %s or kernel.perf_event_paranoid = -1, and %s",
			    x->cap, now);
		pev__xp_remedy(x, "as root run 'sysctl -w kernel.perf_event_paranoid=-1', or give the program %s",
			       x->cap);
		break;
	case PEV_EXPLAIN_PARANOID_CPU:
		pev__xp_set(x, kind, "%s counting (pid -1, cpu %d) needs %s or kernel.perf_event_paranoid <= 0, and %s",
			    (x->c.flags & PERF_FLAG_PID_CGROUP) ? "cgroup" : "system-wide (per-CPU)",
			    x->c.cpu, x->cap, now);
		pev__xp_remedy(x, "as root run 'sysctl -w kernel.perf_event_paranoid=0', or give the program %s, or measure only your own processes (a command or -p PID)",
			       x->cap);
		break;
	case PEV_EXPLAIN_PARANOID_KERNEL:
		pev__xp_set(x, kind, "counting kernel space (exclude_kernel=0) needs %s or kernel.perf_event_paranoid <= 1, and %s",
			    x->cap, now);
		pev__xp_remedy(x, "count user space only with the ':u' modifier (exclude_kernel=1), or as root run 'sysctl -w kernel.perf_event_paranoid=1', or give the program %s",
			       x->cap);
		/* Kernel samples are of little use when kallsyms hides the
		 * addresses from this user. */
		if (a->sample_period && s->kptr_restrict != PEV_SETTING_UNKNOWN &&
		    s->kptr_restrict > 0)
			pev__xp_remedy_add(x, " (kernel.kptr_restrict=%ld also hides kernel symbols: 'sysctl -w kernel.kptr_restrict=0')",
					   s->kptr_restrict);
		break;
	default:
		pev__xp_set(x, kind, "kernel.perf_event_paranoid is %ld: this kernel (a Debian or Android patch) denies all perf use without %s",
			    s->paranoid, x->cap);
		pev__xp_remedy(x, "as root run 'sysctl -w kernel.perf_event_paranoid=2' (your own processes, user space), or give the program %s",
			       x->cap);
		break;
	}
	return true;
}

static void explain_perm(struct pev__xp *x, int err)
{
	const struct perf_event_attr *a = &x->a;
	const struct pev_system_settings *s = x->s;
	bool sys_admin = s->caps_known && s->cap_sys_admin;
	uid_t owner;

	/* seccomp runs before the syscall: nothing else was checked. */
	if (pev__explain_blocked(x, err))
		return;
	/* hw_breakpoint_parse: kernel addresses need CAP_SYS_ADMIN itself. */
	if (x->have_attr && a->type == PERF_TYPE_BREAKPOINT &&
	    pev__explain_kernel_address(a->bp_addr) && !sys_admin) {
		pev__xp_set(x, PEV_EXPLAIN_BREAKPOINT_KERNEL,
			    "a breakpoint on kernel address 0x%llx needs CAP_SYS_ADMIN",
			    (unsigned long long)a->bp_addr);
		pev__xp_remedy(x, "run as root, or watch a user-space address");
		return;
	}
	if (paranoid_denied(x))
		return;
	if (x->have_attr && a->namespaces && !x->priv) {
		pev__xp_set(x, PEV_EXPLAIN_NAMESPACES_PERM,
			    "namespace records (attr.namespaces) need %s", x->cap);
		pev__xp_remedy(x, "run as root or give the program %s, or drop --namespaces",
			       x->cap);
		return;
	}
	bool other = target_owner(x, &owner) && s->euid != PEV_SETTING_UNKNOWN &&
		     (long)owner != s->euid;
	if (x->have_attr && a->sigtrap && x->c.pid > 0 &&
	    (other || (s->caps_known && !s->cap_kill))) {
		pev__xp_set(x, PEV_EXPLAIN_SIGTRAP_PERM,
			    "sigtrap on process %d sends it signals: that needs ptrace attach permission or %s with CAP_KILL",
			    (int)x->c.pid, x->cap);
		pev__xp_remedy(x, "run as the user who owns process %d or as root",
			       (int)x->c.pid);
		return;
	}
	if (other && !x->priv) {
		pev__xp_set(x, PEV_EXPLAIN_OTHER_USER,
			    "process %d belongs to another user (uid %u); attaching needs ptrace permission",
			    (int)x->c.pid, (unsigned)owner);
		pev__xp_remedy(x, "run as that user or as root, or give the program %s",
			       x->cap);
		return;
	}
	if (x->have_attr && (a->sample_type & PERF_SAMPLE_REGS_INTR) && err == EPERM) {
		pev__xp_set(x, PEV_EXPLAIN_LOCKDOWN,
			    "kernel lockdown forbids interrupt registers (PERF_SAMPLE_REGS_INTR)");
		pev__xp_remedy(x, "drop --intr-regs, or boot with lockdown=none");
		return;
	}
	if (x->have_attr && err == EPERM &&
	    (a->exclude_user || a->exclude_kernel || a->exclude_hv ||
	     a->exclude_idle || a->exclude_host || a->exclude_guest) &&
	    pev__explain_exclude_matters(x)) {
		pev__xp_set(x, PEV_EXPLAIN_EXCLUDE_UNSUPPORTED,
			    "the PMU does not support an exclude setting of this event (exclude_user=%u exclude_kernel=%u exclude_hv=%u exclude_idle=%u)",
			    a->exclude_user, a->exclude_kernel, a->exclude_hv,
			    a->exclude_idle);
		pev__xp_remedy(x, "drop the ':u'/':k'/':h' modifiers (count every level)");
		return;
	}
	if (x->priv) {
		pev__xp_set(x, PEV_EXPLAIN_DENIED,
			    "permission denied although the process has %s: a security module (SELinux, AppArmor), kernel lockdown, or a container (capabilities in a user namespace do not count) refuses it",
			    x->cap);
		pev__xp_remedy(x, "check the audit log ('dmesg', 'ausearch -m avc') or run on the host");
	} else {
		char now[48];
		paranoid_now(x, now, sizeof(now));
		pev__xp_set(x, PEV_EXPLAIN_DENIED,
			    "permission denied (kernel.perf_event_paranoid: %s)", now);
		pev__xp_remedy(x, "run as root, or as root run 'sysctl -w kernel.perf_event_paranoid=-1'");
	}
}

/* ---- the rest ---- */

static void explain_misc(struct pev__xp *x, int err)
{
	const struct perf_event_attr *a = &x->a;
	const struct pev_system_settings *s = x->s;

	switch (err) {
	case EBADF:
		if (x->c.group_fd == -1 && (x->c.flags & PERF_FLAG_PID_CGROUP)) {
			pev__xp_set(x, PEV_EXPLAIN_BAD_CGROUP_FD,
				    "the cgroup file descriptor %d (passed as pid) is not valid",
				    (int)x->c.pid);
			pev__xp_remedy(x, "open the cgroup's directory under /sys/fs/cgroup (O_RDONLY) and pass that fd");
		} else {
			pev__xp_set(x, PEV_EXPLAIN_BAD_GROUP_FD,
				    "group_fd %d is not an open perf event file descriptor",
				    x->c.group_fd);
			pev__xp_remedy(x, "open the group leader first and pass its fd, or -1 for no group");
		}
		return;
	case EBUSY:
		pev__xp_set(x, PEV_EXPLAIN_PMU_BUSY,
			    x->have_attr && a->exclusive ?
			    "this event asks for exclusive use of the PMU, but another event has it or is using it" :
			    "another event already has exclusive access to the PMU");
		pev__xp_remedy(x, "stop the other perf user (another perf session, a tracer, a watchdog), or drop 'exclusive'");
		return;
	case EFAULT:
		pev__xp_set(x, PEV_EXPLAIN_BAD_ADDRESS,
			    "the attr pointer or a pointer inside it (uprobe_path, kprobe_func) is not readable");
		pev__xp_remedy(x, "pass valid memory");
		return;
	case EINTR:
		pev__xp_set(x, PEV_EXPLAIN_INTERRUPTED,
			    "interrupted: a signal or an exec raced with the open, or perf and ftrace handling of a uprobe were mixed");
		pev__xp_remedy(x, "retry the call");
		return;
	case EMFILE: {
		char soft[32], hard[32];
		if (s->nofile_soft == LONG_MAX)
			snprintf(soft, sizeof(soft), "unlimited");
		else if (s->nofile_soft == PEV_SETTING_UNKNOWN)
			snprintf(soft, sizeof(soft), "unknown");
		else
			snprintf(soft, sizeof(soft), "%ld", s->nofile_soft);
		if (s->nofile_hard == LONG_MAX)
			snprintf(hard, sizeof(hard), "unlimited");
		else if (s->nofile_hard == PEV_SETTING_UNKNOWN)
			snprintf(hard, sizeof(hard), "unknown");
		else
			snprintf(hard, sizeof(hard), "%ld", s->nofile_hard);
		pev__xp_set(x, PEV_EXPLAIN_TOO_MANY_FILES,
			    "too many open files: each event needs a file descriptor and the limit is %s (RLIMIT_NOFILE soft %s, hard %s)",
			    soft, soft, hard);
		if (s->nofile_soft != PEV_SETTING_UNKNOWN && s->nofile_hard != PEV_SETTING_UNKNOWN &&
		    s->nofile_soft < s->nofile_hard)
			pev__xp_remedy(x, "raise it with 'ulimit -n %s', or open fewer events (fewer CPUs or threads)",
				       hard);
		else if (s->nofile_hard != PEV_SETTING_UNKNOWN && s->nofile_hard < LONG_MAX / 4)
			pev__xp_remedy(x, "as root raise both limits, e.g. 'ulimit -Hn %ld && ulimit -n %ld', or open fewer events",
				       s->nofile_hard * 4, s->nofile_hard * 4);
		else
			pev__xp_remedy(x, "raise it with 'ulimit -n N', or open fewer events");
		return;
	}
	case ENFILE:
		pev__xp_set(x, PEV_EXPLAIN_SYSTEM_FILES,
			    "the system-wide file table is full");
		pev__xp_remedy(x, "as root raise it with 'sysctl -w fs.file-max=N', or close files");
		return;
	case ESRCH:
		pev__xp_set(x, PEV_EXPLAIN_NO_PROCESS,
			    "no process or thread with pid %d (it may have exited)",
			    (int)x->c.pid);
		pev__xp_remedy(x, "check the pid with 'ps -p %d -L'", (int)x->c.pid);
		return;
	case ENOSPC:
		if (x->have_attr && a->type == PERF_TYPE_BREAKPOINT) {
			pev__xp_set(x, PEV_EXPLAIN_NO_BP_SLOT,
				    "no free hardware breakpoint slot: the CPU has only a few debug registers (4 on x86), shared with debuggers and other perf users");
			pev__xp_remedy(x, "watch fewer addresses at once, or close other breakpoint events and debuggers");
		} else {
			pev__xp_set(x, PEV_EXPLAIN_NO_PMU_ROOM,
				    "the PMU has no room for this event");
			pev__xp_remedy(x, "use fewer events at once");
		}
		return;
	case ENOSYS:
		if (pev__explain_blocked(x, err))
			return;
		if (x->have_attr && (a->sample_type & PERF_SAMPLE_STACK_USER)) {
			pev__xp_set(x, PEV_EXPLAIN_STACK_USER_UNSUPPORTED,
				    "user stack sampling (PERF_SAMPLE_STACK_USER, --call-graph dwarf) is not supported on this architecture");
			pev__xp_remedy(x, "use '--call-graph fp'");
		} else {
			pev__xp_set(x, PEV_EXPLAIN_NO_PERF_SYSCALL,
				    "perf_event_open is not available: the kernel lacks CONFIG_PERF_EVENTS, or a seccomp filter (container) blocks it");
			pev__xp_remedy(x, "use a kernel with perf events, or allow perf_event_open in the container's seccomp profile");
		}
		return;
	case EOVERFLOW: {
		unsigned depth = x->have_attr ? a->sample_max_stack : 0;
		if (s->max_stack != PEV_SETTING_UNKNOWN)
			pev__xp_set(x, PEV_EXPLAIN_MAX_STACK,
				    "sample_max_stack %u is above kernel.perf_event_max_stack (%ld)",
				    depth, s->max_stack);
		else
			pev__xp_set(x, PEV_EXPLAIN_MAX_STACK,
				    "sample_max_stack %u is above kernel.perf_event_max_stack",
				    depth);
		if (s->max_stack != PEV_SETTING_UNKNOWN)
			pev__xp_remedy(x, "ask for at most %ld frames, or as root run 'sysctl -w kernel.perf_event_max_stack=%u'",
				       s->max_stack, depth);
		else
			pev__xp_remedy(x, "ask for fewer frames, or as root run 'sysctl -w kernel.perf_event_max_stack=%u'",
				       depth);
		return;
	}
	default: {
		char msg[128];
		snprintf(msg, sizeof(msg), "%s", strerror(err));
		if (msg[0] >= 'A' && msg[0] <= 'Z')
			msg[0] = (char)(msg[0] - 'A' + 'a');
		pev__xp_set(x, PEV_EXPLAIN_UNKNOWN, "%s (errno %d)", msg, err);
		return;
	}
	}
}

PEV_EXPORT int pev_explain_detail(int err, const struct pev_explain_ctx *ctx,
				  struct pev_explanation *out)
{
	struct pev_system_settings live;
	struct pev__xp x;

	if (!ctx || !out)
		return -EINVAL;
	if (err < 0)
		err = -err;
	memset(&x, 0, sizeof(x));
	x.c.first_unknown_offset = -1;
	size_t n = ctx->size ? ctx->size : sizeof(x.c);
	memcpy(&x.c, ctx, n < sizeof(x.c) ? n : sizeof(x.c));
	x.c.size = sizeof(x.c);
	if (x.c.attr) {
		size_t an = x.c.attr->size ? x.c.attr->size : PERF_ATTR_SIZE_VER0;
		memcpy(&x.a, x.c.attr, an < sizeof(x.a) ? an : sizeof(x.a));
		x.have_attr = true;
	}
	if (x.c.settings) {
		x.s = x.c.settings;
	} else {
		pev_system_settings_read(&live);
		x.s = &live;
		x.live = true;
	}
	x.priv = pev_system_settings_privileged(x.s);
	x.cap = pev__explain_kernel_before(x.s, 5, 8) ? "CAP_SYS_ADMIN" : "CAP_PERFMON";
	memset(out, 0, sizeof(*out));
	out->err = err;
	x.out = out;

	switch (err) {
	case E2BIG: explain_e2big(&x); break;
	case EACCES:
	case EPERM: explain_perm(&x, err); break;
	case EINVAL: pev__explain_einval(&x); break;
	case ENOENT:
	case ENODEV:
	case EOPNOTSUPP: pev__explain_noent(&x, err); break;
	default: explain_misc(&x, err); break;
	}
	return (int)out->kind;
}

static const char *const hw_names[PERF_COUNT_HW_MAX] = {
	"cycles", "instructions", "cache-references", "cache-misses",
	"branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend",
	"stalled-cycles-backend", "ref-cycles",
};

static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches",
	"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
	"emulation-faults", "dummy", "bpf-output", "cgroup-switches",
};

static void cache_name(uint64_t config, char *buf, size_t size)
{
	static const char *const cache[] = { "L1-dcache", "L1-icache", "LLC", "dTLB",
					     "iTLB", "branch", "node" };
	static const char *const op[] = { "load", "store", "prefetch" };
	unsigned id = config & 0xff, o = config >> 8 & 0xff, r = config >> 16 & 0xff;

	if (id < sizeof(cache) / sizeof(cache[0]) && o < 3 && r < 2 && !(config >> 24))
		snprintf(buf, size, "%s-%s%s", cache[id], op[o], r ? "-misses" : "s");
	else
		snprintf(buf, size, "cache config 0x%llx", (unsigned long long)config);
}

static void event_name(const struct pev_explain_ctx *c, char *buf, size_t size)
{
	const struct perf_event_attr *a = c->attr;

	if (c->event_name)
		snprintf(buf, size, "%s", c->event_name);
	else if (!a)
		snprintf(buf, size, "event");
	else if (a->type == PERF_TYPE_HARDWARE && (a->config & 0xffffffff) < PERF_COUNT_HW_MAX)
		snprintf(buf, size, "%s", hw_names[a->config & 0xffffffff]);
	else if (a->type == PERF_TYPE_SOFTWARE &&
		 a->config < sizeof(sw_names) / sizeof(sw_names[0]))
		snprintf(buf, size, "%s", sw_names[a->config]);
	else if (a->type == PERF_TYPE_HW_CACHE)
		cache_name(a->config, buf, size);
	else if (a->type == PERF_TYPE_TRACEPOINT)
		snprintf(buf, size, "tracepoint id %llu", (unsigned long long)a->config);
	else if (a->type == PERF_TYPE_RAW)
		snprintf(buf, size, "r%llx", (unsigned long long)a->config);
	else if (a->type == PERF_TYPE_BREAKPOINT)
		snprintf(buf, size, "mem:0x%llx", (unsigned long long)a->bp_addr);
	else
		snprintf(buf, size, "type %u config 0x%llx", a->type,
			 (unsigned long long)a->config);
}

PEV_EXPORT int pev_explain(int err, const struct pev_explain_ctx *ctx,
			   char *buf, size_t size)
{
	struct pev_explanation e;
	char name[96];

	if (!ctx)
		return -EINVAL;
	int r = pev_explain_detail(err, ctx, &e);
	if (r < 0)
		return r;
	event_name(ctx, name, sizeof(name));
	if (e.remedy[0])
		return snprintf(buf, size, "cannot open '%s': %s; %s", name,
				e.reason, e.remedy);
	return snprintf(buf, size, "cannot open '%s': %s", name, e.reason);
}
