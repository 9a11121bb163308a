// SPDX-License-Identifier: GPL-2.0-only
/* Malformed specs: each one's error code, caret position and length, and
 * message; and the rendered error layout. */
#include <perfev/perfev.h>
#include "testutil.h"
#include "pmu_fake.h"

static struct pev_parse_opts opts;

struct bad {
	const char *spec;
	int pos;		/* caret column in the spec */
	int len;		/* -1: do not check */
	const char *msg;	/* substring of the message */
};

static char longname[400];
static char longtp[600];

int main(void)
{
	fake_build();
	opts.size = sizeof(opts);
	opts.sysfs_root = fake_root;
	opts.tracefs_root = fake_tracefs;
	opts.no_pfm = true;
	memset(longname, 'a', 300);
	memcpy(longtp, "sched:", 6);
	memset(longtp + 6, 'b', 300);

	const struct bad cases[] = {
		{ "cycles:q", 7, 1, "unknown modifier 'q'" },
		{ "{cycles", 0, 1, "never closed; add '}'" },
		{ "cycles}", 6, 1, "'}' without a matching '{'" },
		{ "r", 0, 1, "'r' needs a hex number" },
		{ "rXYZ", 1, 1, "rNNNN takes hex digits" },
		{ "r1ffffffffffffffffff", 0, 20, "does not fit in 64 bits" },
		{ "mem:", 4, 1, "missing address after 'mem:'" },
		{ "mem:0x1000:q", 11, 1, "unknown modifier 'q'" },
		{ "mem:0x1000/3", 11, 1, "length must be 1, 2, 4 or 8" },
		{ "mem:0x1000/", 11, 1, "missing length" },
		{ "mem:0xZZ", 6, 1, "bad address" },
		{ "mem:0x10000000000000000", 4, 19, "does not fit in 64 bits" },
		{ "mem:0x1000:rwx", 0, 14, "execute breakpoint" },
		{ "nosuchpmu/event=1/", 0, 9, "unknown PMU 'nosuchpmu'" },
		{ "fakepmu/nosuchterm=1/", 8, 10, "unknown term 'nosuchterm' for PMU 'fakepmu'" },
		{ "fakepmu/event=0x100/", 14, 5, "too big for term 'event'" },
		{ "fakepmu/event=0x1g/", 17, 1, "bad value for 'event'" },
		{ "fakepmu/event=1,/", 16, 1, "expected a term after ','" },
		{ "fakepmu/,event=1/", 8, 1, "empty term" },
		{ "fakepmu/config=/", 15, 1, "missing value after 'config='" },
		{ "fakepmu/config=99999999999999999999/", 15, 20, "does not fit in 64 bits" },
		{ "fakepmu/event=1", 7, 1, "missing '/' to close the terms" },
		{ "fakepmu/call-graph=dwarf/", 8, 10, "not supported by perfev" },
		{ "fakepmu/name/", 8, 4, "'name' needs a value" },
		{ "fakepmu/needs/", 0, 14, "term 'umask' needs a value" },
		{ "fakepmu/badalias/", 8, 8, "sysfs alias 'badalias'" },
		{ "fakepmu/event=1/q", 16, 1, "unknown modifier 'q'" },
		{ "badpmu/x=1/", 0, 6, "format/x" },
		{ "sched:", 6, 1, "missing tracepoint name after 'sched:'" },
		{ "sched:nosuch", 0, 12, "unknown tracepoint 'sched:nosuch'" },
		{ "sched:nosuch*", 0, 13, "no tracepoint matches 'sched:nosuch*'" },
		{ "nosys:foo", 0, 9, "unknown tracepoint 'nosys:foo'" },
		{ "sched:sched_switch:z", 19, 1, "unknown modifier 'z'" },
		{ ":u", 0, 1, "missing event name before ':'" },
		{ ",", 0, 1, "expected an event before ','" },
		{ "", 0, 1, "empty event spec" },
		{ "a,,b", 2, 1, "expected an event between the commas" },
		{ "cs,", 3, 1, "expected an event after ','" },
		{ "{}", 1, 1, "empty group" },
		{ "{cs,}", 4, 1, "expected an event before '}'" },
		{ "{cs}x", 4, 1, "expected ',' or ':modifiers' after '}'" },
		{ "cs{faults}", 2, 1, "unexpected '{'" },
		{ "{a,{b}}", 3, 1, "groups cannot be nested" },
		{ "{cs,faults}:q", 12, 1, "unknown modifier 'q'" },
		{ "{cs:pp,faults}:pp", 15, 2, "precise levels go up to 3" },
		{ "cpu-clock:ppppp", 10, 5, "precise levels go up to 3 (ppp)" },
		{ "cs:uu", 4, 1, "modifier 'u' given twice" },
		{ "cs:b", 3, 1, "'b' (count with BPF) is not supported" },
		{ "cs:", 3, 1, "missing modifiers after ':'" },
		{ "cs:u:k", 4, 1, "unexpected ':'" },
		{ "cs cs", 2, 1, "unexpected ' '" },
		{ "cs/x", 2, 1, "missing '/' to close the terms" },
		{ "cpu-clock/nosuch=1/", 10, 6, "unknown term 'nosuch'" },
		{ "nosuchevent", 0, 11, "unknown event 'nosuchevent'" },
		{ "nosuchevent:u", 0, 11, "unknown event 'nosuchevent'" },
		{ "cs,nosuchevent", 3, 11, "unknown event 'nosuchevent'" },
		{ "L1-icache-stores", 0, 16, "L1-icache has no stores" },
		{ "iTLB-prefetches", 0, 15, "iTLB has no prefetches" },
		{ "branch-store-misses", 0, 19, "branch has no stores" },
		{ "uprobe:/nonexistent:main", 7, 12, "cannot find '/nonexistent'" },
		{ "uprobe:/bin/true:nosuchsymbol", 17, 12, "symbol 'nosuchsymbol' not found" },
		{ "uprobe:/etc/hostname:main", 7, 13, "not an ELF file" },
		{ "uprobe:", 7, 1, "missing path after 'uprobe:'" },
		{ "uprobe:/bin/true", 16, 1, "missing ':SYMBOL'" },
		{ "uprobe:/bin/true:", 17, 1, "missing symbol" },
		{ "uprobe:/bin/true:main+0xq", 24, 1, "bad offset" },
		{ "uretprobe:/bin/true:main+4", 24, 2, "takes no '+offset'" },
		/* The name in this message was read after the modifiers had
		 * realloc'd it (the fuzzer's heap-use-after-free). */
		{ "cpu-clock/period=1/u:x", 20, 1,
		  "unexpected ':' after the modifiers of 'cpu-clock/period=1/'" },
		{ longname, 0, 300, "event name too long" },
		{ longtp, 6, 300, "tracepoint name too long" },
	};
	size_t n = sizeof(cases) / sizeof(cases[0]);
	CHECK(n >= 40);
	for (size_t i = 0; i < n; i++) {
		struct pev_evlist *l = pev_evlist_new();
		struct pev_parse_error err;
		int r = pev_evlist_parse(l, cases[i].spec, &opts, &err);
		CHECK_MSG(r < 0, "'%s' accepted", cases[i].spec);
		if (r < 0) {
			CHECK_MSG(err.pos == cases[i].pos, "'%.40s': caret at %d, expected %d (%s)",
				  cases[i].spec, err.pos, cases[i].pos, err.msg);
			CHECK_MSG(cases[i].len < 0 || err.len == cases[i].len,
				  "'%.40s': length %d, expected %d (%s)", cases[i].spec, err.len,
				  cases[i].len, err.msg);
			CHECK_MSG(strstr(err.msg, cases[i].msg), "'%.40s': message '%s' lacks '%s'",
				  cases[i].spec, err.msg, cases[i].msg);
			CHECK_MSG(r == -EINVAL || r == -ENOENT || r == -ERANGE || r == -ENAMETOOLONG ||
				  r == -ENOEXEC, "'%.40s': unexpected code %d", cases[i].spec, r);
			CHECK_EQ_U64(pev_evlist_count(l), 0);
		}
		pev_evlist_free(l);
	}

	/* unknown names and PMUs are -ENOENT; syntax is -EINVAL */
	struct pev_evlist *l = pev_evlist_new();
	struct pev_parse_error err;
	CHECK_EQ_INT(pev_evlist_parse(l, "nosuchevent", &opts, &err), -ENOENT);
	CHECK_EQ_INT(pev_evlist_parse(l, "nosuchpmu/x/", &opts, &err), -ENOENT);
	CHECK_EQ_INT(pev_evlist_parse(l, "cs:q", &opts, &err), -EINVAL);

	/* the rendered layout: spec, then the caret line under the token */
	char buf[512];
	const char *spec = "fakepmu/nosuchterm=1/";
	CHECK(pev_evlist_parse(l, spec, &opts, &err) < 0);
	int len = pev_parse_error_format(&err, spec, buf, sizeof(buf));
	CHECK(len > 0 && (size_t)len == strlen(buf));
	const char *want = "event syntax error: 'fakepmu/nosuchterm=1/'\n"
			   "                             ^~~~~~~~~~ unknown term 'nosuchterm'";
	CHECK_MSG(!strncmp(buf, want, strlen(want)), "rendered:\n%s", buf);
	/* an error at the very end points just past the spec */
	CHECK(pev_evlist_parse(l, "sched:", &opts, &err) < 0);
	pev_parse_error_format(&err, "sched:", buf, sizeof(buf));
	CHECK_MSG(strstr(buf, "'sched:'\n                           ^ missing"), "rendered:\n%s", buf);
	/* a long spec is shown as a window around the token */
	char big[1000];
	memset(big, 0, sizeof(big));
	for (int i = 0; i < 100; i++)
		strcat(big, "cs,");
	strcat(big, "cs:q");
	CHECK(pev_evlist_parse(l, big, &opts, &err) < 0);
	CHECK_EQ_INT(err.pos, 303);
	len = pev_parse_error_format(&err, big, buf, sizeof(buf));
	CHECK_MSG(strstr(buf, "'...") && strstr(buf, "cs:q'") && strstr(buf, "^ unknown modifier 'q'"),
		  "rendered:\n%s", buf);
	/* the caret sits under the 'q' */
	const char *nl = strchr(buf, '\n'), *q = strstr(buf, "cs:q'");
	CHECK(nl && q && strchr(nl, '^') - (nl + 1) == q + 3 - buf);
	/* truncation returns the full length, like snprintf */
	CHECK_EQ_INT(pev_parse_error_format(&err, big, buf, 10), len);
	CHECK(strlen(buf) == 9);
	pev_evlist_free(l);
	fake_cleanup();
	return t_done();
}
