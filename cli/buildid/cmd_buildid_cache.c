// SPDX-License-Identifier: GPL-2.0-only
/* perfev buildid-cache: manages perf's build-id cache ($HOME/.debug, or
 * $PERF_BUILDID_DIR, or --buildid-dir) as perf 6.1's buildid-cache does,
 * in the same layout (<dir>/<path>/<build id>/elf and the links
 * <dir>/.build-id/xx/<rest>), so that each tool reads what the other
 * wrote:
 *
 *   -a LIST   adds the files (comma-separated; each once, in sorted
 *             order, as perf's string lists)
 *   -r LIST   removes the files' current build ids
 *   -p LIST   removes every build id cached for the files' paths
 *   -P        removes everything
 *   -u LIST   adds the files again (replacing their cached copies)
 *   -l        lists the cached build ids whose files still have them
 *
 * perf exits 0 when a file cannot be added or removed (after a warning
 * that often names the wrong errno); perfev says why and exits 1. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <perfev/perfev.h>
#include <perfev/data.h>
#include <perfev/symbols.h>
#include "common/cli.h"
#include "common/options.h"

struct bc {
	const char *dir;	/* --buildid-dir, or NULL */
	int verbose;
	int failed;
};

struct list {
	char **v;
	size_t nr;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* perf's strlist__new: the comma-separated entries, sorted, each once. */
static int split(const char *s, struct list *l)
{
	char *dup = strdup(s), *save = NULL;
	size_t o = 0;

	memset(l, 0, sizeof(*l));
	if (!dup)
		return -ENOMEM;
	l->v = calloc(strlen(s) / 2 + 2, sizeof(*l->v));
	if (!l->v) {
		free(dup);
		return -ENOMEM;
	}
	for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save))
		if (!(l->v[l->nr] = strdup(t))) {
			free(dup);
			return -ENOMEM;
		} else {
			l->nr++;
		}
	free(dup);
	qsort(l->v, l->nr, sizeof(*l->v), cmp_str);
	for (size_t i = 0; i < l->nr; i++) {
		if (o && !strcmp(l->v[o - 1], l->v[i]))
			free(l->v[i]);
		else
			l->v[o++] = l->v[i];
	}
	l->nr = o;
	return 0;
}

static void list_free(struct list *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->v[i]);
	free(l->v);
}

static void to_hex(char *out, const uint8_t *id, int n)
{
	for (int i = 0; i < n && i < 20; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * (n < 20 ? n : 20)] = 0;
}

/* The build id of file `f` for action `what` ("add", ...), in hex; false
 * after saying why there is none. */
static bool file_id(struct bc *b, const char *what, const char *f, char *hex)
{
	uint8_t id[20];
	struct stat st;
	int n;

	if (stat(f, &st) < 0) {
		cli_error("cannot %s '%s': %s", what, f,
			  errno == ENOENT ? "no such file" : strerror(errno));
		b->failed = 1;
		return false;
	}
	if (S_ISDIR(st.st_mode)) {
		cli_error("cannot %s '%s': it is a directory; name an ELF file", what, f);
		b->failed = 1;
		return false;
	}
	n = pev_elf_build_id(f, id, sizeof(id));
	if (n == -ENOEXEC || n == -ENOENT || n == 0) {
		cli_error("cannot %s '%s': %s", what, f, n == -ENOEXEC ?
			  "not an ELF file; the cache holds programs and libraries" :
			  "it has no build id (link it with -Wl,--build-id)");
		b->failed = 1;
		return false;
	}
	if (n < 0) {
		cli_error("cannot %s '%s': %s", what, f, strerror(-n));
		b->failed = 1;
		return false;
	}
	to_hex(hex, id, n);
	return true;
}

static int hex_to_id(const char *hex, uint8_t *id)
{
	size_t n = strlen(hex) / 2;

	for (size_t i = 0; i < n && i < 20; i++)
		sscanf(hex + 2 * i, "%2hhx", &id[i]);
	return (int)(n < 20 ? n : 20);
}

