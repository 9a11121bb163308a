// SPDX-License-Identifier: GPL-2.0-only
/* perfev record: the parsers of the sample-content and target options
 * that take an argument (-I/--user-regs register lists, -j branch
 * filters, -D, --max-size, -u, -c, -F, -m), with perf 6.1's names and
 * rules. */
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "common/cli.h"
#include "common/options.h"
#include "record/record.h"

struct reg_name {
	const char *name;
	int bit;
};

/* The register names perf prints for each architecture (perf_regs.h
 * numbering of the running kernel; perf's sample_reg_masks). */
static const struct reg_name x86_64_regs[] = {
	{ "AX", 0 }, { "BX", 1 }, { "CX", 2 }, { "DX", 3 }, { "SI", 4 },
	{ "DI", 5 }, { "BP", 6 }, { "SP", 7 }, { "IP", 8 }, { "FLAGS", 9 },
	{ "CS", 10 }, { "SS", 11 }, { "R8", 16 }, { "R9", 17 }, { "R10", 18 },
	{ "R11", 19 }, { "R12", 20 }, { "R13", 21 }, { "R14", 22 }, { "R15", 23 },
	{ NULL, 0 },
};

static const struct reg_name arm64_regs[] = {
	{ "x0", 0 }, { "x1", 1 }, { "x2", 2 }, { "x3", 3 }, { "x4", 4 },
	{ "x5", 5 }, { "x6", 6 }, { "x7", 7 }, { "x8", 8 }, { "x9", 9 },
	{ "x10", 10 }, { "x11", 11 }, { "x12", 12 }, { "x13", 13 }, { "x14", 14 },
	{ "x15", 15 }, { "x16", 16 }, { "x17", 17 }, { "x18", 18 }, { "x19", 19 },
	{ "x20", 20 }, { "x21", 21 }, { "x22", 22 }, { "x23", 23 }, { "x24", 24 },
	{ "x25", 25 }, { "x26", 26 }, { "x27", 27 }, { "x28", 28 }, { "x29", 29 },
	{ "lr", 30 }, { "sp", 31 }, { "pc", 32 },
	{ NULL, 0 },
};

/* The machine's table, or NULL where perf has none we know. */
static const struct reg_name *reg_table(void)
{
	struct utsname u;

	if (uname(&u))
		return NULL;
	if (!strcmp(u.machine, "x86_64"))
		return x86_64_regs;
	if (!strcmp(u.machine, "aarch64") || !strcmp(u.machine, "arm64"))
		return arm64_regs;
	return NULL;
}

uint64_t rec_regs_all_mask(void)
{
	const struct reg_name *t = reg_table();
	uint64_t m = 0;

	for (; t && t->name; t++)
		m |= 1ULL << t->bit;
	return m;	/* x86_64: 0xff0fff, perf's PERF_REGS_MASK */
}

/* "-I", "-I?", "-Iax,bx": perf's parse_regs_options. */
static int parse_regs(const char *opt, const char *arg, uint64_t *mask)
{
	const struct reg_name *t = reg_table();
	char buf[256];

	if (!t) {
		cli_error("'%s' is not supported on this architecture; use x86_64 or arm64",
			  opt);
		return -1;
	}
	if (!arg || !*arg) {
		*mask = rec_regs_all_mask();
		return 0;
	}
	if (!strcmp(arg, "?")) {
		fflush(stdout);
		fprintf(stderr, "available registers: ");
		for (; t->name; t++)
			fprintf(stderr, "%s ", t->name);
		fprintf(stderr, "\n");
		return -1;
	}
	if (strlen(arg) >= sizeof(buf)) {
		cli_error("register list for '%s' too long", opt);
		return -1;
	}
	strcpy(buf, arg);
	*mask = 0;
	for (char *save = NULL, *n = strtok_r(buf, ",", &save); n;
	     n = strtok_r(NULL, ",", &save)) {
		const struct reg_name *r = t;

		while (r->name && strcasecmp(r->name, n))
			r++;
		if (!r->name) {
			cli_error("unknown register '%s' for '%s'; '%s=?' lists them",
				  n, opt, opt);
			return -1;
		}
		*mask |= 1ULL << r->bit;
	}
	return 0;
}

int rec_opt_intr_regs(const struct opt *o, const char *arg, void *ctx)
{
	struct rec_opts *a = ctx;
	(void)o;
	if (parse_regs("--intr-regs", arg, &a->intr_regs) < 0)
		return -1;
	a->sample_intr_regs = true;
	return 0;
}

int rec_opt_user_regs(const struct opt *o, const char *arg, void *ctx)
{
	struct rec_opts *a = ctx;
	(void)o;
	if (parse_regs("--user-regs", arg, &a->user_regs) < 0)
		return -1;
	a->sample_user_regs = true;
	return 0;
}

