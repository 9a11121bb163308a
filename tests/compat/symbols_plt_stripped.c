// SPDX-License-Identifier: GPL-2.0-only
/* PLT stubs of a stripped executable: perf 6.1 synthesizes "name@plt"
 * symbols only when loading the file's symbol tables found some symbol
 * (dso__load: "if (ret > 0)" before dso__synthesize_plt_symbols).  A
 * stripped PIE's .dynsym holds only the functions it imports, none
 * defined, so perf prints its stubs as bare addresses; perfev named them
 * (seen on binutils' x86_64-linux-gnu-addr2line in a `perf record -a -g`
 * file: strcmp@plt against perf's 0x0000000000002210).  A program built
 * here twice, with and without -s, mapped in two processes, sampled (and
 * called through) at each of its .plt stubs, in a perf.data written with
 * our writer; perf script and perf report are the oracle. */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report_cmp.h"
#include "built_file.h"
#include <perfev/perfev.h>

#define ST (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
	    PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)
#define TRAILER (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_IDENTIFIER)
#define MAXSTUB 8

static const char prog_src[] =
	"#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
	"int main(int argc, char **argv)\n"
	"{ puts(argv[0]); printf(\"%zu\\n\", strlen(argv[0]));\n"
	"  return argc > 5 ? atoi(argv[1]) : 0; }\n";

/* The executable segment holding .plt (file offset, vaddr, size) and the
 * addresses of .plt's stubs (one per .rela.plt entry, after the 16-byte
 * header). */
static size_t layout(const char *path, uint64_t *off, uint64_t *vaddr, uint64_t *size,
		     uint64_t *stub)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	uint64_t plt = 0, plt_size = 0, nrel = 0;
	Elf_Scn *scn = NULL;
	size_t shstr, nph, n = 0;
	Elf *e;

	CHECK(fd >= 0);
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	CHECK(e && elf_getshdrstrndx(e, &shstr) == 0 && elf_getphdrnum(e, &nph) == 0);
	while (e && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(e, shstr, sh.sh_name)))
			continue;
		if (!strcmp(name, ".plt")) {
			plt = sh.sh_addr;
			plt_size = sh.sh_size;
		} else if (!strcmp(name, ".rela.plt") && sh.sh_entsize) {
			nrel = sh.sh_size / sh.sh_entsize;
		}
	}
	for (size_t i = 0; e && i < nph; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD && (ph.p_flags & PF_X) &&
		    plt >= ph.p_vaddr && plt < ph.p_vaddr + ph.p_memsz) {
			*off = ph.p_offset & ~4095ull;
			*vaddr = ph.p_vaddr & ~4095ull;
			*size = (ph.p_vaddr + ph.p_memsz + 4095) / 4096 * 4096 - *vaddr;
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	for (uint64_t i = 0; i < nrel && n < MAXSTUB && 16 + (i + 1) * 16 <= plt_size; i++)
		stub[n++] = plt + 16 + i * 16;
	CHECK_MSG(n && *size, "%s: no .plt stubs in an executable segment", path);
	return n;
}

static void write_file(const char *path, const char *const prog[2])
{
	const uint64_t id = 7, base = 0x555555554000ull;
	uint64_t t = 1000000000ull;
	static struct rb b;
	int fd;
	struct pev_data_writer *w = built_start(path, ST, id, &fd);

	if (!w)
		return;
	for (uint32_t p = 0; p < 2; p++) {
		uint64_t off = 0, vaddr = 0, size = 0, stub[MAXSTUB];
		size_t n = layout(prog[p], &off, &vaddr, &size, stub);
		uint32_t pid = 4000 + p;

		rb_begin(&b, PERF_RECORD_COMM, 0);
		rb_u32(&b, pid);
		rb_u32(&b, pid);
		rb_str(&b, p ? "stripped" : "full");
		rb_trailer(&b, TRAILER, pid, pid, t, id, 0, 0);
		built_emit(w, &b);
		rb_begin(&b, PERF_RECORD_MMAP, PERF_RECORD_MISC_USER);
		rb_u32(&b, pid);
		rb_u32(&b, pid);
		rb_u64(&b, base + vaddr);
		rb_u64(&b, size);
		rb_u64(&b, off);
		rb_str(&b, prog[p]);
		rb_trailer(&b, TRAILER, pid, pid, t, id, 0, 0);
		built_emit(w, &b);
		for (size_t i = 0; i < n; i++) {
			t += 1000;
			rb_begin(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
			rb_u64(&b, id);
			rb_u64(&b, base + stub[i] + (i & 1) * 6);
			rb_u32(&b, pid);
			rb_u32(&b, pid);
			rb_u64(&b, t);
			rb_u64(&b, 1000);
			/* a call chain through the stubs after it */
			rb_u64(&b, 1 + n - i);
			rb_u64(&b, PERF_CONTEXT_USER);
			for (size_t k = i; k < n; k++)
				rb_u64(&b, base + stub[k] + (k & 1) * 6);
			built_emit(w, &b);
		}
	}
	pev_data_writer_sample_time(w, 1000000000ull, t);
	CHECK_OK(pev_data_writer_finish(w));
	pev_data_writer_free(w);
	close(fd);
}

int main(void)
{
	char src[256], full[300], stripped[300], file[300];
	const char *prog[2] = { full, stripped };

	report_cmp_start("/tmp/perfev-pltstrip-XXXXXX", false);
	if (!have("gcc"))
		T_SKIP("no gcc in PATH");
	report_cmp_write(src, sizeof(src), "p.c", prog_src);
	snprintf(full, sizeof(full), "%s/full", dir);
	snprintf(stripped, sizeof(stripped), "%s/stripped", dir);
	/* lazy binding and no IBT: stubs in .plt, as perf 6.1 knows them */
	CHECK_EQ_INT(t_sh("gcc -O1 -fno-builtin -fcf-protection=none -pie -fPIE -Wl,-z,lazy -o %s %s",
			  full, src), 0);
	CHECK_EQ_INT(t_sh("gcc -O1 -fno-builtin -fcf-protection=none -pie -fPIE -Wl,-z,lazy -s -o %s %s",
			  stripped, src), 0);
	snprintf(file, sizeof(file), "%s/plt.data", dir);
	write_file(file, prog);
	same_script(file, "-F comm,ip,sym,symoff,dso", "strlen@plt");
	same_script(file, "--comm stripped -F comm,ip,sym,symoff,dso", "[unknown]");
	same_report("PLT stubs", file, "--sort comm,dso,sym");
	same_report("PLT stubs", file, "--no-children --sort sym");
	return report_cmp_end();
}
