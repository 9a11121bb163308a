// SPDX-License-Identifier: GPL-2.0-only
/* perfev script: printing samples the way perf script 6.1 does (the hot
 * path: every field is formatted by hand into the output buffer). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/cli.h"
#include "script/script.h"

/* Debian's perf 6.1 prints "%5d" pid/tid columns (later perfs "%7d"). */
#define TID_WIDTH 5

/* perf: "%5lu.%06lu: " (or "%5lu.%09lu: " with --ns). */
static void print_time(struct script *s, uint64_t t)
{
	struct obuf *o = &s->out;

	/* perf 6.1 (perf_sample__fprintf_start): from the first time
	 * printed that is not 0, or from the time printed before */
	if (s->opt.reltime) {
		if (!s->initial_time)
			s->initial_time = t;
		t -= s->initial_time;
	} else if (s->opt.deltatime) {
		uint64_t prev = s->previous_time;

		s->previous_time = t;
		t = prev ? t - prev : 0;
	}
	uint64_t secs = t / 1000000000ull, ns = t % 1000000000ull;

	so_u64(o, secs, 5);
	so_char(o, '.');
	if (s->opt.ns)
		so_u64_zero(o, ns, 9);
	else
		so_u64_zero(o, ns / 1000, 6);
	so_mem(o, ": ", 2);
}

/* perf's misc column: K/U/H/G/g tested as (misc & m) == m over the
 * cpumode values (so a hypervisor sample reads "KUH"), then the record
 * type's flag, padded as perf's "%*s" of " " to 6 - n. */
static void print_misc(struct obuf *o, const struct pev_record *rec)
{
	static const struct { unsigned m; char c; } modes[] = {
		{ PERF_RECORD_MISC_KERNEL, 'K' }, { PERF_RECORD_MISC_USER, 'U' },
		{ PERF_RECORD_MISC_HYPERVISOR, 'H' },
		{ PERF_RECORD_MISC_GUEST_KERNEL, 'G' },
		{ PERF_RECORD_MISC_GUEST_USER, 'g' },
	};
	unsigned misc = rec->misc;
	int n = 0;

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if ((misc & modes[i].m) == modes[i].m) {
			so_char(o, modes[i].c);
			n++;
		}
	switch (rec->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (misc & PERF_RECORD_MISC_MMAP_DATA) {
			so_char(o, 'M');
			n++;
		}
		break;
	case PERF_RECORD_COMM:
		if (misc & PERF_RECORD_MISC_COMM_EXEC) {
			so_char(o, 'E');
			n++;
		}
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (misc & PERF_RECORD_MISC_SWITCH_OUT) {
			so_char(o, 'S');
			n++;
			if (misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) {
				so_char(o, 'p');
				n++;
			}
		}
		break;
	default:
		break;
	}
	so_spaces(o, n < 5 ? (size_t)(6 - n) : 1);
}

void script_print_start(struct script *s, const struct script_event *ev,
			const struct pev_sample_id *sid, uint32_t pid, uint32_t tid,
			bool has_time, const struct pev_record *rec)
{
	struct obuf *o = &s->out;
	uint64_t f = ev->fields;

	if (f & F_COMM) {
		const char *comm = pev_machine_comm(s->machine, pid, tid);

		if ((f & F_IP) && ev->callchain) {
			so_str(o, comm);
			so_char(o, ' ');
		} else {
			so_str_w(o, comm, 16, false);
			so_char(o, ' ');
		}
	}
	if ((f & F_PID) && (f & F_TID)) {
		so_s64(o, (int32_t)sid->pid, TID_WIDTH, false);
		so_char(o, '/');
		so_s64(o, (int32_t)sid->tid, TID_WIDTH, true);
		so_char(o, ' ');
	} else if (f & F_PID) {
		so_s64(o, (int32_t)sid->pid, TID_WIDTH, false);
		so_char(o, ' ');
	} else if (f & F_TID) {
		so_s64(o, (int32_t)sid->tid, TID_WIDTH, false);
		so_char(o, ' ');
	}
	if (f & F_CPU) {
		so_char(o, '[');
		so_u64_zero(o, sid->cpu, 3);
		so_mem(o, "] ", 2);
	}
	if (f & F_MISC)
		print_misc(o, rec);
	if (f & F_TOD)
		script_print_tod(s, has_time ? sid->time : 0);
	if (f & F_TIME)
		print_time(s, has_time ? sid->time : 0);
}

static void print_sym(const struct script *s, struct obuf *o, const struct pev_addr_loc *al,
		      uint64_t f)
{
	if (f & F_SYM) {
		so_char(o, ' ');
		if (al->sym) {
			so_str(o, al->sym->name);
			if (f & F_SYMOFFSET) {
				so_mem(o, "+0x", 3);
				so_hex(o, al->sym_off, 0);
			}
		} else {
			so_mem(o, "[unknown]", 9);
		}
	}
	if (f & F_DSO) {
		so_mem(o, " (", 2);
		script_put_dso(s, o, al);
		so_char(o, ')');
	}
}

/* Whether name is one of list's comma-separated names (perf's strlist of
 * --stop-bt) */