/* perf 6.1's branch_modes (util/parse-branch-options.c). */
static const struct { const char *name; uint64_t bit; } branch_modes[] = {
	{ "u", PERF_SAMPLE_BRANCH_USER },
	{ "k", PERF_SAMPLE_BRANCH_KERNEL },
	{ "hv", PERF_SAMPLE_BRANCH_HV },
	{ "any", PERF_SAMPLE_BRANCH_ANY },
	{ "any_call", PERF_SAMPLE_BRANCH_ANY_CALL },
	{ "any_ret", PERF_SAMPLE_BRANCH_ANY_RETURN },
	{ "ind_call", PERF_SAMPLE_BRANCH_IND_CALL },
	{ "abort_tx", PERF_SAMPLE_BRANCH_ABORT_TX },
	{ "in_tx", PERF_SAMPLE_BRANCH_IN_TX },
	{ "no_tx", PERF_SAMPLE_BRANCH_NO_TX },
	{ "cond", PERF_SAMPLE_BRANCH_COND },
	{ "ind_jmp", PERF_SAMPLE_BRANCH_IND_JUMP },
	{ "call", PERF_SAMPLE_BRANCH_CALL },
	{ "save_type", PERF_SAMPLE_BRANCH_TYPE_SAVE },
	{ "stack", PERF_SAMPLE_BRANCH_CALL_STACK },
	{ "priv", PERF_SAMPLE_BRANCH_PRIV_SAVE },
};

#define BRANCH_PLM (PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL | \
		    PERF_SAMPLE_BRANCH_HV)

int rec_branch_parse(const char *arg, uint64_t *mode)
{
	char buf[256];
	uint64_t m = 0;

	if (!arg || strlen(arg) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, arg);
	for (char *save = NULL, *n = strtok_r(buf, ",", &save); n;
	     n = strtok_r(NULL, ",", &save)) {
		size_t i, nm = sizeof(branch_modes) / sizeof(branch_modes[0]);

		for (i = 0; i < nm && strcmp(branch_modes[i].name, n); i++)
			;
		if (i == nm)
			return -ENOENT;
		m |= branch_modes[i].bit;
	}
	/* perf 6.1: only privilege levels (or nothing) means any branch,
	 * and the levels are dropped (perf's parse_branch_stack does so). */
	if (!(m & ~BRANCH_PLM))
		m = PERF_SAMPLE_BRANCH_ANY;
	*mode = m;
	return 0;
}

int rec_opt_branch_filter(const struct opt *o, const char *arg, void *ctx)
{
	struct rec_opts *a = ctx;
	int e;
	(void)o;
	if (a->branch_stack) {
		cli_error("'-b' and '-j' exclude each other; give one of them");
		return -1;
	}
	e = rec_branch_parse(arg, &a->branch_stack);
	if (e == -ENOENT)
		cli_error("unknown branch filter in '%s'; use any, any_call, any_ret, "
			  "ind_call, ind_jmp, call, cond, abort_tx, in_tx, no_tx, "
			  "save_type, stack, priv, u, k, hv", arg);
	else if (e < 0)
		cli_error("invalid branch filter '%s'", arg);
	return e < 0 ? -1 : 0;
}

int rec_opt_branch_any(const struct opt *o, const char *arg, void *ctx)
{
	struct rec_opts *a = ctx;
	(void)o; (void)arg;
	if (a->branch_stack) {
		cli_error("'-b' and '-j' exclude each other; give one of them");
		return -1;
	}
	a->branch_stack = PERF_SAMPLE_BRANCH_ANY;
	return 0;
}

/* -D msecs, or -1: start with the events disabled.  (perf 6.1's time
 * ranges, -D 10-20,30-40, are not supported.) */
int rec_opt_delay(const struct opt *o, const char *arg, void *ctx)
{
	struct rec_opts *a = ctx;
	char *end;
	long v;
	(void)o;
	errno = 0;
	v = strtol(arg, &end, 10);
	if (end == arg || *end || errno || v < -1 || v > INT_MAX) {
		cli_error("invalid delay '%s'; give milliseconds, or -1 to start "
			  "with the events disabled (time ranges are not supported)", arg);
		return -1;
	}
	a->delay_ms = v;
	return 0;
}

/* --max-size: bytes, or with perf's B/K/M/G suffix. */
int rec_opt_max_size(const struct opt *o, const char *arg, void *ctx)
{
	struct rec_opts *a = ctx;
	char *end;
	unsigned long long v, mul = 1;
	(void)o;
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (end != arg && *end && !end[1]) {
		switch (*end) {
		case 'B': case 'b': mul = 1; end++; break;
		case 'K': case 'k': mul = 1ULL << 10; end++; break;
		case 'M': case 'm': mul = 1ULL << 20; end++; break;
		case 'G': case 'g': mul = 1ULL << 30; end++; break;
		}
	}
	if (end == arg || *end || errno || v == 0 || v > UINT64_MAX / mul) {
		cli_error("invalid size '%s'; give bytes or a size like 100K, 10M, 1G", arg);
		return -1;
	}
	a->max_size = v * mul;
	return 0;
}

