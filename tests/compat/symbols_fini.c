// SPDX-License-Identifier: GPL-2.0-only
/* Addresses past the last function of a non-PIE executable's code
 * (after .fini, up to the end of its page, past the segment's memory):
 * perf 6.1 looks them up by file offset and gives them to _fini (its last
 * symbol, of size 0, ends a page after its page); perfev found no segment
 * for the offset and printed [unknown].  A program built here with
 * -no-pie (code at 0x401000, file offset 0x1000), mapped as the loader
 * maps its code segment, sampled (and called through) at _fini, just past
 * .fini and at the page's end, in a perf.data written with our writer;
 * perf script and perf report are the oracle. */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report_cmp.h"
#include "built_file.h"
#include <perfev/perfev.h>

#define BASE 0ull
#define PID 4343
#define ST (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
	    PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)
#define TRAILER (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_IDENTIFIER)

static const char prog_src[] =
	"int main(void) { return 0; }\n";

/* The address and size of .fini, and the executable PT_LOAD segment
 * holding it (file offset, vaddr, size). */
static void layout(const char *path, uint64_t *fini, uint64_t *fini_size,
		   uint64_t *off, uint64_t *vaddr, uint64_t *size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *e;
	Elf_Scn *scn = NULL;
	size_t shstr, nph;

	CHECK(fd >= 0);
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	CHECK(e && elf_getshdrstrndx(e, &shstr) == 0 && elf_getphdrnum(e, &nph) == 0);
	*fini = 0;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *n;

		if (gelf_getshdr(scn, &sh) && (n = elf_strptr(e, shstr, sh.sh_name)) &&
		    !strcmp(n, ".fini")) {
			*fini = sh.sh_addr;
			*fini_size = sh.sh_size;
		}
	}
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD && (ph.p_flags & PF_X) &&
		    *fini >= ph.p_vaddr && *fini < ph.p_vaddr + ph.p_memsz) {
			*off = ph.p_offset & ~4095ull;
			*vaddr = ph.p_vaddr & ~4095ull;
			*size = (ph.p_vaddr + ph.p_memsz + 4095) / 4096 * 4096 - *vaddr;
		}
	}
	elf_end(e);
	close(fd);
	CHECK_MSG(*fini && *size, "no .fini in an executable segment of %s", path);
}

static void write_file(const char *path, const char *prog)
{
	uint64_t fini = 0, fini_size = 0, off = 0, vaddr = 0, size = 0, t = 1000000000ull;
	const uint64_t id = 7;
	static struct rb b;
	int fd;

	layout(prog, &fini, &fini_size, &off, &vaddr, &size);
	struct pev_data_writer *w = built_start(path, ST, id, &fd);

	if (!w)
		return;
	rb_begin(&b, PERF_RECORD_COMM, 0);
	rb_u32(&b, PID);
	rb_u32(&b, PID);
	rb_str(&b, "fini");
	rb_trailer(&b, TRAILER, PID, PID, t, id, 0, 0);
	built_emit(w, &b);
	rb_begin(&b, PERF_RECORD_MMAP, PERF_RECORD_MISC_USER);
	rb_u32(&b, PID);
	rb_u32(&b, PID);
	rb_u64(&b, BASE + vaddr);
	rb_u64(&b, size);
	rb_u64(&b, off);
	rb_str(&b, prog);
	rb_trailer(&b, TRAILER, PID, PID, t, id, 0, 0);
	built_emit(w, &b);
	/* _fini, its last byte, the bytes past .fini, the page's last */
	const uint64_t at[] = {
		fini, fini + fini_size - 1, fini + fini_size, fini + fini_size + 3,
		(fini + fini_size + 4095) / 4096 * 4096 - 1,
	};
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		t += 1000;
		rb_begin(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		rb_u64(&b, id);
		rb_u64(&b, BASE + at[i]);
		rb_u32(&b, PID);
		rb_u32(&b, PID);
		rb_u64(&b, t);
		rb_u64(&b, 1000);
		/* a call chain through the same addresses */
		rb_u64(&b, 2 + sizeof(at) / sizeof(at[0]) - i);
		rb_u64(&b, PERF_CONTEXT_USER);
		for (size_t k = i; k < sizeof(at) / sizeof(at[0]); k++)
			rb_u64(&b, BASE + at[k]);
		rb_u64(&b, BASE + at[0]);
		built_emit(w, &b);
	}
	pev_data_writer_sample_time(w, 1000000000ull, t);
	CHECK_OK(pev_data_writer_finish(w));
	pev_data_writer_free(w);
	close(fd);
}

int main(void)
{
	char src[256], prog[300], file[300];

	report_cmp_start("/tmp/perfev-fini-XXXXXX", false);
	if (!have("gcc"))
		T_SKIP("no gcc in PATH");
	report_cmp_write(src, sizeof(src), "f.c", prog_src);
	snprintf(prog, sizeof(prog), "%s/prog", dir);
	CHECK_EQ_INT(t_sh("gcc -O1 -no-pie -o %s %s", prog, src), 0);
	snprintf(file, sizeof(file), "%s/fini.data", dir);
	write_file(file, prog);
	same_script(file, "-F ip,sym,symoff,dso", "_fini+0x");
	same_report("past .fini", file, "--sort dso,sym");
	same_report("past .fini", file, "--sort sym,symbol_size");
	return report_cmp_end();
}
