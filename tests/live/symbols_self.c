// SPDX-License-Identifier: GPL-2.0-only
/* Symbolizing this very process: its executable maps from
 * /proc/self/maps become MMAP2 records, and addresses of functions
 * defined here must come back with their exact names and offsets (ELF
 * .symtab through libelf).  Then a kernel symbol's address from
 * /proc/kallsyms, when kptr_restrict lets us see addresses. */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "testutil.h"
#include <perfev/perfev.h>
#include <perfev/symbols.h>

__attribute__((noinline)) int symbols_self_target_one(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) int symbols_self_target_two(int x)
{
	return symbols_self_target_one(x) ^ 0x55;
}

static int feed_self_maps(struct pev_machine *m)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[4096];
	int n = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi, off;
		char perms[8], path[4000] = "";
		struct pev_record r;

		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %3999s", &lo, &hi, perms, &off, path) < 4)
			continue;
		if (perms[2] != 'x' || !path[0])
			continue;
		memset(&r, 0, sizeof(r));
		r.type = PERF_RECORD_MMAP2;
		r.misc = PERF_RECORD_MISC_USER;
		r.u.mmap.pid = r.u.mmap.tid = (uint32_t)getpid();
		r.u.mmap.addr = lo;
		r.u.mmap.len = hi - lo;
		r.u.mmap.pgoff = off;
		r.u.mmap.prot = 5;
		r.u.mmap.filename = path;
		if (pev_machine_process(m, &r) == 0)
			n++;
	}
	fclose(f);
	return n;
}

static void check_fn(struct pev_machine *m, const void *fn, uint64_t off, const char *name)
{
	struct pev_addr_loc al;
	uint64_t ip = (uint64_t)(uintptr_t)fn + off;

	CHECK_OK(pev_machine_resolve(m, (uint32_t)getpid(), ip, PERF_RECORD_MISC_USER, &al));
	CHECK(al.dso != NULL);
	CHECK_MSG(al.sym && !strcmp(al.sym->name, name), "%#llx resolved to %s, expected %s",
		  (unsigned long long)ip, al.sym ? al.sym->name : "(none)", name);
	CHECK_EQ_U64(al.sym_off, off);
	CHECK_EQ_U64(al.map_ip, ip - al.map_start + al.map_pgoff);
}

/* The address of a unique global text symbol in kallsyms, or 0. */
static uint64_t kallsyms_addr(const char *want)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512], name[256], type;
	unsigned long long a, found = 0;
	int hits = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &a, &type, name) == 3 && !strcmp(name, want) &&
		    type == 'T') {
			found = a;
			hits++;
		}
	}
	fclose(f);
	return hits == 1 ? found : 0;
}

int main(void)
{
	struct pev_dso_cache_opts o = { .size = sizeof(o), .buildid_dir = "" };
	struct pev_dso_cache *c = pev_dso_cache_new(&o);
	struct pev_machine *m = c ? pev_machine_new(c) : NULL;

	CHECK(m);
	if (!m)
		return 1;
	CHECK(feed_self_maps(m) >= 1);
	CHECK(symbols_self_target_two(3) != 0);
	check_fn(m, (const void *)symbols_self_target_one, 0, "symbols_self_target_one");
	check_fn(m, (const void *)symbols_self_target_one, 3, "symbols_self_target_one");
	check_fn(m, (const void *)symbols_self_target_two, 1, "symbols_self_target_two");
	check_fn(m, (const void *)main, 0, "main");

	/* The DSO reports where its symbols came from: this executable. */
	struct pev_addr_loc al;
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	CHECK(n > 0);
	self[n > 0 ? n : 0] = 0;
	pev_machine_resolve(m, (uint32_t)getpid(), (uint64_t)(uintptr_t)main,
			    PERF_RECORD_MISC_USER, &al);
	CHECK_STR(al.dso ? pev_dso_name(al.dso) : NULL, self);
	CHECK_STR(pev_dso_symbol_source(al.dso), self);

	/* libelf directly: the same symbol, at its ELF address. */
	struct pev_symtab *st = pev_symtab_load_elf(self);
	const struct pev_symbol *s = NULL;

	CHECK(st);
	for (size_t i = 0; st && i < pev_symtab_count(st); i++)
		if (!strcmp(pev_symtab_symbol(st, i)->name, "symbols_self_target_two"))
			s = pev_symtab_symbol(st, i);
	CHECK(s && s->type == STT_FUNC && s->end > s->start);
	pev_symtab_free(st);
	errno = 0;
	CHECK(!pev_symtab_load_elf("/proc/self/status") && errno == ENOEXEC);

	pev_machine_free(m);
	pev_dso_cache_free(c);

	/* Kernel: a known symbol through /proc/kallsyms. */
	uint64_t ka = kallsyms_addr("do_syscall_64");

	if (!ka)
		ka = kallsyms_addr("schedule");
	if (!ka) {
		printf("kallsyms part: addresses are hidden (kptr_restrict, not root) or no known symbol\n");
		if (t_failures)
			return t_done();
		T_SKIP("kernel addresses hidden by kptr_restrict; user-space part passed");
	}
	struct pev_symtab *k = pev_kallsyms_load(NULL);

	CHECK(k && pev_symtab_count(k) > 1000);
	s = k ? pev_symtab_lookup(k, ka + 4) : NULL;
	CHECK(s && (!strcmp(s->name, "do_syscall_64") || !strcmp(s->name, "schedule")));
	CHECK(s && s->start == ka && s->end > ka + 4);
	pev_symtab_free(k);
	return t_done();
}
