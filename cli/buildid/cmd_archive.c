// SPDX-License-Identifier: GPL-2.0-only
/* perfev archive [FILE]: what perf 6.1's perf-archive script does, so that
 * a recording can be read on another machine: a FILE.tar.bz2 of the
 * build-id cache entries (perf's ~/.debug layout, or $PERF_BUILDID_DIR)
 * of the DSOs the samples hit: for each build id, the link
 * .build-id/xx/yyyy... and the directory it points to (the DSO's copy
 * `elf`, its `debug` file, the kernel's `kallsyms`).  Unpacked with
 * `tar xf FILE.tar.bz2 -C ~/.debug` on the other machine.
 *
 * Unlike the script, a DSO that is not in the cache (perfev record does
 * not fill it) is not an error: the entry is built in a scratch directory
 * from the file itself when its build id still matches, with the debug
 * file /usr/lib/debug/.build-id/xx/yyyy.debug when there is one, and
 * /proc/kallsyms for the running kernel. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <perfev/perfev.h>
#include <perfev/data.h>
#include "common/cli.h"
#include "common/input.h"
#include "common/options.h"
#include "buildid/buildid.h"

struct strv {
	char **v;
	size_t nr, cap;
};

static int strv_add(struct strv *s, const char *str)
{
	if (s->nr + 2 > s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 32;
		char **v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	if (!(s->v[s->nr] = strdup(str)))
		return -ENOMEM;
	s->v[++s->nr] = NULL;
	return 0;
}

static void strv_free(struct strv *s)
{
	for (size_t i = 0; i < s->nr; i++)
		free(s->v[i]);
	free(s->v);
}

static int mkdirs(const char *path)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s", path);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		if (mkdir(p, 0755) < 0 && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	return mkdir(p, 0755) < 0 && errno != EEXIST ? -errno : 0;
}

static int copy_file(const char *from, const char *to)
{
	char buf[1 << 16];
	int in = open(from, O_RDONLY | O_CLOEXEC), out;
	ssize_t n = 0;

	if (in < 0)
		return -errno;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		close(in);
		return -errno;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			n = -1;
			break;
		}
	int err = n < 0 ? -errno : 0;

	close(in);
	if (close(out) < 0 && !err)
		err = -errno;
	return err;
}

static bool same_build_id(const char *path, const char *hex)
{
	uint8_t id[20];
	char h[41];
	int n = pev_elf_build_id(path, id, sizeof(id));

	if (n <= 0)
		return false;
	for (int i = 0; i < n; i++)
		sprintf(h + 2 * i, "%02x", id[i]);
	return !strcmp(h, hex);
}

/* Builds the cache entry of one DSO under scratch (perf's layout): the
 * directory NAME/HEX with elf (or kallsyms, vdso) and debug, and the link
 * .build-id/xx/rest to it.  Adds both to `list`; false when there is
 * nothing to put in it. */
static bool stage(const char *scratch, const struct bid_dso *d, struct strv *list)
{
	char dir[PATH_MAX], file[PATH_MAX + 16], link[PATH_MAX], target[PATH_MAX];
	const char *name = d->name[0] == '/' ? d->name + 1 : d->name;
	bool any = false;
	uint8_t run[20];
	char runhex[41] = "";
	int n;

	snprintf(dir, sizeof(dir), "%s/%s/%s", scratch, name, d->hex);
	if (mkdirs(dir) < 0)
		return false;
	if (!strcmp(d->name, "[kernel.kallsyms]")) {
		n = pev_kernel_build_id(run, sizeof(run));
		for (int i = 0; i < n; i++)
			sprintf(runhex + 2 * i, "%02x", run[i]);
		snprintf(file, sizeof(file), "%s/kallsyms", dir);
		any = n > 0 && !strcmp(runhex, d->hex) && !copy_file("/proc/kallsyms", file);
	} else if (d->name[0] == '/') {
		snprintf(file, sizeof(file), "%s/elf", dir);
		any = same_build_id(d->name, d->hex) && !copy_file(d->name, file);
		char dbg[PATH_MAX];

		snprintf(dbg, sizeof(dbg), "/usr/lib/debug/.build-id/%.2s/%s.debug", d->hex, d->hex + 2);
		snprintf(file, sizeof(file), "%s/debug", dir);
		if (same_build_id(dbg, d->hex) && !copy_file(dbg, file))
			any = true;
	}
	if (!any)
		return false;
	snprintf(link, sizeof(link), "%s/.build-id/%.2s", scratch, d->hex);
	if (mkdirs(link) < 0)
		return false;
	snprintf(link, sizeof(link), "%s/.build-id/%.2s/%s", scratch, d->hex, d->hex + 2);
	snprintf(target, sizeof(target), "../../%s/%s", name, d->hex);
	unlink(link);
	if (symlink(target, link) < 0)
		return false;
	snprintf(link, sizeof(link), ".build-id/%.2s/%s", d->hex, d->hex + 2);
	snprintf(target, sizeof(target), "%s/%s", name, d->hex);
	return !strv_add(list, link) && !strv_add(list, target);
}

static int run_tar(struct strv *argv)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		execvp("tar", argv->v);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		return -ENOENT;
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -EIO;
}