static void add(struct bc *b, const char *f, bool update)
{
	const char *what = update ? "update" : "add";
	char hex[41], real[PATH_MAX];
	uint8_t id[20];
	int err;

	if (!file_id(b, what, f, hex))
		return;
	if (!realpath(f, real)) {
		cli_error("cannot %s '%s': %s", what, f, strerror(errno));
		b->failed = 1;
		return;
	}
	/* -u: perf removes a cached copy first, then adds the file */
	err = update ? pev_buildid_cache_remove(b->dir, hex) : 0;
	if (err == -ENOENT)
		err = 0;
	if (!err)
		err = pev_buildid_cache_add(b->dir, real, id, (size_t)hex_to_id(hex, id));
	if (b->verbose)
		fprintf(stderr, "%s %s %s: %s\n", update ? "Updating" : "Adding", hex, f,
			err ? "FAIL" : "Ok");
	if (err) {
		char dir[PATH_MAX];

		if (pev_buildid_cache_dir(b->dir, dir, sizeof(dir)) < 0)
			snprintf(dir, sizeof(dir), "the build-id cache");
		if (err == -ENOENT && !b->dir && !getenv("PERF_BUILDID_DIR") && !getenv("HOME"))
			cli_error("cannot %s '%s': no HOME to find the cache in; set HOME or "
				  "PERF_BUILDID_DIR, or give --buildid-dir", what, f);
		else
			cli_error("cannot %s '%s' to '%s': %s", what, f, dir, strerror(-err));
		b->failed = 1;
	}
}

static void remove_file(struct bc *b, const char *f)
{
	char hex[41];
	int err;

	if (!file_id(b, "remove", f, hex))
		return;
	err = pev_buildid_cache_remove(b->dir, hex);
	if (b->verbose)
		fprintf(stderr, "Removing %s %s: %s\n", hex, f, err ? "FAIL" : "Ok");
	if (err == -ENOENT) {
		if (b->verbose)
			fprintf(stderr, "%s wasn't in the cache\n", f);
	} else if (err) {
		cli_error("cannot remove '%s' (%s) from the cache: %s", f, hex, strerror(-err));
		b->failed = 1;
	}
}

struct purge {
	struct bc *b;
	const char *name;	/* the path purged; NULL for -P */
};

static int purge_one(const char *hex, const char *name, void *arg)
{
	struct purge *p = arg;
	int err = pev_buildid_cache_remove(p->b->dir, hex);

	if (p->b->verbose) {
		if (p->name)
			fprintf(stderr, "Removing %s %s: %s\n", hex, p->name, err ? "FAIL" : "Ok");
		else
			fprintf(stderr, "Removing %s (%s): %s\n", name ? name : "(null)", hex,
				err ? "FAIL" : "Ok");
	}
	if (err) {
		cli_error("cannot remove %s (%s) from the cache: %s", hex,
			  p->name ? p->name : name ? name : "?", strerror(-err));
		p->b->failed = 1;
	}
	return err;
}

static void purge(struct bc *b, const char *f)
{
	struct purge p = { b, f };
	int err = pev_buildid_cache_path_ids(b->dir, f, purge_one, &p);

	if (b->verbose)
		fprintf(stderr, "Purging %s: %s\n", f, err ? "FAIL" : "Ok");
	if (err == -ENOENT) {
		if (b->verbose)
			fprintf(stderr, "%s wasn't in the cache\n", f);
	} else if (err < 0 && !b->failed) {
		cli_error("cannot purge '%s' from the cache: %s", f, strerror(-err));
		b->failed = 1;
	}
}

static int show(const char *hex, const char *name, void *arg)
{
	(void)arg;
	printf("%s %s\n", hex, name ? name : "(null)");
	return 0;
}

