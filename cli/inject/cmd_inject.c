// SPDX-License-Identifier: GPL-2.0-only
/* perfev inject -i - -o OUT: a pipe stream copied as perf 6.1's inject
 * copies it (its output stays a stream, record for record).
 *
 * perfev inject -i IN -o OUT: a file copied record for record, its
 * attrs and header features kept (as perf 6.1's inject without options).
 *
 * perfev inject --jit -i IN -o OUT: what perf inject --jit does.  The
 * records of IN are copied to OUT, except that the mmap of a jitdump file
 * (jit-PID.dump, which a JIT maps as a marker: node --perf-prof, the
 * JVM's jvmti agent) is replaced by one MMAP2 per JIT_CODE_LOAD (and
 * JIT_CODE_MOVE) of that dump, over an ELF file written next to the dump
 * (jitted-PID-N.so, holding the code and a symbol for it), and the
 * anonymous mappings the JIT made are dropped: perf script -i OUT then
 * names JIT frames after those files.  OUT's header lists their build
 * ids with IN's.
 *
 * perfev inject -b -i IN -o OUT: what perf 6.1's inject -b does.  The
 * records go out in time order (perf's ordered events), and before the
 * first sample that hits a DSO, a PERF_RECORD_HEADER_BUILD_ID record
 * with its build id (IN's, or the file's own, or the running vDSO's);
 * OUT's BUILD_ID header table lists the hit DSOs that have one, and the
 * vDSO, as perf's.  On a pipe stream the records are all there is. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <perfev/perfev.h>
#include <perfev/data.h>
#include <perfev/jit.h>
#include "common/cli.h"
#include "common/input.h"
#include "common/options.h"

struct inject {
	const char *input, *output;
	struct pev_data *in;
	struct pev_data_writer *w;
	struct pev_data_features *outf;
	const struct perf_event_attr *attr;	/* the first event's (sample_id) */
	uint32_t *pids;			/* processes whose dump was injected */
	size_t nr_pids;
	uint64_t nr_loads, nr_moves;
	bool warned_clock;
	bool pipe;			/* -o -: a pipe stream on stdout */
	bool jit;			/* --jit */
	bool build_ids;			/* -b */
	struct bid_state *bid;
};

/* -b: the DSOs seen, in perf's order (IN's BUILD_ID table first, then as
 * their maps come). */
struct bid_dso {
	char *name;
	uint8_t id[20], size;		/* size 0: no build id known */
	bool hit, tried;
};

struct bid_state {
	struct pev_dso_cache *cache;
	struct pev_machine *m;
	struct bid_dso *v;
	size_t nr, cap;
	uint64_t nr_injected;
};

static void bid_free(struct bid_state *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->nr; i++)
		free(b->v[i].name);
	free(b->v);
	pev_machine_free(b->m);
	pev_dso_cache_free(b->cache);
	free(b);
}

static struct bid_dso *bid_findnew(struct bid_state *b, const char *name)
{
	for (size_t i = 0; i < b->nr; i++)
		if (!strcmp(b->v[i].name, name))
			return &b->v[i];
	if (b->nr == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 32;
		struct bid_dso *v = realloc(b->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		b->v = v;
		b->cap = cap;
	}
	struct bid_dso *d = &b->v[b->nr];

	memset(d, 0, sizeof(*d));
	if (!(d->name = strdup(name)))
		return NULL;
	b->nr++;
	return d;
}

static void bid_set(struct bid_dso *d, const uint8_t *id, size_t size)
{
	if (d->size || !size)
		return;
	d->size = (uint8_t)(size < 20 ? size : 20);
	memcpy(d->id, id, d->size);
}

static struct bid_state *bid_new(struct pev_data *in)
{
	struct pev_dso_cache_opts o = { .size = sizeof(o), .buildid_dir = "", .no_debug_files = true };
	struct bid_state *b = calloc(1, sizeof(*b));
	const struct pev_data_features *f = pev_data_features(in);

