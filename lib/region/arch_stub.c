/* TEMPORARY: stand-ins for include/perfev/arch.h until lib/core/arch.c
 * lands (branch arm64). */
#include <errno.h>
#include <string.h>
#include <perfev/arch.h>

PEV_EXPORT enum pev_arch pev_arch_host(void)
{
#if defined(__x86_64__)
	return PEV_ARCH_X86_64;
#elif defined(__aarch64__)
	return PEV_ARCH_ARM64;
#else
	return PEV_ARCH_UNKNOWN;
#endif
}

PEV_EXPORT int pev_user_access_probe(struct pev_user_access *ua, enum pev_arch arch,
				     const char *root)
{
	(void)root;
	if (!ua)
		return -EINVAL;
	memset(ua, 0, sizeof(*ua));
	ua->size = sizeof(*ua);
	ua->arch = arch;
	ua->perf_user_access = ua->rdpmc = -1;
	return 0;
}

PEV_EXPORT bool pev_user_access_applies(const struct pev_user_access *ua,
					const struct perf_event_attr *a)
{
	(void)ua;
	return a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE ||
	       a->type == PERF_TYPE_RAW;
}

PEV_EXPORT bool pev_user_access_request(const struct pev_user_access *ua,
					struct perf_event_attr *attr)
{
	(void)ua;
	(void)attr;
	return false;
}

PEV_EXPORT bool pev_user_access_retry(const struct pev_user_access *ua,
				      struct perf_event_attr *attr, int err)
{
	(void)ua;
	(void)attr;
	(void)err;
	return false;
}
