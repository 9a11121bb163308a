// SPDX-License-Identifier: GPL-2.0-only
/* C++ names as perf 6.1 prints them: libiberty's cplus_demangle without
 * options, which binutils' `c++filt -p -i` (no parameters, no verbose
 * expansions) runs too: the oracle here.  Every C++ function of libstdc++
 * and node that sits alone at its address must come out of perfev's symbol
 * table with c++filt's name.  Failed before:
 * "delete" for "operator delete", and node's long V8 template clones
 * (..._SF_.isra.0) left mangled, where GCC 12's __cxa_demangle gives up. */
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"
#include <perfev/symbols.h>

static size_t checked;

static void check_file(const char *path)
{
	char cmd[PATH_MAX + 256], line[8192], name[8192];
	FILE *f;
	size_t bad = 0, n = 0;

	if (access(path, R_OK)) {
		printf("%s: not here, skipped\n", path);
		return;
	}
	struct pev_symtab *st = pev_symtab_load_elf(path);

	CHECK_MSG(st, "pev_symtab_load_elf(%s) failed", path);
	if (!st)
		return;
	/* Functions alone at their address (aliases would let perf's rule for
	 * duplicates pick another name), with c++filt's name beside. */
	snprintf(cmd, sizeof(cmd),
		 "{ nm --no-demangle --defined-only %s 2>/dev/null | grep -q . && "
		 "nm --no-demangle --defined-only %s || nm -D --no-demangle --defined-only %s; } | "
		 "awk '$2 ~ /^[tTwWi]$/ {c[$1]++; n[$1]=$3} "
		 "END {for (a in c) if (c[a] == 1 && n[a] ~ /^_Z/) print a, n[a]}' | sed 's/@.*//' | c++filt -p -i",
		 path, path, path);
	f = popen(cmd, "r");
	CHECK(f);
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		int off = 0;

		line[strcspn(line, "\n")] = 0;
		if (sscanf(line, "%llx %n", &addr, &off) != 1 || !off)
			continue;
		snprintf(name, sizeof(name), "%s", line + off);
		const struct pev_symbol *s = pev_symtab_lookup(st, addr);

		n++;
		if (!s || s->start != addr || strcmp(s->name, name)) {
			if (bad++ < 5)
				T_FAIL("%s: at %#llx perfev names %.150s, c++filt -p -i %.150s", path, addr,
				       s ? s->name : "(nothing)", name);
		}
	}
	if (f)
		pclose(f);
	printf("%s: %zu names compared, %zu differ\n", path, n, bad);
	CHECK_MSG(bad == 0, "%s: %zu of %zu names differ from c++filt -p -i", path, bad, n);
	checked += n;
	pev_symtab_free(st);
}

int main(void)
{
	if (t_sh("command -v nm > /dev/null 2>&1 && command -v c++filt > /dev/null 2>&1"))
		T_SKIP("binutils (nm, c++filt) is not installed");
	check_file("/usr/lib/x86_64-linux-gnu/libstdc++.so.6");
	check_file("/usr/bin/node");
	if (!checked && !t_failures)
		T_SKIP("neither libstdc++ nor node has C++ functions to compare here");
	return t_done();
}
