// SPDX-License-Identifier: GPL-2.0-only
/* perfev script: srcline and srccode, through the library's DWARF line
 * lookup (pev_srclines), printed as perf script 6.1 does. */
#include <stdlib.h>
#include <string.h>

#include "script/script.h"

/* The last source line printed for a thread (srccode prints a line only
 * when it changes, per thread, as perf). */
struct srccode_state {
	uint32_t tid;
	bool used;
	const char *file;	/* interned by pev_srclines */
	unsigned line;
};

static struct pev_srclines *srclines(struct script *s)
{
	if (!s->srclines)
		s->srclines = pev_srclines_new();
	return s->srclines;
}

static const char *base_name(const char *p)
{
	const char *b = strrchr(p, '/');

	return b ? b + 1 : p;
}

/* file:line of al's address; 1, or 0 when unknown.  A unit that holds
 * the address without a row for it (code before the first row of a CU:
 * ld.so's _start, asm in rtld.c) gives file "" and line 0; with
 * a2l_file, the file then, or where no unit holds the address (crtstuff's
 * __do_global_dtors_aux), is what addr2line names from the symbols (the
 * debug file's: the file symbol before the function's, "" after the
 * linker's empty one, "??" without one) with line 0. */
static int lookup(struct script *s, const struct pev_addr_loc *al,
		  const char **file, unsigned *line, bool a2l_file)
{
	struct pev_dso *dso = al->dso;
	const char *name = pev_dso_name(dso), *path;

	if (!srclines(s) || name[0] == '[' || al->kernel)
		return 0;
	/* The symbol source is the debug file when there is one. */
	pev_dso_symtab(dso);
	path = pev_dso_symbol_source(dso);
	if (!path)
		path = name;
	uint64_t vaddr = pev_dso_offset_to_vaddr(dso, al->map_ip);

	int r = pev_srclines_lookup(s->srclines, path, vaddr, file, line);

	if (a2l_file && (!r || (r > 0 && !(*file)[0] && !*line)))
		return pev_srclines_addr2line(s->srclines, path, vaddr, file, line) > 0;
	return r > 0;
}

void script_print_srcline(struct script *s, const struct pev_addr_loc *al,
			  const char *prefix)
{
	struct obuf *o = &s->out;
	const char *file, *name;
	unsigned line;
	uint64_t addr = al->map_ip;

	if (!al->dso)
		return;
	name = pev_dso_name(al->dso);
	const char *path = pev_dso_srcline_path(al->dso);

	if (srclines(s) && path && !al->kernel) {
		addr = pev_dso_offset_to_vaddr(al->dso, al->map_ip);
		/* perf prints addr2line's answer unless it reads "??:0" (from
		 * "??:?": a function symbol without a file symbol) */
		if (pev_srclines_addr2line(s->srclines, path, addr, &file, &line) == 1) {
			if (!line && !strcmp(file, "??"))
				return;
			so_str(o, prefix);
			so_str(o, base_name(file));
			so_char(o, ':');
			so_u64(o, line, 0);
			return;
		}
	}
	/* addr2line found nothing, or perf does not ask it ("[vdso]",
	 * "[kernel.kallsyms]"): "dso[addr]", at the ELF address */
	so_str(o, prefix);
	so_str(o, base_name(name));
	so_char(o, '[');
	so_hex(o, addr, 0);
	so_char(o, ']');
}

/* A "name@plt" stub perf made up for a .plt entry: perf 6.1 prints its
 * frames as a sample's ip ("libstdc++.so.6.0.30[9a000]" for operator
 * delete@plt, where a frame of a real symbol of that DSO prints "??:0"). */
static bool is_plt(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && !strcmp(name + n - 4, "@plt");
}

/* A frame of a call chain: an unwound frame with a symbol prints perf's
 * srcline of a callchain entry (the call site for a function that another
 * was inlined in, "??:0" where DWARF has no line); the others as a
 * sample's ip.  perf 6.1 takes a frame's srcline from addr2line's inline
 * answer for it; with --no-inline there is none and every frame prints
 * as a sample's ip (nothing where addr2line knows nothing). */
void script_print_frame_srcline(struct script *s, const struct pev_frame *fr,
				const char *prefix)
{
	struct obuf *o = &s->out;
	const char *file;
	unsigned line;

	/* perf: "??:0" only for a symbol of a DSO file; the vDSO's frames
	 * and unnamed ones print as a sample's ip. */
	if (!s->opt.inline_frames || !fr->unwound || !fr->loc.dso || !fr->loc.sym ||
	    pev_dso_name(fr->loc.dso)[0] == '[' || is_plt(fr->loc.sym->name)) {
		script_print_srcline(s, &fr->loc, prefix);
		return;
	}
	so_str(o, prefix);
	if (fr->call_file) {
		file = fr->call_file;
		line = fr->call_line;
	} else if (!lookup(s, &fr->loc, &file, &line, true) || !strcmp(file, "??")) {
		/* no file symbol either: addr2line's "??:?" */
		so_str(o, "??:0");
		return;
	}
	so_str(o, base_name(file));
	so_char(o, ':');
	so_u64(o, line, 0);
}

static struct srccode_state *thread_state(struct script *s, uint32_t tid)
{
	if (s->srccode_len * 2 >= s->srccode_cap) {
		size_t cap = s->srccode_cap ? s->srccode_cap * 2 : 64;
		struct srccode_state *n = calloc(cap, sizeof(*n));

		if (!n)
			return NULL;
		for (size_t i = 0; i < s->srccode_cap; i++) {
			struct srccode_state *e = &s->srccode[i];

			if (!e->used)
				continue;
			size_t j = (e->tid * 2654435761u) & (cap - 1);

			while (n[j].used)
				j = (j + 1) & (cap - 1);
			n[j] = *e;
		}
		free(s->srccode);
		s->srccode = n;
		s->srccode_cap = cap;
	}
	size_t j = (tid * 2654435761u) & (s->srccode_cap - 1);

	while (s->srccode[j].used && s->srccode[j].tid != tid)
		j = (j + 1) & (s->srccode_cap - 1);
	if (!s->srccode[j].used) {
		s->srccode[j].used = true;
		s->srccode[j].tid = tid;
		s->srccode_len++;
	}
	return &s->srccode[j];
}

void script_print_srccode(struct script *s, uint32_t tid,
			  const struct pev_addr_loc *al)
{
	struct obuf *o = &s->out;
	const char *file, *text;
	unsigned line;
	size_t len;

	if (!al->dso || !lookup(s, al, &file, &line, false))
		return;
	struct srccode_state *st = thread_state(s, tid);

	if (st && st->file == file && st->line == line)
		return;
	text = pev_srclines_text(s->srclines, file, line, &len);
	if (!text)
		return;
	so_char(o, '|');
	so_s64(o, line, 8, true);
	so_char(o, ' ');
	so_mem(o, text, len);
	so_char(o, '\n');
	if (st) {
		st->file = file;
		st->line = line;
	}
}

void script_src_release(struct script *s)
{
	pev_srclines_free(s->srclines);
	s->srclines = NULL;
	free(s->srccode);
	s->srccode = NULL;
	s->srccode_len = s->srccode_cap = 0;
}