/* -u name or number. */
int rec_opt_uid(const struct opt *o, const char *arg, void *ctx)
{
	struct rec_opts *a = ctx;
	struct passwd *pw = getpwnam(arg);
	char *end;
	(void)o;
	if (pw) {
		a->uid = pw->pw_uid;
	} else {
		unsigned long v = strtoul(arg, &end, 10);

		if (!*arg || *end || v > UINT_MAX - 1) {
			cli_error("unknown user '%s'; give a user name or uid", arg);
			return -1;
		}
		a->uid = (uid_t)v;
	}
	a->uid_set = true;
	return 0;
}

/* -c: a positive count.  perf 6.1 ignores -c 0 (and counts past 2^64)
 * and samples at its default 4000 Hz instead; we refuse them. */
int rec_opt_period(const struct opt *o, const char *arg, void *ctx)
{
	struct rec_opts *a = ctx;
	char *end;
	(void)o;
	errno = 0;
	long v = strtol(arg, &end, 0);

	if (end == arg || *end || errno || v <= 0) {
		cli_error("invalid period '%s' for '-c'; give a positive count of events (e.g. -c 10000)",
			  arg);
		return -1;
	}
	if (a->freq) {
		cli_error("'-c' and '-F' exclude each other (perf: cannot set frequency "
			  "and period at the same time); give one of them");
		return -1;
	}
	a->period = v;
	return 0;
}

/* -F Hz or 'max' (perf_event_max_sample_rate). */
int rec_opt_freq(const struct opt *o, const char *arg, void *ctx)
{
	struct rec_opts *a = ctx;
	char *end;
	long v = 0;
	(void)o;
	if (!strcmp(arg, "max")) {
		pev_sysctl_read(PEV_SYSCTL_MAX_SAMPLE_RATE, &v);
		v = v > 0 ? v : 1000;
	} else {
		errno = 0;
		v = strtol(arg, &end, 10);
		if (end == arg || *end || errno || v <= 0 || v > UINT_MAX) {
			cli_error("invalid frequency '%s'; give Hz (e.g. -F 999) or 'max'", arg);
			return -1;
		}
	}
	if (a->period) {
		cli_error("'-c' and '-F' exclude each other (perf: cannot set frequency "
			  "and period at the same time); give one of them");
		return -1;
	}
	a->freq = v;
	return 0;
}

/* -m pages or a size with B/K/M/G; perf 6.1's __evlist__parse_mmap_pages
 * rounds either up to a power of two pages, saying so (rec_mmap_notice,
 * once -q is known). */
int rec_opt_mmap_pages(const struct opt *o, const char *arg, void *ctx)
{
	struct rec_opts *a = ctx;
	char *end;
	unsigned long long page = (unsigned long long)sysconf(_SC_PAGESIZE);
	(void)o;
	errno = 0;
	unsigned long long v = strtoull(arg, &end, 10);

	if (end == arg || errno || arg[0] == '-')
		goto bad;
	if (*end) {
		unsigned long long mul = 0;

		switch (*end) {
		case 'B': case 'b': mul = 1; break;
		case 'K': case 'k': mul = 1ULL << 10; break;
		case 'M': case 'm': mul = 1ULL << 20; break;
		case 'G': case 'g': mul = 1ULL << 30; break;
		}
		if (!mul || end[1] || v > (1ULL << 40))
			goto bad;
		v = (v * mul + page - 1) / page;
	}
	if (v == 0 || v > (1ULL << 24))
		goto bad;
	a->mmap_rounded = (v & (v - 1)) != 0;
	while (v & (v - 1))
		v += v & -v;	/* up to the next power of two */
	a->mmap_pages = (unsigned)v;
	return 0;
bad:
	cli_error("invalid mmap size '%s'; give a number of pages (1 to 16777216) or a size like 512K",
		  arg);
	return -1;
}

void rec_mmap_notice(const struct rec_opts *a)
{
	unsigned long long bytes = (unsigned long long)a->mmap_pages *
				   (unsigned long long)sysconf(_SC_PAGESIZE);
	const char *unit = "";

	if (!a->mmap_rounded || a->quiet)
		return;
	if (!(bytes % (1ULL << 30)))
		bytes >>= 30, unit = "G";
	else if (!(bytes % (1ULL << 20)))
		bytes >>= 20, unit = "M";
	else if (!(bytes % (1ULL << 10)))
		bytes >>= 10, unit = "K";
	cli_warn("rounding mmap pages size to %llu%s (%u pages)", bytes, unit, a->mmap_pages);
}