static void each(struct bc *b, const char *s, void (*fn)(struct bc *, const char *))
{
	struct list l;

	if (!s)
		return;
	if (split(s, &l) < 0) {
		cli_error("out of memory");
		b->failed = 1;
		list_free(&l);
		return;
	}
	for (size_t i = 0; i < l.nr; i++)
		fn(b, l.v[i]);
	list_free(&l);
}

static void add_one(struct bc *b, const char *f)
{
	add(b, f, false);
}

static void update_one(struct bc *b, const char *f)
{
	add(b, f, true);
}

int cmd_buildid_cache(int argc, char **argv)
{
	static const char *const usage[] = {
		"perfev buildid-cache [<options>]",
		NULL,
	};
	const char *add_s = NULL, *remove_s = NULL, *purge_s = NULL, *update_s = NULL;
	bool list = false, purge_all = false, force = false;
	struct bc b = { 0 };
	const struct opt opts[] = {
		{ OPT_STRING, 'a', "add", &add_s, "file list", "file(s) to add (comma-separated)", NULL, 0 },
		{ OPT_BOOL, 'f', "force", &force, NULL, "accepted for perf's sake (perfev does not check owners)", NULL, 0 },
		{ OPT_BOOL, 'l', "list", &list, NULL, "list the cached files whose build ids are still theirs", NULL, 0 },
		{ OPT_STRING, 'p', "purge", &purge_s, "file list", "file(s) to remove with every build id cached for their paths", NULL, 0 },
		{ OPT_BOOL, 'P', "purge-all", &purge_all, NULL, "remove everything from the cache", NULL, 0 },
		{ OPT_STRING, 'r', "remove", &remove_s, "file list", "file(s) to remove (their current build ids)", NULL, 0 },
		{ OPT_STRING, 'u', "update", &update_s, "file list", "file(s) to add again, replacing their cached copies", NULL, 0 },
		{ OPT_COUNT, 'v', "verbose", &b.verbose, NULL, "say what is done to each file, as perf -v", NULL, 0 },
		{ OPT_STRING, 0, "buildid-dir", &b.dir, "dir", "the cache directory (default $PERF_BUILDID_DIR, else $HOME/.debug)", NULL, 0 },
		{ OPT_END, 0, NULL, NULL, NULL, NULL, NULL, 0 },
	};
	int first = opt_parse(argc, argv, opts, usage, 0, NULL);

	if (first == OPT_HELP)
		return EXIT_OK;
	if (first < 0)
		return EXIT_USAGE;
	if (first < argc) {
		cli_error("unexpected argument '%s'; give the files with -a, -r, -p or -u", argv[first]);
		return EXIT_USAGE;
	}
	if (!list && !add_s && !remove_s && !purge_s && !update_s && !purge_all) {
		cli_error("nothing to do; give -a FILE, -r FILE, -p FILE, -P, -u FILE or -l");
		return EXIT_USAGE;
	}
	/* As perf: -l only lists, whatever else was asked. */
	if (list) {
		int err = pev_buildid_cache_list(b.dir, true, show, NULL);

		if (err < 0) {
			cli_error("cannot list the build-id cache: %s", strerror(-err));
			return EXIT_ERROR;
		}
		return EXIT_OK;
	}
	each(&b, add_s, add_one);
	each(&b, remove_s, remove_file);
	each(&b, purge_s, purge);
	if (purge_all) {
		struct purge p = { &b, NULL };
		int err = pev_buildid_cache_list(b.dir, false, purge_one, &p);

		if (b.verbose)
			fprintf(stderr, "Purged all: %s\n", err ? "FAIL" : "Ok");
		if (err < 0 && !b.failed) {
			cli_error("cannot purge the build-id cache: %s", strerror(-err));
			b.failed = 1;
		}
	}
	each(&b, update_s, update_one);
	return b.failed ? EXIT_ERROR : EXIT_OK;
}
