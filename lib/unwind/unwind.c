// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* DWARF unwinding of user stacks (PERF_SAMPLE_REGS_USER + STACK_USER).
 *
 * On x86-64 the walk is unwind_fast.c's (perf's libunwind rules, CFI
 * from libdw, each file a libdwfl module of its own: unwind_mods.c).
 * What it does not apply, and other machines, go to libdwfl's unwinder
 * here: one Dwfl per process (address space) for the whole file, the
 * DSOs of its maps reported once, at their load bias (unwind_bias.c: the
 * map's start less the address of its offset in the segment it maps),
 * when an unwound address first falls in them.
 * A module found at another base than the map says means the process's
 * maps changed under it (exec, dlclose): its Dwfl is dropped and built
 * again.  perf 6.1 builds a new Dwfl (and so re-reads every CFI) per
 * sample: most of the difference in speed.
 *
 * Memory reads are served from the sample's stack dump, and outside it
 * from the file of the DSO mapped there.  The frames are those of
 * perf 6.1 as Debian builds it (with libunwind): the first frame at the
 * sampled user IP, every caller at its return address - 1 (unless the
 * frame before it is a signal frame), an address 0 skipped; the
 * unwinding stops at max_stack frames or where the CFI or the memory
 * ends, keeping what it found. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/auxv.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <linux/perf_event.h>

#include <perfev/callchain.h>

#include "symbol/symbols_internal.h"
#include "unwind/unwind_internal.h"
#include "unwind/unwind_state.h"


static const Dwfl_Callbacks dwfl_cbs = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	/* no debuginfo_path: libdwfl's default search path */
};

static void space_release(struct space *s)
{
	if (s->dwfl)
		dwfl_end(s->dwfl);
	s->dwfl = NULL;
	s->attached = false;
	s->last_lo = s->last_hi = 0;
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
int pev__unwind_report_module(struct unwind_state *u, uint64_t ip)
{
	struct space *s = u->sp;
	struct pev_addr_loc loc;

	if (ip >= s->last_lo && ip < s->last_hi)
		return 0;
	if (pev_machine_resolve(u->c->m, s->pid, ip, PERF_RECORD_MISC_USER, &loc) < 0 ||
	    !loc.dso || loc.kernel)
		return -1;
	const char *name = pev_dso_name(loc.dso), *path = name;
	uint64_t bias;

	if (name && !strcmp(name, "[vdso]"))
		path = pev__unwind_vdso_file(u, loc.dso);
	if (!path || path[0] != '/')
		return -1;
	Dwfl_Module *mod = dwfl_addrmodule(s->dwfl, ip);

	if (mod) {
		Dwarf_Addr mbias;
		Elf *elf = dwfl_module_getelf(mod, &mbias);

		if (!pev__unwind_map_bias(elf, &loc, &bias))
			bias = loc.map_start - loc.map_pgoff;
		if (bias != mbias)
			return -2;	/* the maps changed: the caller starts again */
	} else {
		if (!pev__unwind_file_cfi_ok(path))
			return -1;	/* see unwind_cfi_check.c */
		/* at the map's load bias (unwind_bias.c: LLD's segments
		 * have p_vaddr != p_offset, so not start - pgoff) */
		if (!pev__unwind_file_bias(path, &loc, &bias))
			bias = loc.map_start - loc.map_pgoff;
		mod = dwfl_report_elf(s->dwfl, name, path, -1, bias, true);
		if (!mod || dwfl_addrmodule(s->dwfl, ip) != mod)
			return -1;
	}
	s->last_lo = loc.map_start;
	s->last_hi = loc.map_end;
	return 0;
}

bool pev__unwind_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct unwind_state *u = arg;
	uint64_t v;

	(void)dwfl;
	if (pev__unwind_read_word(u, addr, &v) == 1) {
		*result = v;
		return true;
	}
	u->read_failed = true;
	return false;
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
	int n = pev__unwind_regs_to_dwarf(u->e_machine, &u->smp->regs_user,
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
	.memory_read = pev__unwind_memory_read,
	.set_initial_registers = set_initial_registers,
};

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct unwind_state *u = arg;
	Dwarf_Addr pc;
	bool act;

	if (!dwfl_frame_pc(state, &pc, &act))
		return DWARF_CB_ABORT;
	if (!pc && u->n) {
		/* A return address of 0 ends libunwind's walk (and perf's). */
		u->read_failed = false;
		return DWARF_CB_ABORT;
	}
	u->pcs[u->n] = pc;
	u->act[u->n] = act;
	u->n++;
	if (u->n >= u->max)
		return DWARF_CB_ABORT;
	/* The CFI of pc must be known before libdw steps out of it. */
	if (pev__unwind_report_module(u, pc) == -2)
		return DWARF_CB_ABORT;
	uint64_t look = act ? pc : pc - 1;

	if (pev__unwind_go_frame(dwfl_addrmodule(u->sp->dwfl, look), look) == GO_LAST) {
		u->read_failed = false;	/* Go: the top of its stack */
		return DWARF_CB_ABORT;
	}
	return DWARF_CB_OK;
}

