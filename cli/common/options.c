// SPDX-License-Identifier: GPL-2.0-only
/* Option parsing from declarative tables (see options.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/options.h"
#include "common/cli.h"

static bool takes_arg(const struct opt *o)
{
	switch (o->type) {
	case OPT_INT: case OPT_LONG: case OPT_STRING:
		return true;
	case OPT_CALLBACK:
		return !(o->flags & OPT_NOARG);
	default:
		return false;
	}
}

static int apply(const struct opt *o, const char *arg, bool negated, void *ctx)
{
	char *end;
	long v;

	switch (o->type) {
	case OPT_BOOL:
		*(bool *)o->value = !negated;
		return 0;
	case OPT_COUNT:
		++*(int *)o->value;
		return 0;
	case OPT_STRING:
		*(const char **)o->value = arg;
		return 0;
	case OPT_INT:
	case OPT_LONG:
		errno = 0;
		v = strtol(arg, &end, 0);
		if (errno || end == arg || *end ||
		    (o->type == OPT_INT && (v < INT_MIN || v > INT_MAX))) {
			cli_error("option '%s%s' needs a number, not '%s'",
				  o->long_name ? "--" : "-",
				  o->long_name ? o->long_name : (char[]){o->short_name, 0}, arg);
			return -1;
		}
		if (o->type == OPT_INT)
			*(int *)o->value = (int)v;
		else
			*(long *)o->value = v;
		return 0;
	case OPT_CALLBACK:
		return o->cb(o, arg, ctx) < 0 ? -1 : 0;
	default:
		return -1;
	}
}

/* Does long option o match name[0, len) as an unambiguous prefix (as perf
 * accepts them, "--ev" for "--event")?  neg: matched via "no-". */
static bool prefix_of(const struct opt *o, const char *name, size_t len, bool *neg)
{
	if (!o->long_name || o->type == OPT_GROUP)
		return false;
	if (strlen(o->long_name) > len && !strncmp(o->long_name, name, len)) {
		*neg = false;
		return true;
	}
	if (o->type == OPT_BOOL && len > 3 && !strncmp(name, "no-", 3) &&
	    strlen(o->long_name) > len - 3 && !strncmp(o->long_name, name + 3, len - 3)) {
		*neg = true;
		return true;
	}
	return false;
}

/* The option named by name[0, len): an exact name (or no-NAME for a bool)
 * wins; else a unique prefix.  NULL when none; *ambiguous is set (and a
 * message printed) when several options start with it. */
static const struct opt *find_long(const struct opt *opts, const char *name, size_t len,
				   bool *negated, bool *ambiguous)
{
	*ambiguous = false;
	for (const struct opt *o = opts; o->type != OPT_END; o++)
		if (o->long_name && strlen(o->long_name) == len && !strncmp(o->long_name, name, len)) {
			*negated = false;
			return o;
		}
	if (len > 3 && !strncmp(name, "no-", 3))
		for (const struct opt *o = opts; o->type != OPT_END; o++)
			if (o->type == OPT_BOOL && o->long_name && strlen(o->long_name) == len - 3 &&
			    !strncmp(o->long_name, name + 3, len - 3)) {
				*negated = true;
				return o;
			}
	const struct opt *found = NULL;
	size_t n = 0;
	bool neg = false;
	for (const struct opt *o = opts; len && o->type != OPT_END; o++)
		if (prefix_of(o, name, len, &neg)) {
			if (!n++)
				found = o;
			*negated = neg;
		}
	if (n == 1) {
		prefix_of(found, name, len, negated);
		return found;
	}
	if (n > 1) {
		char list[512];
		size_t used = 0;
		list[0] = '\0';
		for (const struct opt *o = opts; o->type != OPT_END && used < sizeof(list); o++)
			if (prefix_of(o, name, len, &neg))
				used += (size_t)snprintf(list + used, sizeof(list) - used, "%s--%s%s",
							 used ? ", " : "", neg ? "no-" : "",
							 o->long_name);
		cli_error("ambiguous option '--%.*s' (could be %s)", (int)len, name, list);
		*ambiguous = true;
	}
	return NULL;
}

