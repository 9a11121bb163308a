/* DWARF unwinding of user stacks (PERF_SAMPLE_REGS_USER + STACK_USER)
 * with elfutils' libdwfl unwinder.
 *
 * One Dwfl per process (address space) for the whole file: the DSOs of
 * its maps are reported once, at their load bias (map start - pgoff, as
 * perf reports them), when an unwound address first falls in them, and
 * libdw keeps their ELF, .eh_frame and .debug_frame for every later
 * sample.  perf 6.1 builds a new Dwfl (and so re-reads every CFI) per
 * sample: most of the difference in speed.  A module found at another
 * base than the map says means the process's maps changed under it
 * (exec, dlclose): its Dwfl is dropped and built again.
 *
 * Memory reads are served from the sample's stack dump, and outside it
 * from the file of the DSO mapped there.  The frames are those of
 * perf 6.1 as Debian builds it (with libunwind): the first frame at the
 * sampled user IP, every caller at its return address - 1 (unless it is
 * a signal frame), an address 0 skipped; the unwinding stops at max_stack
 * frames or where the CFI or the memory ends, keeping what it found. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <elfutils/libdwfl.h>
#include <linux/perf_event.h>

#include <perfev/callchain.h>

#include "unwind/unwind_internal.h"

/* perf's default --max-stack; the cap when max_stack is 0 (no limit). */
#define UNWIND_MAX_FRAMES 1024

struct space {			/* one process's address space */
	uint32_t pid;
	Dwfl *dwfl;
	bool attached;
};

struct dso_fd {
	struct pev_dso *dso;
	int fd;			/* -1: cannot be opened */
};

struct unwind_state {
	struct space *spaces;
	size_t nr_spaces, cap_spaces;
	struct dso_fd *fds;
	size_t nr_fds, cap_fds;
	/* The sample being unwound (for the callbacks). */
	struct pev_chain *c;
	const struct pev_sample *smp;
	struct space *sp;
	uint16_t e_machine;
	uint64_t stack_start;
	/* The frames found: pc and DWARF activation flag. */
	uint64_t *pcs;
	bool *act;
	size_t n, max;
};

static char *debuginfo_path;
static const Dwfl_Callbacks dwfl_cbs = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.debuginfo_path = &debuginfo_path,
};

static void space_release(struct space *s)
{
	if (s->dwfl)
		dwfl_end(s->dwfl);
	s->dwfl = NULL;
	s->attached = false;
}

static struct space *space_get(struct unwind_state *u, uint32_t pid)
{
	for (size_t i = 0; i < u->nr_spaces; i++) {
		if (u->spaces[i].pid == pid) {
			if (i) {	/* keep the busiest first */
				struct space t = u->spaces[i];

				u->spaces[i] = u->spaces[i - 1];
				u->spaces[i - 1] = t;
				return &u->spaces[i - 1];
			}
			return &u->spaces[0];
		}
	}
	if (u->nr_spaces == u->cap_spaces) {
		size_t cap = u->cap_spaces ? u->cap_spaces * 2 : 8;
		struct space *n = realloc(u->spaces, cap * sizeof(*n));

		if (!n)
			return NULL;
		u->spaces = n;
		u->cap_spaces = cap;
	}
	struct space *s = &u->spaces[u->nr_spaces++];

	memset(s, 0, sizeof(*s));
	s->pid = pid;
	return s;
}

static int space_dwfl(struct space *s)
{
	if (s->dwfl)
		return 0;
	s->dwfl = dwfl_begin(&dwfl_cbs);
	return s->dwfl ? 0 : -ENOMEM;
}

/* Makes sure the DSO mapped at ip is a module of the process's Dwfl.
 * 0, or -1 when no file backs ip. */
