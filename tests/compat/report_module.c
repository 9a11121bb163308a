// SPDX-License-Identifier: GPL-2.0-only
/* Kernel samples in a module print as perf 6.1 prints them: the module's
 * kallsyms symbols, the DSO "[name]" (perf script) and the report rows.
 *
 * This machine's kernel has no loadable modules (no /proc/modules), so
 * the file is made here from one perf records of dd (kernel samples):
 * after its kernel MMAP a module MMAP is inserted as perf record writes
 * one (PERF_RECORD_MMAP, kernel cpumode, pid -1, pgoff 0, time 0: the
 * synthesized records come first), and every third kernel sample is
 * moved into the module's range; the kallsyms file given with
 * --kallsyms is this machine's plus three "\t[module]" lines.  Two
 * names: "[fakemod]" (what perf record writes when it finds no .ko under
 * /lib/modules) and a .ko path (perf names the module "[fake_mod]").
 * Without the .ko file perf 6.1 takes the module's symbols from kallsyms
 * when the module map exists before the kernel's symbols are loaded.
 * perfev took a kernel map named "[fakemod]" for a DSO of its own and
 * printed [unknown] for every sample in it. */
#include <stdint.h>
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"
#include "report_cmp.h"

#define MOD_BASE 0xffffffffc0a00000ull
#define MOD_LEN 0x3000ull

static void *slurp_bin(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *b = NULL;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END)) {
		long n = ftell(f);

		if (n > 0 && (b = malloc((size_t)n)) && !fseek(f, 0, SEEK_SET) &&
		    fread(b, 1, (size_t)n, f) == (size_t)n)
			*len = (size_t)n;
		else {
			free(b);
			b = NULL;
		}
	}
	fclose(f);
	return b;
}

