// SPDX-License-Identifier: GPL-2.0-only
/* perfev record: the side-band records perf synthesizes for the
 * processes of -p/-t/-u, for a launched workload (its COMM only), --namespaces (a NAMESPACES record per
 * existing thread) and --all-cgroups (a CGROUP record per existing
 * cgroup of the perf_event hierarchy), so that tasks and cgroups created
 * before the recording are known too. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/record.h"

/* The thread-group id of tid (its Tgid line), or tid itself. */
static pid_t tgid_of(pid_t tid)
{
	char path[64], line[128];
	pid_t tgid = tid;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	f = fopen(path, "re");
	if (!f)
		return tid;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "Tgid:", 5)) {
			tgid = (pid_t)atoi(line + 5);
			break;
		}
	fclose(f);
	return tgid;
}

long rec_synth_targets(struct rec *r, const struct pev_synth_opts *so)
{
	pid_t *done = calloc(r->nthreads ? r->nthreads : 1, sizeof(*done));
	size_t ndone = 0;
	long n = 0;

	if (!done)
		return -ENOMEM;
	/* The thread slots are threads (every one of -p's processes): each
	 * process once, by its leader, so that its threads are its own and
	 * not processes of their own (whose samples perf could not resolve). */
	for (size_t t = 0; n >= 0 && t < r->nthreads; t++) {
		pid_t pid = tgid_of(r->threads[t]);
		size_t k = 0;

		while (k < ndone && done[k] != pid)
			k++;
		if (k < ndone)
			continue;
		done[ndone++] = pid;
		long m = pev_synth_process(pid, so, pev_data_writer_emit, r->w);

		n = m == -ESRCH ? 0 : m;	/* ended meanwhile */
	}
	free(done);
	return n;
}

long rec_synth_workload_comm(struct rec *r, const struct pev_synth_opts *so)
{
	uint64_t rec[2 + 2 + 6] = { 0 };
	struct perf_event_header *h = (void *)rec;
	pid_t pid = pev_workload_pid(r->wl);
	char path[64], comm[16 + 1];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	n = read(fd, comm, sizeof(comm) - 1);
	close(fd);
	if (n < 0)
		return -EIO;
	comm[n] = 0;
	comm[strcspn(comm, "\n")] = 0;
	h->type = PERF_RECORD_COMM;
	rec[1] = (uint64_t)(uint32_t)pid | (uint64_t)(uint32_t)pid << 32;
	memcpy(&rec[2], comm, strlen(comm));	/* at most 15: 2 words, NUL-padded */
	/* perf leaves the trailer zero: no time, before everything. */
	size_t t = pev_synth_sample_id(so->attr, 0, 0, 0, 0, 0, &rec[4]);

	h->size = (uint16_t)(8 * 4 + t);
	int e = pev_data_writer_emit(rec, h->size, r->w);

	return e < 0 ? e : 1;
}

/* The kernel's order (NET_NS_INDEX .. CGROUP_NS_INDEX). */
static const char *const ns_names[] = {
	"net", "uts", "ipc", "pid", "user", "mnt", "cgroup",
};
#define NR_NS (sizeof(ns_names) / sizeof(ns_names[0]))

static int emit_namespaces(pid_t pid, pid_t tid, const struct pev_synth_opts *so,
			   pev_synth_emit_fn emit, void *user)
{
	uint64_t rec[4 + 2 * NR_NS + 6] = { 0 };
	struct perf_event_header *h = (void *)rec;
	char path[96];
	struct stat st;

	h->type = PERF_RECORD_NAMESPACES;
	rec[1] = (uint64_t)(uint32_t)pid | (uint64_t)(uint32_t)tid << 32;
	rec[2] = NR_NS;
	for (size_t i = 0; i < NR_NS; i++) {
		/* perf: a namespace it cannot stat stays 0/0. */
		snprintf(path, sizeof(path), "/proc/%d/task/%d/ns/%s", (int)pid, (int)tid,
			 ns_names[i]);
		if (!stat(path, &st)) {
			rec[3 + 2 * i] = (uint64_t)st.st_dev;
			rec[4 + 2 * i] = (uint64_t)st.st_ino;
		}
	}
	size_t n = pev_synth_sample_id(so->attr, (uint32_t)pid, (uint32_t)tid, 0, so->id,
				       so->cpu, &rec[3 + 2 * NR_NS]);

	h->size = (uint16_t)(8 * (3 + 2 * NR_NS) + n);
	return emit(rec, h->size, user);
}

/* Every thread of process pid. */
static long synth_ns_process(pid_t pid, const struct pev_synth_opts *so,
			     pev_synth_emit_fn emit, void *user)
{
	char path[64];
	DIR *d;
	struct dirent *de;
	long n = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? -ESRCH : -errno;
	while ((de = readdir(d))) {
		pid_t tid = (pid_t)atoi(de->d_name);
		int e;

		if (tid <= 0)
			continue;
		if ((e = emit_namespaces(pid, tid, so, emit, user)) < 0) {
			closedir(d);
			return e;
		}
		n++;
	}
	closedir(d);
	return n;
}