static int report_module(struct unwind_state *u, uint64_t ip)
{
	struct space *s = u->sp;
	struct pev_addr_loc loc;

	if (pev_machine_resolve(u->c->m, s->pid, ip, PERF_RECORD_MISC_USER, &loc) < 0 ||
	    !loc.dso || loc.kernel)
		return -1;
	const char *path = pev_dso_name(loc.dso);
	uint64_t base = loc.map_start - loc.map_pgoff;

	if (!path || path[0] != '/')
		return -1;
	Dwfl_Module *mod = dwfl_addrmodule(s->dwfl, ip);

	if (mod) {
		Dwarf_Addr start;

		dwfl_module_info(mod, NULL, &start, NULL, NULL, NULL, NULL, NULL);
		if (start == base)
			return 0;
		return -2;	/* the maps changed: the caller starts again */
	}
	mod = dwfl_report_elf(s->dwfl, path, path, -1, base, false);
	if (!mod || dwfl_addrmodule(s->dwfl, ip) != mod)
		return -1;
	return 0;
}

/* 8 bytes at addr from the file of the DSO mapped there. */
static bool read_dso(struct unwind_state *u, uint64_t addr, Dwarf_Word *out)
{
	struct pev_addr_loc loc;

	if (pev_machine_resolve(u->c->m, u->sp->pid, addr, PERF_RECORD_MISC_USER, &loc) < 0 ||
	    !loc.dso || loc.kernel)
		return false;
	struct dso_fd *f = NULL;

	for (size_t i = 0; i < u->nr_fds; i++)
		if (u->fds[i].dso == loc.dso)
			f = &u->fds[i];
	if (!f) {
		const char *path = pev_dso_name(loc.dso);

		if (u->nr_fds == u->cap_fds) {
			size_t cap = u->cap_fds ? u->cap_fds * 2 : 16;
			struct dso_fd *n = realloc(u->fds, cap * sizeof(*n));

			if (!n)
				return false;
			u->fds = n;
			u->cap_fds = cap;
		}
		f = &u->fds[u->nr_fds++];
		f->dso = loc.dso;
		f->fd = path && path[0] == '/' ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	}
	if (f->fd < 0)
		return false;
	uint64_t off = addr - loc.map_start + loc.map_pgoff;

	return pread(f->fd, out, sizeof(*out), (off_t)off) == (ssize_t)sizeof(*out);
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct unwind_state *u = arg;
	const struct pev_stack_user *st = &u->smp->stack_user;
	uint64_t start = u->stack_start, end = start + st->dyn_size;

	(void)dwfl;
	if (addr + sizeof(*result) < addr)
		return false;
	/* As perf's libunwind reader: the last word of the dump is read
	 * from the DSO instead (its bound is inclusive). */
	if (addr < start || addr + sizeof(*result) >= end)
		return read_dso(u, addr, result);
	memcpy(result, (const char *)st->data + (addr - start), sizeof(*result));
	return true;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	(void)tid;
	(void)dwfl;
	*thread_argp = arg;
	return true;
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	if (*thread_argp)
		return 0;
	*thread_argp = arg;
	return dwfl_pid(dwfl);
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct unwind_state *u = arg;
	Dwarf_Word regs[UNWIND_DWARF_REGS];
	uint64_t set = 0, pc;
	int n = unwind_regs_to_dwarf(u->e_machine, &u->smp->regs_user,
				     regs, &set, &pc);

	if (n <= 0)
		return false;
	for (int i = 0; i < n; i++)
		if ((set >> i & 1) && !dwfl_thread_state_registers(thread, i, 1, &regs[i]))
			return false;
	dwfl_thread_state_register_pc(thread, pc);
	return true;
}

static const Dwfl_Thread_Callbacks thread_cbs = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct unwind_state *u = arg;
	Dwarf_Addr pc;
	bool act;

	if (!dwfl_frame_pc(state, &pc, &act))
		return DWARF_CB_ABORT;
	u->pcs[u->n] = pc;
	u->act[u->n] = act;
	u->n++;
	if (u->n >= u->max)
		return DWARF_CB_ABORT;
	/* The CFI of pc must be known before libdw steps out of it. */
	if (report_module(u, pc) == -2)
		return DWARF_CB_ABORT;
	return DWARF_CB_OK;
}

