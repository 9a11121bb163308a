// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The control page: seqlock reads, user-space counter reads, time
 * conversion.  The kernel updates the page (perf_event_update_userpage)
 * as: ++lock; barrier(); fields; barrier(); ++lock; so a reader retries
 * while the lock is odd or changed across its reads. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <perfev/user_page.h>

#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define MAX_TRIES 1000

/* Capability bits of perf_event_mmap_page.capabilities. */
#define CAP_USER_RDPMC		(1ull << 2)
#define CAP_USER_TIME		(1ull << 3)
#define CAP_USER_TIME_ZERO	(1ull << 4)
#define CAP_USER_TIME_SHORT	(1ull << 5)

PEV_EXPORT struct perf_event_mmap_page *pev_user_page_map(int fd)
{
	long ps = sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, (size_t)ps, PROT_READ, MAP_SHARED, fd, 0);

	return p == MAP_FAILED ? NULL : p;
}

PEV_EXPORT void pev_user_page_unmap(struct perf_event_mmap_page *pc)
{
	if (pc)
		munmap(pc, (size_t)sysconf(_SC_PAGESIZE));
}

#if defined(__x86_64__) || defined(__i386__)
static uint64_t arch_read_pmc(uint32_t idx, void *user)
{
	uint32_t lo, hi;

	(void)user;
	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(idx));
	return (uint64_t)hi << 32 | lo;
}

static uint64_t arch_read_cycles(void *user)
{
	uint32_t lo, hi;

	(void)user;
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}
#define HAVE_ARCH_READS 1
#elif defined(__aarch64__)
/* index - 1 selects PMEVCNTR<n>_EL0, or PMCCNTR_EL0 for the cycle counter
 * (31); the register number is part of the instruction, hence the switch. */
#define PMEVCNTR(n) case n: __asm__ __volatile__("mrs %0, pmevcntr" #n "_el0" : "=r"(v)); break
static uint64_t arch_read_pmc(uint32_t idx, void *user)
{
	uint64_t v = 0;

	(void)user;
	switch (idx) {
	PMEVCNTR(0); PMEVCNTR(1); PMEVCNTR(2); PMEVCNTR(3); PMEVCNTR(4);
	PMEVCNTR(5); PMEVCNTR(6); PMEVCNTR(7); PMEVCNTR(8); PMEVCNTR(9);
	PMEVCNTR(10); PMEVCNTR(11); PMEVCNTR(12); PMEVCNTR(13); PMEVCNTR(14);
	PMEVCNTR(15); PMEVCNTR(16); PMEVCNTR(17); PMEVCNTR(18); PMEVCNTR(19);
	PMEVCNTR(20); PMEVCNTR(21); PMEVCNTR(22); PMEVCNTR(23); PMEVCNTR(24);
	PMEVCNTR(25); PMEVCNTR(26); PMEVCNTR(27); PMEVCNTR(28); PMEVCNTR(29);
	PMEVCNTR(30);
	case 31:
		__asm__ __volatile__("mrs %0, pmccntr_el0" : "=r"(v));
		break;
	default:
		break;
	}
	return v;
}
#undef PMEVCNTR

static uint64_t arch_read_cycles(void *user)
{
	uint64_t v;

	(void)user;
	__asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(v) : : "memory");
	return v;
}
#define HAVE_ARCH_READS 1
#endif

static void read_time_conv(const struct perf_event_mmap_page *pc, uint64_t caps,
			   struct pev_time_conv *tc)
{
	tc->cap_user_time = caps & CAP_USER_TIME;
	tc->cap_user_time_zero = caps & CAP_USER_TIME_ZERO;
	tc->cap_user_time_short = caps & CAP_USER_TIME_SHORT;
	tc->time_shift = READ_ONCE(pc->time_shift);
	tc->time_mult = READ_ONCE(pc->time_mult);
	tc->time_offset = READ_ONCE(pc->time_offset);
	tc->time_zero = READ_ONCE(pc->time_zero);
	tc->time_cycles = tc->cap_user_time_short ? READ_ONCE(pc->time_cycles) : 0;
	tc->time_mask = tc->cap_user_time_short ? READ_ONCE(pc->time_mask) : 0;
}

PEV_EXPORT int pev_user_page_read_hw(const struct perf_event_mmap_page *pc,
				     const struct pev_user_page_hw *hw,
				     struct pev_user_page_snapshot *out)
{
	struct pev_user_page_hw h = { 0 };
	unsigned retries = 0;

	if (!pc || !out)
		return -EINVAL;
	if (hw)
		memcpy(&h, hw, hw->size && hw->size < sizeof(h) ? hw->size : sizeof(h));
	for (int tries = 0; tries < MAX_TRIES; tries++) {
		struct pev_user_page_snapshot s = { 0 };
		/* Pairs with the kernel's increments around its update. */
		uint32_t seq = __atomic_load_n(&pc->lock, __ATOMIC_ACQUIRE);

		if (seq & 1) {
			retries++;
			continue;
		}
		s.index = READ_ONCE(pc->index);
		s.offset = READ_ONCE(pc->offset);
		s.time_enabled = READ_ONCE(pc->time_enabled);
		s.time_running = READ_ONCE(pc->time_running);
		s.capabilities = READ_ONCE(pc->capabilities);
		s.pmc_width = READ_ONCE(pc->pmc_width);
		s.cap_user_rdpmc = s.capabilities & CAP_USER_RDPMC;
		read_time_conv(pc, s.capabilities, &s.tc);
		if (s.tc.cap_user_time && h.read_cycles) {
			s.cycles = h.read_cycles(h.user);
			s.cycles_valid = true;
		}
		if (s.cap_user_rdpmc && s.index && h.read_pmc) {
			s.pmc = h.read_pmc(s.index - 1, h.user);
			s.pmc_valid = true;
		}
		/* Order every read above before the re-read of lock. */
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&pc->lock, __ATOMIC_RELAXED) == seq) {
			s.retries = retries;
			*out = s;
			return 0;
		}
		retries++;
	}
	return -EAGAIN;
}

