// SPDX-License-Identifier: GPL-2.0-only
/* --to firefox: the Firefox Profiler's processed profile format (what
 * samply writes), gzipped JSON.  We write processed version 52 (Gecko
 * version 31): the last with per-thread tables and a per-thread
 * stringArray; the profiler upgrades older processed versions on load
 * (src/profile-logic/processed-profile-versioning), as it does samply's
 * files.  One thread per tid, each with its stack, frame, func and
 * resource tables; the libs (one per DSO) are the profile's. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "convert/convert_tables.h"
#include "common/json_out.h"

#define FX_PROCESSED_VERSION 52
#define FX_GECKO_VERSION 31

enum { CAT_OTHER, CAT_USER, CAT_KERNEL };

struct vec {
	uint32_t *v;
	size_t n, cap;
};

static int vec_push(struct vec *a, uint32_t x)
{
	if (a->n == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 64;
		uint32_t *v = realloc(a->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		a->v = v;
		a->cap = cap;
	}
	a->v[a->n++] = x;
	return 0;
}

struct fx_libs {
	struct conv_map by_dso;		/* dso pointer -> lib index */
	struct pev_dso **dso;
	size_t n;
};

struct fx_thread {
	struct conv_strings str;
	struct conv_map res_by_lib, func_by_key, frame_by_id;
	struct vec res_lib, res_name;			/* resourceTable */
	struct vec func_name, func_res;			/* funcTable */
	struct vec frame_func, frame_cat, frame_id;	/* frameTable */
	struct conv_tree stacks;			/* (prefix, frame) */
	struct vec sample_stack;
};

static void fx_thread_release(struct fx_thread *t)
{
	struct vec *v[] = { &t->res_lib, &t->res_name, &t->func_name, &t->func_res,
			    &t->frame_func, &t->frame_cat, &t->frame_id, &t->sample_stack };

	conv_strings_release(&t->str);
	conv_map_release(&t->res_by_lib);
	conv_map_release(&t->func_by_key);
	conv_map_release(&t->frame_by_id);
	conv_tree_release(&t->stacks);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		free(v[i]->v);
}

static uint32_t lib_of(struct fx_libs *l, struct pev_dso *dso)
{
	uint32_t i = conv_map_add(&l->by_dso, (uintptr_t)dso, (uint32_t)l->n);

	if (i != l->n)
		return i;
	struct pev_dso **d = realloc(l->dso, (l->n + 1) * sizeof(*d));

	if (!d)
		return CONV_NONE;
	l->dso = d;
	d[l->n++] = dso;
	return i;
}

/* The frameTable index of profile frame id, added with its func and
 * resource when new. */
static uint32_t fx_frame(const struct conv *c, struct fx_libs *libs, struct fx_thread *t,
			 uint32_t id)
{
	uint32_t fi = conv_map_get(&t->frame_by_id, id);

	if (fi != CONV_NONE)
		return fi;
	const struct pev_profile_frame *f = pev_profile_frame(c->prof, id);
	uint32_t res = CONV_NONE, name = conv_frame_name(&t->str, f);

	if (name == CONV_NONE)
		return CONV_NONE;
	if (f && f->dso) {
		uint32_t lib = lib_of(libs, f->dso);

		if (lib == CONV_NONE)
			return CONV_NONE;
		res = conv_map_add(&t->res_by_lib, lib, (uint32_t)t->res_lib.n);
		if (res == t->res_lib.n) {
			uint32_t rn = conv_strings_add(&t->str, pev_profile_dso_short(f->dso));

			if (rn == CONV_NONE || vec_push(&t->res_lib, lib) || vec_push(&t->res_name, rn))
				return CONV_NONE;
		}
	}
	uint64_t key = (uint64_t)name << 32 | (uint32_t)(res + 1);
	uint32_t func = conv_map_add(&t->func_by_key, key, (uint32_t)t->func_name.n);

	if (func == CONV_NONE)
		return CONV_NONE;
	if (func == t->func_name.n &&
	    (vec_push(&t->func_name, name) || vec_push(&t->func_res, res)))
		return CONV_NONE;
	fi = (uint32_t)t->frame_func.n;
	if (conv_map_add(&t->frame_by_id, id, fi) == CONV_NONE ||
	    vec_push(&t->frame_func, func) ||
	    vec_push(&t->frame_cat, !f ? CAT_OTHER : f->level == 'k' ? CAT_KERNEL : CAT_USER) ||
	    vec_push(&t->frame_id, id))
		return CONV_NONE;
	return fi;
}

