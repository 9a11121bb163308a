// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Targets: the thread slots × CPU slots on which events are opened. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <perfev/target.h>
#include "target/target_priv.h"
#include "core/util.h"

struct pev_target {
	enum pev_target_kind kind;
	pid_t *threads;
	size_t nr_threads;
	int *cpus;
	size_t nr_cpus;
	int cgroup_fd;
	struct pev_workload *workload;
};

static struct pev_target *target_alloc(enum pev_target_kind kind)
{
	struct pev_target *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->kind = kind;
	t->cgroup_fd = -1;
	return t;
}

/* Make a slot list of one element (0 or -1). */
static int single(pid_t **threads, size_t *n, pid_t v)
{
	*threads = malloc(sizeof(**threads));
	if (!*threads)
		return -ENOMEM;
	(*threads)[0] = v;
	*n = 1;
	return 0;
}

static struct pev_target *fail(struct pev_target *t, int err)
{
	pev_target_free(t);
	errno = err;
	return NULL;
}

PEV_EXPORT struct pev_target *pev_target_new_self(void)
{
	struct pev_target *t = target_alloc(PEV_TARGET_SELF);

	if (!t)
		return NULL;
	if (single(&t->threads, &t->nr_threads, 0) < 0 ||
	    single(&t->cpus, &t->nr_cpus, -1) < 0)
		return fail(t, ENOMEM);
	return t;
}

static int add_thread(struct pev_target *t, size_t *cap, pid_t tid)
{
	for (size_t i = 0; i < t->nr_threads; i++)
		if (t->threads[i] == tid)
			return 0;
	if (pev__grow_array(t->threads, cap, t->nr_threads + 1, 8))
		return -ENOMEM;
	t->threads[t->nr_threads++] = tid;
	return 0;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* Append tid: the caller knows it is not listed yet. */
static int append_thread(struct pev_target *t, size_t *cap, pid_t tid)
{
	if (pev__grow_array(t->threads, cap, t->nr_threads + 1, 64))
		return -ENOMEM;
	t->threads[t->nr_threads++] = tid;
	return 0;
}

/* Every thread of pid, ascending, from /proc/PID/task, each added by add. */
static int add_task_dir(struct pev_target *t, size_t *cap, pid_t pid,
			int (*add)(struct pev_target *, size_t *, pid_t))
{
	char path[64];
	DIR *d;
	struct dirent *de;
	size_t first = t->nr_threads;
	bool found = false;
	int err = 0;

	if (pid <= 0)
		return -EINVAL;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? -ESRCH : -errno;
	while ((de = readdir(d))) {
		char *end;
		long tid = strtol(de->d_name, &end, 10);

		if (de->d_name[0] < '0' || de->d_name[0] > '9' || *end || tid <= 0)
			continue;
		found = true;
		err = add(t, cap, (pid_t)tid);
		if (err)
			break;
	}
	closedir(d);
	if (!err && !found)
		err = -ESRCH;	/* a zombie has no threads left */
	if (!err)
		qsort(t->threads + first, t->nr_threads - first,
		      sizeof(pid_t), cmp_pid);
	return err;
}

static int add_process(struct pev_target *t, size_t *cap, pid_t pid)
{
	return add_task_dir(t, cap, pid, add_thread);
}

/* A task target from ids, each added by add (0 or -errno). */
static struct pev_target *new_tasks(const pid_t *ids, size_t n,
				    int (*add)(struct pev_target *, size_t *, pid_t))
{
	struct pev_target *t;
	size_t cap = 0;

	if (!ids || !n) {
		errno = EINVAL;
		return NULL;
	}
	t = target_alloc(PEV_TARGET_TASKS);
	if (!t)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		int err = add(t, &cap, ids[i]);

		if (err)
			return fail(t, -err);
	}
	if (single(&t->cpus, &t->nr_cpus, -1) < 0)
		return fail(t, ENOMEM);
	return t;
}

