// SPDX-License-Identifier: GPL-2.0-only
/* --to speedscope: speedscope's file format
 * (https://www.speedscope.app/file-format-schema.json): the frames shared
 * (name, file: the DSO), one "sampled" profile per thread whose samples
 * are frame indexes root first, with their weights: 1 a sample, or the
 * period with --value period (unit nanoseconds for the clock events). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "convert/convert_tables.h"
#include "common/json_out.h"

struct ss_frames {
	struct conv_strings names, files;
	struct conv_map by_id;		/* profile frame id -> frame */
	struct conv_map by_key;		/* (name, file) -> frame */
	uint32_t *name, *file;
	size_t n, cap;
};

static uint32_t ss_frame(const struct conv *c, struct ss_frames *fr, uint32_t id)
{
	uint32_t i = conv_map_get(&fr->by_id, id);

	if (i != CONV_NONE)
		return i;
	const struct pev_profile_frame *f = pev_profile_frame(c->prof, id);
	uint32_t name = conv_frame_name(&fr->names, f);
	uint32_t file = f && f->dso ? conv_strings_add(&fr->files, conv_dso_path(f)) : CONV_NONE - 1;

	if (name == CONV_NONE || file == CONV_NONE)
		return CONV_NONE;
	i = conv_map_add(&fr->by_key, (uint64_t)name << 32 | file, (uint32_t)fr->n);
	if (i == CONV_NONE)
		return CONV_NONE;
	if (i == fr->n) {
		if (fr->n == fr->cap) {
			size_t cap = fr->cap ? fr->cap * 2 : 256;
			uint32_t *a = realloc(fr->name, cap * sizeof(*a));

			if (!a)
				return CONV_NONE;
			fr->name = a;
			a = realloc(fr->file, cap * sizeof(*a));
			if (!a)
				return CONV_NONE;
			fr->file = a;
			fr->cap = cap;
		}
		fr->name[fr->n] = name;
		fr->file[fr->n] = file;
		fr->n++;
	}
	return conv_map_add(&fr->by_id, id, i);
}

static void ss_frames_release(struct ss_frames *fr)
{
	conv_strings_release(&fr->names);
	conv_strings_release(&fr->files);
	conv_map_release(&fr->by_id);
	conv_map_release(&fr->by_key);
	free(fr->name);
	free(fr->file);
}

/* One thread's profile; -ENOMEM */
static int ss_profile(const struct conv *c, FILE *o, struct ss_frames *fr,
		      const struct conv_thread *th)
{
	size_t ns;
	const struct pev_profile_sample *s = pev_profile_samples(c->prof, &ns);
	uint64_t total = 0;

	for (size_t i = 0; i < th->n; i++)
		total += conv_value_of(c, &s[th->idx[i]]);
	fputs("{\"type\":\"sampled\",\"name\":", o);
	{
		char name[512];

		snprintf(name, sizeof(name), "%s %" PRId32 "/%" PRId32, th->comm, th->pid, th->tid);
		json_put_str(o, name);
	}
	fprintf(o, ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":%" PRIu64 ",\"samples\":[",
		conv_value_is_ns(c) ? "nanoseconds" : "none", total);
	for (size_t i = 0; i < th->n; i++) {
		const uint32_t *ids;
		size_t n = conv_frames(c, &s[th->idx[i]], &ids);

		fputs(i ? ",[" : "[", o);
		for (size_t j = n; j-- > 0;) {	/* root first */
			uint32_t f = ss_frame(c, fr, ids[j]);

			if (f == CONV_NONE)
				return -ENOMEM;
			if (j + 1 < n)
				fputc(',', o);
			json_put_u64(o, f);
		}
		fputc(']', o);
	}
	fputs("],\"weights\":[", o);
	for (size_t i = 0; i < th->n; i++) {
		if (i)
			fputc(',', o);
		json_put_u64(o, conv_value_of(c, &s[th->idx[i]]));
	}
	fputs("]}", o);
	return 0;
}

int conv_write_speedscope(struct conv *c)
{
	size_t nt = 0, len = 0;
	struct conv_thread *th = conv_threads(c, &nt);
	struct ss_frames fr;
	char *text = NULL;
	FILE *o;
	int err = 0;

	if (!th && errno == ENOMEM) {
		cli_error("out of memory");
		return EXIT_ERROR;
	}
	memset(&fr, 0, sizeof(fr));
	/* the profiles go to memory first: the frames come before them */
	o = open_memstream(&text, &len);
	if (!o) {
		conv_threads_free(th, nt);
		cli_error("out of memory");
		return EXIT_ERROR;
	}
	for (size_t i = 0; i < nt && !err; i++) {
		if (i)
			fputc(',', o);
		err = ss_profile(c, o, &fr, &th[i]);
	}
	if (fclose(o) || !text)
		err = -ENOMEM;
	if (err) {
		free(text);
		ss_frames_release(&fr);
		conv_threads_free(th, nt);
		cli_error("out of memory");
		return EXIT_ERROR;
	}
	o = c->out;
	fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"name\":", o);
	json_put_str(o, c->input);
	fputs(",\"exporter\":\"perfev\",\"activeProfileIndex\":0,\"shared\":{\"frames\":[", o);
	for (size_t i = 0; i < fr.n; i++) {
		fputs(i ? ",{\"name\":" : "{\"name\":", o);
		json_put_str(o, fr.names.s[fr.name[i]]);
		if (fr.file[i] < fr.files.n) {
			fputs(",\"file\":", o);
			json_put_str(o, fr.files.s[fr.file[i]]);
		}
		fputc('}', o);
	}
	fputs("]},\"profiles\":[", o);
	fwrite(text, 1, len, o);
	fputs("]}\n", o);
	if (!c->quiet && !ferror(c->out))
		conv_summary(c, "wrote %zu thread%s (%zu frames) to %s", nt,
			nt == 1 ? "" : "s", fr.n, c->out_name);
	free(text);
	ss_frames_release(&fr);
	conv_threads_free(th, nt);
	return EXIT_OK;
}
