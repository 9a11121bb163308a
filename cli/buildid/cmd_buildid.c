// SPDX-License-Identifier: GPL-2.0-only
/* perfev buildid-list: the build ids a perf.data file names, as perf
 * buildid-list prints them ("%-40s %s": the id, or blanks, and the DSO). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <perfev/perfev.h>
#include <perfev/data.h>
#include <perfev/symbols.h>
#include "common/cli.h"
#include "common/input.h"
#include "common/options.h"
#include "buildid/buildid.h"

void bid_list_release(struct bid_list *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->v[i].name);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static void to_hex(char *out, const uint8_t *id, size_t n)
{
	for (size_t i = 0; i < n && i < 20; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * (n < 20 ? n : 20)] = 0;
}

static struct bid_dso *find(struct bid_list *l, const char *name)
{
	for (size_t i = 0; i < l->nr; i++)
		if (!strcmp(l->v[i].name, name))
			return &l->v[i];
	return NULL;
}

/* The entry for name, appended when new; NULL when out of memory. */
static struct bid_dso *findnew(struct bid_list *l, const char *name)
{
	struct bid_dso *d = find(l, name);

	if (d)
		return d;
	if (l->nr == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 32;
		struct bid_dso *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		l->v = v;
		l->cap = cap;
	}
	d = &l->v[l->nr];
	memset(d, 0, sizeof(*d));
	if (!(d->name = strdup(name)))
		return NULL;
	l->nr++;
	return d;
}

/* The DSO a map or a sample address belongs to, by perf's name. */
static const char *dso_at(struct pev_machine *m, uint32_t pid, uint64_t ip, uint8_t cpumode)
{
	struct pev_addr_loc loc;

	if (pev_machine_resolve(m, pid, ip, cpumode, &loc) < 0 || !loc.dso)
		return NULL;
	return pev_dso_name(loc.dso);
}

static int walk(struct pev_data *data, struct bid_list *l)
{
	struct pev_dso_cache_opts o = { .size = sizeof(o), .buildid_dir = "", .no_debug_files = true };
	struct pev_dso_cache *c = pev_dso_cache_new(&o);
	struct pev_machine *m = c ? pev_machine_new(c) : NULL;
	struct pev_data_event ev;
	int rc = -ENOMEM;

	if (!m)
		goto out;
	while ((rc = pev_data_next_ordered(data, &ev)) > 0) {
		const struct pev_record *r = &ev.rec;
		const char *name;
		struct bid_dso *d;

		if (ev.decode_error)
			continue;
		switch (r->type) {
		case PERF_RECORD_MMAP:
		case PERF_RECORD_MMAP2: {
			const struct pev_record_mmap *mm = &r->u.mmap;

			pev_machine_process(m, r);
			name = dso_at(m, mm->pid, mm->addr, r->misc & PERF_RECORD_MISC_CPUMODE_MASK);
			if (!name || (r->misc & PERF_RECORD_MISC_MMAP_DATA))
				break;
			if (!(d = findnew(l, name)))
				goto nomem;
			if (r->type == PERF_RECORD_MMAP2 && mm->has_build_id && !d->hex[0])
				to_hex(d->hex, mm->build_id, mm->build_id_size);
			break;
		}
		case PERF_RECORD_COMM:
		case PERF_RECORD_FORK:
		case PERF_RECORD_EXIT:
			pev_machine_process(m, r);
			break;
		case PEV_RECORD_HEADER_BUILD_ID: {
			const struct pev_record_build_id *b = &r->u.build_id;

			if (!(d = findnew(l, b->filename)))
				goto nomem;
			to_hex(d->hex, b->build_id, b->size);
			break;
		}
		case PERF_RECORD_SAMPLE:
			name = dso_at(m, r->u.sample.pid, r->u.sample.ip,
				      r->misc & PERF_RECORD_MISC_CPUMODE_MASK);
			if (name && (d = findnew(l, name)))
				d->hit = true;
			else if (name)
				goto nomem;
			break;
		default:
			break;
		}
	}
	goto out;
nomem:
	rc = -ENOMEM;
out:
	pev_machine_free(m);
	pev_dso_cache_free(c);
	return rc;
}

int bid_collect(const char *input, bool hits, struct bid_list *l, bool *pipe)
{
	char err[512] = "";
	struct pev_data *data = pev_data_open(input, NULL, err, sizeof(err));

	memset(l, 0, sizeof(*l));
	if (!data) {
		if (errno == ENOENT && strcmp(input, "-"))
			cli_error("cannot open '%s': no such file; record one with 'perfev record', or name "
				  "another file with -i FILE", input);
		else
			cli_error("cannot read '%s': %s", input, cli_data_errmsg(err, errno));
		return EXIT_ERROR;
	}
	*pipe = pev_data_is_pipe(data);
	const struct pev_data_features *f = pev_data_features(data);

	for (size_t i = 0; f && i < f->nr_build_ids; i++) {
		const struct pev_data_build_id *b = &f->build_ids[i];
		struct bid_dso *d;

		if (!b->filename)
			continue;
		if (!(d = findnew(l, b->filename)))
			goto nomem;
		to_hex(d->hex, b->id, b->size);
		d->from_header = true;
	}
	if (hits || *pipe) {
		int rc = walk(data, l);

		if (rc == -ENOMEM)
			goto nomem;
		if (rc < 0) {
			cli_error("'%s' is damaged: %s; it may be truncated, record it again",
				  input, pev_data_error(data));
			pev_data_close(data);
			return EXIT_ERROR;
		}
	}
	pev_data_close(data);
	return EXIT_OK;
nomem:
	cli_error("out of memory");
	pev_data_close(data);
	bid_list_release(l);
	return EXIT_ERROR;
}