static int add_listed_thread(struct pev_target *t, size_t *cap, pid_t tid)
{
	char path[64];
	struct stat st;

	if (tid <= 0)
		return -EINVAL;
	/* /proc/TID exists for every thread, listed or not. */
	snprintf(path, sizeof(path), "/proc/%d", (int)tid);
	if (stat(path, &st) < 0)
		return -ESRCH;
	return add_thread(t, cap, tid);
}

PEV_EXPORT struct pev_target *pev_target_new_pids(const pid_t *pids, size_t n)
{
	return new_tasks(pids, n, add_process);
}

PEV_EXPORT struct pev_target *pev_target_new_tids(const pid_t *tids, size_t n)
{
	return new_tasks(tids, n, add_listed_thread);
}

/* perf's thread_map__new_all_cpus: /proc's processes in its order, the
 * threads of each ascending.  A process that ends during the walk is left
 * out; the threads are distinct, so no duplicate check (thousands of
 * threads would make it quadratic). */
PEV_EXPORT struct pev_target *pev_target_new_all_threads(void)
{
	struct pev_target *t = target_alloc(PEV_TARGET_TASKS);
	size_t cap = 0;
	DIR *d;
	struct dirent *de;
	int err = 0;

	if (!t)
		return NULL;
	d = opendir("/proc");
	if (!d)
		return fail(t, errno);
	while (!err && (de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (de->d_name[0] < '0' || de->d_name[0] > '9' || *end || pid <= 0)
			continue;
		err = add_task_dir(t, &cap, (pid_t)pid, append_thread);
		if (err == -ESRCH || err == -ENOENT)
			err = 0;	/* it ended meanwhile */
	}
	closedir(d);
	if (!err && !t->nr_threads)
		err = -ESRCH;
	if (!err && single(&t->cpus, &t->nr_cpus, -1) < 0)
		err = -ENOMEM;
	return err ? fail(t, -err) : t;
}

PEV_EXPORT struct pev_target *pev_target_new_workload(struct pev_workload *w)
{
	struct pev_target *t;

	if (!w) {
		errno = EINVAL;
		return NULL;
	}
	t = target_alloc(PEV_TARGET_WORKLOAD);
	if (!t)
		return NULL;
	t->workload = w;
	if (single(&t->threads, &t->nr_threads, pev_workload_pid(w)) < 0 ||
	    single(&t->cpus, &t->nr_cpus, -1) < 0)
		return fail(t, ENOMEM);
	return t;
}

/* Fill t->cpus from cpulist (NULL: online), refusing offline CPUs. */
static int set_cpus(struct pev_target *t, const char *cpulist)
{
	int n_online = pev_cpus_online(NULL, 0), n;
	int *online;

	if (n_online < 0)
		return n_online;
	online = calloc((size_t)n_online, sizeof(int));
	if (!online)
		return -ENOMEM;
	n_online = pev_cpus_online(online, (size_t)n_online);
	if (n_online < 0) {
		free(online);
		return n_online;
	}
	if (!cpulist) {
		t->cpus = online;
		t->nr_cpus = (size_t)n_online;
		return 0;
	}
	n = pev_cpulist_parse(cpulist, NULL, 0);
	if (n < 0) {
		free(online);
		return n;
	}
	t->cpus = calloc((size_t)n, sizeof(int));
	if (!t->cpus) {
		free(online);
		return -ENOMEM;
	}
	n = pev_cpulist_parse(cpulist, t->cpus, (size_t)n);
	t->nr_cpus = n < 0 ? 0 : (size_t)n;
	for (size_t i = 0; n >= 0 && i < t->nr_cpus; i++) {
		bool found = false;

		for (int j = 0; j < n_online && !found; j++)
			found = online[j] == t->cpus[i];
		if (!found)
			n = -ENODEV;
	}
	free(online);
	return n < 0 ? n : 0;
}

PEV_EXPORT struct pev_target *pev_target_new_cpus(const char *cpulist)
{
	struct pev_target *t = target_alloc(PEV_TARGET_CPUS);
	int err;

	if (!t)
		return NULL;
	err = set_cpus(t, cpulist);
	if (err)
		return fail(t, -err);
	if (single(&t->threads, &t->nr_threads, -1) < 0)
		return fail(t, ENOMEM);
	return t;
}

/* Undo the octal escapes of /proc/self/mounts ("\040" for a space). */
static void unescape_mount(char *s)
{
	char *o = s;

	for (char *p = s; *p; p++) {
		if (p[0] == '\\' && p[1] >= '0' && p[1] <= '7' && p[2] >= '0' &&
		    p[2] <= '7' && p[3] >= '0' && p[3] <= '7') {
			*o++ = (char)((p[1] - '0') * 64 + (p[2] - '0') * 8 + (p[3] - '0'));
			p += 3;
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
}

PEV_EXPORT int pev_cgroup2_mount(char *out, size_t size)
{
	FILE *f = fopen("/proc/self/mounts", "re");
	char line[4096];
	int ret = -ENODEV;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *save, *dev = strtok_r(line, " ", &save);
		char *dir = dev ? strtok_r(NULL, " ", &save) : NULL;
		char *type = dir ? strtok_r(NULL, " ", &save) : NULL;

		if (!type || strcmp(type, "cgroup2"))
			continue;
		unescape_mount(dir);
		if (strlen(dir) < size) {
			strcpy(out, dir);
			ret = 0;
		}
		break;
	}
	fclose(f);
	return ret;
}

PEV_EXPORT struct pev_target *pev_target_new_cgroup(const char *name,
						    const char *cpulist)
{
	char mnt[PATH_MAX], path[PATH_MAX + 256];
	struct pev_target *t;
	int err;

	if (!name || !*name) {
		errno = EINVAL;
		return NULL;
	}
	err = pev_cgroup2_mount(mnt, sizeof(mnt));
	if (err)
		return fail(NULL, -err);
	if (name[0] == '/' && !strncmp(name, mnt, strlen(mnt)) &&
	    (name[strlen(mnt)] == '/' || name[strlen(mnt)] == '\0'))
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "%s/%s", mnt,
			 name + (name[0] == '/'));
	t = target_alloc(PEV_TARGET_CGROUP);
	if (!t)
		return NULL;
	t->cgroup_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (t->cgroup_fd < 0)
		return fail(t, errno);
	err = set_cpus(t, cpulist);
	if (err)
		return fail(t, -err);
	if (single(&t->threads, &t->nr_threads, t->cgroup_fd) < 0)
		return fail(t, ENOMEM);
	return t;
}

PEV_EXPORT void pev_target_free(struct pev_target *t)
{
	if (!t)
		return;
	if (t->cgroup_fd >= 0)
		close(t->cgroup_fd);
	free(t->threads);
	free(t->cpus);
	free(t);
}

PEV_EXPORT enum pev_target_kind pev_target_kind(const struct pev_target *t)
{
	return t->kind;
}

PEV_EXPORT bool pev_target_is_task(const struct pev_target *t)
{
	return t->kind == PEV_TARGET_SELF || t->kind == PEV_TARGET_TASKS ||
	       t->kind == PEV_TARGET_WORKLOAD;
}

PEV_EXPORT size_t pev_target_nr_threads(const struct pev_target *t)
{
	return t->nr_threads;
}

PEV_EXPORT pid_t pev_target_thread(const struct pev_target *t, size_t i)
{
	return i < t->nr_threads ? t->threads[i] : -1;
}

PEV_EXPORT size_t pev_target_nr_cpus(const struct pev_target *t)
{
	return t->nr_cpus;
}

PEV_EXPORT int pev_target_cpu(const struct pev_target *t, size_t i)
{
	return i < t->nr_cpus ? t->cpus[i] : -1;
}

PEV_EXPORT int pev_target_cpu_index(const struct pev_target *t, int cpu)
{
	for (size_t i = 0; i < t->nr_cpus; i++)
		if (t->cpus[i] == cpu)
			return (int)i;
	return -1;
}

PEV_EXPORT unsigned long pev_target_open_flags(const struct pev_target *t)
{
	return t->kind == PEV_TARGET_CGROUP ? PERF_FLAG_PID_CGROUP : 0;
}

PEV_EXPORT struct pev_workload *pev_target_workload(const struct pev_target *t)
{
	return t->workload;
}
