// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* uprobe:PATH:SYMBOL[+OFF] and uretprobe:PATH:SYMBOL through the uprobe
 * PMU.  The kernel wants a FILE offset: the symbol's st_value is a virtual
 * address, so it is translated through the PT_LOAD segment holding it. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "event/event_internal.h"

static int find_in_section(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, const char *sym,
			   GElf_Sym *out)
{
	Elf_Data *data = elf_getdata(scn, NULL);

	if (!data || !sh->sh_entsize)
		return 0;
	size_t n = sh->sh_size / sh->sh_entsize;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym s;
		if (!gelf_getsym(data, (int)i, &s))
			break;
		if (s.st_shndx == SHN_UNDEF || !s.st_value)
			continue;
		int t = GELF_ST_TYPE(s.st_info);
		if (t != STT_FUNC && t != STT_GNU_IFUNC && t != STT_NOTYPE && t != STT_OBJECT)
			continue;
		const char *name = elf_strptr(elf, sh->sh_link, s.st_name);
		if (name && !strcmp(name, sym)) {
			*out = s;
			return 1;
		}
	}
	return 0;
}

int pev__elf_symbol_offset(const char *path, const char *sym, uint64_t *off,
			   char *why, size_t whylen)
{
	int fd, ret = -ENOENT;
	Elf *elf;
	GElf_Sym s = { 0 };
	bool found = false;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(why, whylen, "libelf is unusable");
		return -EINVAL;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(why, whylen, "cannot open '%s': %s", path, strerror(errno));
		return ret;
	}
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		snprintf(why, whylen, "'%s' is not an ELF file", path);
		ret = -ENOEXEC;
		goto out;
	}
	/* .symtab first (complete), then .dynsym (survives strip). */
	for (int pass = 0; pass < 2 && !found; pass++) {
		Elf_Scn *scn = NULL;
		while ((scn = elf_nextscn(elf, scn)) && !found) {
			GElf_Shdr sh;
			if (!gelf_getshdr(scn, &sh))
				continue;
			if (sh.sh_type != (pass ? SHT_DYNSYM : SHT_SYMTAB))
				continue;
			found = find_in_section(elf, scn, &sh, sym, &s);
		}
	}
	if (!found) {
		snprintf(why, whylen, "symbol '%s' not found in '%s' (stripped? try a file offset: %s:0x1234)",
			 sym, path, "uprobe:PATH");
		ret = -ENOENT;
		goto out;
	}
	size_t nph;
	if (elf_getphdrnum(elf, &nph) < 0) {
		snprintf(why, whylen, "'%s' has no program headers", path);
		ret = -ENOEXEC;
		goto out;
	}
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (s.st_value >= ph.p_vaddr && s.st_value < ph.p_vaddr + ph.p_filesz) {
			*off = s.st_value - ph.p_vaddr + ph.p_offset;
			ret = 0;
			goto out;
		}
	}
	snprintf(why, whylen, "symbol '%s' in '%s' lies outside every loadable segment", sym, path);
	ret = -ENOEXEC;
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}

