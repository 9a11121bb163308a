// SPDX-License-Identifier: GPL-2.0-only
/* pev_explain on pseudo-random attrs, targets and settings (fixed seed):
 * every errno gives a valid kind, a non-empty lowercase reason, a line
 * that starts "cannot open '" and a length that matches snprintf's, also
 * when the buffer is too small.  Under ASan this also checks the bounds. */
#include <perfev/perfev.h>
#include "testutil.h"

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static long pick_long(const long *v, size_t n)
{
	return v[next() % n];
}

int main(void)
{
	static const int errs[] = { E2BIG, EACCES, EBADF, EBUSY, EFAULT, EINTR, EINVAL, EMFILE,
				    ENODEV, ENOENT, ENOSPC, ENOSYS, EOPNOTSUPP, EOVERFLOW, EPERM,
				    ESRCH, ENFILE, ENOMEM, 0, 4095 };
	static const long vals[] = { PEV_SETTING_UNKNOWN, -1, 0, 1, 2, 3, 4, 127, 100000, LONG_MAX };
	/* The attr buffer is a page: the contract is attr->size readable bytes. */
	static union { struct perf_event_attr a; unsigned char b[4096]; } buf;

	for (int iter = 0; iter < 20000; iter++) {
		struct pev_system_settings s;
		pev_system_settings_init(&s);
		s.paranoid = pick_long(vals, 10);
		s.max_sample_rate = pick_long(vals, 10);
		s.max_stack = pick_long(vals, 10);
		s.kptr_restrict = pick_long(vals, 10);
		s.nofile_soft = pick_long(vals, 10);
		s.nofile_hard = pick_long(vals, 10);
		s.possible_cpus = pick_long(vals, 10);
		s.online_cpus = pick_long(vals, 10);
		s.euid = pick_long(vals, 10);
		s.kernel_major = pick_long(vals, 10);
		s.kernel_minor = pick_long(vals, 10);
		s.attr_size = next() & 1 ? 136 : PEV_SETTING_UNKNOWN;
		s.caps_known = next() & 1;
		s.cap_perfmon = next() & 1;
		s.cap_sys_admin = next() & 1;
		s.cap_kill = next() & 1;
		s.has_hw_pmu = (int)(next() % 3) - 1;

		memset(&buf, 0, sizeof(buf));
		for (size_t i = 0; i < sizeof(buf.a); i++)
			buf.b[i] = (next() & 3) ? 0 : (unsigned char)next();
		buf.a.type = (uint32_t)(next() % 12);
		buf.a.size = (uint32_t)(next() % 5000);
		if (buf.a.size > sizeof(buf))
			buf.a.size = sizeof(buf);

		struct pev_explain_ctx c = {
			/* sometimes an older, shorter ctx (up to .settings) */
			.size = (next() & 7) ? sizeof(c) :
				offsetof(struct pev_explain_ctx, settings) + sizeof(void *),
			.attr = (next() & 15) ? &buf.a : NULL,
			.pid = (pid_t)((int)(next() % 5) - 1),
			.cpu = (int)(next() % 7) - 2,
			.group_fd = (int)(next() % 4) - 1,
			.flags = next() & 0x1f,
			.settings = &s,
			.first_unknown_offset = (long)(next() % 300) - 1,
			.target_uid_known = next() & 1,
			.target_uid = (uid_t)(next() % 2),
		};
		int err = errs[next() % (sizeof(errs) / sizeof(errs[0]))];
		struct pev_explanation e;
		int k = pev_explain_detail(next() & 1 ? err : -err, &c, &e);
		CHECK_MSG(k >= 0 && k < PEV_EXPLAIN__COUNT, "iter %d: kind %d", iter, k);
		CHECK_MSG(e.reason[0] && !(e.reason[0] >= 'A' && e.reason[0] <= 'Z'),
			  "iter %d: reason '%s'", iter, e.reason);
		char line[1024], small[24];
		int n = pev_explain(err, &c, line, sizeof(line));
		CHECK_MSG(n > 0 && (size_t)n == strlen(line), "iter %d: length %d", iter, n);
		CHECK(!strncmp(line, "cannot open '", 13));
		int m = pev_explain(err, &c, small, sizeof(small));
		CHECK_EQ_INT(m, n);
		CHECK_EQ_INT(strlen(small), sizeof(small) - 1);
		CHECK_EQ_INT(pev_explain(err, &c, NULL, 0), n);
		if (t_failures)
			break;
	}
	struct pev_explanation e;
	CHECK_EQ_INT(pev_explain_detail(EINVAL, NULL, &e), -EINVAL);
	CHECK_EQ_INT(pev_explain(EINVAL, NULL, NULL, 0), -EINVAL);
	pev_system_settings_init(NULL);
	CHECK_EQ_INT(pev_system_settings_read(NULL), -EINVAL);
	CHECK(!pev_system_settings_privileged(NULL));
	return t_done();
}
