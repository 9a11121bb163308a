/* SPDX-License-Identifier: GPL-2.0-only */
/* What the viewer writers (firefox, speedscope, chrome) share: an integer
 * map, a string table, the shown samples grouped by thread, and gzip of a
 * finished text. */
#ifndef PEV_CLI_CONVERT_TABLES_H
#define PEV_CLI_CONVERT_TABLES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "convert/convert.h"

#define CONV_NONE UINT32_MAX

/* An open-addressing map from 64-bit keys to indexes.  Zeroed: empty. */
struct conv_map {
	uint64_t *keys;		/* key + 1; 0: free slot */
	uint32_t *vals;
	size_t cap, n;
};
/* The value of key, or CONV_NONE. */
uint32_t conv_map_get(const struct conv_map *m, uint64_t key);
/* The value of key; when absent, sets it to val and returns val.
 * CONV_NONE when out of memory.  key must not be UINT64_MAX. */
uint32_t conv_map_add(struct conv_map *m, uint64_t key, uint32_t val);
void conv_map_release(struct conv_map *m);

/* Interned strings, numbered in the order they were first added. */
struct conv_strings {
	char **s;
	size_t n, cap;
	struct conv_map by_hash;	/* hash -> first index with it */
	uint32_t *next;			/* chain of equal hashes */
};
/* The index of s (copied when new); CONV_NONE when out of memory. */
uint32_t conv_strings_add(struct conv_strings *t, const char *s);
void conv_strings_release(struct conv_strings *t);

/* A call-stack tree: node (parent, key) numbered in the order of
 * creation, so a parent always has a smaller number than its children. */
struct conv_tree {
	struct conv_map map;
	uint32_t *parent, *key;
	size_t n, cap;
};
/* The node under parent (CONV_NONE: a root) for key; CONV_NONE when out
 * of memory. */
uint32_t conv_tree_add(struct conv_tree *t, uint32_t parent, uint32_t key);
void conv_tree_release(struct conv_tree *t);

/* One thread of the output: its shown samples, in the order they came. */
struct conv_thread {
	int32_t pid, tid;
	const char *comm;		/* its last sample's comm */
	const char *process;		/* the comm of its process's main thread
					 * (tid == pid) when it has samples, else comm */
	const uint32_t *idx;		/* sample indexes */
	size_t n;
	uint64_t first_time, last_time;
};
/* The threads of the shown samples (conv_sample_on), ordered by pid then
 * tid, *n of them; their idx index pev_profile_samples.  Free with
 * conv_threads_free.  NULL and *n = 0 when no sample is shown (errno 0)
 * or out of memory (errno ENOMEM). */
struct conv_thread *conv_threads(const struct conv *c, size_t *n);
void conv_threads_free(struct conv_thread *t, size_t n);
/* The earliest and latest time of the shown samples (0 and 0: none). */
void conv_time_span(const struct conv_thread *t, size_t n, uint64_t *first, uint64_t *last);

/* The frames of sample s, leaf first, as perf script shows them: none for
 * a sample of a file with call chains whose chain came out empty (perf
 * drops a chain with an invalid context marker whole), else conv_stack's. */
size_t conv_frames(const struct conv *c, const struct pev_profile_sample *s,
		   const uint32_t **ids);

/* A stream whose bytes are written gzipped to out (one gzip member,
 * finished by fclose, which returns EOF when a write to out failed).
 * NULL and errno when out of memory. */
FILE *conv_gzip_open(FILE *out);

/* The name the viewers show for a frame: conv_func_name, interned in t.
 * CONV_NONE when out of memory. */
uint32_t conv_frame_name(struct conv_strings *t, const struct pev_profile_frame *f);
/* Whether the shown event's sample value is time in nanoseconds
 * (cpu-clock, task-clock and offcpu-time, with --value period). */
bool conv_value_is_ns(const struct conv *c);
/* The sampling interval of the first shown event in milliseconds
 * (1000/freq, or a clock's period), 1 when unknown. */
double conv_interval_ms(const struct conv *c);

#endif