/* The CFI frame of pc (.eh_frame, else .debug_frame), to be freed;
 * NULL when neither has one. */
static Dwarf_Frame *cfi_frame(struct space *s, uint64_t pc)
{
	Dwfl_Module *mod = dwfl_addrmodule(s->dwfl, pc);
	Dwarf_Addr bias;
	Dwarf_CFI *cfi;
	Dwarf_Frame *fr;

	if (!mod)
		return NULL;
	cfi = dwfl_module_eh_cfi(mod, &bias);
	if (cfi && dwarf_cfi_addrframe(cfi, pc - bias, &fr) == 0)
		return fr;
	cfi = dwfl_module_dwarf_cfi(mod, &bias);
	if (cfi && dwarf_cfi_addrframe(cfi, pc - bias, &fr) == 0)
		return fr;
	return NULL;
}

/* True when the CFI of pc says its caller is unknown (the outermost
 * frame: _start, clone), where the unwinding ends as it should. */
bool pev__unwind_ra_undefined(struct space *s, uint64_t pc)
{
	Dwarf_Frame *fr = cfi_frame(s, pc);
	Dwarf_Op ops_mem[3], *ops;
	size_t nops;

	if (!fr)
		return false;
	int ra = dwarf_frame_info(fr, NULL, NULL, NULL);
	int r = dwarf_frame_register(fr, ra, ops_mem, &ops, &nops);

	free(fr);
	return r == 0 && nops == 0 && ops == ops_mem;
}

bool pev__unwind_cfi_signal(struct space *s, uint64_t pc)
{
	Dwarf_Frame *fr = cfi_frame(s, pc);
	bool signal = false;

	if (fr)
		dwarf_frame_info(fr, NULL, NULL, &signal);
	free(fr);
	return signal;
}

/* libdwfl's activation flags (the first frame, a signal frame and the
 * frame it returns to) to perf's: a pc is printed as it is after a
 * frame whose CFI is a signal frame's, looked up as libunwind looks it
 * up (at pc - 1 unless that pc is printed as it is), or after a call Go's
 * runtime injected (unwind_go.c). */
static void act_from_libdw(struct unwind_state *u)
{
	for (size_t i = 1; i < u->n; i++) {
		uint64_t look = u->pcs[i - 1] - !u->act[i - 1];

		u->act[i] = (u->act[i] && pev__unwind_cfi_signal(u->sp, look)) ||
			    pev__unwind_go_frame(dwfl_addrmodule(u->sp->dwfl, look), look) ==
			    GO_INJECTED;
	}
}

/* Unwinds into u->pcs; 0, -2 when the process's maps changed under its
 * Dwfl, -1 when nothing could be done. */
