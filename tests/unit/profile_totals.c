// SPDX-License-Identifier: GPL-2.0-only
/* The profile model on constructed samples, against totals computed by
 * hand: kernel functions A, B, C, D (a constructed kallsyms), five
 * samples of process 10 ("prog"):
 *   1, 2: A <- B <- C, period 100 each
 *   3:    B <- C,      period 50
 *   4:    D <- B <- C, period 30
 *   5:    A <- A <- C, period 20 (recursion: A counts once)
 * Self: A 220 (3 samples), B 50, D 30, C 0; total 300.
 * Children: C 300, B 280, A 220 (sample 5 once), D 30.
 * C's caller-order tree: C (300) -> B (280: hit 50) -> {A 200, D 30},
 *                        C -> A (20) -> A (20).
 * B's tree: [B..leaf] of its callers' samples, B -> {A 200, D 30}, and
 * its self sample's whole chain, C -> B (50).
 * A's callee-order tree without children: A (220) -> {B 200 -> C, A 20 -> C}. */
#include <unistd.h>

#include "testutil.h"
#include <perfev/perfev.h>
#include <perfev/profile.h>

#define KA 0xffffffff81000000ULL
#define KB 0xffffffff81000100ULL
#define KC 0xffffffff81000200ULL
#define KD 0xffffffff81000300ULL

static struct pev_record side(uint32_t type, uint32_t pid, const char *name)
{
	struct pev_record r;

	memset(&r, 0, sizeof(r));
	r.type = type;
	if (type == PERF_RECORD_COMM) {
		r.u.comm.pid = r.u.comm.tid = pid;
		r.u.comm.comm = name;
	} else {
		r.misc = PERF_RECORD_MISC_KERNEL;
		r.u.mmap.pid = r.u.mmap.tid = pid;
		r.u.mmap.addr = KA;
		r.u.mmap.len = 0x1000;
		r.u.mmap.pgoff = KA;
		r.u.mmap.prot = 5;
		r.u.mmap.filename = name;
	}
	return r;
}

static uint64_t chains[5][5];

static struct pev_record sample(int i, const uint64_t *ips, int n, uint64_t period)
{
	struct pev_record r;

	memset(&r, 0, sizeof(r));
	r.type = PERF_RECORD_SAMPLE;
	r.misc = PERF_RECORD_MISC_KERNEL;
	r.attr_index = 0;
	chains[i][0] = PERF_CONTEXT_KERNEL;
	for (int j = 0; j < n; j++)
		chains[i][j + 1] = ips[j] + 0x10;
	r.u.sample.fields = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD |
			    PERF_SAMPLE_CALLCHAIN;
	r.u.sample.ip = ips[0] + 0x10;
	r.u.sample.pid = r.u.sample.tid = 10;
	r.u.sample.period = period;
	r.u.sample.callchain.nr = (uint64_t)n + 1;
	r.u.sample.callchain.ips = chains[i];
	return r;
}

static const char *ename(const struct pev_profile_entry *e)
{
	return e && e->frame && e->frame->sym ? e->frame->sym->name : "(none)";
}

static const struct pev_profile_entry *find(struct pev_profile *p, const char *name)
{
	for (size_t i = 0; i < pev_profile_nr_entries(p, 0); i++)
		if (!strcmp(ename(pev_profile_entry(p, 0, i)), name))
			return pev_profile_entry(p, 0, i);
	return NULL;
}

