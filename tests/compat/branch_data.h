/* SPDX-License-Identifier: GPL-2.0-only */
/* A synthetic perf.data with branch stacks (PERF_SAMPLE_BRANCH_STACK),
 * for comparing report's branch mode with perf where no LBR can record
 * one: a "cycles" event whose samples carry 1..8 branch entries between
 * real functions of a program the test built (mapped as the kernel would
 * map it, from its program headers, at its link address: build it with
 * -no-pie) and of the test's own libc (mapped as /proc/self/maps shows
 * it, addresses from dlsym), with COMM and MMAP2 records so perf
 * resolves them, the BRANCH_STACK feature (perf's branch mode by
 * default) and the host features perf record writes.  Flags vary
 * (mispredicted or predicted, cycles, in_tx, abort); a few entries point
 * where nothing is mapped.  Deterministic for a given program. */
#ifndef PERFEV_TESTS_BRANCH_DATA_H
#define PERFEV_TESTS_BRANCH_DATA_H

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <perfev/data.h>
#include <linux/perf_event.h>

struct bd_sym {
	char name[64];
	uint64_t addr, size;
};

struct bd_map {
	uint64_t start, len, pgoff, ino;
	uint32_t maj, min;
	char path[512];
};

struct bd_buf {
	uint8_t *p;
	size_t len, cap;
};

static void bd_put(struct bd_buf *b, const void *d, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 4096;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			abort();
	}
	memcpy(b->p + b->len, d, n);
	b->len += n;
}

static void bd_u64(struct bd_buf *b, uint64_t v) { bd_put(b, &v, 8); }
static void bd_u32(struct bd_buf *b, uint32_t v) { bd_put(b, &v, 4); }

/* the executable PT_LOAD of an ELF file: its vaddr, size, file offset */
static int bd_exec_segment(const char *path, uint64_t *vaddr, uint64_t *len,
			   uint64_t *off)
{
	Elf64_Ehdr eh;
	FILE *f = fopen(path, "rb");
	int rc = -1;

	if (!f)
		return -1;
	if (fread(&eh, sizeof(eh), 1, f) == 1) {
		for (unsigned i = 0; i < eh.e_phnum; i++) {
			Elf64_Phdr ph;

			if (fseek(f, (long)(eh.e_phoff + i * eh.e_phentsize), SEEK_SET) ||
			    fread(&ph, sizeof(ph), 1, f) != 1)
				break;
			if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X)) {
				*vaddr = ph.p_vaddr & ~0xfffULL;
				*off = ph.p_offset & ~0xfffULL;
				*len = (ph.p_vaddr + ph.p_memsz - *vaddr + 0xfff) & ~0xfffULL;
				rc = 0;
				break;
			}
		}
	}
	fclose(f);
	return rc;
}

/* The function symbols of a program (nm), by name. */
static int bd_prog_syms(const char *prog, const char *const *names, struct bd_sym *out,
			size_t n)
{
	char cmd[600], line[512];
	FILE *p;
	size_t found = 0;

	snprintf(cmd, sizeof(cmd), "nm -S %s 2>/dev/null", prog);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		unsigned long long a, s;
		char t, name[256];

		if (sscanf(line, "%llx %llx %c %255s", &a, &s, &t, name) != 4)
			continue;
		for (size_t i = 0; i < n; i++)
			if (!strcmp(name, names[i]) && !out[i].addr) {
				snprintf(out[i].name, sizeof(out[i].name), "%.63s", name);
				out[i].addr = a;
				out[i].size = s;
				found++;
			}
	}
	pclose(p);
	return found == n ? 0 : -1;
}

/* The r-xp mapping of this process that holds addr. */
static int bd_self_map(uint64_t addr, struct bd_map *m)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[1024];
	int rc = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off, ino;
		unsigned maj, min;
		char perm[8], path[512] = "";

		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %511s", &s, &e, perm, &off,
			   &maj, &min, &ino, path) < 7)
			continue;
		if (addr >= s && addr < e && path[0] == '/') {
			*m = (struct bd_map){ s, e - s, off, ino, maj, min, "" };
			snprintf(m->path, sizeof(m->path), "%s", path);
			rc = 0;
			break;
		}
	}
	fclose(f);
	return rc;
}

