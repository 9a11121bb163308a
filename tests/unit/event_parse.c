// SPDX-License-Identifier: GPL-2.0-only
/* The event-spec parser on every accepted form, against a fake sysfs and
 * tracefs: exact attr fields, names, groups. */
#include <dlfcn.h>
#include <linux/hw_breakpoint.h>
#include <perfev/perfev.h>
#include "testutil.h"
#include "pmu_fake.h"

static struct pev_parse_opts opts;

static struct pev_evlist *parse(const char *spec, size_t want)
{
	struct pev_evlist *l = pev_evlist_new();
	struct pev_parse_error err;
	int r = pev_evlist_parse(l, spec, &opts, &err);
	CHECK_MSG(r == 0, "'%s' refused (%d): %s at %d", spec, r, err.msg, err.pos);
	CHECK_MSG(pev_evlist_count(l) == want, "'%s' gave %zu events, expected %zu", spec,
		  pev_evlist_count(l), want);
	return l;
}

#define EV(l, i) pev_evlist_event(l, i)
#define A(l, i) (&pev_evlist_event(l, i)->attr.attr)

/* exclude bits as a string "ukhGHI" of the set ones */
static const char *excl(const struct perf_event_attr *a)
{
	static char b[8];
	int n = 0;
	if (a->exclude_user) b[n++] = 'u';
	if (a->exclude_kernel) b[n++] = 'k';
	if (a->exclude_hv) b[n++] = 'h';
	if (a->exclude_guest) b[n++] = 'G';
	if (a->exclude_host) b[n++] = 'H';
	if (a->exclude_idle) b[n++] = 'I';
	b[n] = '\0';
	return b;
}

static void one(const char *spec, uint32_t type, uint64_t config, const char *name, const char *ex)
{
	struct pev_evlist *l = parse(spec, 1);
	if (pev_evlist_count(l) == 1) {
		CHECK_MSG(A(l, 0)->type == type, "'%s' type %u want %u", spec, A(l, 0)->type, type);
		CHECK_MSG(A(l, 0)->config == config, "'%s' config %#llx want %#llx", spec,
			  (unsigned long long)A(l, 0)->config, (unsigned long long)config);
		CHECK_STR(EV(l, 0)->name, name);
		CHECK_MSG(!strcmp(excl(A(l, 0)), ex), "'%s' excludes '%s' want '%s'", spec, excl(A(l, 0)), ex);
		CHECK_EQ_U64(A(l, 0)->size, sizeof(struct perf_event_attr));
		CHECK_EQ_INT(EV(l, 0)->leader, 0);
		CHECK_EQ_INT(EV(l, 0)->group_size, 1);
	}
	pev_evlist_free(l);
}

__attribute__((noinline, used)) int uprobe_target_fn(int x)
{
	return x * 3 + 1;
}

/* File offset of a function of ours, from /proc/self/maps (independent of
 * the ELF walk the library does). */
static uint64_t self_file_offset(void *fn)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	uint64_t addr = (uint64_t)(uintptr_t)fn, off = 0;
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long lo, hi, fo;
		if (sscanf(line, "%llx-%llx %*s %llx", &lo, &hi, &fo) == 3 && addr >= lo && addr < hi) {
			off = addr - lo + fo;
			break;
		}
	}
	if (f)
		fclose(f);
	return off;
}