static int fx_build(const struct conv *c, struct fx_libs *libs, const struct conv_thread *th,
		    struct fx_thread *t)
{
	size_t ns;
	const struct pev_profile_sample *s = pev_profile_samples(c->prof, &ns);
	/* chains are interned: each is walked into the stack table once
	 * (its interned chain, or its own frame above 2^32 -> stack) */
	struct conv_map memo = { 0 };
	int err = 0;

	for (size_t i = 0; i < th->n && !err; i++) {
		const struct pev_profile_sample *sp = &s[th->idx[i]];
		uint64_t key = sp->chain != UINT32_MAX ? sp->chain : 1ull << 32 | sp->self;
		uint32_t stack = conv_map_get(&memo, key);

		if (stack == CONV_NONE) {
			const uint32_t *ids;
			size_t n = conv_frames(c, sp, &ids);

			for (size_t j = n; j-- > 0 && !err;) {	/* root first */
				uint32_t fr = fx_frame(c, libs, t, ids[j]);

				if (fr == CONV_NONE ||
				    (stack = conv_tree_add(&t->stacks, stack, fr)) == CONV_NONE)
					err = -ENOMEM;
			}
			/* a stack with no frames stays CONV_NONE (walked again: free) */
			if (!err && stack != CONV_NONE && conv_map_add(&memo, key, stack) == CONV_NONE)
				err = -ENOMEM;
		}
		if (!err && vec_push(&t->sample_stack, stack))
			err = -ENOMEM;
	}
	conv_map_release(&memo);
	return err;
}

/* "name":[v0,v1,...], after the fields before it: from a function of the row */
#define COLUMN(o, name, count, ...) do {			\
	fprintf(o, ",\"%s\":[", name);				\
	for (size_t i_ = 0; i_ < (count); i_++) {		\
		if (i_)						\
			fputc(',', o);				\
		__VA_ARGS__;					\
	}							\
	fputc(']', o);						\
} while (0)

static void put_u32_or(FILE *o, uint32_t v, const char *none)
{
	if (v == CONV_NONE)
		fputs(none, o);
	else
		json_put_u64(o, v);
}