	if (!b || !(b->cache = pev_dso_cache_new(&o)) || !(b->m = pev_machine_new(b->cache))) {
		bid_free(b);
		return NULL;
	}
	for (size_t i = 0; f && i < f->nr_build_ids; i++) {
		const struct pev_data_build_id *e = &f->build_ids[i];
		struct bid_dso *d;

		if (!e->filename)
			continue;
		if (!(d = bid_findnew(b, e->filename))) {
			bid_free(b);
			return NULL;
		}
		bid_set(d, e->id, e->size);
	}
	return b;
}

/* The DSO at ip for process pid, by perf's name; NULL when none. */
static const char *bid_dso_at(struct bid_state *b, uint32_t pid, uint64_t ip, uint8_t cpumode)
{
	struct pev_addr_loc loc;

	if (pev_machine_resolve(b->m, pid, ip, cpumode, &loc) < 0 || !loc.dso)
		return NULL;
	return pev_dso_name(loc.dso);
}

/* perf's dso__read_build_id: a file's own note; the vDSO's is the running
 * one's (perf reads the copy of its own it writes to /tmp); the kernel
 * and its modules only have what IN said. */
static void bid_read(struct bid_dso *d)
{
	uint8_t id[20];
	int n = -ENOENT;

	if (d->size || d->tried)
		return;
	d->tried = true;
	if (!strcmp(d->name, "[vdso]"))
		n = pev_vdso_build_id(id, sizeof(id));
	else if (!strcmp(d->name, "[vdso32]"))
		n = pev_vdso32_build_id(id, sizeof(id));
	else if (d->name[0] == '/' && strncmp(d->name, "//anon", 6) && strncmp(d->name, "/dev/zero", 9) &&
		 strncmp(d->name, "/anon_hugepage", 14))
		n = pev_elf_build_id(d->name, id, sizeof(id));
	if (n > 0)
		bid_set(d, id, (size_t)n);
}

static bool bid_kernel_name(const char *name)
{
	return name[0] == '[' && strcmp(name, "[vdso]") && strcmp(name, "[vdso32]") &&
	       strcmp(name, "[vsyscall]") && strcmp(name, "[heap]") && strncmp(name, "[stack", 6);
}

/* A PERF_RECORD_HEADER_BUILD_ID record as perf's synthesize_build_id
 * makes it (pid -1, the name padded to 64 bytes), with its id's size
 * (PERF_RECORD_MISC_BUILD_ID_SIZE, which perf 6.1 reads) and the whole
 * padded to 8 bytes (perf's are 36 + 64n); its length, 0 when too long. */
static size_t bid_record(const struct bid_dso *d, uint16_t misc, uint8_t *rec, size_t max)
{
	size_t flen = (strlen(d->name) + 1 + 63) & ~(size_t)63, len = (36 + flen + 7) & ~(size_t)7;
	uint16_t m = misc | PEV_RECORD_MISC_BUILD_ID_SIZE, sz = (uint16_t)len;
	uint32_t type = PEV_RECORD_HEADER_BUILD_ID;
	int32_t pid = -1;

	if (len > max || len > 65535)
		return 0;
	memset(rec, 0, len);
	memcpy(rec, &type, 4);
	memcpy(rec + 4, &m, 2);
	memcpy(rec + 6, &sz, 2);
	memcpy(rec + 8, &pid, 4);
	memcpy(rec + 12, d->id, d->size);
	rec[32] = d->size;
	memcpy(rec + 36, d->name, strlen(d->name));
	return len;
}

/* Feeds one record; fills rec with a BUILD_ID record to write before it
 * (returns its length), or returns 0; -ENOMEM. */
static int bid_process(struct bid_state *b, const struct pev_data_event *ev, uint8_t *rec, size_t max)
{
	const struct pev_record *r = &ev->rec;
	uint8_t cpumode = r->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	const char *name;
	struct bid_dso *d;

	if (ev->decode_error)
		return 0;
	switch (r->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: {
		const struct pev_record_mmap *mm = &r->u.mmap;

		if (pev_machine_process(b->m, r) < 0)
			return -ENOMEM;
		if ((r->misc & PERF_RECORD_MISC_MMAP_DATA) ||
		    !(name = bid_dso_at(b, mm->pid, mm->addr, cpumode)))
			return 0;
		if (!(d = bid_findnew(b, name)))
			return -ENOMEM;
		/* perf takes an MMAP2's build id and injects none for it */
		if (r->type == PERF_RECORD_MMAP2 && mm->has_build_id) {
			bid_set(d, mm->build_id, mm->build_id_size);
			d->hit = true;
		}
		return 0;
	}
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return pev_machine_process(b->m, r) < 0 ? -ENOMEM : 0;
	case PEV_RECORD_HEADER_BUILD_ID:
		if (!(d = bid_findnew(b, r->u.build_id.filename)))
			return -ENOMEM;
		bid_set(d, r->u.build_id.build_id, r->u.build_id.size);
		return 0;
	case PERF_RECORD_SAMPLE:
		if (!(name = bid_dso_at(b, r->u.sample.pid, r->u.sample.ip, cpumode)))
			return 0;
		if (!(d = bid_findnew(b, name)))
			return -ENOMEM;
		if (d->hit)
			return 0;
		d->hit = true;
		bid_read(d);
		if (!d->size)
			return 0;
		b->nr_injected++;
		return (int)bid_record(d, cpumode, rec, max);
	default:
		return 0;
	}
}

/* OUT's BUILD_ID table, as perf's write_build_id: the hit DSOs with a
 * build id and the vDSO (hit or not), in the order perf keeps its DSOs. */
static int bid_table(struct bid_state *b, struct pev_data_features *f)
{
	for (size_t i = 0; i < b->nr; i++) {
		struct bid_dso *d = &b->v[i];
		bool vdso = !strcmp(d->name, "[vdso]") || !strcmp(d->name, "[vdso32]");

		if (!d->hit && !vdso)
			continue;
		if (vdso)
			bid_read(d);
		if (!d->size)
			continue;
		int err = pev_data_features_add_build_id(f, -1, bid_kernel_name(d->name) ?
							 PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER,
							 d->id, d->size, d->name);

		if (err < 0)
			return err;
	}
	return 0;
}

static bool pid_done(const struct inject *j, uint32_t pid)
{
	for (size_t i = 0; i < j->nr_pids; i++)
		if (j->pids[i] == pid)
			return true;
	return false;
}

/* perf's jit_detect: ".../jit-<pid>.dump" mapped by process <pid>. */
static bool is_jitdump(const char *name, uint32_t pid)
{
	const char *p = strrchr(name, '/');
	char *end;

	if (!p || strncmp(p, "/jit-", 5) || p[5] < '0' || p[5] > '9')
		return false;
	long n = strtol(p + 5, &end, 10);

	return (!pid || (uint32_t)n == pid) && !strcmp(end, ".dump");
}

/* An MMAP2 record for a jitted file, with the sample_id trailer of the
 * file's events (pid, tid and time filled, as perf does). */
static int emit_mmap2(struct inject *j, const char *file, uint32_t pid, uint32_t tid,
		      uint64_t start, uint64_t len, uint64_t time)
{
	uint8_t rec[4096 + 256];
	size_t flen = strlen(file) + 1, off = 0, fpad = (flen + 7) & ~(size_t)7;
	struct stat st;
	uint64_t st_ = j->attr ? j->attr->sample_type : 0;

	if (fpad > 4096)
		return -ENAMETOOLONG;
	if (stat(file, &st) < 0)
		memset(&st, 0, sizeof(st));
	memset(rec, 0, sizeof(rec));
	struct { uint32_t type; uint16_t misc, size; } hdr = { PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, 0 };
	uint32_t u32v[2];
	uint64_t u64v[3];

	off = 8;
	u32v[0] = pid; u32v[1] = tid;
	memcpy(rec + off, u32v, 8); off += 8;
	u64v[0] = start; u64v[1] = len; u64v[2] = PEV_JIT_ELF_TEXT_OFFSET;
	memcpy(rec + off, u64v, 24); off += 24;
	u32v[0] = major(st.st_dev); u32v[1] = minor(st.st_dev);
	memcpy(rec + off, u32v, 8); off += 8;
	u64v[0] = st.st_ino; u64v[1] = 1;		/* ino, ino_generation */
	memcpy(rec + off, u64v, 16); off += 16;
	u32v[0] = st.st_mode; u32v[1] = MAP_SHARED;	/* perf puts st_mode in prot */
	memcpy(rec + off, u32v, 8); off += 8;
	memcpy(rec + off, file, flen);
	off += fpad;
	if (j->attr && j->attr->sample_id_all) {
		if (st_ & PERF_SAMPLE_TID) {
			u32v[0] = pid; u32v[1] = tid;
			memcpy(rec + off, u32v, 8); off += 8;
		}
		if (st_ & PERF_SAMPLE_TIME) {
			memcpy(rec + off, &time, 8); off += 8;
		}
		off += 8 * (!!(st_ & PERF_SAMPLE_ID) + !!(st_ & PERF_SAMPLE_STREAM_ID) +
			    !!(st_ & PERF_SAMPLE_CPU) + !!(st_ & PERF_SAMPLE_IDENTIFIER));
	}
	hdr.size = (uint16_t)off;
	memcpy(rec, &hdr, 8);
	return pev_data_writer_write(j->w, rec, off);
}

static int inject_dump(struct inject *j, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	struct pev_jitdump_header h;
	struct pev_jit_record r;
	char dir[4096], file[4200];
	/* perf keeps the last DEBUG_INFO (with entries) for the next load
	 * and the last UNWINDING_INFO for every load up to one whose
	 * eh_frame_hdr_size is not 0. */
	struct pev_jit_record dbg = { 0 }, unw = { 0 };
	struct pev_jit_elf_extra x = { .hdr = &h };
	uint64_t usize = 0;
	void *map;
	int err;

	if (fd < 0 || fstat(fd, &st) < 0) {
		err = -errno;
		if (fd >= 0)
			close(fd);
		return err;
	}
	map = st.st_size ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
	close(fd);
	if (map == MAP_FAILED)
		return st.st_size ? -errno : -EBADMSG;
	err = pev_jitdump_header_read(map, (size_t)st.st_size, &h);
	if (err < 0)
		goto out;
	if ((h.flags & PEV_JITDUMP_FLAG_ARCH_TIMESTAMP) && !j->warned_clock) {
		cli_warn("'%s' has TSC timestamps; perfev keeps them as they are", path);
		j->warned_clock = true;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = 0;
	for (size_t pos = h.total_size; (err = pev_jitdump_next(map, (size_t)st.st_size, &h, &pos, &r)) > 0;) {
		uint8_t bid[20];
		uint64_t len;

		switch (r.id) {
		case PEV_JIT_CODE_LOAD:
			/* The map covers the unwinding data after the code. */
			len = usize ? ((r.u.load.code_size + 7) & ~7ull) + usize : r.u.load.code_size;
			snprintf(file, sizeof(file), "%s/jitted-%d-%" PRIu64 ".so", dir,
				 (int)r.u.load.pid, r.u.load.code_index);
			x.debug = dbg.u.debug_info.nr_entry ? &dbg : NULL;
			x.unwinding = unw.u.unwinding.data;
			x.unwinding_size = unw.u.unwinding.unwinding_size;
			x.eh_frame_hdr_size = unw.u.unwinding.eh_frame_hdr_size;
			err = pev_jit_write_elf_extra(file, (uint16_t)h.elf_mach, r.u.load.name,
						      r.u.load.code_addr, r.u.load.code,
						      r.u.load.code_size, &x, bid);
			if (x.debug)
				dbg.u.debug_info.nr_entry = 0;
			if (x.unwinding && x.eh_frame_hdr_size) {
				memset(&unw, 0, sizeof(unw));
				usize = 0;
			}
			if (err < 0)
				goto out;
			err = pev_data_features_add_build_id(j->outf, (int32_t)r.u.load.pid,
							     PERF_RECORD_MISC_USER, bid, 20, file);
			if (!err)
				err = emit_mmap2(j, file, r.u.load.pid, r.u.load.tid, r.u.load.code_addr,
						 len, r.timestamp);
			if (err < 0)
				goto out;
			j->nr_loads++;
			break;
		case PEV_JIT_CODE_MOVE:
			snprintf(file, sizeof(file), "%s/jitted-%d-%" PRIu64 ".so", dir,
				 (int)r.u.move.pid, r.u.move.code_index);
			err = emit_mmap2(j, file, r.u.move.pid, r.u.move.tid, r.u.move.new_code_addr,
					 usize ? ((r.u.move.code_size + 7) & ~7ull) + usize :
					 r.u.move.code_size, r.timestamp);
			if (err < 0)
				goto out;
			j->nr_moves++;
			break;
		case PEV_JIT_CODE_DEBUG_INFO:
			dbg = r;
			break;
		case PEV_JIT_CODE_UNWINDING_INFO:
			unw = r;
			usize = r.u.unwinding.mapped_size;
			break;
		default:	/* CLOSE */
			break;
		}
	}
	if (err == -EBADMSG)
		cli_warn("'%s' has a damaged record; the JIT code after it is not injected", path);
	err = 0;
out:
	munmap(map, (size_t)st.st_size);
	return err;
}

static bool is_jit_anon(const char *f)
{
	return !strncmp(f, "//anon", 6) || !strncmp(f, "[anon:", 6) || !strncmp(f, "/memfd:", 7);
}

static int copy_features(struct inject *j)
{
	const struct pev_data_features *f = pev_data_features(j->in);

	for (unsigned feat = 1; f && feat < PEV_FEAT_BITS; feat++) {
		void *buf;
		size_t len;

		if (!pev_data_features_has(f, feat) || feat == PEV_FEAT_EVENT_DESC ||
		    feat == PEV_FEAT_COMPRESSED || feat == PEV_FEAT_SAMPLE_TIME ||
		    (j->build_ids && feat == PEV_FEAT_BUILD_ID))
			continue;
		if (pev_data_feature_encode(f, feat, false, &buf, &len) < 0)
			continue;
		int err = pev_data_feature_parse(j->outf, feat, buf, len, false);

		free(buf);
		if (err == -ENOMEM)
			return err;
	}
	if (f && pev_data_features_has(f, PEV_FEAT_SAMPLE_TIME))
		pev_data_writer_set_sample_time(j->w, f->first_sample_time, f->last_sample_time);
	pev_data_features_set(j->outf, PEV_FEAT_BUILD_ID, true);
	return 0;
}

/* perf's jit_validate_events: every event timed by CLOCK_MONOTONIC. */
static bool monotonic(const struct inject *j)
{
	const struct pev_decoder *dec = pev_data_decoder(j->in);

	for (size_t i = 0; i < pev_decoder_nr_attrs(dec); i++) {
		const struct perf_event_attr *a = pev_decoder_attr(dec, i);

		if (!a->use_clockid || a->clockid != CLOCK_MONOTONIC)
			return false;
	}
	return true;
}

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* perf 6.1's inject of a pipe stream without --jit: every record passed
 * on in stream order after the pipe header, so the output is the same
 * stream (a file perf reads in pipe mode).  COMPRESSED records are passed
 * on expanded.  A stream cut short keeps its complete records (as perf
 * keeps them): 1 then, after a warning. */
static int copy_stream(struct inject *j, int fd)
{
	static const struct { char magic[8]; uint64_t size; } hdr = { "PERFILE2", 16 };
	struct pev_data_event ev;
	uint8_t rec[4096 + 64];
	int err = write_all(fd, &hdr, sizeof(hdr)), in_err = 0;

	while (!err && (in_err = j->bid ? pev_data_next_ordered(j->in, &ev) : pev_data_next(j->in, &ev)) > 0) {
		int n = j->bid ? bid_process(j->bid, &ev, rec, sizeof(rec)) : 0;

		if (n < 0)
			return n;
		if (n > 0 && (err = write_all(fd, rec, (size_t)n)))
			break;
		err = write_all(fd, ev.rec.raw, ev.rec.size);
		if (!err && ev.rec.type == PEV_RECORD_HEADER_TRACING_DATA && ev.rec.size >= 12) {
			/* its payload follows the record: the tracing data */
			uint32_t len;
			size_t have;
			const void *p = pev_data_feature_raw(j->in, PEV_FEAT_TRACING_DATA, &have);

			memcpy(&len, (const uint8_t *)ev.rec.raw + 8, 4);
			err = p && have >= len ? write_all(fd, p, len) : -EBADMSG;
		} else if (!err && ev.rec.type == PEV_RECORD_AUXTRACE) {
			cli_error("'%s' holds AUX area data (AUXTRACE), which perfev inject "
				  "cannot pass on yet; use perf inject", j->input);
			return -EBADMSG;
		}
	}
	if (err)
		return err;
	if (in_err < 0) {
		cli_warn("'%s' was cut short (%s): '%s' holds its complete records",
			 j->input, pev_data_error(j->in), j->output);
		return 1;
	}
	return 0;
}

static int run(struct inject *j, int fd, int argc, char **argv)
{
	const struct pev_decoder *dec = pev_data_decoder(j->in);
	const struct pev_data_features *f = pev_data_features(j->in);
	struct pev_data_writer_opts wo = { .size = sizeof(wo), .pipe = j->pipe };
	struct pev_data_event ev;
	int err;

	j->w = pev_data_writer_new(fd, &wo);
	if (!j->w)
		return -errno;
	j->outf = pev_data_writer_features(j->w);
	for (size_t i = 0; i < pev_decoder_nr_attrs(dec); i++) {
		const struct pev_data_event_desc *d = f && i < f->nr_event_desc ? &f->event_desc[i] : NULL;

		err = pev_data_writer_add_attr(j->w, pev_decoder_attr(dec, i), d ? d->ids : NULL,
					       d ? d->nr_ids : 0, pev_data_event_name(j->in, i));
		if (err < 0)
			return err;
	}
	j->attr = pev_decoder_attr(dec, 0);
	if ((err = copy_features(j)) < 0)
		return err;
	pev_data_features_set_cmdline(j->outf, argc, (const char *const *)argv);
	if ((err = pev_data_writer_start(j->w)) < 0)
		return err;
	while ((err = j->bid ? pev_data_next_ordered(j->in, &ev) : pev_data_next(j->in, &ev)) > 0) {
		const struct pev_record *r = &ev.rec;

		if (j->bid) {
			uint8_t rec[4096 + 64];
			int n = bid_process(j->bid, &ev, rec, sizeof(rec));

			if (n < 0 || (n > 0 && (n = pev_data_writer_write(j->w, rec, (size_t)n)) < 0))
				return n;
		}

		if (j->jit && !ev.decode_error &&
		    (r->type == PERF_RECORD_MMAP || r->type == PERF_RECORD_MMAP2)) {
			const char *fn = r->u.mmap.filename;
			uint32_t pid = r->u.mmap.pid;

			if (is_jitdump(fn, pid)) {
				if (pid_done(j, pid))
					continue;
				if (!monotonic(j)) {
					cli_error("'%s' was not recorded with CLOCK_MONOTONIC times, "
						  "which the jitdump's are; record with 'perfev record -k mono' "
						  "(or perf record -k 1)", j->input);
					return -EBADMSG;
				}
				int e = inject_dump(j, fn);

				if (e < 0) {
					cli_warn("cannot inject '%s': %s; its JIT code stays unnamed",
						 fn, strerror(-e));
				} else {
					uint32_t *v = realloc(j->pids, (j->nr_pids + 1) * sizeof(*v));

					if (!v)
						return -ENOMEM;
					j->pids = v;
					j->pids[j->nr_pids++] = pid;
					continue;	/* the marker goes, as in perf */
				}
			} else if (pid_done(j, pid) && is_jit_anon(fn)) {
				continue;
			}
		}
		/* perf inject --jit drops the rounds (its MMAP2s carry the
		 * later times of the loads): a reader sorts the whole file. */
		if (j->jit && r->type == PEV_RECORD_FINISHED_ROUND)
			continue;
		if ((err = pev_data_writer_write(j->w, r->raw, r->size)) < 0)
			return err;
	}
	if (err < 0) {
		cli_error("'%s' is damaged: %s; it may be truncated, record it again",
			  j->input, pev_data_error(j->in));
		return -EBADMSG;
	}
	if (j->bid && (err = bid_table(j->bid, j->outf)) < 0)
		return err;
	return pev_data_writer_finish(j->w);
}

int cmd_inject(int argc, char **argv)
{
	static const char *const usage[] = {
		"perfev inject [-i <file>] -o <file>",
		"perfev inject --jit -i <file> -o <file>",
		"perfev inject -b [-i <file>] -o <file>",
		NULL,
	};
	struct inject j;
	bool jit = false, build_ids = false;
	char err[512] = "";

	memset(&j, 0, sizeof(j));
	const struct opt opts[] = {
		{ OPT_STRING, 'i', "input", &j.input, "file", "input file (default perf.data; - for a pipe stream on stdin)", NULL, 0 },
		{ OPT_STRING, 'o', "output", &j.output, "file", "output file (- for a pipe stream on stdout)", NULL, 0 },
		{ OPT_BOOL, 'j', "jit", &jit, NULL, "replace jitdump markers by ELF files of the JIT code", NULL, 0 },
		{ OPT_BOOL, 'b', "build-ids", &build_ids, NULL, "inject build ids for the DSOs that samples hit", NULL, 0 },
		{ OPT_END, 0, NULL, NULL, NULL, NULL, NULL, 0 },
	};
	int first = opt_parse(argc, argv, opts, usage, 0, NULL);

	if (first == OPT_HELP)
		return EXIT_OK;
	if (first < 0)
		return EXIT_USAGE;
	if (first < argc) {
		cli_error("unexpected argument '%s'; give the files with -i and -o", argv[first]);
		return EXIT_USAGE;
	}
	if (!j.output) {
		cli_error("give the output with -o FILE (or -o - for a pipe stream on stdout)");
		return EXIT_USAGE;
	}
	if (!j.input)
		j.input = "perf.data";
	if (jit && build_ids) {
		cli_error("inject --jit and -b do not go together (perf cannot either); run inject twice");
		return EXIT_USAGE;
	}
	if (!strcmp(j.input, "-") && jit) {
		cli_error("inject --jit reads a file, not a pipe: give it with -i FILE");
		return EXIT_USAGE;
	}
	j.pipe = !strcmp(j.output, "-");
	if (strcmp(j.input, "-") && !strcmp(j.input, j.output)) {
		cli_error("'%s' is both the input and the output; give another -o", j.input);
		return EXIT_USAGE;
	}
	j.in = pev_data_open(j.input, NULL, err, sizeof(err));
	if (!j.in) {
		cli_error("cannot read '%s': %s", j.input, cli_data_errmsg(err, errno));
		return EXIT_ERROR;
	}
	if (pev_data_is_swapped(j.in)) {
		cli_error("'%s' is in the other byte order; inject it on a machine of its own", j.input);
		pev_data_close(j.in);
		return EXIT_ERROR;
	}
	int fd = j.pipe ? dup(STDOUT_FILENO) : open(j.output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0) {
		cli_error("cannot create '%s': %s", j.output, strerror(errno));
		pev_data_close(j.in);
		return EXIT_ERROR;
	}
	j.jit = jit;
	j.build_ids = build_ids;
	if (build_ids && !(j.bid = bid_new(j.in))) {
		cli_error("out of memory");
		close(fd);
		pev_data_close(j.in);
		return EXIT_ERROR;
	}
	int rc = jit || !pev_data_is_pipe(j.in) ? run(&j, fd, argc, argv) : copy_stream(&j, fd);

	if (rc < 0 && rc != -EBADMSG)
		cli_error("cannot write '%s': %s", j.output, strerror(-rc));
	if (close(fd) < 0 && rc >= 0) {
		cli_error("cannot write '%s': %s", j.output, strerror(errno));
		rc = -EIO;
	}
	if (rc < 0) {
		if (!j.pipe)
			cli_unlink_partial(j.output);
	} else if (jit && !j.nr_pids)
		cli_warn("'%s' maps no jitdump file (jit-PID.dump); nothing was injected", j.input);
	pev_data_writer_free(j.w);
	bid_free(j.bid);
	pev_data_close(j.in);
	free(j.pids);
	return rc < 0 ? EXIT_ERROR : rc > 0 ? EXIT_INCOMPLETE : EXIT_OK;
}