static int unwind_once(struct unwind_state *u, uint64_t ip)
{
	struct space *s = u->sp;
	int r = FAST_FALLBACK;

	u->n = 0;
	u->read_failed = false;
	if (u->e_machine == EM_X86_64)
		r = pev__fast_unwind(u, ip);
	if (r != FAST_FALLBACK) {
		u->nr_fast += r == 0;
		return r;	/* the fast walk made its 0 frames itself */
	}
	u->nr_libdw++;
	if (space_dwfl(s) < 0)
		return -ENOMEM;
	r = pev__unwind_report_module(u, ip);
	if (r == -2)
		return r;
	if (r < 0 && !s->attached)	/* attach needs one module's ELF */
		return -1;
	if (!s->attached) {
		if (!dwfl_attach_state(s->dwfl, NULL, (pid_t)s->pid ? (pid_t)s->pid : 1,
				       &thread_cbs, u))
			return -1;
		s->attached = true;
	}
	u->n = 0;
	u->read_failed = false;
	dwfl_getthread_frames(s->dwfl, dwfl_pid(s->dwfl), frame_cb, u);
	act_from_libdw(u);
	if (u->read_failed && u->n && u->n < u->max &&
	    !pev__unwind_ra_undefined(s, u->pcs[u->n - 1] - !u->act[u->n - 1])) {
		/* perf's libunwind, when the stack dump ends before the
		 * CFI does, takes one more frame whose return address reads
		 * as 0 (printed as 0 - 1). */
		u->pcs[u->n] = 0;
		u->act[u->n] = false;
		u->n++;
	}
	for (size_t i = 1; i < u->n; i++)	/* a step into other maps */
		if (pev__unwind_report_module(u, u->pcs[i]) == -2)
			return -2;
	return 0;
}

int pev__chain_unwind(struct pev_chain *c, const struct pev_sample *smp)
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
	u->e_machine = c->opts.e_machine ? c->opts.e_machine : pev__unwind_host_machine();
	if (pev__unwind_user_ip_sp(u->e_machine, &smp->regs_user, &ip, &sp) < 0)
		return 0;
	u->stack_start = sp;
	u->sp->last_lo = u->sp->last_hi = 0;
	u->n = 0;
	int r = unwind_once(u, ip);

	if (r == -2) {
		space_release(u->sp);
		pev__rules_clear(u);
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
	/* perf asks for the inline frames in the order it builds the chain
	 * (caller first: from the outermost frame in) */
	for (size_t i = u->n; c->opts.caller_first && !c->opts.no_inline && i-- > 0;) {
		uint64_t pc = u->pcs[i] - !u->act[i];
		struct pev_addr_loc loc;

		if (!pc)
			continue;
		pev_machine_resolve(c->m, smp->pid, pc, PERF_RECORD_MISC_USER, &loc);
		if (pev__chain_inline_warm(c, &loc) < 0)
			return -ENOMEM;
	}
	for (size_t i = 0; i < u->n; i++) {
		uint64_t pc = u->pcs[i];

		if (!u->act[i])	/* a return address */
			pc--;
		if (!pc)
			continue;
		int e = pev__chain_add_ip(c, smp->pid, pc, PERF_RECORD_MISC_USER, true);

		if (e < 0)
			return e;
	}
	return 0;
}

void pev__chain_unwind_release(struct pev_chain *c)
{
	struct unwind_state *u = c->uw;

	pev__chain_inline_release(c);
	if (!u)
		return;
	for (size_t i = 0; i < u->nr_spaces; i++)
		space_release(&u->spaces[i]);
	for (size_t i = 0; i < u->nr_fds; i++)
		if (u->fds[i].fd >= 0)
			close(u->fds[i].fd);
	if (u->vdso_state > 0)
		unlink(u->vdso_path);
	free(u->spaces);
	pev__unwind_mods_release(u);
	pev__rules_clear(u);
	free(u->rules);
	free(u->fds);
	free(u->pcs);
	free(u->act);
	free(u);
	c->uw = NULL;
}
