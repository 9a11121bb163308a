// SPDX-License-Identifier: GPL-2.0-only
/* record --call-graph dwarf samples the user registers the unwinder needs:
 * perf's PERF_REGS_MASK of the machine.  x86_64: 0xff0fff (every general
 * register, no flags or segment registers); arm64: x0..x30, sp, pc = bits
 * 0..32 (arch/arm64/include/uapi/asm/perf_regs.h: PERF_REG_ARM64_MAX 33).
 * The bug this names: the x86 mask was sampled on arm64 too, leaving out
 * sp (31) and pc (32), so no arm64 sample could be unwound.  Runs in
 * `make check-arm64` under qemu-aarch64 (which reports machine aarch64). */
#include <stdarg.h>
#include <sys/utsname.h>
#include "../../cli/record/record_setup.c"
#include "../../cli/record/record_opts.c"
#include "testutil.h"

/* What record_setup.c calls in the rest of the CLI. */
void cli_error(const char *fmt, ...) { (void)fmt; }
void cli_warn(const char *fmt, ...) { (void)fmt; }
void cli_cgroup_error(const char *what, const char *name, int err) { (void)what; (void)name; (void)err; }
void cli_cpus_error(const char *what, const char *cpus, int err) { (void)what; (void)cpus; (void)err; }
int rec_offcpu_check(void) { return -EINVAL; }
void rec_offcpu_config(struct rec *r) { (void)r; }
void rec_offcpu_free(struct rec *r) { (void)r; }
void rec_offcpu_open_error(struct rec *r, int err) { (void)r; (void)err; }

int main(void)
{
	struct rec r;
	struct utsname u;
	uint64_t want;

	CHECK_OK(uname(&u));
#if defined(__x86_64__)
	want = 0xff0fffull;
	CHECK_STR(u.machine, "x86_64");
#elif defined(__aarch64__)
	want = 0x1ffffffffull;
	CHECK_STR(u.machine, "aarch64");
#else
	T_SKIP("no register mask written here for this architecture");
#endif
	memset(&r, 0, sizeof(r));
	r.o.specs[0] = "task-clock";
	r.o.nspecs = 1;
	r.o.callchain = true;
	r.o.dwarf = true;
	r.o.stack_size = 8192;
	CHECK_OK(rec_setup_events(&r));
	CHECK_EQ_U64(r.nev, 1);
	if (r.nev == 1) {
		const struct perf_event_attr *a = &r.ev[0].attr.attr;

		CHECK(a->sample_type & PERF_SAMPLE_REGS_USER);
		CHECK(a->sample_type & PERF_SAMPLE_STACK_USER);
		CHECK_EQ_U64(a->sample_regs_user, want);
		CHECK_EQ_U64(a->sample_stack_user, 8192);
	}
	free(r.ev);
	pev_evlist_free(r.evl);
	return t_done();
}