static bool stop_here(const char *list, const char *name)
{
	size_t n;

	if (!name)
		return false;
	n = strlen(name);
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");

		if (len == n && !strncmp(p, name, n))
			return true;
		p += len;
		p += *p == ',';
	}
	return false;
}

/* The sample's call chain (sampled, and unwound from a user stack dump),
 * one frame a line as perf 6.1's sample__fprintf_callchain: inline frames
 * carry " (inlined)" and no DSO. */
static void print_callchain(struct script *s, const struct pev_sample *smp,
			    uint64_t f)
{
	struct obuf *o = &s->out;
	const struct pev_frame *fr;
	long n;

	if (s->opt.max_stack == 0)
		return;
	n = pev_chain_resolve(s->chain, smp, &fr);
	for (long i = 0; i < n; i++) {
		const struct pev_addr_loc *al = &fr[i].loc;

		if (f & F_IP) {
			so_char(o, '\t');
			so_hex(o, al->map_ip, 16);
		}
		if (fr[i].inline_name) {
			if (f & F_SYM) {
				so_char(o, ' ');
				so_str(o, fr[i].inline_name);
				if (f & F_SYMOFFSET) {
					so_mem(o, "+0x", 3);
					so_hex(o, al->sym_off, 0);
				}
			}
		} else {
			print_sym(s, o, al, f);
		}
		if (f & F_SRCLINE)
			script_print_frame_srcline(s, &fr[i], "\n  ");
		if (fr[i].inline_name)
			so_mem(o, " (inlined)", 10);
		so_char(o, '\n');
		/* --stop-bt: the frame of a listed function ends the chain */
		if (s->opt.stop_bt && stop_here(s->opt.stop_bt,
						fr[i].inline_name ? fr[i].inline_name :
						al->sym ? al->sym->name : NULL))
			break;
	}
}

/* perf's thread__find_map_fb: in the sample's cpumode, then, when no map
 * holds the address, in the mode of the address itself (perf's
 * machine__addr_cpumode: every arch but sparc has one address space). */
static void resolve_addr_fb(struct script *s, uint32_t pid, uint64_t addr,
			    uint8_t cpumode, struct pev_addr_loc *al)
{
	uint8_t mode = cpumode;

	if (cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_USER)
		mode = addr >> 63 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	if (!pev_machine_resolve(s->machine, pid, addr, cpumode, al))
		return;
	if (mode == cpumode || pev_machine_resolve(s->machine, pid, addr, mode, al))
		memset(al, 0, sizeof(*al));
}

static void ensure_name_width(struct script *s)
{
	int w = 0;

	for (size_t i = 0; i < pev_decoder_nr_attrs(s->dec); i++) {
		if (script_event_setup(s, i) < 0)
			continue;
		script_event_refresh_name(s, i);
		int n = (int)strlen(s->events[i].name);

		if (n > w)
			w = n;
	}
	s->name_width = w ? w : 1;
}

