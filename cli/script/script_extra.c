// SPDX-License-Identifier: GPL-2.0-only
/* perfev script: the fields beyond the basic ones (registers, branch
 * stacks, page sizes, time of day, flags, BPF output), printed the way
 * perf script 6.1 prints them. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "script/script.h"

/* ---- Registers: perf's names per architecture (perf_reg_name()). */

static const char *const x86_regs[24] = {
	"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS",
	"CS", "SS", "DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11",
	"R12", "R13", "R14", "R15",
};

static const char *reg_name(const char *arch, unsigned r, char *buf, size_t len)
{
	if (!strcmp(arch, "x86")) {
		if (r < 24)
			return x86_regs[r];
		/* XMM0..XMM15 take two bits each, both of one name. */
		if (r >= 32 && r < 64) {
			snprintf(buf, len, "XMM%u", (r - 32) / 2);
			return buf;
		}
	} else if (!strcmp(arch, "arm64")) {
		if (r < 29) {
			snprintf(buf, len, "x%u", r);
			return buf;
		}
		switch (r) {
		case 29: return "x29";
		case 30: return "lr";
		case 31: return "sp";
		case 32: return "pc";
		case 46: return "vg";
		default: break;
		}
	}
	return "unknown";
}

/* " ABI:2    AX:0x1 ..." ("%5s:0x%lx " per register, in mask order);
 * nothing when the sample has no registers (ABI_NONE). */
void script_print_regs(struct script *s, const struct pev_regs *r)
{
	struct obuf *o = &s->out;
	uint64_t i = 0;
	char buf[16];

	if (r->abi == PERF_SAMPLE_REGS_ABI_NONE || !r->regs)
		return;
	so_mem(o, " ABI:", 5);
	so_u64(o, r->abi, 0);
	so_char(o, ' ');
	for (unsigned b = 0; b < 64 && i < r->nr; b++) {
		if (!(r->mask & (1ull << b)))
			continue;
		so_str_w(o, reg_name(s->arch, b, buf, sizeof(buf)), 5, false);
		so_mem(o, ":0x", 3);
		so_hex(o, r->regs[i++], 0);
		so_char(o, ' ');
	}
}

/* ---- Branch stacks. */

static const char *const br_type_names[16] = {
	"N/A", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL",
	"SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX", "",
};
static const char *const br_new_type_names[8] = {
	"FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1", "ARCH_2", "ARCH_3",
	"ARCH_4", "ARCH_5",
};

/* "/P/-/-/12/CALL " */
static void print_br_flags(struct obuf *o, uint64_t raw)
{
	struct pev_branch_flags f = pev_branch_flags_decode(raw);

	so_char(o, '/');
	so_char(o, !(f.mispred || f.predicted) ? '-' : f.predicted ? 'P' : 'M');
	so_char(o, '/');
	so_char(o, f.in_tx ? 'X' : '-');
	so_char(o, '/');
	so_char(o, f.abort ? 'A' : '-');
	so_char(o, '/');
	so_u64(o, f.cycles, 0);
	so_char(o, '/');
	/* perf 6.1 prints nothing for an unknown type (not "-"). */
	if (f.type == PERF_BR_UNKNOWN)
		;
	else if (f.type == 15)	/* PERF_BR_EXTEND_ABI */
		so_str(o, br_new_type_names[f.new_type & 7]);
	else
		so_str(o, br_type_names[f.type & 15]);
	so_char(o, ' ');
}

void script_put_dso(const struct script *s, struct obuf *o, const struct pev_addr_loc *al)
{
	const char *name = al->dso ? pev_dso_name(al->dso) : "[unknown]";

	if (!s->opt.dso_pad) {
		so_str(o, name);
		return;
	}
	/* perf's scnprintf_pad(buf, pad, "%s"): at most pad - 1 characters
	 * of the name, then spaces to pad */
	size_t n = strlen(name), pad = (size_t)s->opt.dso_pad;

	if (n > pad - 1)
		n = pad - 1;
	so_mem(o, name, n);
	so_spaces(o, pad - n);
}

static void print_dso_paren(struct script *s, struct obuf *o, const struct pev_addr_loc *al)
{
	so_char(o, '(');
	script_put_dso(s, o, al);
	so_char(o, ')');
}

/* "sym+0x1c" or "[unknown]" (perf's symbol__fprintf_symname_offs). */
static void print_symoff(struct obuf *o, const struct pev_addr_loc *al)
{
	if (!al->sym) {
		so_mem(o, "[unknown]", 9);
		return;
	}
	so_str(o, al->sym->name);
	so_mem(o, "+0x", 3);
	so_hex(o, al->sym_off, 0);
}

/* brstackoff's address: perf converts it to a DSO offset only when the
 * DSO's "adjust symbols" flag is clear, which for a user-space DSO means
 * that its symbols were never loaded (could not be read); once loaded
 * (always so for the DSO of a resolved address) the address stays. */
static uint64_t dso_offset(const struct pev_addr_loc *al, uint64_t addr)
{
	if (!al->dso || al->kernel)
		return al->dso ? al->map_ip : addr;
	return pev_dso_symbol_source(al->dso) ? addr : al->map_ip;
}

/* brstack, brstacksym or brstackoff (perf prints only the first of them
 * that is selected). */