static const struct opt *find_short(const struct opt *opts, char c)
{
	for (const struct opt *o = opts; o->type != OPT_END; o++)
		if (o->short_name == c && o->type != OPT_GROUP)
			return o;
	return NULL;
}

/* The end of --list-opts and --list-values: their output is complete, or
 * the exit status says it is not (a closed pipe, a full disk). */
static void list_exit(void)
{
	exit(fflush(stdout) || ferror(stdout) ? EXIT_ERROR : EXIT_OK);
}

/* --list-opts: perf's format, for shell completion. */
static void list_opts(const struct opt *opts)
{
	bool sp = false;

	for (const struct opt *o = opts; o->type != OPT_END; o++) {
		if ((o->flags & OPT_HIDDEN) || o->type == OPT_GROUP)
			continue;
		if (o->long_name)
			printf("%s--%s", sp ? " " : "", o->long_name);
		else if (o->short_name)
			printf("%s-%c", sp ? " " : "", o->short_name);
		else
			continue;
		sp = true;
	}
	putchar('\n');
	list_exit();
}

/* --list-values NAME: NAME is "sort", "--sort", "s" or "-s". */
static int list_values(const struct opt *opts, const char *name)
{
	const struct opt *o = NULL;
	const char *n = name + strspn(name, "-");

	if (strlen(n) == 1)
		o = find_short(opts, *n);
	else
		for (const struct opt *p = opts; *n && p->type != OPT_END; p++)
			if (p->long_name && p->type != OPT_GROUP && !strcmp(p->long_name, n))
				o = p;
	if (!o) {
		cli_error("--list-values: no option '%s' here; see --list-opts", name);
		return OPT_ERROR;
	}
	if (o->values)
		o->values(stdout);
	list_exit();
	return 0;
}

/* Parse the option word argv[*i] (and its value); advance *i. */
static int parse_one(int argc, char **argv, int *i, const struct opt *opts,
		     const char *const *usage, void *ctx)
{
	char *a = argv[*i];

	if (a[1] == '-') {
		const char *name = a + 2, *eq = strchr(name, '=');
		size_t len = eq ? (size_t)(eq - name) : strlen(name);
		bool neg = false;

		if (len == 4 && !strncmp(name, "help", 4)) {
			opt_usage(opts, usage, false);
			return OPT_HELP;
		}
		if (len == 9 && !strncmp(name, "list-opts", 9) && !eq)
			list_opts(opts);
		if (len == 11 && !strncmp(name, "list-values", 11)) {
			if (eq)
				return list_values(opts, eq + 1);
			if (*i + 1 >= argc) {
				cli_error("--list-values needs an option's name, e.g. --list-values sort");
				return OPT_ERROR;
			}
			return list_values(opts, argv[*i + 1]);
		}
		bool ambiguous;
		const struct opt *o = find_long(opts, name, len, &neg, &ambiguous);
		if (!o && ambiguous)
			return OPT_ERROR;
		if (!o) {
			cli_error("unknown option '--%.*s'", (int)len, name);
			opt_usage(opts, usage, true);
			return OPT_ERROR;
		}
		const char *arg = NULL;
		if (takes_arg(o)) {
			if (eq)
				arg = eq + 1;
			else if ((o->flags & OPT_OPTNEXT) &&
				 (*i + 1 >= argc || argv[*i + 1][0] == '-'))
				arg = NULL;
			else if (o->flags & OPT_OPTARG)
				arg = NULL;
			else if (*i + 1 < argc)
				arg = argv[++*i];
			else {
				cli_error("option '--%s' needs a value (%s)", o->long_name,
					  o->argh ? o->argh : "value");
				return OPT_ERROR;
			}
		} else if (eq) {
			cli_error("option '--%s' takes no value", o->long_name);
			return OPT_ERROR;
		}
		if (apply(o, arg, neg, ctx) < 0)
			return OPT_ERROR;
		++*i;
		return 0;
	}
	/* A cluster of short options: -ag, -x, , -e cpu-clock, -ecpu-clock */
	for (char *p = a + 1; *p; p++) {
		if (*p == 'h' && !find_short(opts, 'h')) {
			opt_usage(opts, usage, false);
			return OPT_HELP;
		}
		const struct opt *o = find_short(opts, *p);
		if (!o) {
			cli_error("unknown option '-%c'", *p);
			opt_usage(opts, usage, true);
			return OPT_ERROR;
		}
		if (!takes_arg(o)) {
			if (apply(o, NULL, false, ctx) < 0)
				return OPT_ERROR;
			continue;
		}
		const char *arg;
		if (p[1])
			arg = p + 1;
		else if ((o->flags & OPT_OPTNEXT) &&
			 (*i + 1 >= argc || argv[*i + 1][0] == '-'))
			arg = NULL;
		else if (o->flags & OPT_OPTARG)
			arg = NULL;
		else if (*i + 1 < argc)
			arg = argv[++*i];
		else {
			cli_error("option '-%c' needs a value (%s)", *p, o->argh ? o->argh : "value");
			return OPT_ERROR;
		}
		if (apply(o, arg, false, ctx) < 0)
			return OPT_ERROR;
		break;
	}
	++*i;
	return 0;
}