#define BD_SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_BRANCH_STACK)

static void bd_sample_id(struct bd_buf *b, uint32_t pid, uint32_t tid, uint64_t t)
{
	bd_u32(b, pid);
	bd_u32(b, tid);
	bd_u64(b, t);
	bd_u32(b, 0);	/* cpu */
	bd_u32(b, 0);
}

static void bd_comm(struct bd_buf *b, uint32_t pid, uint32_t tid, const char *comm,
		    uint64_t t)
{
	char name[16] = { 0 };
	struct perf_event_header h = { PERF_RECORD_COMM, 0,
				       (uint16_t)(8 + 8 + sizeof(name) + 24) };

	snprintf(name, sizeof(name), "%s", comm);
	bd_put(b, &h, sizeof(h));
	bd_u32(b, pid);
	bd_u32(b, tid);
	bd_put(b, name, sizeof(name));
	bd_sample_id(b, pid, tid, t);
}

static void bd_mmap2(struct bd_buf *b, uint32_t pid, const struct bd_map *m, uint64_t t)
{
	size_t plen = (strlen(m->path) + 8) & ~(size_t)7;
	char path[520] = { 0 };
	struct perf_event_header h = { PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER,
				       (uint16_t)(8 + 8 + 24 + 8 + 16 + 8 + plen + 24) };

	memcpy(path, m->path, strlen(m->path));
	bd_put(b, &h, sizeof(h));
	bd_u32(b, pid);
	bd_u32(b, pid);
	bd_u64(b, m->start);
	bd_u64(b, m->len);
	bd_u64(b, m->pgoff);
	bd_u32(b, m->maj);
	bd_u32(b, m->min);
	bd_u64(b, m->ino);
	bd_u64(b, 0);
	bd_u32(b, 5);	/* PROT_READ | PROT_EXEC */
	bd_u32(b, 2);	/* MAP_PRIVATE */
	bd_put(b, path, plen);
	bd_sample_id(b, pid, pid, t);
}

struct bd_branch {
	uint64_t from, to, flags;
};

/* perf_branch_entry's flag bits */
#define BD_MISPRED 1ULL
#define BD_PREDICTED 2ULL
#define BD_IN_TX 4ULL
#define BD_ABORT 8ULL
#define BD_CYCLES(c) ((uint64_t)(c) << 4)

static void bd_sample(struct bd_buf *b, uint32_t pid, uint32_t tid, uint64_t t,
		      uint64_t ip, uint64_t period, const struct bd_branch *br, size_t n,
		      const uint64_t *chain, size_t nc)
{
	struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER,
				       (uint16_t)(8 + 8 + 8 + 8 + 8 + 8 + 8 + 24 * n +
						  (chain ? 8 + 8 * nc : 0)) };

	bd_put(b, &h, sizeof(h));
	bd_u64(b, ip);
	bd_u32(b, pid);
	bd_u32(b, tid);
	bd_u64(b, t);
	bd_u32(b, 0);
	bd_u32(b, 0);
	bd_u64(b, period);
	if (chain) {
		bd_u64(b, nc);
		bd_put(b, chain, 8 * nc);
	}
	bd_u64(b, n);
	bd_put(b, br, 24 * n);
}

/* The program's functions the branches go between (it must define them:
 * see bd_prog_src). */
static const char *const bd_fn[] = { "main", "mid", "leaf_a", "leaf_b", "walk" };
#define BD_NFN 5

static const char bd_prog_src[] =
	"#include <stdlib.h>\n#include <string.h>\n"
	"volatile int sink;\n"
	"__attribute__((noinline)) int leaf_a(int x) { for (int i = 0; i < x; i++) sink += i * 3; return sink; }\n"
	"__attribute__((noinline)) int leaf_b(int x) { for (int i = 0; i < x; i++) sink ^= i; return sink; }\n"
	"__attribute__((noinline)) int mid(int x) { return (x & 1) ? leaf_a(x) : leaf_b(x); }\n"
	"__attribute__((noinline)) int walk(char *p) { int n = 0; while (*p) n += mid(*p++); return n; }\n"
	"int main(int argc, char **argv) {\n"
	"  char *p = malloc(64); strcpy(p, argv[0]);\n"
	"  int n = walk(p) + (int)strlen(argv[0]); free(p); return n & 1; }\n";