/* Unwinds into u->pcs; 0, -2 when the process's maps changed under its
 * Dwfl, -1 when nothing could be done. */
static int unwind_once(struct unwind_state *u, uint64_t ip)
{
	struct space *s = u->sp;
	int r;

	if (space_dwfl(s) < 0)
		return -ENOMEM;
	r = report_module(u, ip);
	if (r == -2)
		return r;
	if (!s->attached) {
		if (r < 0)	/* attach needs one module's ELF */
			return -1;
		if (!dwfl_attach_state(s->dwfl, NULL, (pid_t)s->pid ? (pid_t)s->pid : 1,
				       &thread_cbs, u))
			return -1;
		s->attached = true;
	}
	u->n = 0;
	dwfl_getthread_frames(s->dwfl, dwfl_pid(s->dwfl), frame_cb, u);
	for (size_t i = 1; i < u->n; i++)	/* a step into other maps */
		if (report_module(u, u->pcs[i]) == -2)
			return -2;
	return 0;
}

int chain_unwind(struct pev_chain *c, const struct pev_sample *smp)
{
	struct unwind_state *u = c->uw;
	uint64_t ip, sp;
	size_t max = c->opts.max_stack ? c->opts.max_stack : UNWIND_MAX_FRAMES;

	if (!u) {
		u = calloc(1, sizeof(*u));
		if (!u)
			return -ENOMEM;
		c->uw = u;
	}
	if (max > u->max) {
		uint64_t *p = realloc(u->pcs, max * sizeof(*p));

		if (!p)
			return -ENOMEM;
		u->pcs = p;
		bool *a = realloc(u->act, max * sizeof(*a));

		if (!a)
			return -ENOMEM;
		u->act = a;
	}
	u->max = max;
	u->c = c;
	u->smp = smp;
	u->sp = space_get(u, smp->pid);
	if (!u->sp)
		return -ENOMEM;
	u->e_machine = c->opts.e_machine ? c->opts.e_machine : unwind_host_machine();
	if (unwind_user_ip_sp(u->e_machine, &smp->regs_user, &ip, &sp) < 0)
		return 0;
	u->stack_start = sp;
	u->n = 0;
	int r = unwind_once(u, ip);

	if (r == -2) {
		space_release(u->sp);
		r = unwind_once(u, ip);
	}
	if (r == -ENOMEM)
		return r;
	if (u->n == 0) {
		/* No module, or no registers libdw takes: the sampled user
		 * IP alone, as perf's first entry. */
		u->pcs[0] = ip;
		u->act[0] = true;
		u->n = 1;
	}
	for (size_t i = 0; i < u->n; i++) {
		uint64_t pc = u->pcs[i];

		if (!pc)
			continue;
		/* libunwind (perf) leaves the pc of a signal frame as it is;
		 * libdw marks the frame after one as an activation. */
		if (i > 0 && !(i + 1 < u->n && u->act[i + 1]))
			pc--;
		int e = chain_add_ip(c, smp->pid, pc, PERF_RECORD_MISC_USER, true);

		if (e < 0)
			return e;
	}
	return 0;
}

void chain_unwind_release(struct pev_chain *c)
{
	struct unwind_state *u = c->uw;

	chain_inline_release(c);
	if (!u)
		return;
	for (size_t i = 0; i < u->nr_spaces; i++)
		space_release(&u->spaces[i]);
	for (size_t i = 0; i < u->nr_fds; i++)
		if (u->fds[i].fd >= 0)
			close(u->fds[i].fd);
	free(u->spaces);
	free(u->fds);
	free(u->pcs);
	free(u->act);
	free(u);
	c->uw = NULL;
}