PEV_EXPORT int pev_user_page_read(const struct perf_event_mmap_page *pc,
				  struct pev_user_page_snapshot *out)
{
#ifdef HAVE_ARCH_READS
	static const struct pev_user_page_hw arch = {
		.size = sizeof(arch),
		.read_pmc = arch_read_pmc,
		.read_cycles = arch_read_cycles,
	};
	return pev_user_page_read_hw(pc, &arch, out);
#else
	return pev_user_page_read_hw(pc, NULL, out);
#endif
}

PEV_EXPORT int pev_user_page_time_conv(const struct perf_event_mmap_page *pc,
				       struct pev_time_conv *tc)
{
	struct pev_user_page_snapshot s;
	int err;

	if (!tc)
		return -EINVAL;
	err = pev_user_page_read_hw(pc, NULL, &s);
	if (err)
		return err;
	*tc = s.tc;
	return 0;
}

PEV_EXPORT uint64_t pev_time_conv_scale(const struct pev_time_conv *tc, uint64_t cyc)
{
	unsigned shift = tc->time_shift;
	uint64_t quot, rem;

	if (shift >= 64)
		return 0;
	/* Split so that neither product overflows: rem < 2^shift and
	 * time_mult is 32 bits. */
	quot = cyc >> shift;
	rem = cyc & (((uint64_t)1 << shift) - 1);
	return quot * tc->time_mult + ((rem * tc->time_mult) >> shift);
}

PEV_EXPORT uint64_t pev_time_conv_to_perf_time(const struct pev_time_conv *tc, uint64_t cyc)
{
	/* A counter narrower than 64 bits: time_cycles is a recent value of
	 * it, and only the low bits of the distance from there are real. */
	if (tc->cap_user_time_short)
		cyc = tc->time_cycles + ((cyc - tc->time_cycles) & tc->time_mask);
	return tc->time_zero + pev_time_conv_scale(tc, cyc);
}

PEV_EXPORT uint64_t pev_time_conv_from_perf_time(const struct pev_time_conv *tc, uint64_t ns)
{
	uint64_t t = ns - tc->time_zero, quot, rem;
	unsigned shift = tc->time_shift;

	if (!tc->time_mult || shift >= 64)
		return 0;
	quot = t / tc->time_mult;
	rem = t % tc->time_mult;
	return (quot << shift) + (rem << shift) / tc->time_mult;
}

PEV_EXPORT uint64_t pev_time_conv_delta(const struct pev_time_conv *tc, uint64_t cyc)
{
	if (tc->cap_user_time_short)
		cyc = tc->time_cycles + ((cyc - tc->time_cycles) & tc->time_mask);
	return tc->time_offset + pev_time_conv_scale(tc, cyc);
}

PEV_EXPORT int pev_user_page_count(const struct pev_user_page_snapshot *s,
				   struct pev_user_count *out)
{
	uint64_t pmc;
	unsigned w;

	if (!s || !out)
		return -EINVAL;
	if (!s->pmc_valid)
		return -EOPNOTSUPP;
	pmc = s->pmc;
	w = s->pmc_width;
	if (w && w < 64) {
		/* The counter is w bits wide; bit w-1 is its sign. */
		pmc <<= 64 - w;
		pmc = (uint64_t)((int64_t)pmc >> (64 - w));
	}
	memset(out, 0, sizeof(*out));
	out->value = (uint64_t)s->offset + pmc;
	out->enabled = s->time_enabled;
	out->running = s->time_running;
	if (s->tc.cap_user_time && s->cycles_valid && out->enabled != out->running) {
		uint64_t delta = pev_time_conv_delta(&s->tc, s->cycles);
		out->enabled += delta;
		if (s->index)
			out->running += delta;
	}
	return 0;
}

PEV_EXPORT int pev_user_page_read_count(const struct perf_event_mmap_page *pc, int fd,
					uint64_t read_format, struct pev_user_count *out)
{
	uint64_t buf[8];
	size_t n = 1, i = 1;
	ssize_t got;

	if (!out)
		return -EINVAL;
	if (pc) {
		struct pev_user_page_snapshot s;
		if (pev_user_page_read(pc, &s) == 0 && pev_user_page_count(&s, out) == 0)
			return 0;
	}
	if (read_format & PERF_FORMAT_GROUP)
		return -EINVAL;
	n += !!(read_format & PERF_FORMAT_TOTAL_TIME_ENABLED);
	n += !!(read_format & PERF_FORMAT_TOTAL_TIME_RUNNING);
	n += !!(read_format & PERF_FORMAT_ID);
	n += !!(read_format & (1u << 4));	/* PERF_FORMAT_LOST (Linux 6.0) */
	got = read(fd, buf, n * sizeof(buf[0]));
	if (got < 0)
		return -errno;
	if ((size_t)got != n * sizeof(buf[0]))
		return -EIO;
	memset(out, 0, sizeof(*out));
	out->value = buf[0];
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		out->enabled = buf[i++];
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		out->running = buf[i++];
	out->from_read = true;
	return 0;
}
