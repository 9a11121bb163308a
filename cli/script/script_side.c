// SPDX-License-Identifier: GPL-2.0-only
/* perfev script: side-band records (--show-*-events) in perf's words, and
 * the -D raw dump. */
#include <ctype.h>
#include <string.h>
#include <sys/mman.h>

#include "script/script.h"

static const char *type_name(uint32_t type)
{
	const char *n = pev_record_type_name(type);

	return n ? n : "UNKNOWN";
}

/* " pid/tid: [addr(len) @ pgoff", shared by MMAP and MMAP2 lines. */
static void mmap_head(struct obuf *o, const struct pev_record_mmap *m)
{
	so_printf(o, " %d/%d: [", (int)m->pid, (int)m->tid);
	so_hex_alt(o, m->addr);
	so_char(o, '(');
	so_hex_alt(o, m->len);
	so_mem(o, ") @ ", 4);
	so_hex_alt(o, m->pgoff);
}

/* The text perf_event__fprintf prints after "PERF_RECORD_<NAME>". */
static void record_details(struct obuf *o, const struct pev_record *rec)
{
	switch (rec->type) {
	case PERF_RECORD_COMM:
		so_printf(o, "%s: %s:%d/%d\n", rec->u.comm.exec ? " exec" : "",
			  rec->u.comm.comm, (int)rec->u.comm.pid, (int)rec->u.comm.tid);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		so_printf(o, "(%d:%d):(%d:%d)\n", (int)rec->u.fork.pid,
			  (int)rec->u.fork.tid, (int)rec->u.fork.ppid,
			  (int)rec->u.fork.ptid);
		break;
	case PERF_RECORD_MMAP: {
		const struct pev_record_mmap *m = &rec->u.mmap;

		mmap_head(o, m);
		so_printf(o, "]: %c %s\n",
			  (rec->misc & PERF_RECORD_MISC_MMAP_DATA) ? 'r' : 'x',
			  m->filename);
		break;
	}
	case PERF_RECORD_MMAP2: {
		const struct pev_record_mmap *m = &rec->u.mmap;

		mmap_head(o, m);
		if (m->has_build_id) {
			so_mem(o, " <", 2);
			for (int i = 0; i < m->build_id_size; i++)
				so_printf(o, "%02x", m->build_id[i]);
			so_char(o, '>');
		} else {
			so_printf(o, " %02x:%02x %llu %llu", m->maj, m->min,
				  (unsigned long long)m->ino,
				  (unsigned long long)m->ino_generation);
		}
		so_printf(o, "]: %c%c%c%c %s\n",
			  (m->prot & PROT_READ) ? 'r' : '-',
			  (m->prot & PROT_WRITE) ? 'w' : '-',
			  (m->prot & PROT_EXEC) ? 'x' : '-',
			  (m->flags & MAP_SHARED) ? 's' : 'p', m->filename);
		break;
	}
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE: {
		const struct pev_record_switch *sw = &rec->u.context_switch;
		const char *in_out = !sw->out ? "IN         " :
				     !sw->preempt ? "OUT        " : "OUT preempt";

		if (rec->type == PERF_RECORD_SWITCH) {
			so_printf(o, " %s\n", in_out);
			break;
		}
		so_printf(o, " %s  %s pid/tid: %5d/%-5d\n", in_out,
			  sw->out ? "next" : "prev", (int)sw->next_prev_pid,
			  (int)sw->next_prev_tid);
		break;
	}
	case PERF_RECORD_LOST:
		so_printf(o, " lost %llu\n", (unsigned long long)rec->u.lost.lost);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		so_printf(o, " lost %llu\n", (unsigned long long)rec->u.lost_samples.lost);
		break;
	case PERF_RECORD_NAMESPACES: {
		/* perf_event__fprintf_namespaces: four a line */
		static const char *const names[] = { "net", "uts", "ipc", "pid", "user", "mnt",
						     "cgroup" };
		const struct pev_record_namespaces *ns = &rec->u.namespaces;
		uint32_t nr = (uint32_t)ns->nr;

		so_printf(o, " %d/%d - nr_namespaces: %u\n\t\t[", (int)ns->pid, (int)ns->tid, nr);
		for (uint32_t i = 0; i < nr; i++) {
			if (i && i % 4 == 0)
				so_mem(o, "\n\t\t ", 4);
			so_printf(o, "%u/%s: %llu/%#llx%s", i, i < 7 ? names[i] : "UNKNOWN",
				  (unsigned long long)ns->links[i].dev,
				  (unsigned long long)ns->links[i].ino, i + 1 != nr ? ", " : "]\n");
		}
		break;
	}
	case PERF_RECORD_CGROUP:
		so_printf(o, " cgroup: %llu %s\n", (unsigned long long)rec->u.cgroup.id,
			  rec->u.cgroup.path);
		break;
	default:
		so_char(o, '\n');
		break;
	}
}

