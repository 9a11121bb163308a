// SPDX-License-Identifier: GPL-2.0-only
/* perfev script: the insn and insnlen fields.  perf 6.1 reads the
 * sampled instruction's bytes from the DSO file (16 bytes at the ip's
 * file offset) and decodes its length when the file was recorded on this
 * architecture (x86 here); the kernel without a vmlinux gives nothing. */
#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <perfev/insn.h>

#include "script/script.h"

/* An open DSO file (fd -1: cannot be read), or the vDSO in memory. */
struct insn_file {
	const struct pev_dso *dso;
	int fd;
	bool is64;
	const uint8_t *mem;
	size_t mem_len;
};

struct insn_cache {
	struct insn_file *files;
	size_t nr, cap;
	int native;		/* -1 unknown, 0 no, 1 yes */
};

static bool native_arch(struct script *s)
{
	struct insn_cache *c = s->insn;

	if (c->native < 0) {
		const struct pev_data_features *f = pev_data_features(s->data);
		struct utsname u;

		/* perf: a pipe, or the same uname -m (i386 files on x86_64). */
		c->native = pev_data_is_pipe(s->data) ||
			    (uname(&u) == 0 && f && f->arch &&
			     (!strcmp(u.machine, f->arch) ||
			      (!strcmp(u.machine, "x86_64") && !strcmp(f->arch, "i386"))));
	}
	return c->native > 0 && !strcmp(s->arch, "x86");
}

/* perf reads the vDSO from the copy it saved at record time; this
 * process's own vDSO is that image when the kernel is the same. */
static void vdso_image(struct insn_file *f)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)getauxval(AT_SYSINFO_EHDR);

	if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64)
		return;
	const Elf64_Phdr *ph = (const Elf64_Phdr *)((const char *)eh + eh->e_phoff);
	size_t end = 0;

	for (unsigned i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_offset + ph[i].p_filesz > end)
			end = ph[i].p_offset + ph[i].p_filesz;
	f->mem = (const uint8_t *)eh;
	f->mem_len = end;
}

static struct insn_file *file_of(struct insn_cache *c, struct pev_dso *dso)
{
	for (size_t i = 0; i < c->nr; i++)
		if (c->files[i].dso == dso)
			return &c->files[i];
	if (c->nr == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 16;
		struct insn_file *n = realloc(c->files, cap * sizeof(*n));

		if (!n)
			return NULL;
		c->files = n;
		c->cap = cap;
	}
	struct insn_file *f = &c->files[c->nr++];
	const char *name = pev_dso_name(dso);
	unsigned char ident[EI_NIDENT];

	f->dso = dso;
	f->fd = name[0] == '[' ? -1 : open(name, O_RDONLY | O_CLOEXEC);
	f->is64 = true;
	f->mem = NULL;
	f->mem_len = 0;
	if (!strcmp(name, "[vdso]"))
		vdso_image(f);
	if (f->fd >= 0 && pread(f->fd, ident, sizeof(ident), 0) == (ssize_t)sizeof(ident) &&
	    !memcmp(ident, ELFMAG, SELFMAG))
		f->is64 = ident[EI_CLASS] == ELFCLASS64;
	return f;
}

/* The instruction at the sample's ip into buf; its length, or 0. */
static int fetch(struct script *s, const struct pev_addr_loc *al, uint8_t *buf)
{
	if (!s->insn) {
		s->insn = calloc(1, sizeof(*s->insn));
		if (!s->insn)
			return 0;
		s->insn->native = -1;
	}
	if (!al->dso || al->kernel || !native_arch(s))
		return 0;
	struct insn_file *f = file_of(s->insn, al->dso);

	if (!f)
		return 0;
	ssize_t n = -1;

	if (f->mem) {
		if (al->map_ip < f->mem_len) {
			n = (ssize_t)(f->mem_len - al->map_ip < 16 ? f->mem_len - al->map_ip : 16);
			memcpy(buf, f->mem + al->map_ip, (size_t)n);
		}
	} else if (f->fd >= 0) {
		n = pread(f->fd, buf, 16, (off_t)al->map_ip);
	}

	if (n <= 0)
		return 0;
	int len = pev_x86_insn_length(buf, (size_t)n, f->is64);

	return len > 0 ? len : 0;
}

void script_print_insn(struct script *s, uint64_t fields,
		       const struct pev_addr_loc *al)
{
	struct obuf *o = &s->out;
	uint8_t buf[16];
	int len = fetch(s, al, buf);

	if (fields & F_INSNLEN) {
		so_mem(o, " ilen: ", 7);
		so_u64(o, (uint64_t)len, 0);
	}
	if ((fields & F_INSN) && len) {
		so_mem(o, " insn:", 6);
		for (int i = 0; i < len; i++) {
			so_char(o, ' ');
			so_hex(o, buf[i] >> 4, 0);
			so_hex(o, buf[i] & 15, 0);
		}
	}
}

void script_insn_release(struct script *s)
{
	if (!s->insn)
		return;
	for (size_t i = 0; i < s->insn->nr; i++)
		if (s->insn->files[i].fd >= 0)
			close(s->insn->files[i].fd);
	free(s->insn->files);
	free(s->insn);
	s->insn = NULL;
}
