// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Kernel feature probes: one table, lazily cached (unknown / supported /
 * missing).  Each probe opens the dummy software event on the calling
 * thread, user space only (allowed at perf_event_paranoid 2), with one
 * feature's bit set, and closes it at once. */
#include <dirent.h>
#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <perfev/probe.h>

/* How a probe's answer is read from the errno of the feature's open. */
enum probe_how {
	HOW_PLAIN,	/* EINVAL/E2BIG/EOPNOTSUPP: missing */
	HOW_KNOWN_BIT,	/* EOPNOTSUPP: the bit is known, only the software
			 * PMU cannot do it (aux_output, branch stacks) */
};

struct probe_def {
	const char *name;
	enum probe_how how;
};

static const struct probe_def probes[PEV_FEAT__COUNT] = {
	[PEV_FEAT_FORMAT_LOST] = { "format_lost", HOW_PLAIN },
	[PEV_FEAT_SAMPLE_ID_ALL] = { "sample_id_all", HOW_PLAIN },
	[PEV_FEAT_EXCLUDE_GUEST] = { "exclude_guest", HOW_PLAIN },
	[PEV_FEAT_MMAP2] = { "mmap2", HOW_PLAIN },
	[PEV_FEAT_MMAP2_BUILD_ID] = { "build_id", HOW_PLAIN },
	[PEV_FEAT_CONTEXT_SWITCH] = { "context_switch", HOW_PLAIN },
	[PEV_FEAT_COMM_EXEC] = { "comm_exec", HOW_PLAIN },
	[PEV_FEAT_USE_CLOCKID] = { "clockid", HOW_PLAIN },
	[PEV_FEAT_NAMESPACES] = { "namespaces", HOW_PLAIN },
	[PEV_FEAT_KSYMBOL] = { "ksymbol", HOW_PLAIN },
	[PEV_FEAT_BPF_EVENT] = { "bpf_event", HOW_PLAIN },
	[PEV_FEAT_CGROUP] = { "cgroup", HOW_PLAIN },
	[PEV_FEAT_TEXT_POKE] = { "text_poke", HOW_PLAIN },
	[PEV_FEAT_SIGTRAP] = { "sigtrap", HOW_PLAIN },
	[PEV_FEAT_REMOVE_ON_EXEC] = { "remove_on_exec", HOW_PLAIN },
	[PEV_FEAT_INHERIT_THREAD] = { "inherit_thread", HOW_PLAIN },
	[PEV_FEAT_WRITE_BACKWARD] = { "write_backward", HOW_PLAIN },
	[PEV_FEAT_AUX_OUTPUT] = { "aux_output", HOW_KNOWN_BIT },
	[PEV_FEAT_WEIGHT_STRUCT] = { "weight_struct", HOW_PLAIN },
	[PEV_FEAT_CODE_PAGE_SIZE] = { "code_page_size", HOW_PLAIN },
	[PEV_FEAT_DATA_PAGE_SIZE] = { "data_page_size", HOW_PLAIN },
	[PEV_FEAT_SAMPLE_CGROUP] = { "sample_cgroup", HOW_PLAIN },
	[PEV_FEAT_BRANCH_HW_INDEX] = { "branch_hw_index", HOW_KNOWN_BIT },
	[PEV_FEAT_ATTR_SIZE] = { "attr_size", HOW_PLAIN },
	[PEV_FEAT_HW_PMU] = { "hw_pmu", HOW_PLAIN },
};

/* 0 unknown, 1 missing, 2 supported.  Only definite answers are stored:
 * "cannot tell" may change (privileges, fd limits).  Two threads may both
 * probe the first time; they store the same answer. */
static _Atomic int cache[PEV_FEAT__COUNT];
static _Atomic int attr_size_cache;

static int try_open(struct perf_event_attr *a, pid_t pid, int cpu)
{
	long fd = syscall(SYS_perf_event_open, a, pid, cpu, -1,
			  (unsigned long)PERF_FLAG_FD_CLOEXEC);

	if (fd < 0)
		return -errno;
	close((int)fd);
	return 0;
}

static void base_attr(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_DUMMY;
	a->disabled = 1;
	/* user space only: allowed to unprivileged users at paranoid 2 */
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
}

static void sample(struct perf_event_attr *a, uint64_t type)
{
	a->sample_period = 1;
	a->sample_type = PERF_SAMPLE_IP | type;
}