static void fx_write_thread(const struct conv *c, FILE *o, const struct conv_thread *th,
			    const struct fx_thread *t, uint64_t t0)
{
	size_t ns;
	const struct pev_profile_sample *s = pev_profile_samples(c->prof, &ns);

	fputs("{\"processType\":\"default\",\"processStartupTime\":0,\"processShutdownTime\":null,"
	      "\"registerTime\":0,\"unregisterTime\":null,\"pausedRanges\":[],\"name\":", o);
	json_put_str(o, th->comm);
	fprintf(o, ",\"isMainThread\":%s,\"processName\":", th->tid == th->pid ? "true" : "false");
	json_put_str(o, th->process);
	fprintf(o, ",\"pid\":\"%" PRId32 "\",\"tid\":%" PRId32 ",", th->pid, th->tid);

	fprintf(o, "\"samples\":{\"weightType\":\"samples\",\"length\":%zu", th->n);
	COLUMN(o, "stack", th->n, put_u32_or(o, t->sample_stack.v[i_], "null"));
	/* ms from the first sample, exact to the ns */
	COLUMN(o, "time", th->n, json_put_decimal(o, s[th->idx[i_]].time - t0, 6));
	COLUMN(o, "weight", th->n, json_put_u64(o, conv_value_of(c, &s[th->idx[i_]])));
	fputs("},", o);

	fputs("\"markers\":{\"data\":[],\"name\":[],\"startTime\":[],\"endTime\":[],"
	      "\"phase\":[],\"category\":[],\"length\":0},", o);

	fprintf(o, "\"stackTable\":{\"length\":%zu", t->stacks.n);
	COLUMN(o, "frame", t->stacks.n, json_put_u64(o, t->stacks.key[i_]));
	COLUMN(o, "category", t->stacks.n, json_put_u64(o, t->frame_cat.v[t->stacks.key[i_]]));
	COLUMN(o, "subcategory", t->stacks.n, fputc('0', o));
	COLUMN(o, "prefix", t->stacks.n, put_u32_or(o, t->stacks.parent[i_], "null"));
	fputs("},", o);

	size_t nf = t->frame_func.n;

	fprintf(o, "\"frameTable\":{\"length\":%zu", nf);
	COLUMN(o, "address", nf, {
		const struct pev_profile_frame *f = pev_profile_frame(c->prof, t->frame_id.v[i_]);

		/* JavaScript numbers are exact up to 2^53 */
		if (f && f->dso && f->addr < (1ull << 53))
			json_put_u64(o, f->addr);
		else
			fputs("-1", o);
	});
	COLUMN(o, "inlineDepth", nf, fputc('0', o));
	COLUMN(o, "category", nf, json_put_u64(o, t->frame_cat.v[i_]));
	COLUMN(o, "subcategory", nf, fputc('0', o));
	COLUMN(o, "func", nf, json_put_u64(o, t->frame_func.v[i_]));
	COLUMN(o, "nativeSymbol", nf, fputs("null", o));
	COLUMN(o, "innerWindowID", nf, fputs("null", o));
	COLUMN(o, "implementation", nf, fputs("null", o));
	COLUMN(o, "line", nf, fputs("null", o));
	COLUMN(o, "column", nf, fputs("null", o));
	fputs("},", o);

	size_t nfn = t->func_name.n;

	fprintf(o, "\"funcTable\":{\"length\":%zu", nfn);
	COLUMN(o, "name", nfn, json_put_u64(o, t->func_name.v[i_]));
	COLUMN(o, "isJS", nfn, fputs("false", o));
	COLUMN(o, "relevantForJS", nfn, fputs("false", o));
	COLUMN(o, "resource", nfn, put_u32_or(o, t->func_res.v[i_], "-1"));
	COLUMN(o, "fileName", nfn, fputs("null", o));
	COLUMN(o, "lineNumber", nfn, fputs("null", o));
	COLUMN(o, "columnNumber", nfn, fputs("null", o));
	fputs("},", o);

	size_t nr = t->res_lib.n;

	fprintf(o, "\"resourceTable\":{\"length\":%zu", nr);
	COLUMN(o, "lib", nr, fprintf(o, "%" PRIu32, t->res_lib.v[i_]));
	COLUMN(o, "name", nr, fprintf(o, "%" PRIu32, t->res_name.v[i_]));
	COLUMN(o, "host", nr, fputs("null", o));
	COLUMN(o, "type", nr, fputc('1', o));	/* library */
	fputs("},", o);

	fputs("\"nativeSymbols\":{\"libIndex\":[],\"address\":[],\"name\":[],"
	      "\"functionSize\":[],\"length\":0}", o);
	COLUMN(o, "stringArray", t->str.n, json_put_str(o, t->str.s[i_]));
	fputc('}', o);
}

/* breakpad's id of an ELF build id: its first 16 bytes as a GUID (the
 * first three fields little-endian) in upper-case hex, and age 0 */
static void breakpad_id(const uint8_t *id, size_t size, char *out)
{
	static const int order[16] = { 3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15 };
	uint8_t g[16] = { 0 };

	memcpy(g, id, size < 16 ? size : 16);
	for (int i = 0; i < 16; i++)
		sprintf(out + 2 * i, "%02X", g[order[i]]);
	strcpy(out + 32, "0");
}

