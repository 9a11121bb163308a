// SPDX-License-Identifier: GPL-2.0-only
/* `make install DESTDIR=...` installs the library, headers, pkg-config
 * file, binary, man pages and bash completion, and a program builds against
 * them with pkg-config. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "testutil.h"

#ifndef PEV_TEST_SANFLAGS
#define PEV_TEST_SANFLAGS ""
#endif

static int sh(const char *cmd)
{
	int st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

int main(void)
{
	char dir[] = "/tmp/perfev-install-XXXXXX", cmd[2048], path[512];
	const char *build = getenv("PERFEV_BUILD");
	struct stat st;

	if (!build)
		build = "build";
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp: %s", strerror(errno));
	if (access("Makefile", R_OK) || access("/usr/bin/pkg-config", X_OK))
		T_SKIP("needs the source tree as the working directory and pkg-config");
	/* man/NAME.S.scd become man pages with scdoc; without it make install
	 * refuses, naming the package. */
	if (sh("ls man/*.scd >/dev/null 2>&1") == 0 && sh("command -v scdoc >/dev/null 2>&1")) {
		snprintf(cmd, sizeof(cmd),
			 "make -s --no-print-directory install BUILD=%s DESTDIR=%s PREFIX=/opt/perfev 2>&1 | grep -q 'apt-get install scdoc'",
			 build, dir);
		CHECK_EQ_INT(sh(cmd), 0);
		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		sh(cmd);
		if (t_failures)
			return t_done();
		T_SKIP("scdoc is not installed (apt-get install scdoc): make install cannot build the man pages");
	}
	snprintf(cmd, sizeof(cmd),
		 "make -s --no-print-directory install BUILD=%s DESTDIR=%s PREFIX=/opt/perfev >%s/log 2>&1",
		 build, dir, dir);
	CHECK_EQ_INT(sh(cmd), 0);

	const char *files[] = { "/opt/perfev/lib/libperfev.a", "/opt/perfev/lib/libperfev.so.0",
				"/opt/perfev/lib/libperfev.so", "/opt/perfev/include/perfev/perfev.h",
				"/opt/perfev/include/perfev/sys.h", "/opt/perfev/include/perfev/region.hpp",
				"/opt/perfev/lib/pkgconfig/perfev.pc",
				"/opt/perfev/bin/perfev" };
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", dir, files[i]);
		CHECK_MSG(stat(path, &st) == 0, "not installed: %s", files[i]);
	}
	/* Every man/NAME.S.scd as share/man/manS/NAME.S, nothing else there,
	 * and the bash completion where bash-completion looks for it. */
	snprintf(cmd, sizeof(cmd),
		 "n=0; for s in man/*.scd; do [ -e \"$s\" ] || continue; p=$(basename \"$s\" .scd); n=$((n+1)); "
		 "[ -s %1$s/opt/perfev/share/man/man${p##*.}/$p ] || { echo \"not installed: $p\"; exit 1; }; done; "
		 "[ $n -gt 0 ] || { echo 'no man/*.scd pages'; exit 1; }; "
		 "i=$(find %1$s/opt/perfev/share/man -type f | wc -l); "
		 "[ $i -eq $n ] || { echo \"$i files under share/man, $n pages in man/\"; exit 1; }; "
		 "[ -z \"$(ls %1$s/opt/perfev/share/man | grep -vx 'man[13]')\" ] || { echo 'sections other than 1 and 3'; exit 1; }",
		 dir);
	CHECK_MSG(sh(cmd) == 0, "the man pages are not installed as man/*.scd says");
	snprintf(path, sizeof(path), "%s/opt/perfev/share/bash-completion/completions/perfev", dir);
	CHECK_MSG(stat(path, &st) == 0 && st.st_size > 0, "not installed: %s", path);
	snprintf(cmd, sizeof(cmd), "cmp -s completions/perfev.bash %s", path);
	CHECK_MSG(sh(cmd) == 0, "%s is not completions/perfev.bash", path);
	/* man finds and renders a page from the installed tree. */
	if (sh("command -v man >/dev/null 2>&1") == 0) {
		snprintf(cmd, sizeof(cmd),
			 "MANWIDTH=80 man -P cat -M %s/opt/perfev/share/man perfev-report 2>>%s/log | grep -q 'perfev-report'",
			 dir, dir);
		CHECK_MSG(sh(cmd) == 0, "man -M DESTDIR/opt/perfev/share/man perfev-report renders nothing");
	} else {
		printf("NOTE: no man (apt-get install man-db): the installed page is not rendered\n");
	}

	/* No private header is installed: only the public .h and .hpp. */
	snprintf(cmd, sizeof(cmd), "test -z \"$(ls %s/opt/perfev/include/perfev | grep -vE '\\.(h|hpp)$')\"", dir);
	CHECK_EQ_INT(sh(cmd), 0);

	/* Build and run a program against the installed copy only. */
	snprintf(cmd, sizeof(cmd),
		 "cat >%1$s/t.c <<'X'\n#include <perfev/perfev.h>\n#include <stdio.h>\n#include <string.h>\n"
		 "int main(void){return strcmp(pev_version(),\"0.1.0\")!=0;}\nX\n"
		 "cd %1$s && PKG_CONFIG_SYSROOT_DIR=%1$s PKG_CONFIG_PATH=%1$s/opt/perfev/lib/pkgconfig "
		 "cc " PEV_TEST_SANFLAGS " -o t t.c $(PKG_CONFIG_SYSROOT_DIR=%1$s PKG_CONFIG_PATH=%1$s/opt/perfev/lib/pkgconfig pkg-config --cflags --libs perfev) "
		 "-Wl,-rpath,%1$s/opt/perfev/lib >>log 2>&1 && ./t", dir);
	CHECK_EQ_INT(sh(cmd), 0);

	/* The static archive defines no global name outside the pev_ prefix
	 * (private ones are pev__), so it cannot clash with its users'.
	 * AddressSanitizer adds an ODR indicator __odr_asan.NAME for each
	 * global variable NAME (the regions' pev__reg): ours by its name. */
	snprintf(cmd, sizeof(cmd),
		 "test -z \"$(nm -g --defined-only %s/opt/perfev/lib/libperfev.a 2>/dev/null | awk 'NF==3{print $3}' | grep -v '^pev_' | grep -v '^__odr_asan\\.pev_')\"",
		 dir);
	CHECK_EQ_INT(sh(cmd), 0);

	/* The shared object exports pev_* names only. */
	snprintf(cmd, sizeof(cmd),
		 "test -z \"$(nm -D --defined-only %s/opt/perfev/lib/libperfev.so.0 | awk '{print $3}' | grep -v '^pev_' | grep -v '^PERFEV_')\"",
		 dir);
	CHECK_EQ_INT(sh(cmd), 0);
	if (t_failures) {
		snprintf(cmd, sizeof(cmd), "cat %s/log", dir);
		sh(cmd);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	sh(cmd);
	return t_done();
}