/* The thread a side-band line is printed for (perf's choice per type). */
static void record_thread(const struct pev_record *rec, uint32_t *pid, uint32_t *tid)
{
	switch (rec->type) {
	case PERF_RECORD_COMM:
		*pid = rec->u.comm.pid;
		*tid = rec->u.comm.tid;
		return;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		*pid = rec->u.fork.pid;
		*tid = rec->u.fork.tid;
		return;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		*pid = rec->u.mmap.pid;
		*tid = rec->u.mmap.tid;
		return;
	case PERF_RECORD_NAMESPACES:
		*pid = rec->u.namespaces.pid;
		*tid = rec->u.namespaces.tid;
		return;
	default:
		*pid = rec->sample_id.pid;
		*tid = rec->sample_id.tid;
		return;
	}
}

void script_print_side(struct script *s, const struct pev_record *rec)
{
	size_t idx = rec->attr_index >= 0 ? (size_t)rec->attr_index : 0;
	struct pev_sample_id sid;
	uint32_t pid, tid;
	bool has_time;

	if (script_event_setup(s, idx) < 0)
		return;
	record_thread(rec, &pid, &tid);
	if (rec->has_sample_id) {
		sid = rec->sample_id;
		has_time = sid.fields & PERF_SAMPLE_TIME;
	} else {
		/* No sample_id_all: perf prints cpu 0, the record's own
		 * pid/tid, and time 0 (a FORK/EXIT's own time). */
		memset(&sid, 0, sizeof(sid));
		sid.pid = pid;
		sid.tid = tid;
		if (rec->type == PERF_RECORD_FORK || rec->type == PERF_RECORD_EXIT)
			sid.time = rec->u.fork.time;
		has_time = true;
	}
	script_print_start(s, &s->events[idx], &sid, pid, tid, has_time, rec);
	so_mem(&s->out, "PERF_RECORD_", 12);
	so_str(&s->out, type_name(rec->type));
	record_details(&s->out, rec);
}

static void hexdump(struct obuf *o, const uint8_t *p, size_t n)
{
	for (size_t off = 0; off < n; off += 16) {
		size_t k = n - off < 16 ? n - off : 16;

		so_printf(o, ".  %04zx: ", off);
		for (size_t i = 0; i < 16; i++) {
			if (i < k)
				so_printf(o, " %02x", p[off + i]);
			else
				so_mem(o, "   ", 3);
		}
		so_mem(o, "  ", 2);
		for (size_t i = 0; i < k; i++)
			so_char(o, isprint(p[off + i]) ? (char)p[off + i] : '.');
		so_char(o, '\n');
	}
}

static void dump_sample(struct obuf *o, const struct pev_record *rec)
{
	const struct pev_sample *smp = &rec->u.sample;

	so_printf(o, "(IP, 0x%x): %d/%d: %#llx period: %llu addr: %#llx\n",
		  rec->misc, (int)smp->pid, (int)smp->tid,
		  (unsigned long long)smp->ip, (unsigned long long)smp->period,
		  (unsigned long long)smp->addr);
	if (smp->fields & PERF_SAMPLE_CALLCHAIN) {
		so_printf(o, "... FP chain: nr:%llu\n",
			  (unsigned long long)smp->callchain.nr);
		for (uint64_t i = 0; i < smp->callchain.nr; i++)
			so_printf(o, ".....  %2llu: %016llx\n", (unsigned long long)i,
				  (unsigned long long)smp->callchain.ips[i]);
	}
	if (smp->fields & PERF_SAMPLE_RAW)
		so_printf(o, "... raw size: %u\n", smp->raw.size);
	if (smp->fields & (PERF_SAMPLE_TID))
		so_printf(o, " ... thread: %d:%d\n", (int)smp->pid, (int)smp->tid);
	if (smp->fields & PERF_SAMPLE_ID)
		so_printf(o, " ...... id: %llu\n", (unsigned long long)smp->id);
	if (smp->fields & PERF_SAMPLE_CPU)
		so_printf(o, " ...... dso/cpu: %u\n", smp->cpu);
}

/* perf script -D: every record, in file order, with its offset, size,
 * type, a hex dump, and its decoded fields. */
void script_dump_raw(struct script *s, const struct pev_data_event *ev)
{
	struct obuf *o = &s->out;
	const struct pev_record *rec = &ev->rec;

	so_printf(o, "\n%#llx [%#x]: event: %u\n.\n. ... raw event: size %u bytes\n",
		  (unsigned long long)ev->offset, rec->size, rec->type, rec->size);
	hexdump(o, rec->raw, rec->size);
	so_char(o, '\n');
	if (ev->decode_error) {
		so_printf(o, "%#llx [%#x]: PERF_RECORD_%s: bad record: %s %s\n",
			  (unsigned long long)ev->offset, rec->size, type_name(rec->type),
			  rec->error.field ? rec->error.field : "?",
			  rec->error.reason ? rec->error.reason : "");
		return;
	}
	if (rec->has_sample_id && (rec->sample_id.fields & PERF_SAMPLE_TIME))
		so_printf(o, "%llu ", (unsigned long long)rec->sample_id.time);
	else if (rec->type < PEV_RECORD_USER_TYPE_START)
		so_mem(o, "0 ", 2);
	so_printf(o, "%#llx [%#x]: PERF_RECORD_%s", (unsigned long long)ev->offset,
		  rec->size, type_name(rec->type));
	if (rec->type == PERF_RECORD_SAMPLE)
		dump_sample(o, rec);
	else
		record_details(o, rec);
}
