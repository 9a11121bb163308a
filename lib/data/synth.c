// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Synthesized records for existing state (synth.h).  The layouts are the
 * kernel's (perf_event.h) so readers cannot tell them from real ones. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <perfev/synth.h>
#include <perfev/record.h>

#define REC_MAX (8 + 64 + PATH_MAX_SYNTH + 48)
#define PATH_MAX_SYNTH 4096

struct ctx {
	struct pev_synth_opts o;
	pev_synth_emit_fn emit;
	void *user;
	long count;
	uint64_t buf[(REC_MAX + 7) / 8];
};

PEV_EXPORT size_t pev_synth_sample_id(const struct perf_event_attr *attr,
				      uint32_t pid, uint32_t tid,
				      uint64_t time, uint64_t id, uint32_t cpu,
				      void *out)
{
	uint64_t st, v[6];
	size_t n = 0;

	if (!attr || !attr->sample_id_all)
		return 0;
	st = attr->sample_type;
	if (st & PERF_SAMPLE_TID)
		v[n++] = (uint64_t)pid | (uint64_t)tid << 32;
	if (st & PERF_SAMPLE_TIME)
		v[n++] = time;
	if (st & PERF_SAMPLE_ID)
		v[n++] = id;
	if (st & PERF_SAMPLE_STREAM_ID)
		v[n++] = id;
	if (st & PERF_SAMPLE_CPU)
		v[n++] = cpu;
	if (st & PERF_SAMPLE_IDENTIFIER)
		v[n++] = id;
	if (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ && (st & PERF_SAMPLE_TID))
		v[0] = (uint64_t)pid << 32 | tid;	/* u32 pid first */
	memcpy(out, v, n * 8);
	return n * 8;
}

/* Finishes the record in c->buf: body of `body` bytes, trailer, emit. */
static int emit(struct ctx *c, uint32_t type, uint16_t misc, size_t body,
		uint32_t pid, uint32_t tid)
{
	unsigned char *p = (unsigned char *)c->buf;

	body = (body + 7) & ~(size_t)7;
	size_t t = pev_synth_sample_id(c->o.attr, pid, tid, c->o.time, c->o.id,
				       c->o.cpu, p + 8 + body);
	struct perf_event_header h = { type, misc, (uint16_t)(8 + body + t) };

	memcpy(p, &h, 8);
	int r = c->emit(p, h.size, c->user);

	if (r < 0)
		return r;
	c->count++;
	return 0;
}

/* Copies a string into the body at `at`, zero-padded to 8; the new end. */
static size_t put_str(struct ctx *c, size_t at, const char *s)
{
	unsigned char *p = (unsigned char *)c->buf + 8;
	size_t n = strlen(s);

	if (n > PATH_MAX_SYNTH - 1)
		n = PATH_MAX_SYNTH - 1;
	size_t end = (at + n + 1 + 7) & ~(size_t)7;

	memset(p + at, 0, end - at);
	memcpy(p + at, s, n);
	return end;
}

static void init(struct ctx *c, const struct pev_synth_opts *o,
		 pev_synth_emit_fn fn, void *user)
{
	memset(c, 0, offsetof(struct ctx, buf));
	if (o)
		memcpy(&c->o, o, o->size < sizeof(c->o) ? o->size : sizeof(c->o));
	c->emit = fn;
	c->user = user;
}

static int read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, buf, len - 1);
	int e = errno;

	close(fd);
	if (n < 0)
		return -e;
	buf[n] = 0;
	return (int)n;
}

static int synth_thread(struct ctx *c, pid_t pid, pid_t tid)
{
	char path[64], comm[64], stat[1024];
	unsigned char *b = (unsigned char *)c->buf + 8;
	int ppid = 0;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
	if (read_small(path, comm, sizeof(comm)) < 0)
		return 0;	/* gone: skip */
	comm[strcspn(comm, "\n")] = 0;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
	if (read_small(path, stat, sizeof(stat)) > 0) {
		/* "tid (comm) S ppid ...": comm may hold ')' and spaces */
		char *e = strrchr(stat, ')');

		if (e)
			sscanf(e + 1, " %*c %d", &ppid);
	}
	uint32_t v[4];

	/* FORK: a leader hangs off its parent, a thread off its leader. */
	if (pid == tid)
		v[0] = (uint32_t)pid, v[1] = (uint32_t)ppid, v[2] = (uint32_t)tid,
		v[3] = (uint32_t)ppid;
	else
		v[0] = (uint32_t)pid, v[1] = (uint32_t)pid, v[2] = (uint32_t)tid,
		v[3] = (uint32_t)pid;
	memcpy(b, v, 16);
	memset(b + 16, 0, 8);	/* time */
	int r = emit(c, PERF_RECORD_FORK, 0, 24, (uint32_t)pid, (uint32_t)tid);

	if (r < 0)
		return r;
	v[0] = (uint32_t)pid;
	v[1] = (uint32_t)tid;
	memcpy(b, v, 8);
	return emit(c, PERF_RECORD_COMM, 0, put_str(c, 8, comm),
		    (uint32_t)pid, (uint32_t)tid);
}