static void feature_attr(enum pev_feature f, struct perf_event_attr *a)
{
	switch (f) {
	case PEV_FEAT_FORMAT_LOST: a->read_format = PERF_FORMAT_LOST; break;
	case PEV_FEAT_SAMPLE_ID_ALL: a->sample_id_all = 1; break;
	case PEV_FEAT_EXCLUDE_GUEST: a->exclude_guest = 1; break;
	case PEV_FEAT_MMAP2: a->mmap2 = 1; break;
	case PEV_FEAT_MMAP2_BUILD_ID: a->mmap2 = 1; a->build_id = 1; break;
	case PEV_FEAT_CONTEXT_SWITCH: a->context_switch = 1; break;
	case PEV_FEAT_COMM_EXEC: a->comm = 1; a->comm_exec = 1; break;
	case PEV_FEAT_USE_CLOCKID: a->use_clockid = 1; a->clockid = CLOCK_MONOTONIC; break;
	case PEV_FEAT_NAMESPACES: a->namespaces = 1; break;
	case PEV_FEAT_KSYMBOL: a->ksymbol = 1; break;
	case PEV_FEAT_BPF_EVENT: a->bpf_event = 1; break;
	case PEV_FEAT_CGROUP: a->cgroup = 1; break;
	case PEV_FEAT_TEXT_POKE: a->text_poke = 1; break;
	case PEV_FEAT_SIGTRAP: a->sigtrap = 1; a->remove_on_exec = 1; break;
	case PEV_FEAT_REMOVE_ON_EXEC: a->remove_on_exec = 1; break;
	case PEV_FEAT_INHERIT_THREAD: a->inherit = 1; a->inherit_thread = 1; break;
	case PEV_FEAT_WRITE_BACKWARD: a->write_backward = 1; break;
	case PEV_FEAT_AUX_OUTPUT: a->aux_output = 1; break;
	case PEV_FEAT_WEIGHT_STRUCT: sample(a, PERF_SAMPLE_WEIGHT_STRUCT); break;
	case PEV_FEAT_CODE_PAGE_SIZE: sample(a, PERF_SAMPLE_CODE_PAGE_SIZE); break;
	case PEV_FEAT_DATA_PAGE_SIZE: sample(a, PERF_SAMPLE_DATA_PAGE_SIZE); break;
	case PEV_FEAT_SAMPLE_CGROUP: sample(a, PERF_SAMPLE_CGROUP); break;
	case PEV_FEAT_BRANCH_HW_INDEX:
		/* perf_copy_attr rejects unknown branch bits with EINVAL
		 * before the software PMU refuses branch stacks. */
		sample(a, PERF_SAMPLE_BRANCH_STACK);
		a->branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
			PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_HW_INDEX;
		break;
	default: break;
	}
}

PEV_EXPORT int pev_probe_attr_size(void)
{
	int v = atomic_load_explicit(&attr_size_cache, memory_order_relaxed);
	if (v > 0)
		return v;

	/* A page-sized attr (the most the kernel reads) with its last byte
	 * set: the kernel answers E2BIG and writes its own size back
	 * (perf_copy_attr), before any permission check. */
	union {
		struct perf_event_attr a;
		unsigned char b[4096];
	} big;
	memset(&big, 0, sizeof(big));
	big.a.type = PERF_TYPE_SOFTWARE;
	big.a.config = PERF_COUNT_SW_DUMMY;
	big.a.disabled = 1;
	big.a.exclude_kernel = 1;
	big.a.exclude_hv = 1;
	big.a.size = sizeof(big);
	big.b[sizeof(big) - 1] = 1;
	int r = try_open(&big.a, 0, -1);
	if (r == 0)
		v = (int)sizeof(big);
	else if (r == -E2BIG && big.a.size >= PERF_ATTR_SIZE_VER0 &&
		 big.a.size < sizeof(big))
		v = (int)big.a.size;
	else
		return r == -E2BIG ? -EIO : r;
	atomic_store_explicit(&attr_size_cache, v, memory_order_relaxed);
	return v;
}

static bool sysfs_has_hw_pmu(void)
{
	/* The core PMU's sysfs name: "cpu" on x86, "cpu_core"/"cpu_atom" on
	 * hybrid x86, "armv8_pmuv3*"/"armv7_*" on arm. */
	static const char *const dirs = "/sys/bus/event_source/devices";
	struct stat st;
	DIR *d;
	struct dirent *e;
	bool found = false;

	if (stat("/sys/bus/event_source/devices/cpu", &st) == 0)
		return true;
	d = opendir(dirs);
	if (!d)
		return false;
	while (!found && (e = readdir(d)) != NULL)
		found = !strncmp(e->d_name, "cpu_", 4) ||
			!strncmp(e->d_name, "armv", 4);
	closedir(d);
	return found;
}

static int probe_hw_pmu(void)
{
	struct perf_event_attr a;

	if (sysfs_has_hw_pmu())
		return 1;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	int r = try_open(&a, 0, -1);
	if (r == 0)
		return 1;
	if (r == -ENOENT || r == -EOPNOTSUPP || r == -ENODEV)
		return 0;
	return r;
}

static int probe_now(enum pev_feature f)
{
	struct perf_event_attr a;
	int r, b;

	if (f == PEV_FEAT_HW_PMU)
		return probe_hw_pmu();
	if (f == PEV_FEAT_ATTR_SIZE) {
		r = pev_probe_attr_size();
		return r > 0 ? 1 : r;
	}
	base_attr(&a);
	feature_attr(f, &a);
	r = try_open(&a, 0, -1);
	if (r == 0)
		return 1;
	/* Refused: it means "missing" only if the plain event opens. */
	base_attr(&a);
	b = try_open(&a, 0, -1);
	if (b < 0)
		return b;
	if (r == -EOPNOTSUPP && probes[f].how == HOW_KNOWN_BIT)
		return 1;
	if (r == -EINVAL || r == -E2BIG || r == -EOPNOTSUPP)
		return 0;
	return r;
}

PEV_EXPORT int pev_probe(enum pev_feature f)
{
	if ((unsigned)f >= PEV_FEAT__COUNT)
		return -EINVAL;
	int c = atomic_load_explicit(&cache[f], memory_order_relaxed);
	if (c)
		return c - 1;
	int r = probe_now(f);
	if (r == 0 || r == 1)
		atomic_store_explicit(&cache[f], r + 1, memory_order_relaxed);
	return r;
}

PEV_EXPORT const char *pev_feature_name(enum pev_feature f)
{
	return (unsigned)f < PEV_FEAT__COUNT ? probes[f].name : NULL;
}
