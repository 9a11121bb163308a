/* perfev record's option parsers (cli/record_opts.c, compiled in here):
 * perf 6.1's -j branch filter names and rules, the register names of -I
 * and --user-regs, --max-size and -D.  The branch stack cannot be opened
 * on a machine without LBR, so its attr bits are checked here. */
#include <stdarg.h>
#include <sys/utsname.h>

#include "../../cli/record_opts.c"
#include "testutil.h"

static char last_err[1024];

void cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_err, sizeof(last_err), fmt, ap);
	va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
	(void)fmt;
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
	return t_done();
}