static struct pev_profile *build(struct pev_machine *m, struct pev_chain *ch,
				 struct pev_decoder *dec, bool children)
{
	struct pev_profile_opts o = { .size = sizeof(o), .callchains = true,
				      .children = children, .caller_first = true,
				      .order = children ? PEV_PROFILE_CALLER : PEV_PROFILE_CALLEE,
				      .keys = { PEV_SORT_COMM, PEV_SORT_DSO, PEV_SORT_SYM } };
	struct pev_profile *p = pev_profile_new(m, ch, dec, &o);
	const uint64_t s1[] = { KA, KB, KC }, s3[] = { KB, KC }, s4[] = { KD, KB, KC },
		       s5[] = { KA, KA, KC };
	struct pev_record recs[] = {
		side(PERF_RECORD_COMM, 10, "prog"),
		side(PERF_RECORD_MMAP2, (uint32_t)-1, "[kernel.kallsyms]_text"),
		sample(0, s1, 3, 100), sample(1, s1, 3, 100), sample(2, s3, 2, 50),
		sample(3, s4, 3, 30), sample(4, s5, 3, 20),
	};

	CHECK(p);
	for (size_t i = 0; p && i < sizeof(recs) / sizeof(recs[0]); i++)
		CHECK_OK(pev_profile_add(p, &recs[i]));
	if (p)
		CHECK_OK(pev_profile_finish(p));
	return p;
}

static uint32_t child_named(struct pev_profile *p, uint32_t n, const char *name)
{
	uint32_t out[16];
	size_t k = pev_profile_node_children(p, n, 0, out);

	for (size_t i = 0; i < k; i++) {
		const struct pev_profile_node *c = pev_profile_node(p, out[i]);

		if (c->frame && c->frame->sym && !strcmp(c->frame->sym->name, name))
			return out[i];
	}
	return 0;
}

