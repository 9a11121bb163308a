/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* libperfev: the perf event control page (struct perf_event_mmap_page, the
 * first page of every ring): consistent (seqlock) reads, user-space
 * counter reads (x86 rdpmc, arm64 PMU registers) with a read(2) fallback,
 * and hardware-clock <-> perf-time conversion.  All functions are
 * thread-safe and only read the page. */
#ifndef PERFEV_USER_PAGE_H
#define PERFEV_USER_PAGE_H

#include <perfev/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Map only the control page of fd (no data pages), read-only; for
 * counting events read from user space.  NULL with errno on failure.
 * Unmap with pev_user_page_unmap (NULL is fine). */
PEV_EXPORT struct perf_event_mmap_page *pev_user_page_map(int fd);
PEV_EXPORT void pev_user_page_unmap(struct perf_event_mmap_page *pc);

/* The time-conversion fields of the page, read consistently. */
struct pev_time_conv {
	uint16_t time_shift;
	uint32_t time_mult;
	uint64_t time_offset;	/* cap_user_time: delta = time_offset + scale(cyc) */
	uint64_t time_zero;	/* cap_user_time_zero: perf time = time_zero + scale(cyc) */
	uint64_t time_cycles;	/* cap_user_time_short: the counter is narrow */
	uint64_t time_mask;
	bool cap_user_time;
	bool cap_user_time_zero;
	bool cap_user_time_short;
};

/* One consistent copy of the counter fields (the lock loop). */
struct pev_user_page_snapshot {
	uint32_t index;		/* hardware counter + 1; 0 = not on a counter now */
	int64_t offset;
	uint64_t time_enabled, time_running;
	uint64_t capabilities;
	uint16_t pmc_width;
	bool cap_user_rdpmc;
	struct pev_time_conv tc;
	uint64_t pmc;		/* raw counter, when read (pmc_valid) */
	uint64_t cycles;	/* clock, when read (cycles_valid) */
	bool pmc_valid, cycles_valid;
	unsigned retries;	/* times the lock changed under us */
};

/* Hardware access used inside the lock loop.  The library's own reads
 * are rdpmc/rdtsc (x86) or PMEVCNTR<n>_EL0/PMCCNTR_EL0/CNTVCT_EL0 (arm64);
 * pev_user_page_read_hw lets a caller supply others (an emulator, a test,
 * an architecture the library does not know).  .size = sizeof. */
struct pev_user_page_hw {
	size_t size;
	/* Read hardware counter idx (= index - 1). */
	uint64_t (*read_pmc)(uint32_t idx, void *user);
	/* Read the clock that time_* convert (TSC on x86). */
	uint64_t (*read_cycles)(void *user);
	void *user;
};

/* The lock loop: copy every counter and time field consistently; read the
 * counter (when cap_user_rdpmc and index != 0 and hw->read_pmc) and the
 * clock (when cap_user_time and hw->read_cycles) inside the loop, as the
 * manual's example does.  0, or -EAGAIN when the lock kept changing
 * (1000 tries), -EINVAL on NULL. */
PEV_EXPORT int pev_user_page_read_hw(const struct perf_event_mmap_page *pc,
				     const struct pev_user_page_hw *hw,
				     struct pev_user_page_snapshot *out);
/* The same with the library's hardware access for this CPU architecture
 * (none elsewhere: the counter and clock are then never read). */
PEV_EXPORT int pev_user_page_read(const struct perf_event_mmap_page *pc,
				  struct pev_user_page_snapshot *out);
/* The time-conversion fields alone (seqlock read).  0 or -EAGAIN. */
PEV_EXPORT int pev_user_page_time_conv(const struct perf_event_mmap_page *pc,
				       struct pev_time_conv *tc);

/* mult/shift scaling of a clock value, in the manual's split form that
 * does not overflow: (cyc >> shift) * mult + (((cyc & mask) * mult) >> shift). */
PEV_EXPORT uint64_t pev_time_conv_scale(const struct pev_time_conv *tc, uint64_t cyc);
/* A clock value (TSC) to perf time (the PERF_SAMPLE_TIME clock):
 * time_zero + scale(cyc), after widening cyc with time_cycles/time_mask
 * when cap_user_time_short.  Meaningful when cap_user_time_zero. */
PEV_EXPORT uint64_t pev_time_conv_to_perf_time(const struct pev_time_conv *tc, uint64_t cyc);
/* The inverse: perf time to the clock value (the manual's formula). */
PEV_EXPORT uint64_t pev_time_conv_from_perf_time(const struct pev_time_conv *tc, uint64_t ns);
/* The time since time_enabled/time_running were stored:
 * time_offset + scale(cyc) (cap_user_time). */
PEV_EXPORT uint64_t pev_time_conv_delta(const struct pev_time_conv *tc, uint64_t cyc);

/* A counter value read without a system call. */
struct pev_user_count {
	uint64_t value;		/* raw (unscaled) count */
	uint64_t enabled;	/* time enabled, ns (extended to "now" when the
				 * page allows) */
	uint64_t running;	/* time running, ns */
	bool from_read;		/* true: read(2) gave it (the fallback) */
};

/* Counter arithmetic of a snapshot: offset + the pmc sign-extended from
 * pmc_width bits; enabled/running extended by the time delta when
 * cap_user_time and enabled != running (the manual's recipe).  -EOPNOTSUPP
 * when the snapshot has no counter read (cap_user_rdpmc 0, index 0, or no
 * read_pmc). */
PEV_EXPORT int pev_user_page_count(const struct pev_user_page_snapshot *s,
				   struct pev_user_count *out);
/* Read the count of the event whose page is pc: from user space when the
 * page allows, else read(2) on fd, which must have been opened with a
 * non-group read_format (the caller says which: TOTAL_TIME_ENABLED and
 * TOTAL_TIME_RUNNING are used when present).  pc may be NULL (read(2)
 * only).  0 or -errno. */
PEV_EXPORT int pev_user_page_read_count(const struct perf_event_mmap_page *pc, int fd,
					uint64_t read_format, struct pev_user_count *out);

#ifdef __cplusplus
}
#endif
#endif