void script_print_brstack(struct script *s, const struct script_event *ev,
			  const struct pev_sample *smp, uint8_t cpumode)
{
	const struct pev_branch_stack *br = &smp->branch_stack;
	struct obuf *o = &s->out;
	uint64_t f = ev->fields;
	bool dso = f & F_DSO;

	if (!(smp->fields & PERF_SAMPLE_BRANCH_STACK) || !br->nr)
		return;
	for (uint64_t i = 0; i < br->nr; i++) {
		uint64_t from = br->entries[i].from, to = br->entries[i].to;
		struct pev_addr_loc alf, alt;
		bool need = dso || !(f & F_BRSTACK);

		if (need) {
			pev_machine_resolve(s->machine, smp->pid, from, cpumode, &alf);
			pev_machine_resolve(s->machine, smp->pid, to, cpumode, &alt);
		}
		if (f & F_BRSTACK) {
			so_mem(o, " 0x", 3);
			so_hex(o, from, 0);
			if (dso)
				print_dso_paren(s, o, &alf);
			so_mem(o, "/0x", 3);
			so_hex(o, to, 0);
			if (dso)
				print_dso_paren(s, o, &alt);
		} else if (f & F_BRSTACKSYM) {
			print_symoff(o, &alf);
			if (dso)
				print_dso_paren(s, o, &alf);
			so_char(o, '/');
			print_symoff(o, &alt);
			if (dso)
				print_dso_paren(s, o, &alt);
		} else {
			so_mem(o, " 0x", 3);
			so_hex(o, dso_offset(&alf, from), 0);
			if (dso)
				print_dso_paren(s, o, &alf);
			so_mem(o, "/0x", 3);
			so_hex(o, dso_offset(&alt, to), 0);
			if (dso)
				print_dso_paren(s, o, &alt);
		}
		print_br_flags(o, br->entries[i].flags);
	}
}

/* ---- Page sizes: perf's unit_number__scnprintf ("4K", "2M"; a value
 * is divided while the quotient stays above 1, so 1024 stays "1024B"),
 * "N/A" for 0. */
void script_print_page_size(struct obuf *o, uint64_t size)
{
	static const char unit[] = "BKMG";
	int i = 0;

	so_char(o, ' ');
	if (!size) {
		so_mem(o, "N/A", 3);
		return;
	}
	while (size / 1024 > 1 && i < 3) {
		size /= 1024;
		i++;
	}
	so_u64(o, size, 0);
	so_char(o, unit[i]);
}

/* ---- Wall-clock time from the CLOCK_DATA feature: "%F %H:%M:%S.usec "
 * in local time, as perf's tod_scnprintf. */
void script_print_tod(struct script *s, uint64_t t)
{
	const struct pev_data_features *f = pev_data_features(s->data);
	struct obuf *o = &s->out;
	char date[64];
	struct tm tm;

	if (!f || !pev_data_features_has(f, PEV_FEAT_CLOCK_DATA)) {
		so_mem(o, "disabled ", 9);
		return;
	}
	uint64_t tod = f->clock_data.tod_ns, ref = f->clock_data.clockid_ns;

	/* Unsigned, as perf: a time before the reference wraps the same. */
	if (t > ref)
		tod += t - ref;
	else
		tod -= ref - t;
	time_t sec = (time_t)(tod / 1000000000ull);
	uint64_t nsec = tod - (uint64_t)sec * 1000000000ull;

	if (!localtime_r(&sec, &tm)) {
		so_mem(o, "failed ", 7);
		return;
	}
	strftime(date, sizeof(date), "%F %H:%M:%S", &tm);
	so_str(o, date);
	so_char(o, '.');
	if (s->opt.ns)
		so_u64_zero(o, nsec, 9);
	else
		so_u64_zero(o, nsec / 1000, 6);
	so_char(o, ' ');
}

/* ---- -F flags: the branch flags of synthesized (PT) samples; a normal
 * sample has none, which perf prints as an empty "  %-21s ". */
void script_print_flags(struct obuf *o)
{
	so_spaces(o, 24);
}

/* The kernel's (and perf's) ctype: Latin-1 letters count as printable. */
static bool k_isprint(unsigned char c)
{
	return (c >= 0x20 && c < 0x7f) || c >= 0xa0;
}

/* ---- bpf-output: perf's hex dump, 8 bytes a line, and the string when
 * the data is one NUL-terminated printable string. */
void script_print_bpf_output(struct obuf *o, const struct pev_raw *raw)
{
	const unsigned char *d = raw->data;
	size_t len = raw->size;
	bool hit_nul = false, printable = true;
	int line_no = 0;

	so_char(o, '\n');
	for (size_t i = 0; i < len; i++) {
		if ((i & 7) == 0) {
			so_str_w(o, line_no ? "" : "BPF output:", 17, false);
			so_printf(o, " %04zx:", i);
		}
		so_printf(o, " %02x", d[i]);
		if ((i & 7) != 7 && i != len - 1)
			continue;
		for (size_t j = 0; j < 7 - (i & 7); j++)
			so_mem(o, "   ", 3);
		so_mem(o, "  ", 2);
		for (size_t j = i & ~(size_t)7; j <= i; j++) {
			unsigned char ch = d[j];

			if (hit_nul && ch)
				printable = false;
			if (!k_isprint(ch)) {
				so_char(o, '.');
				if (!printable)
					continue;
				if (!ch)
					hit_nul = true;
				else
					printable = false;
			} else {
				so_char(o, (char)ch);
			}
		}
		for (size_t j = 0; j < 7 - (i & 7); j++)
			so_char(o, ' ');
		so_char(o, '\n');
		line_no++;
	}
	if (printable && hit_nul) {
		so_str_w(o, "BPF string:", 17, false);
		so_mem(o, " \"", 2);
		so_str(o, (const char *)d);
		so_mem(o, "\"\n", 2);
	}
}
