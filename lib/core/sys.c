// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Thin system-call wrappers: perf_event_open with attr size negotiation,
 * the ioctls, prctl, and the /proc/sys/kernel/perf_event_* files. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <perfev/sys.h>
#include "core/util.h"

PEV_EXPORT const char *pev_version(void)
{
	return "0.1.0";
}

PEV_EXPORT uint64_t *pev_attr_config3(struct pev_attr *a)
{
	/* config3 sits right after sig_data, at byte 128 of the kernel ABI. */
	return (uint64_t *)((char *)a + 128);
}

PEV_EXPORT long pev_attr_first_unknown(const void *attr, size_t attr_size,
				       size_t kernel_size)
{
	const unsigned char *p = attr;

	for (size_t i = kernel_size; i < attr_size; i++)
		if (p[i])
			return (long)i;
	return -1;
}

/* How many times a call interrupted (EINTR: a signal arrived while the
 * kernel waited for the target's exec_update_lock) or refused for a moment
 * (EAGAIN) is tried again before its error is returned.  Bounded, so that
 * an error that persists still reaches the caller. */
#define RETRIES 16

static int raw_open(struct perf_event_attr *attr, pid_t pid, int cpu,
		    int group_fd, unsigned long flags)
{
	long fd;
	int tries = 0;

	do
		fd = syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
	while (fd < 0 && (errno == EINTR || errno == EAGAIN) && ++tries < RETRIES);
	return fd < 0 ? -errno : (int)fd;
}

static int retry_ioctl(int fd, unsigned long req, void *arg)
{
	int r, tries = 0;

	do
		r = ioctl(fd, req, arg);
	while (r < 0 && errno == EINTR && ++tries < RETRIES);
	return r < 0 ? -errno : 0;
}

PEV_EXPORT int pev_sys_open(struct perf_event_attr *attr, pid_t pid, int cpu,
			    int group_fd, unsigned long flags)
{
	uint32_t ours;
	int fd;

	if (!attr)
		return -EFAULT;
	if (!attr->size)
		attr->size = sizeof(*attr);
	ours = attr->size;
	fd = raw_open(attr, pid, cpu, group_fd, flags);
	if (fd != -E2BIG)
		return fd;
	/* The kernel wrote the size it knows into attr->size (perf_copy_attr). */
	uint32_t theirs = attr->size;
	if (theirs == 0 || theirs >= ours ||
	    pev_attr_first_unknown(attr, ours, theirs) >= 0) {
		attr->size = ours;
		return -E2BIG;
	}
	fd = raw_open(attr, pid, cpu, group_fd, flags);
	if (fd < 0)
		attr->size = ours;
	return fd;
}

/* The requests that take a value, not a pointer (ENABLE, DISABLE, RESET,
 * REFRESH, SET_OUTPUT, SET_BPF, PAUSE_OUTPUT), retried on EINTR.  Out of
 * line and not a tail call, so that tests/valgrind/perfev.supp can name it:
 * valgrind 3.19 checks SET_BPF's and PAUSE_OUTPUT's value as a pointer,
 * because their request numbers say _IOW. */
static __attribute__((noinline)) int do_ioctl(int fd, unsigned long req, unsigned long arg)
{
	int r, tries = 0;

	do
		r = ioctl(fd, req, arg);
	while (r < 0 && errno == EINTR && ++tries < RETRIES);
	return r < 0 ? -errno : 0;
}

PEV_EXPORT int pev_ioc_enable(int fd, bool group)
{
	return do_ioctl(fd, PERF_EVENT_IOC_ENABLE, group ? PERF_IOC_FLAG_GROUP : 0);
}

PEV_EXPORT int pev_ioc_disable(int fd, bool group)
{
	return do_ioctl(fd, PERF_EVENT_IOC_DISABLE, group ? PERF_IOC_FLAG_GROUP : 0);
}

PEV_EXPORT int pev_ioc_reset(int fd, bool group)
{
	return do_ioctl(fd, PERF_EVENT_IOC_RESET, group ? PERF_IOC_FLAG_GROUP : 0);
}

PEV_EXPORT int pev_ioc_refresh(int fd, int n)
{
	/* The manual: a value of 0 is undefined behaviour; refuse it here. */
	if (n <= 0)
		return -EINVAL;
	return do_ioctl(fd, PERF_EVENT_IOC_REFRESH, (unsigned long)n);
}

PEV_EXPORT int pev_ioc_period(int fd, uint64_t period)
{
	if (!period)
		return -EINVAL;
	return retry_ioctl(fd, PERF_EVENT_IOC_PERIOD, &period);
}

PEV_EXPORT int pev_ioc_set_output(int fd, int target_fd)
{
	return do_ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, (unsigned long)(long)target_fd);
}