int opt_parse(int argc, char **argv, const struct opt *opts, const char *const *usage,
	      unsigned flags, void *ctx)
{
	/* Non-options met before the end (without STOP_AT_NON_OPTION) are
	 * collected and moved, in order, behind the options on return. */
	char **pos = calloc((size_t)argc + 1, sizeof(*pos));
	int npos = 0, i = 1, ret;

	if (!pos) {
		cli_error("out of memory");
		return OPT_ERROR;
	}
	while (i < argc) {
		char *a = argv[i];

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-' || a[1] == '\0') {
			if (flags & OPT_PARSE_STOP_AT_NON_OPTION)
				break;
			pos[npos++] = a;
			i++;
			continue;
		}
		ret = parse_one(argc, argv, &i, opts, usage, ctx);
		if (ret < 0) {
			free(pos);
			return ret;
		}
	}
	/* Lay out: [options...][collected positionals][rest from i] */
	int rest = argc - i, first = i - npos;
	memmove(&argv[first + npos], &argv[i], (size_t)rest * sizeof(*argv));
	memcpy(&argv[first], pos, (size_t)npos * sizeof(*argv));
	free(pos);
	return first;
}

void opt_usage(const struct opt *opts, const char *const *usage, bool to_stderr)
{
	FILE *f = to_stderr ? stderr : stdout;

	for (int k = 0; usage && usage[k]; k++)
		fprintf(f, "%s%s\n", k ? "   or: " : "usage: ", usage[k]);
	fputc('\n', f);
	for (const struct opt *o = opts; o->type != OPT_END; o++) {
		char left[64];
		int n = 0;

		if (o->flags & OPT_HIDDEN)
			continue;
		if (o->type == OPT_GROUP) {
			fprintf(f, "\n%s\n", o->help);
			continue;
		}
		n += snprintf(left + n, sizeof(left) - (size_t)n, "    ");
		if (o->short_name)
			n += snprintf(left + n, sizeof(left) - (size_t)n, "-%c%s", o->short_name,
				      o->long_name ? ", " : "");
		else
			n += snprintf(left + n, sizeof(left) - (size_t)n, "    ");
		if (o->long_name)
			n += snprintf(left + n, sizeof(left) - (size_t)n, "--%s", o->long_name);
		if (takes_arg(o) && n < (int)sizeof(left))
			snprintf(left + n, sizeof(left) - (size_t)n,
				 (o->flags & (OPT_OPTARG | OPT_OPTNEXT)) ? "[=<%s>]" : " <%s>", o->argh ? o->argh : "n");
		if (strlen(left) > 28)
			fprintf(f, "%s\n%30s%s\n", left, "", o->help ? o->help : "");
		else
			fprintf(f, "%-30s%s\n", left, o->help ? o->help : "");
	}
	fputc('\n', f);
}
