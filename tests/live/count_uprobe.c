// SPDX-License-Identifier: GPL-2.0-only
/* A uprobe and a uretprobe on a function of this binary count its calls
 * exactly.  The probe's file offset comes from the ELF symbol table and the
 * PT_LOAD header that maps it (libelf). */
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include "count_util.h"

__attribute__((noinline)) void pev_test_uprobe_target(void);
__attribute__((noinline)) void pev_test_uprobe_target(void)
{
	__asm__ volatile("" ::: "memory");
}

/* File offset of symbol name in the ELF file at path, or 0. */
static uint64_t symbol_offset(const char *path, const char *name)
{
	uint64_t vaddr = 0, off = 0;
	int fd = open(path, O_RDONLY);
	Elf *e;
	Elf_Scn *scn = NULL;
	size_t nph;

	if (fd < 0 || elf_version(EV_CURRENT) == EV_NONE)
		return 0;
	e = elf_begin(fd, ELF_C_READ, NULL);
	while (e && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && sh.sh_entsize && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *n;

			if (!gelf_getsym(d, (int)i, &s))
				continue;
			n = elf_strptr(e, sh.sh_link, s.st_name);
			if (n && !strcmp(n, name) && GELF_ST_TYPE(s.st_info) == STT_FUNC) {
				vaddr = s.st_value;
				break;
			}
		}
		if (vaddr)
			break;
	}
	if (e && vaddr && elf_getphdrnum(e, &nph) == 0) {
		for (size_t i = 0; i < nph; i++) {
			GElf_Phdr ph;

			if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD)
				continue;
			if (vaddr >= ph.p_vaddr && vaddr < ph.p_vaddr + ph.p_filesz) {
				off = vaddr - ph.p_vaddr + ph.p_offset;
				break;
			}
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return off;
}

static long read_sysfs_long(const char *path, long dflt)
{
	char buf[64] = "";
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return dflt;
	ssize_t r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (r <= 0)
		return dflt;
	buf[r] = 0;
	/* "config:0" for format files, a number for type. */
	char *p = strchr(buf, ':');
	return strtol(p ? p + 1 : buf, NULL, 10);
}

static uint64_t count_probe(int type, uint64_t config, const char *exe, uint64_t off, long n)
{
	struct perf_event_attr a = { 0 };
	struct pev_target *t = pev_target_new_self();
	struct pev_counters *c = new_set(t, false);

	a.size = sizeof(a);
	a.type = (uint32_t)type;
	a.config = config;
	a.config1 = (uint64_t)(uintptr_t)exe;	/* uprobe_path */
	a.config2 = off;			/* probe_offset */
	CHECK_EQ_INT(pev_counters_add(c, &a, "uprobe", -1), 0);
	open_or_skip(c, &a, 0, -1);
	CHECK_OK(pev_counters_enable(c));
	for (long i = 0; i < n; i++)
		pev_test_uprobe_target();
	CHECK_OK(pev_counters_disable(c));
	pev_test_uprobe_target();
	CHECK_OK(pev_counters_read(c));
	uint64_t v = total(c, 0);
	pev_counters_free(c);
	pev_target_free(t);
	return v;
}

int main(void)
{
	char exe[PATH_MAX];
	long type = read_sysfs_long("/sys/bus/event_source/devices/uprobe/type", -1);
	long retbit = read_sysfs_long("/sys/bus/event_source/devices/uprobe/format/retprobe", -1);
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (type < 0)
		T_SKIP("no uprobe PMU in /sys/bus/event_source/devices");
	CHECK(len > 0);
	exe[len > 0 ? len : 0] = 0;
	uint64_t off = symbol_offset(exe, "pev_test_uprobe_target");
	if (!off)
		T_FATAL("no symbol pev_test_uprobe_target in %s", exe);

	CHECK_EQ_U64(count_probe((int)type, 0, exe, off, 4321), 4321);
	if (retbit < 0 || retbit > 63)
		T_SKIP("uprobe PMU has no retprobe format bit");
	CHECK_EQ_U64(count_probe((int)type, 1ull << retbit, exe, off, 777), 777);
	return t_done();
}