long rec_synth_namespaces(struct rec *r, const struct pev_synth_opts *so)
{
	long n = 0, m;

	if (r->cpu_wide) {
		DIR *d = opendir("/proc");
		struct dirent *de;

		if (!d)
			return -errno;
		while ((de = readdir(d))) {
			pid_t pid = (pid_t)atoi(de->d_name);

			if (pid <= 0)
				continue;
			m = synth_ns_process(pid, so, pev_data_writer_emit, r->w);
			if (m < 0 && m != -ESRCH) {
				closedir(d);
				return m;
			}
			n += m > 0 ? m : 0;
		}
		closedir(d);
		return n;
	}
	if (r->wl && !r->wl_timer)
		return synth_ns_process(pev_workload_pid(r->wl), so, pev_data_writer_emit, r->w);
	for (size_t t = 0; t < r->nthreads; t++) {
		int e = emit_namespaces(tgid_of(r->threads[t]), r->threads[t], so,
					pev_data_writer_emit, r->w);

		if (e < 0)
			return e;
		n++;
	}
	return n;
}

/* The mount of the hierarchy whose ids the kernel samples: a cgroup v1
 * mount with the perf_event controller, else the cgroup2 one. */
static int cgroup_mount(char *out, size_t len)
{
	FILE *f = fopen("/proc/self/mounts", "re");
	char dev[256], dir[PATH_MAX], type[64], opts[1024];
	bool found = false;

	if (!f)
		return -errno;
	while (fscanf(f, "%255s %4095s %63s %1023s %*d %*d", dev, dir, type, opts) == 4) {
		bool v1_perf = !strcmp(type, "cgroup") &&
			       (strstr(opts, ",perf_event") || !strncmp(opts, "perf_event", 10));

		if (v1_perf || (!found && !strcmp(type, "cgroup2"))) {
			snprintf(out, len, "%s", dir);
			found = true;
			if (v1_perf)
				break;
		}
	}
	fclose(f);
	return found ? 0 : -ENODEV;
}

/* A cgroup's id: the 64-bit file handle of its directory, as perf reads
 * it (and as the kernel's cgroup_id()). */
static int cgroup_id(const char *path, uint64_t *id)
{
	struct {
		struct file_handle fh;
		uint64_t id;
	} h = { .fh.handle_bytes = sizeof(uint64_t) };
	int mount_id;

	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id, 0) < 0)
		return -errno;
	memcpy(id, h.fh.f_handle, sizeof(*id));
	return 0;
}

static int emit_cgroup(const char *path, const char *rel, const struct pev_synth_opts *so,
		       pev_synth_emit_fn emit, void *user)
{
	uint64_t rec[(16 + PATH_MAX + 8 + 48) / 8] = { 0 };
	struct perf_event_header *h = (void *)rec;
	size_t plen = strlen(rel) + 1;

	if (plen > PATH_MAX)
		return 0;
	if (cgroup_id(path, &rec[1]) < 0)
		return 0;	/* gone meanwhile, or no handles: skipped */
	h->type = PERF_RECORD_CGROUP;
	memcpy(&rec[2], rel, plen);
	size_t off = 16 + ((plen + 7) & ~(size_t)7);
	size_t n = pev_synth_sample_id(so->attr, (uint32_t)-1, (uint32_t)-1, 0, so->id,
				       so->cpu, (char *)rec + off);

	h->size = (uint16_t)(off + n);
	return emit(rec, h->size, user);
}

/* Depth-first, the parent before its children, as perf. */
static long walk_cgroups(char *path, size_t base, const struct pev_synth_opts *so,
			 pev_synth_emit_fn emit, void *user, int depth)
{
	size_t len = strlen(path);
	long n = 0, m;
	int e = emit_cgroup(path, path[base] ? path + base : "/", so, emit, user);
	DIR *d;
	struct dirent *de;

	if (e < 0)
		return e;
	n++;
	if (depth > 64 || !(d = opendir(path)))
		return n;
	while ((de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		if (len + 1 + strlen(de->d_name) >= PATH_MAX)
			continue;
		path[len] = '/';
		strcpy(path + len + 1, de->d_name);
		m = walk_cgroups(path, base, so, emit, user, depth + 1);
		path[len] = '\0';
		if (m < 0) {
			closedir(d);
			return m;
		}
		n += m;
	}
	closedir(d);
	return n;
}

long rec_synth_cgroups(struct rec *r, const struct pev_synth_opts *so)
{
	char path[PATH_MAX];
	int e = cgroup_mount(path, sizeof(path));

	if (e < 0)
		return e;
	return walk_cgroups(path, strlen(path), so, pev_data_writer_emit, r->w, 0);
}
