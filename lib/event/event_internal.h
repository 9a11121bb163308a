/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Private to the event-spec parser (lib/event/event_*.c). */
#ifndef PEV_EVENT_INTERNAL_H
#define PEV_EVENT_INTERNAL_H

#include <perfev/event.h>
#include <perfev/pmu.h>

/* Limits that keep every parser bounded. */
#define PEV_SPEC_MAX (1 << 20)	/* bytes in one spec */
#define PEV_NAME_MAX 255	/* an event, PMU, term or tracepoint name */
#define PEV_PATH_MAX 4095	/* a uprobe path */

struct pev_evlist {
	struct pev_event *ev;
	size_t n, cap;
	char **owned;		/* strings attrs point to (uprobe paths) */
	size_t nowned, capowned;
	char *pmu_root;		/* sysfs root the cached PMU list came from */
	struct pev_pmu_list *pmus;
};

/* Per-event parse state that the public struct does not carry. */
struct ev_extra {
	bool exclude_GH;	/* G or H was given */
	bool has_mods;		/* the name already carries ":mods" */
	bool fixed_name;	/* name= set the name: modifiers not appended */
	bool pmu_style;		/* pmu/.../ event: modifiers follow '/' directly */
};

struct parse_ctx {
	const char *spec;
	size_t len;
	struct pev_parse_opts opts;
	struct pev_parse_error *err;
	struct pev_evlist *list;
	/* events parsed so far by this call (appended on success) */
	struct pev_event *ev;
	struct ev_extra *ex;
	size_t n, cap;
	char **owned;
	size_t nowned, capowned;
	char tracefs[256];
	int tracefs_state;	/* 0 not looked up, 1 found, < 0 -errno */
};

/* event_suggest.c: the known name closest to a mistyped one (a typo: at
 * most 2 edits), written to out; false when none is close. */
size_t pev__edit_distance(const char *a, size_t la, const char *b);
bool pev__suggest_event(struct parse_ctx *c, const char *s, size_t len, char *out, size_t size);
bool pev__suggest_pmu(struct parse_ctx *c, const char *s, size_t len, char *out, size_t size);
bool pev__suggest_tracepoint(const char *tracefs, const char *s, size_t len,
			     char *out, size_t size);

/* event_tracepoint.c: the error for "sys:name" that names no tracepoint:
 * tracefs missing or unreadable, or unknown (with a suggestion). */
int pev__tracepoint_unknown(struct parse_ctx *c, size_t pos, size_t len);

/* event_build.c: what every parser part builds with; it calls no other
 * event_*.c file. */

/* Record an error at [pos, pos+len) and return -code. */
int pev__perr(struct parse_ctx *c, size_t pos, size_t len, int code, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Append a zeroed event with defaults (attr size, exclude_guest, scale 1,
 * unit ""); NULL on ENOMEM (error recorded). */
struct pev_event *pev__new_event(struct parse_ctx *c, size_t pos, uint32_t type,
				 uint64_t config, const char *name, size_t namelen,
				 const char *pmu);
/* Append the symbolic event sym named name[0, namelen), on perf's "cpu"
 * or "software" PMU (cpu-clock and task-clock count in msec); errors are
 * recorded at [pos, pos+errlen).  0 with *out set, or -errno. */
int pev__new_symbolic_event(struct parse_ctx *c, size_t pos, size_t errlen,
			    const struct pev_symbolic_event *sym, const char *name,
			    size_t namelen, struct pev_event **out);
/* Keep s alive as long as the list (for config1 pointers); returns the
 * stable copy or NULL. */
char *pev__own(struct parse_ctx *c, const char *s, size_t len);
int pev__set_str(char **dst, const char *s, size_t len);

/* Unsigned number: 0x-hex or decimal.  0, -EINVAL (bad digit; *bad is its
 * offset), -ERANGE (over 64 bits). */
int pev__parse_u64(const char *s, size_t len, uint64_t *out, size_t *bad);

/* The PMUs under the spec's sysfs root (cached in the list); NULL on
 * failure with the error recorded at pos. */
struct pev_pmu_list *pev__pmus(struct parse_ctx *c, size_t pos, size_t len);

/* event_names.c */
const struct pev_symbolic_event *pev__symbol_find(const char *s, size_t len);
/* 1 and *config when s is a hw-cache name, 0 when it is not one, -EINVAL
 * when it is one but an invalid combination (why says which). */
int pev__cache_parse(const char *s, size_t len, uint64_t *config, char *why, size_t whylen);

/* event_pmu.c: "pmu/terms/" and "name/terms/" at [pos, pos+len) with the
 * PMU or symbol name [pos, pos+namelen); appends events; *first gets the
 * index of the first. */
int pev__parse_pmu_event(struct parse_ctx *c, size_t pos, size_t namelen, size_t termslen);
/* A bare name that is an alias of some PMU (e.g. "tsc"): 1 appended,
 * 0 no PMU has it, < 0 error. */
int pev__parse_bare_alias(struct parse_ctx *c, size_t pos, size_t len);
/* Does a PMU that counts CPU events exist ("cpu", or type RAW)? */
bool pev__have_cpu_pmu(struct parse_ctx *c);

/* event_tracepoint.c: "sys:name" (globs allowed); appends every match. */
int pev__parse_tracepoint(struct parse_ctx *c, size_t pos, size_t syslen, size_t namepos,
			  size_t namelen);
/* Is there a tracefs subsystem directory named [s, s+len)? */
bool pev__tracepoint_subsys_exists(struct parse_ctx *c, const char *s, size_t len);

/* event_uprobe.c */
int pev__parse_uprobe(struct parse_ctx *c, size_t pos, size_t len, bool ret);
/* The file offset of symbol sym in the ELF file at path: 0 or -errno with
 * a message in why. */
int pev__elf_symbol_offset(const char *path, const char *sym, uint64_t *off,
			   char *why, size_t whylen);

/* event_pfm.c: 1 encoded and appended, 0 libpfm does not know it, < 0 error. */
int pev__parse_pfm(struct parse_ctx *c, size_t pos, size_t len);

#endif
