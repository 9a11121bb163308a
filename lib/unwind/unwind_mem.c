// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The sample's memory as both unwinders read it (unwind.c's libdwfl
 * callbacks, unwind_fast.c's walk, unwind_expr.c's expressions): the
 * stack dump, else the file of the DSO mapped there; this process's vDSO
 * written out for libdwfl; the budget of open files.  Below unwind.c,
 * unwind_mods.c and unwind_fast.c, which all use it. */
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/resource.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include <perfev/callchain.h>

#include "symbol/symbols_internal.h"
#include "unwind/unwind_state.h"

/* The vDSO's CFI: as perf and the symbol layer, the recorded vDSO's copy
 * in the build-id cache (the file the DSO's symbols came from), else this
 * process's own (written to a temporary file once, for libdwfl): a
 * process may have none (valgrind maps none), or another kernel's.  NULL
 * when there is neither. */
const char *pev__unwind_vdso_file(struct unwind_state *u, struct pev_dso *dso)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)getauxval(AT_SYSINFO_EHDR);
	const char *src;

	if (dso && pev_dso_symtab(dso) && (src = pev_dso_symbol_source(dso)) && src[0] == '/')
		return src;
	if (u->vdso_state)
		return u->vdso_state > 0 ? u->vdso_path : NULL;
	u->vdso_state = -1;
	if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64)
		return NULL;
	size_t len = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;

	snprintf(u->vdso_path, sizeof(u->vdso_path), "/tmp/perfev-vdso-XXXXXX");
	int fd = mkstemp(u->vdso_path);

	if (fd < 0)
		return NULL;
	if (len > (1u << 20) || write(fd, eh, len) != (ssize_t)len) {
		close(fd);
		unlink(u->vdso_path);
		return NULL;
	}
	close(fd);
	u->vdso_state = 1;
	return u->vdso_path;
}

/* 8 bytes at addr from the file of the DSO mapped there: 1, 0 when a
 * map holds addr but its file cannot give them, -1 when none does. */
static int read_dso(struct unwind_state *u, uint64_t addr, Dwarf_Word *out)
{
	struct pev_addr_loc loc;

	if (pev_machine_resolve(u->c->m, u->sp->pid, addr, PERF_RECORD_MISC_USER, &loc) < 0 ||
	    !loc.dso || loc.kernel)
		return pev__machine_data_map_at(u->c->m, u->sp->pid, addr) ? 0 : -1;
	struct dso_fd *f = NULL;

	for (size_t i = 0; i < u->nr_fds; i++)
		if (u->fds[i].dso == loc.dso)
			f = &u->fds[i];
	if (!f) {
		const char *path = pev_dso_name(loc.dso);

		if (u->nr_fds >= pev__unwind_fd_budget()) {
			/* each JIT'ed function is a file: keep fds for more */
			for (size_t i = 0; i < u->nr_fds; i++)
				if (u->fds[i].fd >= 0)
					close(u->fds[i].fd);
			u->nr_fds = 0;
		}
		if (u->nr_fds == u->cap_fds) {
			size_t cap = u->cap_fds ? u->cap_fds * 2 : 16;
			struct dso_fd *n = realloc(u->fds, cap * sizeof(*n));

			if (!n)
				return 0;
			u->fds = n;
			u->cap_fds = cap;
		}
		f = &u->fds[u->nr_fds++];
		f->dso = loc.dso;
		f->fd = path && path[0] == '/' ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	}
	if (f->fd < 0)
		return 0;
	uint64_t off = addr - loc.map_start + loc.map_pgoff;

	return pread(f->fd, out, sizeof(*out), (off_t)off) == (ssize_t)sizeof(*out);
}

int pev__unwind_read_word(struct unwind_state *u, uint64_t addr, uint64_t *result)
{
	const struct pev_stack_user *st = &u->smp->stack_user;
	uint64_t start = u->stack_start, end = start + st->dyn_size;
	Dwarf_Word w;

	*result = 0;
	if (addr + sizeof(*result) < addr)
		return -1;
	/* As perf's libunwind reader: the last word of the dump is read
	 * from the DSO instead (its bound is inclusive). */
	if (addr < start || addr + sizeof(*result) >= end) {
		int r = read_dso(u, addr, &w);

		if (r == 1)
			*result = w;
		return r;
	}
	memcpy(result, (const char *)st->data + (addr - start), sizeof(*result));
	return 1;
}

size_t pev__unwind_fd_budget(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY ||
	    rl.rlim_cur / 4 > 4096)
		return 4096;
	return rl.rlim_cur / 4 > 16 ? rl.rlim_cur / 4 : 16;
}
