/* perfev script: shared between cmd_script.c and script_*.c. */
#ifndef PEV_CLI_SCRIPT_H
#define PEV_CLI_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <perfev/perfev.h>
#include <perfev/symbols.h>

/* ---- Output buffer: hand-formatted, written in large chunks. */
struct obuf {
	char *buf;
	size_t len, cap;
	int fd;
	int err;		/* first write error (-errno), sticky */
};

int so_init(struct obuf *o, int fd);
void so_release(struct obuf *o);
void so_flush(struct obuf *o);
/* Makes room for n more bytes (flushing when the buffer is large). */
static inline char *so_reserve(struct obuf *o, size_t n)
{
	extern char *so_grow(struct obuf *o, size_t n);

	if (o->cap - o->len < n)
		return so_grow(o, n);
	return o->buf + o->len;
}
static inline void so_char(struct obuf *o, char c)
{
	char *p = so_reserve(o, 1);

	*p = c;
	o->len++;
}
void so_mem(struct obuf *o, const char *s, size_t n);
void so_str(struct obuf *o, const char *s);
void so_spaces(struct obuf *o, size_t n);
/* printf("%*s") / ("%-*s"): s right- (or left-) aligned in width. */
void so_str_w(struct obuf *o, const char *s, int width, bool left);
/* Unsigned decimal, right-aligned in width (0: no padding). */
void so_u64(struct obuf *o, uint64_t v, int width);
/* Signed decimal: right-aligned, or left-aligned when left. */
void so_s64(struct obuf *o, int64_t v, int width, bool left);
/* Zero-padded unsigned decimal of exactly `digits` digits (or more). */
void so_u64_zero(struct obuf *o, uint64_t v, int digits);
/* Lowercase hex without 0x, right-aligned in width. */
void so_hex(struct obuf *o, uint64_t v, int width);
/* printf("%#lx"): "0" for zero, else "0x..." */
void so_hex_alt(struct obuf *o, uint64_t v);
void so_printf(struct obuf *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- Fields (perf script -F), in perf's bit order. */
enum {
	F_COMM = 1u << 0, F_TID = 1u << 1, F_PID = 1u << 2, F_TIME = 1u << 3,
	F_CPU = 1u << 4, F_EVNAME = 1u << 5, F_TRACE = 1u << 6, F_IP = 1u << 7,
	F_SYM = 1u << 8, F_DSO = 1u << 9, F_ADDR = 1u << 10,
	F_SYMOFFSET = 1u << 11, F_PERIOD = 1u << 12, F_MISC = 1u << 13,
	F_PHYS_ADDR = 1u << 14, F_WEIGHT = 1u << 15, F_DATA_SRC = 1u << 16,
	F_CGROUP = 1u << 17,
};

/* Per-event output settings. */
struct script_event {
	const struct perf_event_attr *attr;
	const char *name;	/* name_buf, or the owned copy `owned` */
	char name_buf[64];
	char *owned;
	unsigned fields;
	bool callchain;		/* sample has CALLCHAIN and -G not given */
	struct tep_event *tp;	/* tracepoint format, or NULL */
	bool ready;
};

struct script_opts {
	const char *input;
	const char *fields;
	const char *kallsyms;
	bool show_task, show_mmap, show_switch, show_lost;
	bool dump_raw, dump_unsorted;
	bool hide_callchain;
	bool ns;
	int max_stack;
};

struct script {
	struct script_opts opt;
	struct pev_data *data;
	const struct pev_decoder *dec;
	struct pev_dso_cache *dsos;
	struct pev_machine *machine;
	struct obuf out;
	struct script_event *events;
	size_t nr_events;
	int name_width;		/* computed at the first sample */
	struct tep_handle *tep;
	struct tep_plugin_list *tep_plugins;
	bool tep_tried;
	/* -F as parsed: per perf type (0..5, 6 = other) */
	struct {
		bool user_set, wildcard;
		unsigned set, add, del;
	} fsel[8];
	bool fsel_any;
};

/* script_fields.c */
int script_fields_parse(struct script *s, const char *spec);
int script_event_setup(struct script *s, size_t idx);
/* Takes the file's name for event idx again (pipe mode names arrive
 * after the attrs). */
void script_event_refresh_name(struct script *s, size_t idx);
const char *script_field_missing(const struct perf_event_attr *attr, unsigned fields);

/* script_sample.c */
void script_print_sample(struct script *s, const struct pev_record *rec);
void script_print_start(struct script *s, const struct script_event *ev,
			const struct pev_sample_id *sid, uint32_t pid, uint32_t tid,
			bool has_time);

/* script_side.c */
void script_print_side(struct script *s, const struct pev_record *rec);
void script_dump_raw(struct script *s, const struct pev_data_event *ev);

/* script_trace.c */
int script_trace_setup(struct script *s);
void script_trace_print(struct script *s, struct script_event *ev,
			const struct pev_sample *smp);
struct tep_event *script_trace_find(struct script *s, const struct perf_event_attr *attr);
void script_trace_release(struct script *s);

#endif
