// SPDX-License-Identifier: GPL-2.0-only
/* perfev record's option parsers (cli/record/record_opts.c, compiled in here):
 * perf 6.1's -j branch filter names and rules, the register names of -I
 * and --user-regs, --max-size, -D, -c, -F and -m.  The branch stack
 * cannot be opened on a machine without LBR, so its attr bits are
 * checked here. */
#include <stdarg.h>
#include <sys/utsname.h>

#include "../../cli/record/record_opts.c"
#include "testutil.h"

static char last_err[1024];

void cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_err, sizeof(last_err), fmt, ap);
	va_end(ap);
}

static char last_warn[1024];

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_warn, sizeof(last_warn), fmt, ap);
	va_end(ap);
}

static uint64_t branch(const char *s)
{
	uint64_t m = 0xdead;
	int e = rec_branch_parse(s, &m);

	return e < 0 ? (uint64_t)e : m;
}

int main(void)
{
	struct rec_opts o;

	/* -j: names as perf 6.1; only privilege levels mean "any" (and perf
	 * drops the levels then). */
	CHECK_EQ_U64(branch("any"), PERF_SAMPLE_BRANCH_ANY);
	CHECK_EQ_U64(branch("any_call,u"), PERF_SAMPLE_BRANCH_ANY_CALL | PERF_SAMPLE_BRANCH_USER);
	CHECK_EQ_U64(branch("u"), PERF_SAMPLE_BRANCH_ANY);
	CHECK_EQ_U64(branch("k,hv"), PERF_SAMPLE_BRANCH_ANY);
	CHECK_EQ_U64(branch("stack,u"), PERF_SAMPLE_BRANCH_CALL_STACK | PERF_SAMPLE_BRANCH_USER);
	CHECK_EQ_U64(branch("priv"), PERF_SAMPLE_BRANCH_PRIV_SAVE);
	CHECK_EQ_U64(branch("save_type"), PERF_SAMPLE_BRANCH_TYPE_SAVE);
	CHECK_EQ_U64(branch("any_ret,ind_call,ind_jmp,call,cond,abort_tx,in_tx,no_tx,k"),
		     PERF_SAMPLE_BRANCH_ANY_RETURN | PERF_SAMPLE_BRANCH_IND_CALL |
		     PERF_SAMPLE_BRANCH_IND_JUMP | PERF_SAMPLE_BRANCH_CALL |
		     PERF_SAMPLE_BRANCH_COND | PERF_SAMPLE_BRANCH_ABORT_TX |
		     PERF_SAMPLE_BRANCH_IN_TX | PERF_SAMPLE_BRANCH_NO_TX |
		     PERF_SAMPLE_BRANCH_KERNEL);
	CHECK_EQ_INT((int64_t)branch("hw_index"), -ENOENT);	/* not in 6.1 */
	CHECK_EQ_INT((int64_t)branch("any,bogus"), -ENOENT);
	CHECK_EQ_INT((int64_t)branch("ANY"), -ENOENT);	/* perf is case-sensitive */

	memset(&o, 0, sizeof(o));
	CHECK_OK(rec_opt_branch_any(NULL, NULL, &o));
	CHECK_EQ_U64(o.branch_stack, PERF_SAMPLE_BRANCH_ANY);
	CHECK_EQ_INT(rec_opt_branch_filter(NULL, "call", &o), -1);	/* -b and -j */
	CHECK(strstr(last_err, "'-b' and '-j'") != NULL);
	memset(&o, 0, sizeof(o));
	CHECK_EQ_INT(rec_opt_branch_filter(NULL, "calls", &o), -1);
	CHECK(strstr(last_err, "unknown branch filter in 'calls'") != NULL);
	CHECK_OK(rec_opt_branch_filter(NULL, "call,u", &o));
	CHECK_EQ_U64(o.branch_stack, PERF_SAMPLE_BRANCH_CALL | PERF_SAMPLE_BRANCH_USER);

	/* Registers: perf's names for this machine. */
	struct utsname u;

	CHECK_OK(uname(&u));
	memset(&o, 0, sizeof(o));
	if (!strcmp(u.machine, "x86_64")) {
		CHECK_EQ_U64(rec_regs_all_mask(), 0xff0fff);
		CHECK_OK(rec_opt_intr_regs(NULL, NULL, &o));
		CHECK(o.sample_intr_regs);
		CHECK_EQ_U64(o.intr_regs, 0xff0fff);
		CHECK_OK(rec_opt_intr_regs(NULL, "ax,BX", &o));
		CHECK_EQ_U64(o.intr_regs, 0x3);
		CHECK_OK(rec_opt_user_regs(NULL, "ip,sp,r15,flags", &o));
		CHECK_EQ_U64(o.user_regs, (1ULL << 8) | (1ULL << 7) | (1ULL << 23) | (1ULL << 9));
		CHECK_EQ_INT(rec_opt_user_regs(NULL, "ds", &o), -1);	/* not sampled by perf */
		CHECK(strstr(last_err, "unknown register 'ds'") != NULL);
		CHECK_EQ_INT(rec_opt_user_regs(NULL, "xmm0", &o), -1);
	} else if (!strcmp(u.machine, "aarch64")) {
		CHECK_EQ_U64(rec_regs_all_mask(), (1ULL << 33) - 1);
		CHECK_OK(rec_opt_user_regs(NULL, "x0,lr,sp,pc", &o));
		CHECK_EQ_U64(o.user_regs, 1ULL | (7ULL << 30));
	}
	CHECK_EQ_INT(rec_opt_intr_regs(NULL, "?", &o), -1);	/* lists, then stops */

	/* --max-size and -D */
	memset(&o, 0, sizeof(o));
	CHECK_OK(rec_opt_max_size(NULL, "100K", &o));
	CHECK_EQ_U64(o.max_size, 102400);
	CHECK_OK(rec_opt_max_size(NULL, "3M", &o));
	CHECK_EQ_U64(o.max_size, 3ULL << 20);
	CHECK_OK(rec_opt_max_size(NULL, "4096", &o));
	CHECK_EQ_U64(o.max_size, 4096);
	CHECK_EQ_INT(rec_opt_max_size(NULL, "1X", &o), -1);
	CHECK_EQ_INT(rec_opt_max_size(NULL, "0", &o), -1);
	CHECK_OK(rec_opt_delay(NULL, "250", &o));
	CHECK_EQ_INT(o.delay_ms, 250);
	CHECK_OK(rec_opt_delay(NULL, "-1", &o));
	CHECK_EQ_INT(o.delay_ms, -1);
	CHECK_EQ_INT(rec_opt_delay(NULL, "10-20", &o), -1);
	CHECK_EQ_INT(rec_opt_delay(NULL, "-2", &o), -1);
	CHECK_OK(rec_opt_uid(NULL, "root", &o));
	CHECK(o.uid_set && o.uid == 0);
	CHECK_OK(rec_opt_uid(NULL, "4242", &o));
	CHECK_EQ_INT(o.uid, 4242);
	CHECK_EQ_INT(rec_opt_uid(NULL, "no-such-user-xyz", &o), -1);

	/* -c: a positive count; perf 6.1 takes -c 0 (and counts past 2^64)
	 * and samples at 4000 Hz instead: refused here. */
	memset(&o, 0, sizeof(o));
	CHECK_OK(rec_opt_period(NULL, "10000", &o));
	CHECK_EQ_INT(o.period, 10000);
	CHECK_OK(rec_opt_period(NULL, "0x10", &o));
	CHECK_EQ_INT(o.period, 16);
	last_err[0] = 0;
	CHECK_EQ_INT(rec_opt_period(NULL, "0", &o), -1);
	CHECK(strstr(last_err, "invalid period '0'") != NULL);
	CHECK_EQ_INT(rec_opt_period(NULL, "-5", &o), -1);
	CHECK_EQ_INT(rec_opt_period(NULL, "abc", &o), -1);
	CHECK_EQ_INT(rec_opt_period(NULL, "10x", &o), -1);
	CHECK_EQ_INT(rec_opt_period(NULL, "", &o), -1);
	CHECK_EQ_INT(rec_opt_period(NULL, "99999999999999999999999", &o), -1);
	CHECK_EQ_INT(o.period, 16);	/* the refused values left it alone */

	/* -F: Hz > 0 or max; perf says "frequency and count are zero" for 0. */
	memset(&o, 0, sizeof(o));
	CHECK_OK(rec_opt_freq(NULL, "999", &o));
	CHECK_EQ_INT(o.freq, 999);
	CHECK_EQ_INT(rec_opt_freq(NULL, "0", &o), -1);
	CHECK_EQ_INT(rec_opt_freq(NULL, "-1", &o), -1);
	CHECK_EQ_INT(rec_opt_freq(NULL, "abc", &o), -1);
	CHECK_EQ_INT(rec_opt_freq(NULL, "", &o), -1);
	CHECK_EQ_INT(rec_opt_freq(NULL, "99999999999", &o), -1);
	CHECK_OK(rec_opt_freq(NULL, "max", &o));
	CHECK(o.freq > 0);

	/* -c and -F together, in either order: perf's "cannot set frequency
	 * and period at the same time". */
	last_err[0] = 0;
	CHECK_EQ_INT(rec_opt_period(NULL, "5", &o), -1);
	CHECK(strstr(last_err, "'-c' and '-F' exclude each other") != NULL);
	memset(&o, 0, sizeof(o));
	CHECK_OK(rec_opt_period(NULL, "5", &o));
	CHECK_EQ_INT(rec_opt_freq(NULL, "100", &o), -1);
	CHECK_EQ_INT(o.freq, 0);

	/* -m: pages rounded up to a power of two with perf's notice; sizes
	 * in pages of this machine; 0 and garbage refused. */
	long page = sysconf(_SC_PAGESIZE);
	char want[128];

	memset(&o, 0, sizeof(o));
	last_warn[0] = 0;
	CHECK_OK(rec_opt_mmap_pages(NULL, "8", &o));
	CHECK_EQ_INT(o.mmap_pages, 8);
	CHECK_STR(last_warn, "");
	CHECK(!o.mmap_rounded);
	CHECK_OK(rec_opt_mmap_pages(NULL, "3", &o));
	CHECK_EQ_INT(o.mmap_pages, 4);
	CHECK(o.mmap_rounded);
	rec_mmap_notice(&o);
	snprintf(want, sizeof(want), "rounding mmap pages size to %ldK (4 pages)", 4 * page / 1024);
	CHECK_STR(last_warn, want);
	last_warn[0] = 0;
	o.quiet = true;		/* -q: perf says nothing */
	rec_mmap_notice(&o);
	CHECK_STR(last_warn, "");
	CHECK_OK(rec_opt_mmap_pages(NULL, "129", &o));
	CHECK_EQ_INT(o.mmap_pages, 256);
	CHECK_OK(rec_opt_mmap_pages(NULL, "1", &o));
	CHECK_EQ_INT(o.mmap_pages, 1);
	CHECK_OK(rec_opt_mmap_pages(NULL, "1M", &o));
	CHECK_EQ_INT(o.mmap_pages, (1 << 20) / page);
	CHECK_OK(rec_opt_mmap_pages(NULL, "5K", &o));	/* 2 pages of 4K */
	CHECK_EQ_INT(o.mmap_pages, page == 4096 ? 2 : 1);
	CHECK_EQ_INT(rec_opt_mmap_pages(NULL, "0", &o), -1);
	CHECK_EQ_INT(rec_opt_mmap_pages(NULL, "-4", &o), -1);
	CHECK_EQ_INT(rec_opt_mmap_pages(NULL, "abc", &o), -1);
	CHECK_EQ_INT(rec_opt_mmap_pages(NULL, "4X", &o), -1);
	CHECK_EQ_INT(rec_opt_mmap_pages(NULL, "4KB", &o), -1);
	CHECK_EQ_INT(rec_opt_mmap_pages(NULL, "", &o), -1);
	CHECK_EQ_INT(rec_opt_mmap_pages(NULL, "33554432", &o), -1);
	return t_done();
}