PEV_EXPORT int pev_ioc_set_filter(int fd, const char *filter)
{
	if (!filter)
		return -EINVAL;
	return retry_ioctl(fd, PERF_EVENT_IOC_SET_FILTER, (void *)filter);
}

PEV_EXPORT int pev_ioc_id(int fd, uint64_t *id)
{
	if (!id)
		return -EINVAL;
	return retry_ioctl(fd, PERF_EVENT_IOC_ID, id);
}

PEV_EXPORT int pev_ioc_set_bpf(int fd, int prog_fd)
{
	return do_ioctl(fd, PERF_EVENT_IOC_SET_BPF, (unsigned long)prog_fd);
}

PEV_EXPORT int pev_ioc_pause_output(int fd, bool pause)
{
	return do_ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, pause ? 1 : 0);
}

PEV_EXPORT int pev_ioc_query_bpf(int fd, struct perf_event_query_bpf *query)
{
	if (!query)
		return -EINVAL;
	return ioctl(fd, PERF_EVENT_IOC_QUERY_BPF, query) < 0 ? -errno : 0;
}

PEV_EXPORT int pev_ioc_modify_attributes(int fd, struct perf_event_attr *attr)
{
	if (!attr)
		return -EINVAL;
	return ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, attr) < 0 ? -errno : 0;
}

PEV_EXPORT int pev_task_events_enable(void)
{
	return prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0) < 0 ? -errno : 0;
}

PEV_EXPORT int pev_task_events_disable(void)
{
	return prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0) < 0 ? -errno : 0;
}

static const char *const sysctl_paths[PEV_SYSCTL__COUNT] = {
	[PEV_SYSCTL_PARANOID] = "/proc/sys/kernel/perf_event_paranoid",
	[PEV_SYSCTL_MAX_SAMPLE_RATE] = "/proc/sys/kernel/perf_event_max_sample_rate",
	[PEV_SYSCTL_MLOCK_KB] = "/proc/sys/kernel/perf_event_mlock_kb",
	[PEV_SYSCTL_MAX_STACK] = "/proc/sys/kernel/perf_event_max_stack",
	[PEV_SYSCTL_MAX_CONTEXTS] = "/proc/sys/kernel/perf_event_max_contexts_per_stack",
	[PEV_SYSCTL_CPU_TIME_MAX_PERCENT] = "/proc/sys/kernel/perf_cpu_time_max_percent",
	[PEV_SYSCTL_KPTR_RESTRICT] = "/proc/sys/kernel/kptr_restrict",
};

static const char *const sysctl_dotted[PEV_SYSCTL__COUNT] = {
	[PEV_SYSCTL_PARANOID] = "kernel.perf_event_paranoid",
	[PEV_SYSCTL_MAX_SAMPLE_RATE] = "kernel.perf_event_max_sample_rate",
	[PEV_SYSCTL_MLOCK_KB] = "kernel.perf_event_mlock_kb",
	[PEV_SYSCTL_MAX_STACK] = "kernel.perf_event_max_stack",
	[PEV_SYSCTL_MAX_CONTEXTS] = "kernel.perf_event_max_contexts_per_stack",
	[PEV_SYSCTL_CPU_TIME_MAX_PERCENT] = "kernel.perf_cpu_time_max_percent",
	[PEV_SYSCTL_KPTR_RESTRICT] = "kernel.kptr_restrict",
};

PEV_EXPORT const char *pev_sysctl_path(enum pev_sysctl which)
{
	return (unsigned)which < PEV_SYSCTL__COUNT ? sysctl_paths[which] : NULL;
}

PEV_EXPORT const char *pev_sysctl_name(enum pev_sysctl which)
{
	return (unsigned)which < PEV_SYSCTL__COUNT ? sysctl_dotted[which] : NULL;
}

PEV_EXPORT int pev_sysctl_read(enum pev_sysctl which, long *value)
{
	const char *path = pev_sysctl_path(which);
	char buf[64], *end;
	int n;

	if (!path || !value)
		return -EINVAL;
	n = pev__read_small(AT_FDCWD, path, buf, sizeof(buf));
	if (n < 0)
		return n;
	errno = 0;
	long v = strtol(buf, &end, 10);
	if (errno || end == buf)
		return -EINVAL;
	*value = v;
	return 0;
}

PEV_EXPORT int pev_sysctl_write(enum pev_sysctl which, long value)
{
	const char *path = pev_sysctl_path(which);
	char buf[32];
	int fd, len;

	if (!path)
		return -EINVAL;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = snprintf(buf, sizeof(buf), "%ld\n", value);
	ssize_t n = write(fd, buf, (size_t)len);
	int err = errno;
	close(fd);
	return n == len ? 0 : (n < 0 ? -err : -EIO);
}
