// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The TRACING_DATA blob (perf's trace-event-info format, version 0.6):
 * the tracefs header files, the ftrace and used event formats, empty
 * kallsyms, printk formats and saved cmdlines. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data/data_internal.h"

static int read_all(const char *path, struct obuf *tmp)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char chunk[8192];

	if (fd < 0)
		return -errno;
	tmp->len = 0;
	for (;;) {
		ssize_t n = read(fd, chunk, sizeof(chunk));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = -errno;

			close(fd);
			return e;
		}
		if (n == 0)
			break;
		pev__ob_put(tmp, chunk, (size_t)n);
	}
	close(fd);
	return tmp->err;
}

/* u64 (or u32) size, then the file. */
static int put_file(struct obuf *b, struct obuf *tmp, const char *path,
		    bool size64)
{
	int r = read_all(path, tmp);

	if (r < 0)
		return r;
	if (size64)
		pev__ob_u64(b, tmp->len);
	else
		pev__ob_u32(b, (uint32_t)tmp->len);
	pev__ob_put(b, tmp->p, tmp->len);
	return b->err;
}

static const char *tracefs_dir(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing",
					    "/sys/kernel/debug/tracing" };
	char p[64];

	for (size_t i = 0; i < 2; i++) {
		snprintf(p, sizeof(p), "%s/events/header_page", dirs[i]);
		if (access(p, R_OK) == 0)
			return dirs[i];
	}
	return NULL;
}

/* Finds the system/name of a tracepoint id; 0 or -ENOENT. */
static int find_id(const char *root, uint64_t id, char *sys, char *name)
{
	char p[1024];
	int r = -ENOENT;

	snprintf(p, sizeof(p), "%s/events", root);
	DIR *d = opendir(p);
	struct dirent *s;

	if (!d)
		return -errno;
	while (r < 0 && (s = readdir(d))) {
		if (s->d_name[0] == '.' || strlen(s->d_name) > 255)
			continue;
		snprintf(p, sizeof(p), "%s/events/%s", root, s->d_name);
		DIR *e = opendir(p);
		struct dirent *ev;

		while (e && r < 0 && (ev = readdir(e))) {
			char ip[1024];

			if (ev->d_name[0] == '.')
				continue;
			snprintf(ip, sizeof(ip), "%s/events/%s/%.255s/id",
				 root, s->d_name, ev->d_name);
			FILE *f = fopen(ip, "re");
			unsigned long long v;

			if (f && fscanf(f, "%llu", &v) == 1 && v == id) {
				snprintf(sys, 256, "%s", s->d_name);
				snprintf(name, 256, "%s", ev->d_name);
				r = 0;
			}
			if (f)
				fclose(f);
		}
		if (e)
			closedir(e);
	}
	closedir(d);
	return r;
}

/* The ftrace formats whose names are among the recorded tracepoints'
 * (perf's record_ftrace_files matches names only; with none, a count of
 * 0: the formats of the other ftrace events break libtraceevent). */
static int put_ftrace(struct obuf *b, struct obuf *tmp, const char *root,
		      char (*name)[256], size_t n)
{
	char p[1024];
	struct dirent *de;
	uint32_t count = 0;

	snprintf(p, sizeof(p), "%s/events/ftrace", root);
	DIR *d = opendir(p);

	if (!d) {
		pev__ob_u32(b, 0);
		return b->err;
	}
	size_t at = b->len;

	pev__ob_u32(b, 0);
	while ((de = readdir(d))) {
		bool used = false;

		for (size_t i = 0; i < n; i++)
			used |= !strcmp(de->d_name, name[i]);
		if (de->d_name[0] == '.' || !used)
			continue;
		snprintf(p, sizeof(p), "%s/events/ftrace/%.255s/format", root,
			 de->d_name);
		if (access(p, R_OK))
			continue;
		if (put_file(b, tmp, p, true) == 0)
			count++;
	}
	closedir(d);
	if (!b->err) {
		if (b->foreign)
			count = bswap_32(count);
		memcpy(b->p + at, &count, 4);
	}
	return b->err;
}

