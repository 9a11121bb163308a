// SPDX-License-Identifier: GPL-2.0-only
/* A main() for a libFuzzer harness without libFuzzer: feed each file named
 * on the command line (or each file of each directory named) to
 * LLVMFuzzerTestOneInput once.  Used by `make check-arm64`, which runs the
 * committed corpora under qemu-aarch64 (gcc builds this; no clang runtime
 * for arm64 is needed).  Exit 0 when every input ran; a harness that trips
 * abort() or a crash ends the process, which the runner reports. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return -1;
	}
	size_t cap = 4096, n = 0, r;
	uint8_t *buf = malloc(cap);
	while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			uint8_t *nb = realloc(buf, cap *= 2);
			if (!nb) {
				free(buf);
				buf = NULL;
			}
			buf = nb;
		}
	}
	fclose(f);
	if (!buf) {
		fprintf(stderr, "%s: out of memory\n", path);
		return -1;
	}
	/* An exact-size copy, so that a read past the input is a read past
	 * a heap block (as under libFuzzer), not into spare capacity. */
	uint8_t *in = malloc(n ? n : 1);
	if (!in) {
		free(buf);
		return -1;
	}
	memcpy(in, buf, n);
	free(buf);
	LLVMFuzzerTestOneInput(in, n);
	free(in);
	return 0;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of dir, in name order; the count of inputs run or -1. */
static long run_dir(const char *dir)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, NULL);
	long done = 0;
	if (n < 0) {
		perror(dir);
		return -1;
	}
	char **names = calloc((size_t)n + 1, sizeof(*names));
	int k = 0;
	for (int i = 0; i < n; i++) {
		if (names && ents[i]->d_name[0] != '.')
			names[k++] = strdup(ents[i]->d_name);
		free(ents[i]);
	}
	free(ents);
	if (!names)
		return -1;
	qsort(names, (size_t)k, sizeof(*names), cmp);
	for (int i = 0; i < k; i++) {
		char path[4096];
		struct stat st;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (names[i] && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			if (run_file(path) < 0)
				done = -1;
			else if (done >= 0)
				done++;
		}
		free(names[i]);
	}
	free(names);
	return done;
}

int main(int argc, char **argv)
{
	long total = 0;
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		struct stat st;
		long r;
		if (stat(argv[i], &st) != 0) {
			perror(argv[i]);
			return 1;
		}
		r = S_ISDIR(st.st_mode) ? run_dir(argv[i]) : (run_file(argv[i]) ? -1 : 1);
		if (r < 0)
			return 1;
		total += r;
	}
	printf("%ld inputs run\n", total);
	return 0;
}
