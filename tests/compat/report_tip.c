// SPDX-License-Identifier: GPL-2.0-only
/* The random tip that ends perf report --stdio is printed as
 * "#\n# (Tip: TEXT)\n#\n" (perf_tip puts "Tip: " before the line of
 * tips.txt); perfev printed perf's tips.txt lines without "Tip: ", and
 * they named perf's commands (perf annotate, perf top, perf config...).
 * On a small file written here: perf's last three lines have that shape
 * (the oracle), and perfev's, over 60 runs, too; every tip seen names
 * perfev, never perf, and each "perfev CMD" it names is a command of
 * `perfev --list-cmds`, each option after it one of `perfev CMD -h`. */
#include <fcntl.h>
#include <unistd.h>

#include "report_cmp.h"
#include "built_file.h"

#define ST (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
	    PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)

static void write_file(const char *path)
{
	static struct rb b;
	int fd;
	struct pev_data_writer *w = built_start(path, ST, 7, &fd);

	if (!w)
		return;
	for (int i = 0; i < 4; i++) {
		rb_begin(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		rb_u64(&b, 7);
		rb_u64(&b, 0x401000 + (uint64_t)i);
		rb_u32(&b, 9);
		rb_u32(&b, 9);
		rb_u64(&b, 1000 + (uint64_t)i);
		rb_u64(&b, 1000);
		built_emit(w, &b);
	}
	pev_data_writer_sample_time(w, 1000, 1003);
	CHECK_OK(pev_data_writer_finish(w));
	pev_data_writer_free(w);
	close(fd);
}

/* The tip of out (its last "#\n# (...)\n#\n"), into tip; false when the
 * output does not end with one. */
static bool last_tip(const char *out, size_t len, char *tip, size_t sz)
{
	const char *p = NULL;

	if (len < 8 || strcmp(out + len - 4, ")\n#\n"))
		return false;
	for (const char *q = strstr(out, "#\n# ("); q; q = strstr(q + 1, "#\n# ("))
		p = q;
	if (!p || (p != out && p[-1] != '\n'))
		return false;
	snprintf(tip, sz, "%.*s", (int)(out + len - 4 - (p + 5)), p + 5);
	return !strchr(tip, '\n');
}

/* -h lists "-g, --call-graph <...>", "    --stats   ...": opt followed by
 * a space, comma, '[', '<', '=' or the end of the line */
static bool listed(const char *help, const char *opt)
{
	size_t n = strlen(opt);

	for (const char *q = strstr(help, opt); q; q = strstr(q + 1, opt))
		if ((q == help || q[-1] == ' ') && strchr(" ,[<=\n", q[n]))
			return true;
	return false;
}

/* Each "perfev CMD" of tip is a command, and each option after it (to
 * the next "perfev" or '|') one of CMD's. */
static void check_names(const char *tip, const char *cmds)
{
	const char *p = tip;

	CHECK_MSG(!strstr(tip, "perf ") && !strstr(tip, "perf\t"), "a tip names perf: %s", tip);
	while ((p = strstr(p, "perfev "))) {
		char cmd[32], line[64], help[128];

		size_t n = strcspn(p + 7, " )");

		snprintf(cmd, sizeof(cmd), "%.*s", (int)n, p + 7);
		snprintf(line, sizeof(line), " %s ", cmd);
		CHECK_MSG(strstr(cmds, line), "tip '%s': perfev has no command '%s'", tip, cmd);
		snprintf(help, sizeof(help), "%s/help-%s.txt", dir, cmd);
		t_sh("%s %s -h > %s 2>&1", perfev, cmd, help);
		size_t hl;
		char *h = t_slurp(help, &hl);
		const char *end = strstr(p + 7, "perfev ");
		const char *bar = strchr(p + 7, '|');

		if (!end || (bar && bar < end))
			end = bar ? bar : p + strlen(p);
		for (const char *o = p + 7; o < end; o++) {
			if (*o != '-' || o[-1] != ' ' || o[1] == ' ' || !o[1])
				continue;
			size_t ol = strcspn(o, " =)");
			char opt[64];

			if (ol == 2 && o[1] == '-')	/* "--": the command follows */
				continue;
			/* perf's negative forms: --no-X for a boolean --X */
			if (!strncmp(o, "--no-", 5))
				snprintf(opt, sizeof(opt), "--%.*s", (int)ol - 5, o + 5);
			else
				snprintf(opt, sizeof(opt), "%.*s", (int)ol, o);
			CHECK_MSG(h && listed(h, opt), "tip '%s': 'perfev %s -h' has no %s", tip, cmd, opt);
			o += ol - 1;
		}
		free(h);
		p += 7;
	}
}

int main(void)
{
	char file[300], path[300], tip[512], seen[60][512];
	size_t len, nseen = 0;

	(void)report_cmp_write;
	report_cmp_start("/tmp/perfev-tip-XXXXXX", false);
	snprintf(file, sizeof(file), "%s/tip.data", dir);
	write_file(file);

	/* perf's shape, when its tips.txt is installed */
	CHECK_EQ_INT(t_sh("%s report --stdio -i %s > %s/b.txt 2> /dev/null", PERF, file, dir), 0);
	snprintf(path, sizeof(path), "%s/b.txt", dir);
	char *b = t_slurp(path, &len);

	CHECK_MSG(b && last_tip(b, len, tip, sizeof(tip)), "perf report ends without a tip: %s",
		  b ? b : "");
	if (b && strstr(tip, "Cannot load tips.txt") != tip)
		CHECK_MSG(!strncmp(tip, "Tip: ", 5), "perf's tip is not 'Tip: ...': %s", tip);
	free(b);

	CHECK_EQ_INT(t_sh("%s --list-cmds > %s/cmds.txt", perfev, dir), 0);
	snprintf(path, sizeof(path), "%s/cmds.txt", dir);
	char *c = t_slurp(path, &len), cmds[4096];

	snprintf(cmds, sizeof(cmds), " %s ", c ? c : "");
	for (char *q = cmds; *q; q++)
		if (*q == '\n')
			*q = ' ';
	free(c);
	for (int run = 0; run < 60; run++) {
		CHECK_EQ_INT(t_sh("%s report -i %s > %s/a.txt 2> /dev/null", perfev, file, dir), 0);
		snprintf(path, sizeof(path), "%s/a.txt", dir);
		char *a = t_slurp(path, &len);

		if (!a || !last_tip(a, len, tip, sizeof(tip)) || strncmp(tip, "Tip: ", 5)) {
			T_FAIL("perfev report does not end with '#\\n# (Tip: ...)\\n#\\n': %s",
			       a ? a + (len > 200 ? len - 200 : 0) : "");
			free(a);
			break;
		}
		free(a);
		bool known = false;

		for (size_t i = 0; i < nseen && !known; i++)
			known = !strcmp(seen[i], tip);
		if (!known && nseen < 60) {
			snprintf(seen[nseen++], sizeof(seen[0]), "%s", tip);
			check_names(tip + 5, cmds);
		}
	}
	printf("%zu different tips in 60 runs\n", nseen);
	CHECK_MSG(nseen >= 5, "only %zu different tips in 60 runs", nseen);
	/* -q: no tip */
	CHECK_EQ_INT(t_sh("%s report -q -i %s 2>/dev/null | grep -q 'Tip:'", perfev, file), 1);
	return report_cmp_end();
}