int main(void)
{
	char ksyms[] = "/tmp/perfev-profile-ksyms-XXXXXX";
	int fd = mkstemp(ksyms);
	static const char ktext[] =
		"ffffffff81000000 T A\nffffffff81000100 T B\n"
		"ffffffff81000200 T C\nffffffff81000300 T D\nffffffff81000400 T E\n";

	CHECK(fd >= 0);
	CHECK(write(fd, ktext, sizeof(ktext) - 1) == (ssize_t)(sizeof(ktext) - 1));
	close(fd);
	struct pev_dso_cache_opts o = { .size = sizeof(o), .buildid_dir = "",
					.kallsyms = ksyms, .no_debug_files = true };
	struct pev_dso_cache *c = pev_dso_cache_new(&o);
	struct pev_machine *m = pev_machine_new(c);
	struct pev_chain *ch = m ? pev_chain_new(m, NULL) : NULL;
	struct pev_decoder *dec = pev_decoder_new();
	struct perf_event_attr attr = { .size = sizeof(attr), .type = PERF_TYPE_SOFTWARE,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD |
			       PERF_SAMPLE_CALLCHAIN };

	CHECK(c && m && ch && dec);
	if (!ch || !dec)
		return 1;
	CHECK_EQ_INT(pev_decoder_add_attr(dec, &attr, NULL, 0), 0);

	/* Children mode. */
	struct pev_profile *p = build(m, ch, dec, true);
	const struct pev_profile_stats *st = pev_profile_stats(p, 0);

	CHECK_EQ_U64(st->nr_samples, 5);
	CHECK_EQ_U64(st->total_period, 300);
	CHECK_EQ_U64(pev_profile_nr_entries(p, 0), 4);
	const char *order[] = { "C", "B", "A", "D" };
	const uint64_t acc[] = { 300, 280, 220, 30 }, self[] = { 0, 50, 220, 30 };
	const uint64_t nself[] = { 0, 1, 3, 1 }, nacc[] = { 5, 4, 3, 1 };

	for (size_t i = 0; i < 4; i++) {
		const struct pev_profile_entry *e = pev_profile_entry(p, 0, i);

		CHECK_STR(ename(e), order[i]);
		CHECK_EQ_U64(e->acc_period, acc[i]);
		CHECK_EQ_U64(e->period, self[i]);
		CHECK_EQ_U64(e->nr_samples, nself[i]);
		CHECK_EQ_U64(e->acc_samples, nacc[i]);
		CHECK_STR(e->comm, "prog");
		CHECK_EQ_INT(e->level, 'k');
	}
	const struct pev_profile_entry *ec = find(p, "C");
	const struct pev_profile_node *root = ec ? pev_profile_node(p, ec->tree) : NULL;

	CHECK(root);
	if (root) {
		CHECK_EQ_U64(root->children_hit, 300);
		uint32_t nc = child_named(p, ec->tree, "C");
		uint32_t nb = child_named(p, nc, "B"), na = child_named(p, nc, "A");
		uint32_t nba = child_named(p, nb, "A"), nbd = child_named(p, nb, "D");
		uint32_t naa = child_named(p, na, "A");

		CHECK(nc && nb && na && nba && nbd && naa);
		if (nc && nb && na && nba && nbd && naa) {
			CHECK_EQ_U64(pev_profile_node(p, nc)->hit, 0);
			CHECK_EQ_U64(pev_profile_node(p, nc)->children_hit, 300);
			CHECK_EQ_U64(pev_profile_node(p, nb)->hit, 50);
			CHECK_EQ_U64(pev_profile_node(p, nb)->children_hit, 230);
			CHECK_EQ_U64(pev_profile_node(p, nb)->count, 1);
			CHECK_EQ_U64(pev_profile_node(p, nb)->children_count, 3);
			CHECK_EQ_U64(pev_profile_node(p, nba)->hit, 200);
			CHECK_EQ_U64(pev_profile_node(p, nba)->count, 2);
			CHECK_EQ_U64(pev_profile_node(p, nbd)->hit, 30);
			CHECK_EQ_U64(pev_profile_node(p, naa)->hit, 20);
			/* min_hit leaves D (30) out */
			uint32_t out[4];

			CHECK_EQ_U64(pev_profile_node_children(p, nb, 31, out), 1);
		}
	}
	/* B's own tree: its callers' samples as [B..leaf] (B -> {A 200,
	 * D 30}), its self sample as the whole chain (C -> B 50), as perf
	 * appends them */
	const struct pev_profile_entry *eb = find(p, "B");
	uint32_t bb = eb ? child_named(p, eb->tree, "B") : 0;
	uint32_t bc = eb ? child_named(p, eb->tree, "C") : 0;

	CHECK(bb && bc);
	if (bb && bc) {
		CHECK_EQ_U64(pev_profile_node(p, bb)->hit, 0);
		CHECK_EQ_U64(pev_profile_node(p, bb)->children_hit, 230);
		CHECK_EQ_U64(pev_profile_node(p, child_named(p, bc, "B"))->hit, 50);
		CHECK_EQ_U64(pev_profile_node(p, eb->tree)->children_hit, 280);
	}
	pev_profile_free(p);

	/* Without children: self only, callee trees. */
	p = build(m, ch, dec, false);
	CHECK_EQ_U64(pev_profile_nr_entries(p, 0), 3);
	CHECK_STR(ename(pev_profile_entry(p, 0, 0)), "A");
	CHECK_STR(ename(pev_profile_entry(p, 0, 1)), "B");
	CHECK_STR(ename(pev_profile_entry(p, 0, 2)), "D");
	const struct pev_profile_entry *ea = find(p, "A");
	uint32_t a0 = ea ? child_named(p, ea->tree, "A") : 0;

	CHECK(a0);
	if (a0) {
		uint32_t ab = child_named(p, a0, "B"), aa = child_named(p, a0, "A");

		CHECK_EQ_U64(pev_profile_node(p, a0)->hit + pev_profile_node(p, a0)->children_hit, 220);
		CHECK(ab && aa);
		if (ab && aa) {
			CHECK_EQ_U64(pev_profile_node(p, ab)->children_hit, 200);
			CHECK_EQ_U64(pev_profile_node(p, aa)->children_hit, 20);
			CHECK(child_named(p, ab, "C") != 0);
		}
	}
	pev_profile_free(p);
	pev_decoder_free(dec);
	pev_chain_free(ch);
	pev_machine_free(m);
	pev_dso_cache_free(c);
	unlink(ksyms);
	return t_done();
}