static uint64_t get64(const char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static void put64(char *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/* src with the module MMAP named name inserted after the kernel MMAP and
 * kernel samples moved into the module; written to dst.  The number of
 * samples moved, -1 on a file this cannot rewrite. */
static int add_module(const char *src, const char *dst, const char *name)
{
	size_t len = 0;
	char *b = slurp_bin(src, &len);

	if (!b || len < 104 || memcmp(b, "PERFILE2", 8))
		return -1;
	uint64_t doff = get64(b + 40), dsize = get64(b + 48), end = doff + dsize;
	int nfeat = 0;

	for (int i = 72; i < 104; i++)
		nfeat += __builtin_popcount((unsigned char)b[i]);
	if (end + 16ull * nfeat > len)
		return -1;
	size_t nlen = strlen(name) + 1, npad = (nlen + 7) / 8 * 8;
	char *out = calloc(1, len + 256);
	size_t o = doff, moved = 0, nk = 0;
	bool inserted = false;
	uint64_t tmin = UINT64_MAX;

	/* the earliest kernel sample in time stays in the kernel: perf 6.1
	 * loads kallsyms (and with it the module's symbols) on the first
	 * kernel sample it resolves, and a module sample resolved first
	 * prints [unknown] there.  The file's order is not the time order
	 * (one ring per CPU, and the workload moves before taskset pins it). */
	for (uint64_t off = doff; off + 8 <= end;) {
		uint32_t type;
		uint16_t misc, size;

		memcpy(&type, b + off, 4);
		memcpy(&misc, b + off + 4, 2);
		memcpy(&size, b + off + 6, 2);
		if (size < 8 || off + size > end)
			break;
		if (type == 9 && (misc & 7) == 1 && size >= 32 &&
		    get64(b + off + 24) < tmin)
			tmin = get64(b + off + 24);
		off += size;
	}
	memcpy(out, b, doff);
	for (uint64_t off = doff; off + 8 <= end;) {
		uint32_t type;
		uint16_t misc, size;

		memcpy(&type, b + off, 4);
		memcpy(&misc, b + off + 4, 2);
		memcpy(&size, b + off + 6, 2);
		if (size < 8 || off + size > end)
			break;
		memcpy(out + o, b + off, size);
		/* PERF_RECORD_SAMPLE in the kernel: its IP is the first field
		 * (sample_type IP|TID|TIME, as perf records cpu-clock here). */
		if (type == 9 && (misc & 7) == 1 && ++nk % 3 == 0 && size >= 32 &&
		    get64(b + off + 24) != tmin) {
			put64(out + o + 8, MOD_BASE + (nk * 0x97) % MOD_LEN);
			moved++;
		}
		o += size;
		if (type == 1 && !inserted && size > 8 + 32 + 24) {
			/* after "[kernel.kallsyms]_text" (24 bytes): its
			 * sample_id trailer, reused */
			size_t tl = size - (8 + 32 + 24);
			uint16_t nsize = (uint16_t)(8 + 32 + npad + tl);
			uint32_t t = 1;
			uint16_t m = 1;
			int32_t pid = -1, tid = 0;

			memcpy(out + o, &t, 4);
			memcpy(out + o + 4, &m, 2);
			memcpy(out + o + 6, &nsize, 2);
			memcpy(out + o + 8, &pid, 4);
			memcpy(out + o + 12, &tid, 4);
			put64(out + o + 16, MOD_BASE);
			put64(out + o + 24, MOD_LEN);
			put64(out + o + 32, 0);
			memset(out + o + 40, 0, npad);
			memcpy(out + o + 40, name, nlen);
			memcpy(out + o + 40 + npad, b + off + size - tl, tl);
			o += nsize;
			inserted = true;
		}
		off += size;
	}
	uint64_t grow = o - end;

	put64(out + 48, o - doff);
	for (int i = 0; i < nfeat; i++) {
		put64(out + o + 16 * i, get64(b + end + 16 * i) + grow);
		put64(out + o + 16 * i + 8, get64(b + end + 16 * i + 8));
	}
	memcpy(out + o + 16 * nfeat, b + end + 16 * nfeat, len - end - 16 * nfeat);
	FILE *f = fopen(dst, "wb");
	bool ok = f && fwrite(out, 1, len + grow, f) == len + grow;

	if (f)
		ok = !fclose(f) && ok;
	free(out);
	free(b);
	return inserted && ok ? (int)moved : -1;
}

int main(void)
{
	char src[128], f[128], opts[256];

	(void)report_cmp_write;
	report_cmp_start("/tmp/perfev-module-XXXXXX", true);
	if (access("/proc/kallsyms", R_OK))
		T_SKIP("/proc/kallsyms cannot be read");
	snprintf(src, sizeof(src), "%s/k.data", dir);
	/* dd on one CPU (fewer CPU rings to interleave); add_module keeps the
	 * earliest kernel sample in the kernel whatever the file order */
	CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -c 100000 -o %s -- taskset -c 0 "
			  "dd if=/dev/zero of=/dev/null bs=64k count=20000 >/dev/null 2>&1", PERF, src), 0);
	CHECK_EQ_INT(t_sh("cd %s && (cat /proc/kallsyms; printf 'ffffffffc0a00000 t fm_alpha\\t[fakemod]\\n"
			  "ffffffffc0a01000 t fm_beta\\t[fakemod]\\nffffffffc0a02000 T fm_gamma\\t[fakemod]\\n') > ks1 && "
			  "sed 's/\\[fakemod\\]/[fake_mod]/' ks1 > ks2", dir), 0);

	static const char *const names[2] = {
		"[fakemod]", "/lib/modules/6.1.0-99-amd64/kernel/fs/fake-mod.ko" };
	for (int i = 0; i < 2; i++) {
		snprintf(f, sizeof(f), "%s/m%d.data", dir, i);
		int moved = add_module(src, f, names[i]);

		CHECK_MSG(moved > 2, "%s: %d kernel samples moved into the module", f, moved);
		if (moved <= 2)
			continue;
		snprintf(opts, sizeof(opts), "--kallsyms %s/ks%d", dir, i + 1);
		same_script(f, opts, "fm_");
		snprintf(opts, sizeof(opts), "--kallsyms %s/ks%d -F ip,sym,symoff,dso", dir, i + 1);
		same_script(f, opts, i ? "([fake_mod])" : "([fakemod])");
		/* without the module's symbols: [unknown] in the module */
		same_script(f, "-F ip,sym,dso", "[unknown] ([fake");
		snprintf(opts, sizeof(opts), "--kallsyms %s/ks%d --sort dso,sym", dir, i + 1);
		same_report(names[i], f, opts);
		snprintf(opts, sizeof(opts), "--kallsyms %s/ks%d --sort sym -n", dir, i + 1);
		same_report(names[i], f, opts);
	}
	return report_cmp_end();
}