int pev__parse_uprobe(struct parse_ctx *c, size_t pos, size_t len, bool ret_probe)
{
	const char *s = c->spec + pos, *kind = ret_probe ? "uretprobe:" : "uprobe:";
	size_t klen = strlen(kind), ps = klen, pe = ps, ss, se, os = 0, oe = 0;
	char path[PEV_PATH_MAX + 1], sym[PEV_NAME_MAX + 1], why[300], real[PATH_MAX];
	uint64_t off = 0, extra = 0;
	size_t bad;
	int r;

	while (pe < len && s[pe] != ':')
		pe++;
	if (pe == ps)
		return pev__perr(c, pos + ps, 1, EINVAL, "missing path after '%s'; write %sPATH:SYMBOL", kind, kind);
	if (pe >= len)
		return pev__perr(c, pos + pe, 1, EINVAL, "missing ':SYMBOL' after the path; write %sPATH:SYMBOL", kind);
	if (pe - ps > PEV_PATH_MAX)
		return pev__perr(c, pos + ps, pe - ps, ENAMETOOLONG, "path too long");
	ss = pe + 1;
	se = ss;
	while (se < len && s[se] != '+')
		se++;
	if (se == ss)
		return pev__perr(c, pos + ss, 1, EINVAL, "missing symbol after the path; write %sPATH:SYMBOL", kind);
	if (se - ss > PEV_NAME_MAX)
		return pev__perr(c, pos + ss, se - ss, ENAMETOOLONG, "symbol name too long");
	if (se < len) {
		if (ret_probe)
			return pev__perr(c, pos + se, len - se, EINVAL,
					 "a uretprobe fires on return: it takes no '+offset'");
		os = se + 1;
		oe = len;
		r = pev__parse_u64(s + os, oe - os, &extra, &bad);
		if (r == -ERANGE)
			return pev__perr(c, pos + os, oe - os, ERANGE, "offset does not fit in 64 bits");
		if (r)
			return pev__perr(c, pos + os + bad, 1, EINVAL, "bad offset: expected a number such as 0x10");
	}
	memcpy(path, s + ps, pe - ps);
	path[pe - ps] = '\0';
	memcpy(sym, s + ss, se - ss);
	sym[se - ss] = '\0';

	struct pev_pmu_list *pmus = pev__pmus(c, pos, klen - 1);
	if (!pmus)
		return -ENOENT;
	const struct pev_pmu *pmu = pev_pmu_list_find(pmus, "uprobe");
	if (!pmu)
		return pev__perr(c, pos, klen - 1, ENOENT,
				 "this kernel has no uprobe PMU (CONFIG_UPROBE_EVENTS); use another event");
	if (pmu->error)
		return pev__perr(c, pos, klen - 1, EINVAL, "PMU 'uprobe' cannot be used: %s", pmu->error);
	const struct pev_pmu_format *rf = pev_pmu_find_format(pmu, "retprobe");
	if (ret_probe && !rf)
		return pev__perr(c, pos, klen - 1, ENOENT,
				 "the uprobe PMU has no 'retprobe' format: this kernel cannot probe returns");

	/* Resolve links such as /proc/self/exe now, in the parsing process. */
	if (!realpath(path, real))
		return pev__perr(c, pos + ps, pe - ps, ENOENT, "cannot find '%s': %s", path, strerror(errno));
	if (sym[0] == '0' && (sym[1] == 'x' || sym[1] == 'X')) {
		r = pev__parse_u64(sym, strlen(sym), &off, &bad);
		if (r)
			return pev__perr(c, pos + ss, se - ss, EINVAL, "bad file offset '%s'", sym);
	} else {
		r = pev__elf_symbol_offset(real, sym, &off, why, sizeof(why));
		if (r)
			return pev__perr(c, pos + (r == -ENOENT ? ss : ps), r == -ENOENT ? se - ss : pe - ps,
					 r == -ENOENT ? ENOENT : -r, "%s", why);
	}
	if (off + extra < off)
		return pev__perr(c, pos + os, oe - os, ERANGE, "offset overflows");
	char *owned = pev__own(c, real, strlen(real));
	if (!owned)
		return pev__perr(c, pos, len, ENOMEM, "out of memory");
	struct pev_event *e = pev__new_event(c, pos, pmu->type, 0, s, len, "uprobe");
	if (!e)
		return -ENOMEM;
	e->attr.attr.config1 = (uint64_t)(uintptr_t)owned;
	e->attr.attr.config2 = off + extra;
	if (ret_probe) {
		uint64_t *w = rf->word == 0 ? (uint64_t *)&e->attr.attr.config :
			      pev_attr_config3(&e->attr);
		if (rf->word == 1 || rf->word == 2 || pev_pmu_format_apply(rf->mask, 1, w) < 0)
			return pev__perr(c, pos, klen - 1, EINVAL,
					 "the uprobe PMU's 'retprobe' format is unusable");
	}
	return 0;
}
