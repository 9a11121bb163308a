// SPDX-License-Identifier: GPL-2.0-only
/* The progress line: reading a large file (here 72 MiB of samples written
 * by the library) with stderr on a terminal (a pty from util-linux's
 * `script`) and stdout elsewhere, perfev script redraws
 * "reading 'FILE':  N% (M of T MiB)" on stderr and erases it at the end;
 * nothing when stderr is not a terminal, when stdout is the terminal (its
 * output streams there), or for a small file. */
#include <fcntl.h>
#include <unistd.h>

#include "testutil.h"
#include "cliutil.h"
#include "unit/data_util.h"

static char dir[64], perfev[4096];

static void write_big(const char *path, size_t bytes)
{
	struct perf_event_attr a;
	static unsigned char buf[1 << 20] __attribute__((aligned(8)));
	const uint64_t id = 7;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	struct pev_data_writer *w = pev_data_writer_new(fd, NULL);
	uint64_t t = 1000000000ull, done = 0;

	CHECK(fd >= 0 && w);
	du_attr(&a, PERF_COUNT_SW_CPU_CLOCK);
	CHECK_EQ_INT(pev_data_writer_add_attr(w, &a, &id, 1, "cpu-clock"), 0);
	CHECK_OK(pev_data_writer_start(w));
	while (done < bytes) {
		size_t len = 0;

		while (len + 128 < sizeof(buf))
			len += du_sample(buf + len, id, 0x400000, 10, 11, t++, 0, 1000);
		CHECK_OK(pev_data_writer_write(w, buf, len));
		done += len;
	}
	pev_data_writer_sample_time(w, 1000000000ull, t);
	CHECK_OK(pev_data_writer_finish(w));
	pev_data_writer_free(w);
	close(fd);
}

/* Runs cmd under a pty (stdin, stdout and stderr of cmd the terminal
 * unless redirected inside cmd); what the terminal received into out.txt. */
static char *on_tty(const char *cmd)
{
	char path[128];
	size_t len;

	CHECK_EQ_INT(t_sh("cd %s && script -q -e -c \"%s\" /dev/null > out.txt < /dev/null", dir, cmd), 0);
	snprintf(path, sizeof(path), "%s/out.txt", dir);
	return t_slurp(path, &len);
}

int main(void)
{
	char cmd[8192], path[128];

	/* independent probe: util-linux's script gives a pty */
	if (access("/usr/bin/script", X_OK))
		T_SKIP("no /usr/bin/script (util-linux) to run perfev on a terminal");
	if (!realpath(t_perfev(), perfev))
		T_FATAL("no perfev at %s", t_perfev());
	strcpy(dir, "/tmp/perfev-progress-XXXXXX");
	if (!mkdtemp(dir))
		T_FATAL("mkdtemp");
	snprintf(path, sizeof(path), "%s/big.data", dir);
	write_big(path, 72u << 20);
	snprintf(path, sizeof(path), "%s/small.data", dir);
	write_big(path, 1u << 20);

	/* stderr a terminal, stdout a file: the line, redrawn, then erased */
	snprintf(cmd, sizeof(cmd), "%s script -i big.data --pid 1 > /dev/null", perfev);
	char *t = on_tty(cmd);

	CHECK_MSG(t && strstr(t, "\rreading 'big.data':   0% (0 of 72 MiB)\033[K"),
		  "no first progress line: %.200s", t ? t : "");
	CHECK_MSG(t && strstr(t, "% (") && strstr(t, " of 72 MiB)\033[K"), "no progress");
	size_t tl = t ? strlen(t) : 0;

	CHECK_MSG(tl > 4 && !strcmp(t + tl - 4, "\r\033[K"), "the line is not erased at the end");
	free(t);

	/* stderr not a terminal: nothing on it */
	snprintf(cmd, sizeof(cmd), "%s script -i big.data --pid 1 > /dev/null 2> err.txt; cat err.txt | wc -c", perfev);
	t = on_tty(cmd);
	CHECK_MSG(t && !strstr(t, "reading") && atoi(t) == 0, "progress without a terminal: %.100s", t ? t : "");
	free(t);

	/* stdout the terminal: no progress between the lines */
	snprintf(cmd, sizeof(cmd), "%s script -i big.data --pid 1", perfev);
	t = on_tty(cmd);
	CHECK_MSG(t && !strstr(t, "reading"), "progress drawn over the output");
	free(t);

	/* a small file: none */
	snprintf(cmd, sizeof(cmd), "%s script -i small.data --pid 1 > /dev/null", perfev);
	t = on_tty(cmd);
	CHECK_MSG(t && !strstr(t, "reading"), "progress for a 1 MiB file");
	free(t);

	t_sh("rm -rf %s", dir);
	return t_done();
}