/* -m: the running kernel's build id and the range of its text
 * (_text.._etext from /proc/kallsyms), then each module's from
 * /sys/module/NAME/notes and /proc/modules, as perf's buildid__map_cb
 * prints the kernel maps ("%s %16llx %16llx %s"). */
static int kernel_maps(void)
{
	uint8_t id[20];
	char hex[41] = "", line[512], name[256];
	unsigned long long text = 0, etext = 0, a;
	int n = pev_kernel_build_id(id, sizeof(id));
	FILE *f = fopen("/proc/kallsyms", "re");

	if (n > 0)
		to_hex(hex, id, (size_t)n);
	while (f && fgets(line, sizeof(line), f)) {
		char t;

		if (sscanf(line, "%llx %c %255s", &a, &t, name) != 3)
			continue;
		if (!strcmp(name, "_text"))
			text = a;
		else if (!strcmp(name, "_etext"))
			etext = a;
		if (text && etext)
			break;
	}
	if (f)
		fclose(f);
	printf("%s %16llx %16llx [kernel.kallsyms]\n", hex, text, etext);
	f = fopen("/proc/modules", "re");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long size;
		char path[512];
		int fd;

		if (sscanf(line, "%255s %llu %*s %*s %*s %llx", name, &size, &a) != 3)
			continue;
		hex[0] = 0;
		snprintf(path, sizeof(path), "/sys/module/%s/notes/.note.gnu.build-id", name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			uint8_t note[256];
			ssize_t r = read(fd, note, sizeof(note));
			uint32_t nsz, dsz;

			close(fd);
			if (r >= 12) {
				memcpy(&nsz, note, 4);
				memcpy(&dsz, note + 4, 4);
				size_t off = 12 + ((nsz + 3) & ~3u);

				if (dsz <= 20 && off + dsz <= (size_t)r)
					to_hex(hex, note + off, dsz);
			}
		}
		printf("%s %16llx %16llx [%s]\n", hex, a, a + size, name);
	}
	if (f)
		fclose(f);
	return EXIT_OK;
}

int cmd_buildid_list(int argc, char **argv)
{
	static const char *const usage[] = {
		"perfev buildid-list [<options>]",
		NULL,
	};
	const char *input = NULL;
	bool hits = false, kernel = false, kmaps = false, force = false;
	const struct opt opts[] = {
		{ OPT_STRING, 'i', "input", &input, "file", "input file (default perf.data, or the pipe on stdin)", NULL, 0 },
		{ OPT_BOOL, 'H', "with-hits", &hits, NULL, "only the DSOs that samples hit", NULL, 0 },
		{ OPT_BOOL, 'k', "kernel", &kernel, NULL, "the running kernel's build id", NULL, 0 },
		{ OPT_BOOL, 'm', "kernel-maps", &kmaps, NULL, "the running kernel's and modules' build ids and address ranges", NULL, 0 },
		{ OPT_BOOL, 'f', "force", &force, NULL, "accepted for perf's sake (perfev does not check owners)", NULL, 0 },
		{ OPT_END, 0, NULL, NULL, NULL, NULL, NULL, 0 },
	};
	int first = opt_parse(argc, argv, opts, usage, 0, NULL);
	struct bid_list l;
	struct stat st;
	bool pipe = false;

	if (first == OPT_HELP)
		return EXIT_OK;
	if (first < 0)
		return EXIT_USAGE;
	if (first < argc) {
		cli_error("unexpected argument '%s'; give the file with -i", argv[first]);
		return EXIT_USAGE;
	}
	if (kmaps)
		return kernel_maps();
	if (kernel) {
		uint8_t id[20];
		char hex[41];
		int n = pev_kernel_build_id(id, sizeof(id));

		if (n <= 0) {
			cli_error("cannot read the running kernel's build id from /sys/kernel/notes: %s",
				  strerror(n < 0 ? -n : ENODATA));
			return EXIT_ERROR;
		}
		to_hex(hex, id, (size_t)n);
		printf("%s\n", hex);
		return EXIT_OK;
	}
	if (!input)
		input = !fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode) ? "-" : "perf.data";
	int rc = bid_collect(input, hits, &l, &pipe);

	if (rc)
		return rc;
	/* perf lists every DSO it knows when it did not read the records,
	 * and only the hit ones when it did: with -H, and always on a pipe. */
	for (size_t i = 0; i < l.nr; i++) {
		if ((hits || pipe) ? !l.v[i].hit : !l.v[i].from_header)
			continue;
		printf("%-40s %s\n", l.v[i].hex, l.v[i].name);
	}
	bid_list_release(&l);
	return EXIT_OK;
}