int cmd_archive(int argc, char **argv)
{
	static const char *const usage[] = {
		"perfev archive [<file>]",
		"perfev archive -i <file>",
		NULL,
	};
	const char *input = "perf.data", *in_opt = NULL;
	const struct opt opts[] = {
		{ OPT_STRING, 'i', "input", &in_opt, "file", "input file (default perf.data; or give it as the argument)", NULL, 0 },
		{ OPT_END, 0, NULL, NULL, NULL, NULL, NULL, 0 },
	};
	int first = opt_parse(argc, argv, opts, usage, 0, NULL);
	const char *env = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME");
	char cache[PATH_MAX], real[PATH_MAX], scratch[] = "/tmp/perfev-archive-XXXXXX", out[PATH_MAX];
	struct bid_list l;
	struct strv cached = { 0 }, staged = { 0 }, tar = { 0 };
	bool pipe;
	int rc = EXIT_ERROR;

	if (first == OPT_HELP)
		return EXIT_OK;
	if (first < 0)
		return EXIT_USAGE;
	if (argc - first > (in_opt ? 0 : 1)) {
		cli_error("unexpected argument '%s'; perfev archive takes one file",
			  argv[in_opt ? first : first + 1]);
		return EXIT_USAGE;
	}
	if (in_opt)
		input = in_opt;
	else if (first < argc)
		input = argv[first];
	if (!strcmp(input, "-")) {
		cli_error("perfev archive reads a file, not a pipe");
		return EXIT_USAGE;
	}
	snprintf(cache, sizeof(cache), "%s", env && *env ? env : "");
	if (!cache[0])
		snprintf(cache, sizeof(cache), "%s/.debug", home ? home : "");
	if ((rc = bid_collect(input, true, &l, &pipe)) != EXIT_OK)
		return rc;
	rc = EXIT_ERROR;
	if (!mkdtemp(scratch)) {
		cli_error("cannot create a scratch directory in /tmp: %s", strerror(errno));
		goto out;
	}
	bool have_cache = realpath(cache, real) != NULL;
	size_t nr_ids = 0, missing = 0;

	for (size_t i = 0; i < l.nr; i++) {
		const struct bid_dso *d = &l.v[i];
		char link[PATH_MAX + 64], target[PATH_MAX];
		size_t rl = strlen(real);

		if (!d->hit || !d->hex[0])
			continue;
		nr_ids++;
		snprintf(link, sizeof(link), "%s/.build-id/%.2s/%s", cache, d->hex, d->hex + 2);
		/* In the cache: the link and the directory it resolves to,
		 * both relative to the cache, as the script lists them. */
		if (have_cache && realpath(link, target) && !strncmp(target, real, rl) &&
		    target[rl] == '/') {
			snprintf(link, sizeof(link), ".build-id/%.2s/%s", d->hex, d->hex + 2);
			if (strv_add(&cached, link) || strv_add(&cached, target + rl + 1))
				goto nomem;
		} else if (!stage(scratch, d, &staged)) {
			cli_warn("'%s' (build id %s) is neither in %s nor on this machine any more; "
				 "the archive lacks it", d->name, d->hex, cache);
			missing++;
		}
	}
	if (!nr_ids) {
		cli_error("'%s' names no build id of a DSO that samples hit; record with build ids "
			  "(the default of perfev record and perf record)", input);
		goto out;
	}
	if (!cached.nr && !staged.nr) {
		cli_error("none of the %zu DSOs of '%s' is in %s or on this machine; nothing to archive",
			  nr_ids, input, cache);
		goto out;
	}
	snprintf(out, sizeof(out), "%s.tar.bz2", input);
	if (strv_add(&tar, "tar") || strv_add(&tar, "cjf") || strv_add(&tar, out))
		goto nomem;
	if (cached.nr && (strv_add(&tar, "-C") || strv_add(&tar, real)))
		goto nomem;
	for (size_t i = 0; i < cached.nr; i++)
		if (strv_add(&tar, cached.v[i]))
			goto nomem;
	if (staged.nr && (strv_add(&tar, "-C") || strv_add(&tar, scratch)))
		goto nomem;
	for (size_t i = 0; i < staged.nr; i++)
		if (strv_add(&tar, staged.v[i]))
			goto nomem;
	int err = run_tar(&tar);

	if (err == -ENOENT) {
		cli_error("cannot run 'tar': install it (Debian: apt-get install tar bzip2)");
		goto out;
	}
	if (err < 0) {
		cli_error("tar could not write '%s' (see its message above)", out);
		cli_unlink_partial(out);
		goto out;
	}
	printf("Now please run:\n\n$ tar xvf %s -C ~/.debug\n\n"
	       "wherever you need to run 'perfev script' (or 'perf report') on.\n", out);
	rc = EXIT_OK;
	goto out;
nomem:
	cli_error("out of memory");
out:
	if (scratch[sizeof(scratch) - 7] != 'X') {
		char cmd[PATH_MAX + 16];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
		if (system(cmd)) {
			/* a scratch directory left in /tmp: harmless */
		}
	}
	strv_free(&cached);
	strv_free(&staged);
	strv_free(&tar);
	bid_list_release(&l);
	return rc;
}