static void print_sample(struct script *s, const struct pev_record *rec)
{
	const struct pev_sample *smp = &rec->u.sample;
	struct obuf *o = &s->out;
	struct script_event *ev;

	if (rec->attr_index < 0 || script_event_setup(s, (size_t)rec->attr_index) < 0)
		return;
	ev = &s->events[rec->attr_index];
	if (!ev->fields)
		return;
	if (!s->name_width)
		ensure_name_width(s);
	uint64_t f = ev->fields;
	uint8_t cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct pev_addr_loc al;
	bool have_al = false;

	script_print_start(s, ev, &rec->sample_id, smp->pid, smp->tid,
			   smp->fields & PERF_SAMPLE_TIME, rec);
	if (f & F_PERIOD) {
		/* perf: the attr's period (or frequency) when the samples
		 * lack theirs (-c without -P). */
		so_u64(o, smp->fields & PERF_SAMPLE_PERIOD ? smp->period :
			  ev->attr->sample_period, 10);
		so_char(o, ' ');
	}
	if (f & F_EVNAME) {
		so_str_w(o, ev->name, s->name_width, false);
		so_mem(o, ": ", 2);
	}
	if (s->print_flags)
		script_print_flags(o);
	if ((f & F_TRACE) && ev->tp && (smp->fields & PERF_SAMPLE_RAW))
		script_trace_print(s, ev, smp);
	if (f & F_ADDR) {
		so_hex(o, smp->addr, 16);
		/* perf's sample_addr_correlates_sym: a page fault's address is
		 * looked up in the sample's thread and cpumode */
		if ((f & (F_SYM | F_DSO)) && ev->attr->type == PERF_TYPE_SOFTWARE &&
		    (ev->attr->config == PERF_COUNT_SW_PAGE_FAULTS ||
		     ev->attr->config == PERF_COUNT_SW_PAGE_FAULTS_MIN ||
		     ev->attr->config == PERF_COUNT_SW_PAGE_FAULTS_MAJ)) {
			struct pev_addr_loc dl;

			resolve_addr_fb(s, smp->pid, smp->addr, cpumode, &dl);
			print_sym(s, o, &dl, f);
		}
	}
	if (f & F_DATA_SRC) {
		/* perf: the value and its text cut at 99 characters, padded
		 * to the longest such text printed so far */
		char buf[128];
		int n = snprintf(buf, 100, "%16" PRIx64 " ", smp->data_src);

		pev_data_src_format(smp->data_src, buf + n, 100 - (size_t)n);
		n = (int)strlen(buf);
		if (n > s->data_src_width)
			s->data_src_width = n;
		so_str_w(o, buf, s->data_src_width, true);
	}
	/* With WEIGHT_STRUCT, perf's weight is its low 32 bits and ins_lat
	 * the next 16. */
	if (f & F_WEIGHT)
		so_u64(o, smp->fields & PERF_SAMPLE_WEIGHT_STRUCT ?
			  (uint32_t)smp->weight : smp->weight, 16);
	if (f & F_INS_LAT)
		so_u64(o, (uint16_t)(smp->weight >> 32), 16);
	/* perf prints sym, symoff and dso only with ip (process_event) */
	if (f & F_IP) {
		/* perf: with --max-stack 0 the unwinder fails on a sample
		 * with a user stack dump, and the sample prints as one
		 * without callchain. */
		bool dwarf = (smp->fields & PERF_SAMPLE_REGS_USER) &&
			     (smp->fields & PERF_SAMPLE_STACK_USER) &&
			     smp->regs_user.nr && smp->stack_user.dyn_size;

		if (ev->callchain && (smp->fields & PERF_SAMPLE_CALLCHAIN) &&
		    !(dwarf && s->opt.max_stack == 0)) {
			so_char(o, '\n');
			print_callchain(s, smp, f);
		} else {
			so_char(o, ' ');
			pev_machine_resolve(s->machine, smp->pid, smp->ip, cpumode, &al);
			have_al = true;
			if (f & F_IP)
				so_hex(o, smp->ip, 16);
			print_sym(s, o, &al, f);
			if (f & F_SRCLINE)
				script_print_srcline(s, &al, "\n  ");
		}
	}
	if (f & F_IREGS)
		script_print_regs(s, &smp->regs_intr);
	if (f & F_UREGS)
		script_print_regs(s, &smp->regs_user);
	if (f & (F_BRSTACK | F_BRSTACKSYM | F_BRSTACKOFF))
		script_print_brstack(s, ev, smp, cpumode);
	/* perf prints it without RAW too (offcpu-time's samples): a newline */
	if ((f & F_BPF_OUTPUT) && ev->attr->type == PERF_TYPE_SOFTWARE &&
	    ev->attr->config == PERF_COUNT_SW_BPF_OUTPUT)
		script_print_bpf_output(o, &smp->raw);
	if (f & (F_INSN | F_INSNLEN)) {
		if (!have_al)
			pev_machine_resolve(s->machine, smp->pid, smp->ip, cpumode, &al);
		have_al = true;
		script_print_insn(s, f, &al);
	}
	if (f & F_PHYS_ADDR)		/* "%16lx", no space before */
		so_hex(o, smp->phys_addr, 16);
	if (f & F_DATA_PAGE_SIZE)
		script_print_page_size(o, smp->data_page_size);
	if (f & F_CODE_PAGE_SIZE)
		script_print_page_size(o, smp->code_page_size);
	if (f & F_CGROUP) {
		so_char(o, ' ');
		so_u64(o, smp->cgroup, 0);
	}
	so_char(o, '\n');
	if (f & F_SRCCODE) {
		if (!have_al)
			pev_machine_resolve(s->machine, smp->pid, smp->ip, cpumode, &al);
		script_print_srccode(s, smp->tid, &al);
	}
}

int script_dump_open(struct script *s, size_t idx)
{
	struct script_event *ev = &s->events[idx];
	int fd;

	if (asprintf(&ev->dump_path, "%s.%s.dump", s->opt.input, ev->name) < 0) {
		ev->dump_path = NULL;
		cli_error("out of memory");
		s->dump_failed = true;
		return -1;
	}
	fd = open(ev->dump_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0 || so_init(&ev->dump, fd) < 0) {
		cli_error("cannot create '%s' (--per-event-dump): %s", ev->dump_path,
			  strerror(fd < 0 ? errno : ENOMEM));
		if (fd >= 0)
			close(fd);
		s->dump_failed = true;
		return -1;
	}
	return 0;
}

void script_print_sample(struct script *s, const struct pev_record *rec)
{
	struct obuf keep;
	size_t idx = (size_t)rec->attr_index;

	if (!s->opt.per_event_dump) {
		print_sample(s, rec);
		return;
	}
	/* --per-event-dump: the event's own file (opened on its first
	 * sample when the event came after the start: a pipe) */
	if (rec->attr_index < 0 || script_event_setup(s, idx) < 0 || !s->events[idx].fields)
		return;
	if (!s->events[idx].dump.buf && script_dump_open(s, idx) < 0)
		return;
	keep = s->out;
	s->out = s->events[idx].dump;
	print_sample(s, rec);
	s->events[idx].dump = s->out;
	s->events[idx].dump_samples++;
	s->out = keep;
}