static int synth_maps(struct ctx *c, pid_t pid)
{
	char path[64], line[PATH_MAX_SYNTH + 256];
	unsigned char *b = (unsigned char *)c->buf + 8;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	FILE *f = fopen(path, "re");

	if (!f)
		return 0;
	int r = 0;

	while (r == 0 && fgets(line, sizeof(line), f)) {
		unsigned long long start, end, pgoff, ino;
		unsigned maj, min;
		char perms[8];
		int n = 0;

		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end,
			   perms, &pgoff, &maj, &min, &ino, &n) < 7)
			continue;
		bool exec = perms[2] == 'x';

		if (!exec && !c->o.data_mmaps)
			continue;
		char *name = line + n;

		name[strcspn(name, "\n")] = 0;
		if (!*name)
			name = "//anon";
		uint32_t prot = (perms[0] == 'r' ? PROT_READ : 0) |
				(perms[1] == 'w' ? PROT_WRITE : 0) |
				(exec ? PROT_EXEC : 0);
		uint32_t flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
		uint32_t ids[2] = { (uint32_t)pid, (uint32_t)pid };
		uint64_t q[4] = { start, end - start, pgoff, 0 };
		uint32_t mm[2] = { maj, min };
		uint64_t inode[2] = { ino, 0 };
		uint32_t pf[2] = { prot, flags };

		memcpy(b, ids, 8);
		memcpy(b + 8, q, 24);
		memcpy(b + 32, mm, 8);
		memcpy(b + 40, inode, 16);
		memcpy(b + 56, pf, 8);
		r = emit(c, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER |
			 (exec ? 0 : PERF_RECORD_MISC_MMAP_DATA),
			 put_str(c, 64, name), (uint32_t)pid, (uint32_t)pid);
	}
	fclose(f);
	return r;
}

static long do_process(struct ctx *c, pid_t pid)
{
	char path[64];
	struct dirent *de;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	DIR *d = opendir(path);

	if (!d)
		return errno == ENOENT ? -ESRCH : -errno;
	int r = 0;

	while (r == 0 && (de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		r = synth_thread(c, pid, (pid_t)atoi(de->d_name));
	}
	closedir(d);
	if (r == 0)
		r = synth_maps(c, pid);
	return r;
}

PEV_EXPORT long pev_synth_process(pid_t pid, const struct pev_synth_opts *opts,
				  pev_synth_emit_fn fn, void *user)
{
	struct ctx *c = malloc(sizeof(*c));

	if (!c)
		return -ENOMEM;
	init(c, opts, fn, user);
	long r = do_process(c, pid);

	if (r == 0)
		r = c->count;
	free(c);
	return r;
}

PEV_EXPORT long pev_synth_all_processes(const struct pev_synth_opts *opts,
					pev_synth_emit_fn fn, void *user)
{
	struct ctx *c = malloc(sizeof(*c));
	DIR *d = opendir("/proc");
	struct dirent *de;
	long r = 0;

	if (!c || !d) {
		r = c ? -errno : -ENOMEM;
		goto out;
	}
	init(c, opts, fn, user);
	while (r >= 0 && (de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		r = do_process(c, (pid_t)atoi(de->d_name));
		if (r == -ESRCH)	/* exited meanwhile */
			r = 0;
	}
	if (r >= 0)
		r = c->count;
out:
	if (d)
		closedir(d);
	free(c);
	return r;
}

PEV_EXPORT long pev_synth_kernel_mmap(const struct pev_synth_opts *opts,
				      pev_synth_emit_fn fn, void *user)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	unsigned long long text = 0, etext = 0, a;
	char t, name[256], line[512];

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f) && !(text && etext)) {
		if (sscanf(line, "%llx %c %255s", &a, &t, name) != 3)
			continue;
		if (!strcmp(name, "_text"))
			text = a;
		else if (!strcmp(name, "_etext"))
			etext = a;
	}
	fclose(f);
	struct ctx *c = malloc(sizeof(*c));

	if (!c)
		return -ENOMEM;
	init(c, opts, fn, user);
	unsigned char *b = (unsigned char *)c->buf + 8;
	uint32_t ids[2] = { UINT32_MAX, 0 };
	/* Hidden addresses (kptr_restrict) read as 0: then the map spans
	 * everything, and perf report cannot relocate. */
	uint64_t q[3] = { text, etext > text ? etext - text : ~0ULL - text, text };

	memcpy(b, ids, 8);
	memcpy(b + 8, q, 24);
	long r = emit(c, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL,
		      put_str(c, 32, "[kernel.kallsyms]_text"), UINT32_MAX, 0);

	free(c);
	return r < 0 ? r : 1;
}

PEV_EXPORT long pev_synth_modules(const struct pev_synth_opts *opts,
				  pev_synth_emit_fn fn, void *user)
{
	FILE *f = fopen("/proc/modules", "re");
	char line[1024], name[256];
	unsigned long long size, addr;

	if (!f)
		return errno == ENOENT ? 0 : -errno;
	struct ctx *c = malloc(sizeof(*c));
	long r = 0;

	if (!c) {
		fclose(f);
		return -ENOMEM;
	}
	init(c, opts, fn, user);
	unsigned char *b = (unsigned char *)c->buf + 8;

	while (r == 0 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %llu %*s %*s %*s %llx", name, &size,
			   &addr) != 3)
			continue;
		char fn_[260];
		uint32_t ids[2] = { UINT32_MAX, 0 };
		uint64_t q[3] = { addr, size, 0 };

		snprintf(fn_, sizeof(fn_), "[%s]", name);
		memcpy(b, ids, 8);
		memcpy(b + 8, q, 24);
		r = emit(c, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL,
			 put_str(c, 32, fn_), UINT32_MAX, 0);
	}
	fclose(f);
	r = r < 0 ? r : c->count;
	free(c);
	return r;
}
