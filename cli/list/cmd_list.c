// SPDX-License-Identifier: GPL-2.0-only
/* perfev list: the events this machine offers, like perf list. */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfev/perfev.h>
#include "common/cli.h"
#include "common/event_list.h"
#include "common/options.h"
#include "common/tool_events.h"

static void json_str(const char *s)
{
	putchar('"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			printf("\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", stdout);
		else if (*p == '\t')
			fputs("\\t", stdout);
		else if (*p < 0x20)
			printf("\\u%04x", *p);
		else
			putchar(*p);
	}
	putchar('"');
}

static void print_json(const struct listing *l)
{
	bool first = true;

	putchar('[');
	for (size_t i = 0; i < l->n; i++) {
		const struct entry *e = &l->e[i];
		if (e->syntax)
			continue;
		fputs(first ? "\n{\n\t\"Unit\": " : ",\n{\n\t\"Unit\": ", stdout);
		first = false;
		json_str(e->unit);
		fputs(",\n\t\"EventName\": ", stdout);
		json_str(e->name);
		if (e->alias) {
			fputs(",\n\t\"EventAlias\": ", stdout);
			json_str(e->alias);
		}
		fputs(",\n\t\"EventType\": ", stdout);
		json_str(e->type);
		if (e->desc) {
			fputs(",\n\t\"BriefDescription\": ", stdout);
			json_str(e->desc);
		}
		if (e->encoding[0]) {
			fputs(",\n\t\"Encoding\": ", stdout);
			json_str(e->encoding);
		}
		printf(",\n\t\"Available\": %s\n}", e->avail ? "true" : "false");
	}
	fputs("\n]\n", stdout);
}

/* details: perf list --details, each event followed by its description
 * and how it is encoded ("       [DESC]", "       ENCODING"). */
static void print_text(const struct listing *l, bool details)
{
	size_t unavailable = 0;

	for (size_t i = 0; i < l->n; i++) {
		const struct entry *e = &l->e[i];
		char left[700];
		if (e->alias)
			snprintf(left, sizeof(left), "%s OR %s", e->name, e->alias);
		else
			snprintf(left, sizeof(left), "%s", e->name);
		printf("  %-50s [%s%s]\n", left, e->type, e->avail ? "" : ", not supported here");
		if (details && e->desc)
			printf("       [%s]\n", e->desc);
		if (details && e->encoding[0])
			printf("       %s\n", e->encoding);
		unavailable += !e->avail;
	}
	if (unavailable)
		printf("\n%zu event(s) marked 'not supported here' cannot be opened on this machine%s.\n",
		       unavailable, "");
}

static const char *const list_usage[] = {
	"perfev list [<options>] [hw|sw|cache|tracepoint|pmu|GLOB]",
	NULL,
};


int cmd_list(int argc, char **argv)
{
	bool json = false, raw_dump = false, desc = true, details = false;
	const struct opt opts[] = {
		{ OPT_BOOL, 'j', "json", &json, NULL, "print one JSON array of event objects", NULL, 0 },
		{ OPT_BOOL, 'd', "desc", &desc, NULL, "print the events' descriptions where perf has them (default; --no-desc: none)", NULL, 0 },
		{ OPT_BOOL, 0, "details", &details, NULL, "print each event's description and encoding (type=N,config=0x...)", NULL, 0 },
		/* hidden, as it is not for people (perf shows it) */
		{ OPT_BOOL, 0, "raw-dump", &raw_dump, NULL, "every event name on one line, for shell completion", NULL, OPT_HIDDEN },
		{ OPT_END, 0, NULL, NULL, NULL, NULL, NULL, 0 },
	};
	struct listing l = { 0 };
	struct pev_pmu_list *pmus = NULL;
	int idx = opt_parse(argc, argv, opts, list_usage, 0, NULL);
	bool hw = true, sw = true, cache = true, pmu = true, tp = true, syntax = true;
	int rc = EXIT_OK;

	if (idx == OPT_HELP)
		return EXIT_OK;
	if (idx < 0)
		return EXIT_USAGE;
	if (argc - idx > 1) {
		cli_error("'list' takes at most one filter, got '%s' and '%s'; quote a glob: 'sched:*'",
			  argv[idx], argv[idx + 1]);
		return EXIT_USAGE;
	}
	if (raw_dump) {
		syntax = false;
		l.no_probe = true;
	}
	if (idx < argc) {
		const char *f = argv[idx];
		hw = !strcmp(f, "hw") || !strcmp(f, "hardware");
		sw = !strcmp(f, "sw") || !strcmp(f, "software");
		cache = !strcmp(f, "cache") || !strcmp(f, "hwcache");
		tp = !strcmp(f, "tracepoint");
		pmu = !strcmp(f, "pmu");
		syntax = false;
		if (!hw && !sw && !cache && !tp && !pmu) {
			hw = sw = cache = tp = pmu = true;
			l.glob = f;
			l.substring = !strpbrk(f, "*?[");
		}
	}
	if (event_list_collect(&l, &pmus, hw, sw, cache, pmu, tp, syntax))
		goto nomem;
	if (raw_dump) {
		/* perf list --raw-dump: every name on one line (with the
		 * aliases), for shell completion */
		for (size_t i = 0; i < l.n; i++)
			printf("%s%s%s%s", i ? " " : "", l.e[i].name, l.e[i].alias ? " " : "",
			       l.e[i].alias ? l.e[i].alias : "");
		putchar('\n');
	} else if (json)
		print_json(&l);
	else
		print_text(&l, details);
	goto out;
nomem:
	cli_error("out of memory while listing events");
	rc = EXIT_ERROR;
out:
	event_list_release(&l, pmus);
	return rc;
}