static uint32_t bd_rand(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(*s >> 33);
}

/* Writes the file at path for program prog (built from bd_prog_src with
 * -no-pie); nsamples samples, with call chains (PERF_SAMPLE_CALLCHAIN:
 * the user context marker, the sampled address, then 1..4 return
 * addresses inside the program's callers and libc, as a frame-pointer
 * walk gives them) with BD_CHAINS in flags; with BD_FIRST_NO_CYCLES the
 * first (newest) branch of every sample has no cycle count (perf 6.1's
 * ipc_lbr key then counts nothing and does not crash).  0, or -1 with the
 * reason in why. */
#define BD_CHAINS 1u
#define BD_FIRST_NO_CYCLES 2u

/* Set by a test that wants its own branch stacks: sample s (s <
 * bd_nfixed) carries bd_fixed[s] instead of random branches. */
struct bd_fixed_sample {
	unsigned n;
	struct bd_branch br[8];
};
static const struct bd_fixed_sample *bd_fixed;
static unsigned bd_nfixed;

static int bd_write(const char *path, const char *prog, unsigned nsamples, unsigned flags,
		    char *why, size_t wsz)
{
	bool chains = flags & BD_CHAINS;

	struct bd_sym fn[BD_NFN];
	struct bd_map pm, lm;
	uint64_t lib[3];
	static const char *const lib_names[] = { "malloc", "free", "qsort" };
	struct bd_buf b = { 0 };
	uint64_t seed = 42, cseed = 7, t = 1000000000ULL;
	int fd, rc = -1;

	memset(fn, 0, sizeof(fn));
	if (bd_prog_syms(prog, bd_fn, fn, BD_NFN) < 0) {
		snprintf(why, wsz, "nm found not all of main, mid, leaf_a, leaf_b, walk in %.100s", prog);
		return -1;
	}
	memset(&pm, 0, sizeof(pm));
	if (bd_exec_segment(prog, &pm.start, &pm.len, &pm.pgoff) < 0) {
		snprintf(why, wsz, "no executable segment in %.100s", prog);
		return -1;
	}
	struct stat st;

	if (!realpath(prog, pm.path) || stat(pm.path, &st)) {
		snprintf(why, wsz, "cannot stat %.100s", prog);
		return -1;
	}
	pm.ino = st.st_ino;
	for (int i = 0; i < 3; i++)
		lib[i] = (uint64_t)(uintptr_t)dlsym(RTLD_DEFAULT, lib_names[i]);
	if (!lib[0] || bd_self_map(lib[0], &lm) < 0) {
		snprintf(why, wsz, "malloc's mapping is not in /proc/self/maps");
		return -1;
	}
	for (int i = 1; i < 3; i++)
		if (lib[i] < lm.start || lib[i] >= lm.start + lm.len)
			lib[i] = lib[0] + 0x40 * (uint64_t)i;

	/* two processes of the program, one with a second thread */
	bd_comm(&b, 4242, 4242, "bprog", t);
	bd_mmap2(&b, 4242, &pm, t + 1);
	bd_mmap2(&b, 4242, &lm, t + 2);
	bd_comm(&b, 4242, 4243, "bprog-w", t + 3);
	bd_comm(&b, 5151, 5151, "other", t + 4);
	bd_mmap2(&b, 5151, &pm, t + 5);
	bd_mmap2(&b, 5151, &lm, t + 6);
	t += 1000;

	/* from and to candidates: inside the program's functions (the start
	 * of a callee) and libc's, and one unmapped address */
	uint64_t at[BD_NFN + 4];

	for (int i = 0; i < BD_NFN; i++)
		at[i] = fn[i].addr;
	at[BD_NFN] = lib[0];
	at[BD_NFN + 1] = lib[1];
	at[BD_NFN + 2] = lib[2];
	at[BD_NFN + 3] = 0x1000;
	for (unsigned s = 0; s < nsamples; s++) {
		struct bd_branch br[8];
		unsigned n = 1 + bd_rand(&seed) % 8;
		uint32_t pid = s % 5 == 4 ? 5151 : 4242;
		uint32_t tid = pid == 4242 && s % 3 == 1 ? 4243 : pid;

		for (unsigned j = 0; j < n; j++) {
			unsigned a = bd_rand(&seed) % (BD_NFN + 4), c = bd_rand(&seed) % (BD_NFN + 4);
			uint64_t r = bd_rand(&seed);

			/* mostly the program's own functions */
			if (a >= BD_NFN && r % 3)
				a = r % BD_NFN;
			/* libc sources stay inside qsort (12 bytes) with chains: a
			 * libc address past a symbol's end has no line, which perf
			 * prints as ":0" (README: srcline_from) */
			uint64_t fs = a < BD_NFN ? fn[a].size : chains ? 8 : 0x40;

			if (c >= BD_NFN + 3 && r % 5)
				c = r % BD_NFN;
			br[j].from = at[a] + (fs > 8 ? bd_rand(&seed) % (fs / 4) * 4 % fs : 0);
			br[j].to = at[c] + (bd_rand(&seed) % 4 == 0 ? 4 : 0);
			br[j].flags = (r & 1 ? BD_MISPRED : BD_PREDICTED) |
				      BD_CYCLES(r % 7 == 0 || (j == 0 && (flags & BD_FIRST_NO_CYCLES)) ?
						0 : (r >> 3) % 40) |
				      (r % 23 == 0 ? BD_IN_TX : 0) | (r % 29 == 0 ? BD_ABORT : 0);
		}
		if (bd_fixed && s < bd_nfixed) {
			n = bd_fixed[s].n;
			memcpy(br, bd_fixed[s].br, sizeof(br));
		}
		/* leaf_a or leaf_b, called from mid, from walk, from main,
		 * from libc (qsort's address standing for __libc_start_call_main) */
		uint64_t ip = fn[2 + s % 2].addr + 4, ch[6];
		unsigned nc = 0, depth = 1 + bd_rand(&cseed) % 4;

		ch[nc++] = 0xfffffffffffffe00ULL;	/* PERF_CONTEXT_USER */
		ch[nc++] = ip;
		for (unsigned d = 0; d < depth; d++) {
			static const int up[] = { 1, 4, 0 };
			uint64_t fa = d < 3 ? fn[up[d]].addr : lib[2];
			uint64_t fz = d < 3 ? fn[up[d]].size : 0x40;

			ch[nc++] = fa + 1 + (fz > 8 ? (bd_rand(&cseed) % 2) * (fz / 2) : 0);
		}
		bd_sample(&b, pid, tid, t, ip, 100003 + s % 3, br, n, chains ? ch : NULL, nc);
		t += 250000;
	}

	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		snprintf(why, wsz, "cannot create %.100s", path);
		free(b.p);
		return -1;
	}
	struct pev_data_writer *w = pev_data_writer_new(fd, NULL);
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE, .size = sizeof(attr),
		.config = PERF_COUNT_HW_CPU_CYCLES, .sample_period = 100003,
		.sample_type = BD_SAMPLE_TYPE | (chains ? PERF_SAMPLE_CALLCHAIN : 0),
		.sample_id_all = 1, .exclude_kernel = 1,
		.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER,
		.disabled = 1, .inherit = 1, .mmap = 1, .comm = 1, .mmap2 = 1,
	};
	uint64_t id = 7;

	if (w && pev_data_writer_add_attr(w, &attr, &id, 1, "cycles:u") == 0) {
		struct pev_data_features *f = pev_data_writer_features(w);

		pev_data_features_from_host(f);
		pev_data_features_set(f, PEV_FEAT_BRANCH_STACK, true);
		pev_data_writer_sample_time(w, 1000001000ULL, t - 250000);
		if (!pev_data_writer_start(w) && !pev_data_writer_write(w, b.p, b.len) &&
		    !pev_data_writer_finished_round(w) && !pev_data_writer_finish(w))
			rc = 0;
	}
	if (rc)
		snprintf(why, wsz, "perfev's data writer failed on %.100s", path);
	pev_data_writer_free(w);
	close(fd);
	free(b.p);
	return rc;
}
#endif
