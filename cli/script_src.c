/* perfev script: srcline and srccode, through the library's DWARF line
 * lookup (pev_srclines), printed as perf script 6.1 does. */
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "script.h"

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

/* file:line of al's address; 1, or 0 when unknown. */
static int lookup(struct script *s, const struct pev_addr_loc *al,
		  const char **file, unsigned *line)
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

	return pev_srclines_lookup(s->srclines, path, vaddr, file, line) > 0;
}

static bool is_plt(const char *name)
{
	size_t n = strlen(name);

	return n >= 4 && !strcmp(name + n - 4, "@plt");
}

/* The code sections of a DSO file (addr2line looks for the function of
 * an address in the address's own section). */
struct dso_sections {
	const struct pev_dso *dso;
	size_t nr;
	struct { uint64_t start, end; } sec[32];
};

static void read_sections(const char *path, struct dso_sections *d)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *e;
	Elf_Scn *scn = NULL;

	if (fd < 0)
		return;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	while (e && (scn = elf_nextscn(e, scn)) && d->nr < 32) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR) && sh.sh_size) {
			d->sec[d->nr].start = sh.sh_addr;
			d->sec[d->nr].end = sh.sh_addr + sh.sh_size;
			d->nr++;
		}
	}
	elf_end(e);
	close(fd);
}

/* The code section holding vaddr: [*start, *end); false when unknown (then
 * the whole address space). */
static bool section_of(struct script *s, struct pev_dso *dso, uint64_t vaddr,
		       uint64_t *start, uint64_t *end)
{
	struct dso_sections *d = NULL;

	for (size_t i = 0; i < s->nr_sections; i++)
		if (s->sections[i].dso == dso)
			d = &s->sections[i];
	if (!d) {
		struct dso_sections *n = realloc(s->sections,
						 (s->nr_sections + 1) * sizeof(*n));

		if (!n)
			return false;
		s->sections = n;
		d = &n[s->nr_sections++];
		memset(d, 0, sizeof(*d));
		d->dso = dso;
		read_sections(pev_dso_name(dso), d);
	}
	for (size_t i = 0; i < d->nr; i++)
		if (vaddr >= d->sec[i].start && vaddr < d->sec[i].end) {
			*start = d->sec[i].start;
			*end = d->sec[i].end;
			return true;
		}
	return false;
}

/* Whether a function symbol (not a PLT entry, which addr2line does not
 * know) starts at or below al's address in its section. */
static bool has_symbol_below(struct script *s, const struct pev_addr_loc *al)
{
	const struct pev_symtab *st = pev_dso_symtab(al->dso);
	uint64_t vaddr = pev_dso_offset_to_vaddr(al->dso, al->map_ip);
	size_t lo = 0, hi = st ? pev_symtab_count(st) : 0;
	uint64_t sec_start = 0, sec_end = UINT64_MAX;

	section_of(s, al->dso, vaddr, &sec_start, &sec_end);

	/* The first symbol starting above vaddr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pev_symtab_symbol(st, mid)->start <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo > 0) {
		const struct pev_symbol *sym = pev_symtab_symbol(st, --lo);

		if (sym->start < sec_start)
			return false;
		if (!is_plt(sym->name))
			return true;
	}
	return false;
}

void script_print_srcline(struct script *s, const struct pev_addr_loc *al,
			  const char *prefix)
{
	struct obuf *o = &s->out;
	const char *file, *name;
	unsigned line;

	if (!al->dso)
		return;
	if (lookup(s, al, &file, &line)) {
		so_str(o, prefix);
		so_str(o, base_name(file));
		so_char(o, ':');
		so_u64(o, line, 0);
		return;
	}
	/* No line.  perf's addr2line then answers "??:0" when it still
	 * finds a function (the nearest symbol at or below the address, of
	 * any size), which perf does not print, and "??" when it finds none,
	 * for which perf prints "dso[addr]", as for "[kernel.kallsyms]" and
	 * "[vdso]", which it does not give addr2line. */
	name = pev_dso_name(al->dso);
	if (name[0] != '[' && has_symbol_below(s, al))
		return;
	so_str(o, prefix);
	so_str(o, base_name(name));
	so_char(o, '[');
	so_hex(o, al->map_ip, 0);
	so_char(o, ']');
}

/* A frame of a call chain: an unwound frame with a symbol prints perf's
 * srcline of a callchain entry (the call site for a function that another
 * was inlined in, "??:0" where DWARF has no line); the others as a
 * sample's ip. */
void script_print_frame_srcline(struct script *s, const struct pev_frame *fr,
				const char *prefix)
{
	struct obuf *o = &s->out;
	const char *file;
	unsigned line;

	/* perf: "??:0" only for a symbol of a DSO file; the vDSO's frames
	 * and unnamed ones print as a sample's ip. */
	if (!fr->unwound || !fr->loc.dso || !fr->loc.sym ||
	    pev_dso_name(fr->loc.dso)[0] == '[') {
		script_print_srcline(s, &fr->loc, prefix);
		return;
	}
	so_str(o, prefix);
	if (fr->call_file) {
		file = fr->call_file;
		line = fr->call_line;
	} else if (!lookup(s, &fr->loc, &file, &line) || (!file[0] && !line)) {
		/* No row, or one without file and line (code before the
		 * first row of a CU: _start in asm): addr2line's "??:?". */
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

	if (!al->dso || !lookup(s, al, &file, &line))
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
	free(s->sections);
	s->sections = NULL;
	s->nr_sections = 0;
	s->srccode_len = s->srccode_cap = 0;
}