int main(void)
{
	struct pev_evlist *l;

	fake_build();
	opts.size = sizeof(opts);
	opts.sysfs_root = fake_root;
	opts.tracefs_root = fake_tracefs;
	opts.no_pfm = true;

	/* hardware names and aliases (perf keeps the spelling given) */
	one("cycles", 0, 0, "cycles", "G");
	one("cpu-cycles", 0, 0, "cpu-cycles", "G");
	one("instructions", 0, 1, "instructions", "G");
	one("cache-references", 0, 2, "cache-references", "G");
	one("cache-misses", 0, 3, "cache-misses", "G");
	one("branches", 0, 4, "branches", "G");
	one("branch-instructions", 0, 4, "branch-instructions", "G");
	one("branch-misses", 0, 5, "branch-misses", "G");
	one("bus-cycles", 0, 6, "bus-cycles", "G");
	one("stalled-cycles-frontend", 0, 7, "stalled-cycles-frontend", "G");
	one("idle-cycles-frontend", 0, 7, "idle-cycles-frontend", "G");
	one("stalled-cycles-backend", 0, 8, "stalled-cycles-backend", "G");
	one("idle-cycles-backend", 0, 8, "idle-cycles-backend", "G");
	one("ref-cycles", 0, 9, "ref-cycles", "G");
	/* software */
	one("cpu-clock", 1, 0, "cpu-clock", "G");
	one("task-clock", 1, 1, "task-clock", "G");
	one("page-faults", 1, 2, "page-faults", "G");
	one("faults", 1, 2, "faults", "G");
	one("context-switches", 1, 3, "context-switches", "G");
	one("cs", 1, 3, "cs", "G");
	one("cpu-migrations", 1, 4, "cpu-migrations", "G");
	one("migrations", 1, 4, "migrations", "G");
	one("minor-faults", 1, 5, "minor-faults", "G");
	one("major-faults", 1, 6, "major-faults", "G");
	one("alignment-faults", 1, 7, "alignment-faults", "G");
	one("emulation-faults", 1, 8, "emulation-faults", "G");
	one("dummy", 1, 9, "dummy", "G");
	one("bpf-output", 1, 10, "bpf-output", "G");
	one("cgroup-switches", 1, 11, "cgroup-switches", "G");
	/* hw-cache (configs checked against perf 6.1's perf stat -vv) */
	one("L1-dcache-load-misses", 3, 0x10000, "L1-dcache-load-misses", "G");
	one("LLC-loads", 3, 0x2, "LLC-loads", "G");
	one("dTLB-store-misses", 3, 0x10103, "dTLB-store-misses", "G");
	one("branch-load-misses", 3, 0x10005, "branch-load-misses", "G");
	one("L1-icache-loads", 3, 0x1, "L1-icache-loads", "G");
	one("node-loads", 3, 0x6, "node-loads", "G");
	one("node-prefetches", 3, 0x206, "node-prefetches", "G");
	one("L1-dcache-speculative-read", 3, 0x200, "L1-dcache-speculative-read", "G");
	one("L1-dcache-prefetch-miss", 3, 0x10200, "L1-dcache-prefetch-miss", "G");
	one("L1-dcache-Reference", 3, 0, "L1-dcache-Reference", "G");
	one("L1-dcache-ops", 3, 0, "L1-dcache-ops", "G");
	one("L1-dcache-access", 3, 0, "L1-dcache-access", "G");
	one("L1-dcache-store", 3, 0x100, "L1-dcache-store", "G");
	one("L1-dcache-write", 3, 0x100, "L1-dcache-write", "G");
	one("l1d-load", 3, 0, "l1d-load", "G");
	one("L1-data-loads", 3, 0, "L1-data-loads", "G");
	one("dTLB", 3, 3, "dTLB", "G");
	one("LLC-store-misses", 3, 0x10102, "LLC-store-misses", "G");
	one("dTLB-prefetches", 3, 0x203, "dTLB-prefetches", "G");
	one("iTLB-load-misses", 3, 0x10004, "iTLB-load-misses", "G");
	one("L2-misses", 3, 0x10002, "L2-misses", "G");
	one("bpu-loads", 3, 0x5, "bpu-loads", "G");
	one("L1-dcache-speculative-load-miss", 3, 0x10200, "L1-dcache-speculative-load-miss", "G");
	/* raw */
	one("r1a8", 4, 0x1a8, "r1a8", "G");
	one("r0", 4, 0, "r0", "G");
	one("rFFFFFFFFFFFFFFFF", 4, ~0ULL, "rFFFFFFFFFFFFFFFF", "G");
	one("r1a8:u", 4, 0x1a8, "r1a8:u", "khG");

	/* modifiers, as perf 6.1 builds them */
	one("cs:u", 1, 3, "cs:u", "khG");
	one("cs:k", 1, 3, "cs:k", "uh");
	one("cs:h", 1, 3, "cs:h", "uk");
	one("cs:uk", 1, 3, "cs:uk", "hG");
	one("cs:G", 1, 3, "cs:G", "H");
	one("cs:H", 1, 3, "cs:H", "G");
	one("cs:GH", 1, 3, "cs:GH", "");
	one("cs:uG", 1, 3, "cs:uG", "khH");
	one("cs:I", 1, 3, "cs:I", "I");
	one("cs:D", 1, 3, "cs:D", "");
	l = parse("cs:p,cs:pp,cs:ppp,cs:P,cs:D,cs:e,cs:S,cs:W", 8);
	for (int i = 0; i < 3; i++) {
		CHECK_EQ_INT(A(l, i)->precise_ip, i + 1);
		CHECK_STR(excl(A(l, i)), "G");
	}
	CHECK(EV(l, 3)->precise_max && A(l, 3)->precise_ip == 0 && !A(l, 3)->exclude_guest);
	CHECK(A(l, 4)->pinned && !A(l, 4)->exclusive);
	CHECK(A(l, 5)->exclusive && !A(l, 5)->pinned);
	CHECK(EV(l, 6)->sample_read && !EV(l, 6)->weak_group);
	CHECK(EV(l, 7)->weak_group);
	for (int i = 0; i < 8; i++) {
		CHECK_EQ_INT(EV(l, i)->index, i);
		CHECK_EQ_INT(EV(l, i)->leader, i);
	}
	CHECK_STR(EV(l, 2)->name, "cs:ppp");
	pev_evlist_free(l);

	/* units: perf prints the clocks in msec */
	l = parse("task-clock,cpu-clock,cs", 3);
	CHECK_STR(EV(l, 0)->unit, "msec");
	CHECK_STR(EV(l, 1)->unit, "msec");
	CHECK_STR(EV(l, 2)->unit, "");
	CHECK_STR(EV(l, 0)->pmu, "software");
	CHECK(EV(l, 0)->scale == 1.0 && EV(l, 0)->cpus == NULL);
	pev_evlist_free(l);

	/* groups */
	l = parse("{cs,cpu-clock}:k", 2);
	CHECK_STR(EV(l, 0)->name, "cs:k");
	CHECK_STR(EV(l, 1)->name, "cpu-clock:k");
	CHECK_STR(excl(A(l, 0)), "uhG");	/* group mods keep the default exclude_guest */
	CHECK_STR(excl(A(l, 1)), "uhG");
	CHECK_EQ_INT(EV(l, 0)->leader, 0);
	CHECK_EQ_INT(EV(l, 1)->leader, 0);
	CHECK_EQ_INT(EV(l, 0)->group_size, 2);
	CHECK_EQ_INT(EV(l, 1)->group_size, 0);
	pev_evlist_free(l);
	l = parse("{cs:u,cpu-clock}:k", 2);
	CHECK_STR(EV(l, 0)->name, "cs:uk");
	CHECK_STR(excl(A(l, 0)), "hG");
	CHECK_STR(excl(A(l, 1)), "uhG");
	pev_evlist_free(l);
	l = parse("faults,{cs,minor-faults,major-faults}:S,{dummy,cpu-clock},task-clock", 7);
	CHECK_EQ_INT(EV(l, 0)->group_size, 1);
	CHECK_EQ_INT(EV(l, 1)->group_size, 3);
	CHECK(EV(l, 1)->sample_read && EV(l, 2)->sample_read && !EV(l, 0)->sample_read);
	CHECK_EQ_INT(EV(l, 3)->leader, 1);
	CHECK_EQ_INT(EV(l, 4)->leader, 4);
	CHECK_EQ_INT(EV(l, 4)->group_size, 2);
	CHECK_EQ_INT(EV(l, 5)->leader, 4);
	CHECK_EQ_INT(EV(l, 6)->leader, 6);
	CHECK_EQ_INT(EV(l, 6)->group_size, 1);
	pev_evlist_free(l);
	l = parse("{cs:p,faults}:p", 2);
	CHECK_EQ_INT(A(l, 0)->precise_ip, 2);
	CHECK_EQ_INT(A(l, 1)->precise_ip, 1);
	pev_evlist_free(l);

	/* repeated parse calls append (repeated -e), indexes continue */
	l = parse("cs", 1);
	struct pev_parse_error err;
	CHECK_OK(pev_evlist_parse(l, "{faults,dummy}", &opts, &err));
	CHECK_EQ_U64(pev_evlist_count(l), 3);
	CHECK_EQ_INT(EV(l, 1)->index, 1);
	CHECK_EQ_INT(EV(l, 2)->leader, 1);
	CHECK_EQ_INT(EV(l, 1)->group_size, 2);
	/* a failed parse leaves the list as it was */
	CHECK(pev_evlist_parse(l, "cs,nosuchevent", &opts, &err) == -ENOENT);
	CHECK_EQ_U64(pev_evlist_count(l), 3);
	CHECK(pev_evlist_event(l, 3) == NULL);
	pev_evlist_free(l);

	/* breakpoints */
	l = parse("mem:0x1000,mem:0x1000/4:w,mem:0x1000:rw,mem:0x1000:x,mem:0x2000/8:r:u,mem:4096/1", 6);
	CHECK(A(l, 0)->type == PERF_TYPE_BREAKPOINT && A(l, 0)->bp_type == (HW_BREAKPOINT_R | HW_BREAKPOINT_W) &&
	      A(l, 0)->bp_addr == 0x1000 && A(l, 0)->bp_len == 4);
	CHECK(A(l, 1)->bp_type == HW_BREAKPOINT_W && A(l, 1)->bp_len == 4);
	CHECK(A(l, 2)->bp_type == 3);
	CHECK(A(l, 3)->bp_type == HW_BREAKPOINT_X && A(l, 3)->bp_len == sizeof(long));
	CHECK(A(l, 4)->bp_type == HW_BREAKPOINT_R && A(l, 4)->bp_len == 8 && A(l, 4)->bp_addr == 0x2000);
	CHECK_STR(excl(A(l, 4)), "khG");
	CHECK(A(l, 5)->bp_addr == 4096 && A(l, 5)->bp_len == 1);
	CHECK_STR(EV(l, 0)->name, "mem:0x1000");
	CHECK_STR(EV(l, 1)->name, "mem:0x1000/4:w");
	CHECK_STR(EV(l, 4)->name, "mem:0x2000/8:r:u");
	CHECK_STR(EV(l, 0)->pmu, "breakpoint");
	pev_evlist_free(l);

	/* PMU terms, aliases, and the generic terms */
	l = parse("fakepmu/event=0x3c,umask=0x1/", 1);
	CHECK_EQ_U64(A(l, 0)->type, 42);
	CHECK_EQ_U64(A(l, 0)->config, 0x13c);
	CHECK_STR(EV(l, 0)->name, "fakepmu/event=0x3c,umask=0x1/");
	CHECK_STR(EV(l, 0)->pmu, "fakepmu");
	CHECK_STR(EV(l, 0)->cpus, "0,2");
	pev_evlist_free(l);
	l = parse("fakepmu/scat=0x41,hi=1,c3=0xf,event/", 1);
	CHECK_EQ_U64(A(l, 0)->config, 1);	/* bare term = 1 */
	CHECK_EQ_U64(A(l, 0)->config1, (1ULL << 1) | (1ULL << 44));
	CHECK_EQ_U64(A(l, 0)->config2, 1ULL << 63);
	CHECK_EQ_U64(*pev_attr_config3(&EV(l, 0)->attr), 0xf);
	CHECK_EQ_U64(A(l, 0)->size, PERF_ATTR_SIZE_VER8);	/* config3 needs VER8 */
	pev_evlist_free(l);
	l = parse("fakepmu/config=0x1234,config1=5,config2=6,config3=7,period=1000/u", 1);
	CHECK_EQ_U64(A(l, 0)->config, 0x1234);
	CHECK_EQ_U64(A(l, 0)->config1, 5);
	CHECK_EQ_U64(A(l, 0)->config2, 6);
	CHECK_EQ_U64(*pev_attr_config3(&EV(l, 0)->attr), 7);
	CHECK_EQ_U64(A(l, 0)->sample_period, 1000);
	CHECK_EQ_U64(EV(l, 0)->user_period, 1000);
	CHECK_STR(EV(l, 0)->name, "fakepmu/config=0x1234,config1=5,config2=6,config3=7,period=1000/u");
	CHECK_STR(excl(A(l, 0)), "khG");
	pev_evlist_free(l);
	l = parse("fakepmu/cycles-x/,fakepmu/cycles-x,umask=2/,fakepmu/energy/,fakepmu/event=1,freq=4000,name=myev/:k", 4);
	CHECK_EQ_U64(A(l, 0)->config, 0x3c);
	CHECK_EQ_U64(A(l, 1)->config, 0x23c);	/* user terms override the alias's */
	CHECK_EQ_U64(A(l, 2)->config, 0x02);
	CHECK(EV(l, 2)->scale == 2.3283064365386962890625e-10);
	CHECK_STR(EV(l, 2)->unit, "Joules");
	CHECK(EV(l, 2)->per_pkg && EV(l, 2)->snapshot);
	CHECK(A(l, 3)->freq == 1 && A(l, 3)->sample_freq == 4000);
	CHECK_STR(EV(l, 3)->name, "myev");
	CHECK_STR(excl(A(l, 3)), "uh");
	pev_evlist_free(l);
	l = parse("energy,fakepmu/needs,umask=3/", 2);	/* a bare alias name */
	CHECK_EQ_U64(A(l, 0)->type, 42);
	CHECK_EQ_U64(A(l, 0)->config, 2);
	CHECK_STR(EV(l, 0)->unit, "Joules");
	CHECK_EQ_U64(A(l, 1)->config, 0x305);
	pev_evlist_free(l);
	l = parse("uncore_box/event=3/", 2);	/* every box of a wildcard PMU */
	CHECK(A(l, 0)->type == 60 && A(l, 1)->type == 61 && A(l, 0)->config == 3 && A(l, 1)->config == 3);
	CHECK_STR(EV(l, 1)->pmu, "uncore_box_1");
	pev_evlist_free(l);
	l = parse("cpu-clock/period=1000/,software/config=3/", 2);
	CHECK(A(l, 0)->type == 1 && A(l, 0)->config == 0 && A(l, 0)->sample_period == 1000);
	CHECK_STR(EV(l, 0)->name, "cpu-clock/period=1000/");
	CHECK(A(l, 1)->type == 1 && A(l, 1)->config == 3);
	pev_evlist_free(l);

	/* tracepoints, with globs expanded in sorted order */
	l = parse("sched:sched_switch", 1);
	CHECK(A(l, 0)->type == PERF_TYPE_TRACEPOINT && A(l, 0)->config == 316);
	CHECK_STR(EV(l, 0)->name, "sched:sched_switch");
	CHECK_STR(EV(l, 0)->pmu, "tracepoint");
	pev_evlist_free(l);
	l = parse("sched:*:u", 3);
	CHECK(A(l, 0)->config == 316 && A(l, 1)->config == 317 && A(l, 2)->config == 318);
	CHECK_STR(EV(l, 2)->name, "sched:sched_waking:u");
	CHECK_STR(excl(A(l, 1)), "khG");
	pev_evlist_free(l);
	l = parse("syscalls:sys_enter_*,{sched:sched_w*}", 4);
	CHECK(A(l, 0)->config == 600 && A(l, 1)->config == 601);
	CHECK_EQ_INT(EV(l, 2)->group_size, 2);
	CHECK_EQ_INT(EV(l, 3)->leader, 2);
	pev_evlist_free(l);
	l = parse("s*:*read", 2);
	CHECK(A(l, 0)->config == 600 && A(l, 1)->config == 602);
	pev_evlist_free(l);

	/* uprobes through the (fake) uprobe PMU, against our own binary */
	uint64_t want = self_file_offset((void *)uprobe_target_fn);
	CHECK(want != 0);
	l = parse("uprobe:/proc/self/exe:uprobe_target_fn,uprobe:/proc/self/exe:uprobe_target_fn+0x4,"
		  "uretprobe:/proc/self/exe:uprobe_target_fn,uprobe:/proc/self/exe:0x1234:u", 4);
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[n > 0 ? n : 0] = '\0';
	for (int i = 0; i < 4; i++) {
		CHECK_EQ_U64(A(l, i)->type, 7);
		CHECK_STR((const char *)(uintptr_t)A(l, i)->config1, self);
		CHECK_STR(EV(l, i)->pmu, "uprobe");
	}
	CHECK_EQ_U64(A(l, 0)->config2, want);
	CHECK_EQ_U64(A(l, 1)->config2, want + 4);
	CHECK_EQ_U64(A(l, 2)->config2, want);
	CHECK_EQ_U64(A(l, 0)->config, 0);
	CHECK_EQ_U64(A(l, 2)->config, 1);	/* retprobe: config:0 */
	CHECK_EQ_U64(A(l, 3)->config2, 0x1234);
	CHECK_STR(excl(A(l, 3)), "khG");
	CHECK_STR(EV(l, 0)->name, "uprobe:/proc/self/exe:uprobe_target_fn");
	CHECK_STR(EV(l, 3)->name, "uprobe:/proc/self/exe:0x1234:u");
	/* the path string lives as long as the list, across more parses */
	const char *path0 = (const char *)(uintptr_t)A(l, 0)->config1;
	CHECK_OK(pev_evlist_parse(l, "cs,cs,cs,cs,cs,cs,cs,cs,cs,cs,cs,cs,cs,cs,cs,cs,cs", &opts, &err));
	CHECK_STR(path0, self);
	CHECK((const char *)(uintptr_t)A(l, 0)->config1 == path0);
	pev_evlist_free(l);

	pev_evlist_free(NULL);
	CHECK(pev_evlist_count(NULL) == 0 && pev_evlist_event(NULL, 0) == NULL);
	CHECK(pev_evlist_parse(NULL, "cs", &opts, &err) == -EINVAL);
	/* opts with a smaller size: later fields read as defaults */
	l = pev_evlist_new();
	struct pev_parse_opts small = { .size = sizeof(size_t) };
	CHECK_OK(pev_evlist_parse(l, "cs", &small, &err));
	CHECK_OK(pev_evlist_parse(l, "cs:u", NULL, NULL));
	CHECK_EQ_U64(pev_evlist_count(l), 2);
	pev_evlist_free(l);

	/* the symbolic table that perfev list prints */
	size_t nsym = 0, ncache = 0;
	const struct pev_symbolic_event *s;
	for (size_t i = 0; (s = pev_symbolic_event(i)); i++) {
		nsym++;
		ncache += s->cls == PEV_CLASS_CACHE;
		struct pev_evlist *one_l = pev_evlist_new();
		CHECK_MSG(pev_evlist_parse(one_l, s->name, &opts, &err) == 0, "'%s' from the table does not parse", s->name);
		if (pev_evlist_count(one_l) == 1)
			CHECK_MSG(A(one_l, 0)->type == s->type && A(one_l, 0)->config == s->config, "%s", s->name);
		pev_evlist_free(one_l);
	}
	CHECK_EQ_U64(nsym, 10 + 12 + 32);
	CHECK_EQ_U64(ncache, 32);
	fake_cleanup();
	return t_done();
}