PEV_EXPORT int pev_data_features_tracing_data(struct pev_data_features *f,
					      const uint64_t *ids, size_t n)
{
	const char *root = tracefs_dir();
	struct obuf b = { 0 }, tmp = { 0 };
	char p[1024];
	char (*sys)[256] = calloc(n ? n : 1, 256), (*name)[256] =
		calloc(n ? n : 1, 256);
	int r = 0;

	if (!sys || !name) {
		r = -ENOMEM;
		goto out;
	}
	if (!root) {
		r = -ENOENT;
		goto out;
	}
	for (size_t i = 0; i < n && r == 0; i++)
		r = find_id(root, ids[i], sys[i], name[i]);
	if (r < 0)
		goto out;
	static const unsigned char magic[] = { 23, 8, 68 };
	uint8_t endian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__, lsz = sizeof(long);

	pev__ob_put(&b, magic, 3);
	pev__ob_put(&b, "tracing", 7);
	pev__ob_put(&b, "0.6", 4);
	pev__ob_put(&b, &endian, 1);
	pev__ob_put(&b, &lsz, 1);
	pev__ob_u32(&b, (uint32_t)sysconf(_SC_PAGESIZE));
	pev__ob_put(&b, "header_page", 12);
	snprintf(p, sizeof(p), "%s/events/header_page", root);
	r = put_file(&b, &tmp, p, true);
	pev__ob_put(&b, "header_event", 13);
	snprintf(p, sizeof(p), "%s/events/header_event", root);
	if (r == 0)
		r = put_file(&b, &tmp, p, true);
	if (r == 0)
		r = put_ftrace(&b, &tmp, root, name, n);
	/* Systems in first-use order, each with its events; ftrace's went
	 * above. */
	bool *done = calloc(n ? n : 1, 1);
	uint32_t nsys = 0;

	if (!done)
		r = -ENOMEM;
	for (size_t i = 0; i < n && r == 0; i++)
		done[i] = !strcmp(sys[i], "ftrace");
	for (size_t i = 0; i < n && r == 0; i++) {
		if (done[i])
			continue;
		bool seen = false;

		for (size_t j = 0; j < i; j++)
			seen |= !strcmp(sys[i], sys[j]);
		nsys += !seen;
	}
	pev__ob_u32(&b, nsys);
	for (size_t i = 0; i < n && r == 0; i++) {
		if (done[i])
			continue;
		uint32_t cnt = 0;

		for (size_t j = i; j < n; j++)
			if (!done[j] && !strcmp(sys[i], sys[j])) {
				bool dup = false;

				for (size_t k = i; k < j; k++)
					dup |= !strcmp(sys[k], sys[j]) &&
					       !strcmp(name[k], name[j]);
				cnt += !dup;
			}
		pev__ob_put(&b, sys[i], strlen(sys[i]) + 1);
		pev__ob_u32(&b, cnt);
		for (size_t j = i; j < n && r == 0; j++) {
			if (done[j] || strcmp(sys[i], sys[j]))
				continue;
			bool dup = false;

			for (size_t k = i; k < j; k++)
				dup |= !strcmp(sys[k], sys[j]) &&
				       !strcmp(name[k], name[j]);
			done[j] = true;
			if (dup)
				continue;
			snprintf(p, sizeof(p), "%s/events/%s/%s/format", root,
				 sys[j], name[j]);
			r = put_file(&b, &tmp, p, true);
		}
	}
	free(done);
	pev__ob_u32(&b, 0);		/* kallsyms: perf writes none */
	snprintf(p, sizeof(p), "%s/printk_formats", root);
	if (r == 0 && put_file(&b, &tmp, p, false) < 0)
		pev__ob_u32(&b, 0);
	snprintf(p, sizeof(p), "%s/saved_cmdlines", root);
	if (r == 0 && put_file(&b, &tmp, p, true) < 0)
		pev__ob_u64(&b, 0);
	if (r == 0)
		r = b.err;
	if (r == 0) {
		free(f->tracing_data);
		f->tracing_data = b.p;
		f->tracing_data_size = b.len;
		b.p = NULL;
		pev_data_features_set(f, PEV_FEAT_TRACING_DATA, true);
	}
out:
	free(b.p);
	free(tmp.p);
	free(sys);
	free(name);
	return r;
}
