// SPDX-License-Identifier: GPL-2.0-only
/* -g: callchains walk through the workload's functions (frame pointers);
 * --call-graph dwarf[,size]: REGS_USER and STACK_USER of the asked size
 * in every sample. */
#include "record_util.h"

static struct rt_stats rec(const char *out, const char *mode)
{
	struct t_run r;

	CHECK_OK(T_RUN_PERFEV(&r, "record", "-q", "-e", "cpu-clock", "-F", "1000",
			      (char *)mode, "-o", (char *)out, "--",
			      (char *)rt_work(), "-m", "200"));
	CHECK_MSG(r.exit_code == 0, "%s: exit %d: %s", mode, r.exit_code, r.err);
	t_run_free(&r);
	return rt_read(out);
}

int main(void)
{
	const char *out = rt_tmp("cc.data");
	struct rt_stats s = rec(out, "-g");

	CHECK(s.ok && s.samples >= 50);
	CHECK_EQ_U64(s.chains, s.samples);
	/* rw_spin and rw_level1..6 sit under every sample taken in the
	 * spin: most chains have at least 4 return addresses in the text. */
	CHECK_MSG(s.chain_in_work * 2 > s.chains, "%llu of %llu chains in the workload",
		  (unsigned long long)s.chain_in_work, (unsigned long long)s.chains);
	CHECK(s.regs_user == 0 && s.stack_user == 0);

	s = rec(out, "--call-graph=dwarf");
	CHECK(s.ok && s.samples >= 50);
	CHECK_EQ_U64(s.regs_user, s.samples);
	CHECK_EQ_U64(s.stack_user, s.samples);
	CHECK_EQ_U64(s.stack_size, 8192);

	s = rec(out, "--call-graph=dwarf,4096");
	CHECK(s.ok && s.samples >= 50);
	CHECK_EQ_U64(s.stack_user, s.samples);
	CHECK_EQ_U64(s.stack_size, 4096);

	s = rec(out, "--call-graph=fp");
	CHECK(s.ok && s.chain_in_work * 2 > s.chains && s.stack_user == 0);
	unlink(out);
	return t_done();
}