static void fx_write_lib(const struct conv *c, FILE *o, struct pev_dso *dso)
{
	const struct pev_data_features *f = pev_data_features(c->data);
	const char *path = pev_dso_name(dso), *name = pev_profile_dso_short(dso);
	const struct pev_data_build_id *b = NULL;
	char bp[40] = "";

	for (size_t i = 0; f && i < f->nr_build_ids; i++)
		if (f->build_ids[i].filename && !strcmp(f->build_ids[i].filename, path))
			b = &f->build_ids[i];
	fputs("{\"arch\":\"x86_64\",\"name\":", o);
	json_put_str(o, name);
	fputs(",\"path\":", o);
	json_put_str(o, path);
	fputs(",\"debugName\":", o);
	json_put_str(o, name);
	fputs(",\"debugPath\":", o);
	json_put_str(o, path);
	if (b && b->size)
		breakpad_id(b->id, b->size, bp);
	fprintf(o, ",\"breakpadId\":\"%s\",\"codeId\":", bp);
	if (b && b->size) {
		fputc('"', o);
		for (size_t i = 0; i < b->size; i++)
			fprintf(o, "%02x", b->id[i]);
		fputc('"', o);
	} else
		fputs("null", o);
	fputc('}', o);
}

/* product: the name the profiler shows for the profile (the first
 * process's) */
static void fx_write_meta(const struct conv *c, FILE *o, const char *product, double end_ms)
{
	fprintf(o, "\"meta\":{\"version\":%d,\"preprocessedProfileVersion\":%d,"
		"\"interval\":%.6f,\"startTime\":0,\"profilingStartTime\":0,"
		"\"profilingEndTime\":%.6f,\"processType\":0,\"product\":",
		FX_GECKO_VERSION, FX_PROCESSED_VERSION, conv_interval_ms(c), end_ms);
	json_put_str(o, product ? product : "perfev");
	fputs(",\"importedFrom\":\"perf.data\",\"stackwalk\":1,\"symbolicated\":true,"
	      "\"platform\":\"X11\",\"oscpu\":\"Linux\",\"markerSchema\":[],"
	      "\"categories\":["
	      "{\"name\":\"Other\",\"color\":\"grey\",\"subcategories\":[\"Other\"]},"
	      "{\"name\":\"User\",\"color\":\"yellow\",\"subcategories\":[\"Other\"]},"
	      "{\"name\":\"Kernel\",\"color\":\"orange\",\"subcategories\":[\"Other\"]}]}", o);
}

int conv_write_firefox(struct conv *c)
{
	size_t nt = 0;
	struct conv_thread *th = conv_threads(c, &nt);
	struct fx_libs libs;
	FILE *o;
	uint64_t t0, t1;
	int err = 0;

	if (!th && errno == ENOMEM) {
		cli_error("out of memory");
		return EXIT_ERROR;
	}
	memset(&libs, 0, sizeof(libs));
	conv_time_span(th, nt, &t0, &t1);
	o = conv_gzip_open(c->out);
	if (!o) {
		conv_threads_free(th, nt);
		cli_error("out of memory");
		return EXIT_ERROR;
	}
	fputc('{', o);
	fx_write_meta(c, o, nt ? th[0].process : NULL, (double)(t1 - t0) / 1e6 + conv_interval_ms(c));
	fputs(",\"threads\":[", o);
	for (size_t i = 0; i < nt && !err; i++) {
		struct fx_thread t;

		memset(&t, 0, sizeof(t));
		err = fx_build(c, &libs, &th[i], &t);
		if (!err) {
			if (i)
				fputc(',', o);
			fx_write_thread(c, o, &th[i], &t, t0);
		}
		fx_thread_release(&t);
	}
	fputs("],\"libs\":[", o);
	for (size_t i = 0; i < libs.n; i++) {
		if (i)
			fputc(',', o);
		fx_write_lib(c, o, libs.dso[i]);
	}
	fputs("]}\n", o);
	/* a write error shows in ferror(c->out): the driver reports it */
	if (fclose(o) && !ferror(c->out))
		err = err ? err : -ENOMEM;
	free(libs.dso);
	conv_map_release(&libs.by_dso);
	conv_threads_free(th, nt);
	if (err) {
		cli_error("out of memory");
		return EXIT_ERROR;
	}
	if (!c->quiet && !ferror(c->out))
		conv_summary(c, "wrote %zu thread%s (%zu libraries) to %s", nt,
			nt == 1 ? "" : "s", libs.n, c->out_name);
	return EXIT_OK;
}
