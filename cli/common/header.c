// SPDX-License-Identifier: GPL-2.0-only
/* The header listing of perf 6.1 (util/header.c perf_header__fprintf_info
 * and the feature print functions), from the parsed features.  Features
 * in bit order; those perf prints only with -I get its "info available"
 * line; TRACING_DATA, BUILD_ID and empty BPF sections print nothing, as
 * in perf. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "common/header.h"

/* perf 6.1's HEADER_LAST_FEATURE: the missing-features loop stops there
 * and later bits are "unknown feature" warnings. */
#define PERF61_LAST_FEATURE 31

struct bit_name { uint64_t bit; const char *name; };

static const struct bit_name sample_bits[] = {
	{ PERF_SAMPLE_IP, "IP" }, { PERF_SAMPLE_TID, "TID" }, { PERF_SAMPLE_TIME, "TIME" },
	{ PERF_SAMPLE_ADDR, "ADDR" }, { PERF_SAMPLE_READ, "READ" },
	{ PERF_SAMPLE_CALLCHAIN, "CALLCHAIN" }, { PERF_SAMPLE_ID, "ID" },
	{ PERF_SAMPLE_CPU, "CPU" }, { PERF_SAMPLE_PERIOD, "PERIOD" },
	{ PERF_SAMPLE_STREAM_ID, "STREAM_ID" }, { PERF_SAMPLE_RAW, "RAW" },
	{ PERF_SAMPLE_BRANCH_STACK, "BRANCH_STACK" }, { PERF_SAMPLE_REGS_USER, "REGS_USER" },
	{ PERF_SAMPLE_STACK_USER, "STACK_USER" }, { PERF_SAMPLE_WEIGHT, "WEIGHT" },
	{ PERF_SAMPLE_DATA_SRC, "DATA_SRC" }, { PERF_SAMPLE_IDENTIFIER, "IDENTIFIER" },
	{ PERF_SAMPLE_TRANSACTION, "TRANSACTION" }, { PERF_SAMPLE_REGS_INTR, "REGS_INTR" },
	{ PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR" }, { PERF_SAMPLE_CGROUP, "CGROUP" },
	{ PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE" },
	{ PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE" },
	{ PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT" }, { 0, NULL },
};

static const struct bit_name read_bits[] = {
	{ PERF_FORMAT_TOTAL_TIME_ENABLED, "TOTAL_TIME_ENABLED" },
	{ PERF_FORMAT_TOTAL_TIME_RUNNING, "TOTAL_TIME_RUNNING" },
	{ PERF_FORMAT_ID, "ID" }, { PERF_FORMAT_GROUP, "GROUP" },
	{ 1u << 4, "LOST" }, { 0, NULL },
};

static const struct bit_name branch_bits[] = {
	{ 1u << 0, "USER" }, { 1u << 1, "KERNEL" }, { 1u << 2, "HV" }, { 1u << 3, "ANY" },
	{ 1u << 4, "ANY_CALL" }, { 1u << 5, "ANY_RETURN" }, { 1u << 6, "IND_CALL" },
	{ 1u << 7, "ABORT_TX" }, { 1u << 8, "IN_TX" }, { 1u << 9, "NO_TX" },
	{ 1u << 10, "COND" }, { 1u << 11, "CALL_STACK" }, { 1u << 12, "IND_JUMP" },
	{ 1u << 13, "CALL" }, { 1u << 14, "NO_FLAGS" }, { 1u << 15, "NO_CYCLES" },
	{ 1u << 16, "TYPE_SAVE" }, { 1u << 17, "HW_INDEX" }, { 1u << 18, "PRIV_SAVE" },
	{ 0, NULL },
};

/* Where cli_attr_fprintf is: the separator before the next field. */
struct attr_out {
	FILE *o;
	const char *sep, *eq;
	int n;
};

static void field(struct attr_out *w, const char *name)
{
	fprintf(w->o, "%s%s%s", w->sep, name, w->eq);
	w->sep = ", ";
	w->n++;
}

static void bits(struct attr_out *w, const char *name, uint64_t v, const struct bit_name *t)
{
	bool first = true;

	if (!v)
		return;
	field(w, name);
	for (size_t i = 0; t[i].name; i++)
		if (v & t[i].bit) {
			fprintf(w->o, "%s%s", first ? "" : "|", t[i].name);
			first = false;
		}
}

#define U(name, v) do { if (v) { field(w, name); fprintf(w->o, "%" PRIu64, (uint64_t)(v)); } } while (0)
#define X(name, v) do { if (v) { field(w, name); fprintf(w->o, "%#" PRIx64, (uint64_t)(v)); } } while (0)

int cli_attr_fprintf(FILE *o, const struct perf_event_attr *a, const char *first_sep,
		     const char *eq)
{
	struct attr_out out = { o, first_sep, eq, 0 }, *w = &out;

	U("type", a->type);
	U("size", a->size);
	X("config", a->config);
	U("{ sample_period, sample_freq }", a->sample_period);
	bits(w, "sample_type", a->sample_type, sample_bits);
	bits(w, "read_format", a->read_format, read_bits);
	U("disabled", a->disabled);
	U("inherit", a->inherit);
	U("pinned", a->pinned);
	U("exclusive", a->exclusive);
	U("exclude_user", a->exclude_user);
	U("exclude_kernel", a->exclude_kernel);
	U("exclude_hv", a->exclude_hv);
	U("exclude_idle", a->exclude_idle);
	U("mmap", a->mmap);
	U("comm", a->comm);
	U("freq", a->freq);
	U("inherit_stat", a->inherit_stat);
	U("enable_on_exec", a->enable_on_exec);
	U("task", a->task);
	U("watermark", a->watermark);
	U("precise_ip", a->precise_ip);
	U("mmap_data", a->mmap_data);
	U("sample_id_all", a->sample_id_all);
	U("exclude_host", a->exclude_host);
	U("exclude_guest", a->exclude_guest);
	U("exclude_callchain_kernel", a->exclude_callchain_kernel);
	U("exclude_callchain_user", a->exclude_callchain_user);
	U("mmap2", a->mmap2);
	U("comm_exec", a->comm_exec);
	U("use_clockid", a->use_clockid);
	U("context_switch", a->context_switch);
	U("write_backward", a->write_backward);
	U("namespaces", a->namespaces);
	U("ksymbol", a->ksymbol);
	U("bpf_event", a->bpf_event);
	U("aux_output", a->aux_output);
	U("cgroup", a->cgroup);
	U("text_poke", a->text_poke);
	U("build_id", a->build_id);
	U("inherit_thread", a->inherit_thread);
	U("remove_on_exec", a->remove_on_exec);
	U("sigtrap", a->sigtrap);
	U("{ wakeup_events, wakeup_watermark }", a->wakeup_events);
	U("bp_type", a->bp_type);
	X("{ bp_addr, config1 }", a->bp_addr);
	X("{ bp_len, config2 }", a->bp_len);
	bits(w, "branch_sample_type", a->branch_sample_type, branch_bits);
	X("sample_regs_user", a->sample_regs_user);
	U("sample_stack_user", a->sample_stack_user);
	if (a->clockid) {
		field(w, "clockid");
		fprintf(o, "%" PRId64, (int64_t)a->clockid);
	}
	X("sample_regs_intr", a->sample_regs_intr);
	U("aux_watermark", a->aux_watermark);
	U("sample_max_stack", a->sample_max_stack);
	U("aux_sample_size", a->aux_sample_size);
	U("sig_data", a->sig_data);
	return out.n;
}

static void print_event_desc(FILE *o, const struct pev_data_features *f)
{
	for (uint32_t i = 0; i < f->nr_event_desc; i++) {
		const struct pev_data_event_desc *e = &f->event_desc[i];

		fprintf(o, "# event : name = %s, ", e->name ? e->name : "");
		if (e->nr_ids) {
			fputs(", id = {", o);
			for (uint32_t j = 0; j < e->nr_ids; j++)
				fprintf(o, "%s %" PRIu64, j ? "," : "", e->ids[j]);
			fputs(" }", o);
		}
		/* perf's ", name = value" printer */
		cli_attr_fprintf(o, &e->attr.attr, ", ", " = ");
		fputc('\n', o);
	}
}

static const char *clockid_name(uint32_t id)
{
	switch (id) {
	case 0: return "realtime";
	case 1: return "monotonic";
	case 4: return "monotonic_raw";
	case 7: return "boottime";
	case 11: return "tai";
	default: return "unknown";
	}
}

static void print_usec(FILE *o, uint64_t ns)
{
	fprintf(o, "%" PRIu64 ".%06" PRIu64, (uint64_t)(ns / 1000000000ull),
		(uint64_t)(ns % 1000000000ull / 1000));
}

static void print_groups(FILE *o, const struct pev_data_features *f)
{
	for (uint32_t g = 0; g < f->nr_groups; g++) {
		const struct pev_data_group_desc *gd = &f->groups[g];

		if (gd->nr_members <= 1)
			continue;
		for (uint32_t m = 0; m < gd->nr_members; m++) {
			uint32_t idx = gd->leader_idx + m;
			const char *n = idx < f->nr_event_desc && f->event_desc[idx].name ?
					f->event_desc[idx].name : "";

			/* perf writes "{anon_group}" for a group without a
			 * name and reads it back as none. */
			if (!m)
				fprintf(o, "# group: %s{%s",
					gd->name && strcmp(gd->name, "{anon_group}") ? gd->name : "", n);
			else
				fprintf(o, ",%s", n);
		}
		fputs("}\n", o);
	}
}

/* perf's cpu_map__snprint of a parsed list: sorted, each CPU once,
 * consecutive runs as "a-b"; an empty list is perf's dummy map, "-1". */
static void print_cpu_list(FILE *o, const char *list)
{
	uint8_t set[4096] = { 0 };	/* bit per CPU, up to 32768 */
	bool any = false, first = true;
	const char *s = list;

	while (s && *s) {
		char *end;
		unsigned long a = strtoul(s, &end, 10), b = a;

		if (end == s)
			break;
		if (*end == '-')
			b = strtoul(end + 1, &end, 10);
		for (unsigned long c = a; c <= b && c < sizeof(set) * 8; c++) {
			set[c / 8] |= (uint8_t)(1u << (c % 8));
			any = true;
		}
		s = *end == ',' ? end + 1 : NULL;
	}
	if (!any) {
		fputs("-1\n", o);
		return;
	}
	for (unsigned c = 0; c < sizeof(set) * 8; c++) {
		unsigned e = c;

		if (!(set[c / 8] & (1u << (c % 8))))
			continue;
		while (e + 1 < sizeof(set) * 8 && (set[(e + 1) / 8] & (1u << ((e + 1) % 8))))
			e++;
		fprintf(o, e > c ? "%s%u-%u" : "%s%u", first ? "" : ",", c, e);
		first = false;
		c = e;
	}
	fputc('\n', o);
}

static void print_cpu_topology(FILE *o, const struct pev_data_features *f)
{
	for (uint32_t i = 0; i < f->nr_core_siblings; i++)
		fprintf(o, "# sibling sockets : %s\n", f->core_siblings[i]);
	for (uint32_t i = 0; i < f->nr_die_siblings; i++)
		fprintf(o, "# sibling dies    : %s\n", f->die_siblings[i]);
	for (uint32_t i = 0; i < f->nr_thread_siblings; i++)
		fprintf(o, "# sibling threads : %s\n", f->thread_siblings[i]);
	if (!f->nr_topo_cpus) {
		fprintf(o, "# Core ID%s and Socket ID information is not available\n",
			f->nr_die_siblings ? ", Die ID" : "");
		return;
	}
	/* perf: one line per available CPU, ids as signed numbers */
	for (uint32_t i = 0; i < f->nr_cpus_avail && i < f->nr_topo_cpus; i++) {
		const struct pev_data_cpu_topo_cpu *c = &f->topo_cpus[i];

		if (f->nr_die_siblings)
			fprintf(o, "# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n", i,
				(int)c->core_id, (int)c->die_id, (int)c->socket_id);
		else
			fprintf(o, "# CPU %u: Core ID %d, Socket ID %d\n", i,
				(int)c->core_id, (int)c->socket_id);
	}
}

/* perf's unit_number__scnprintf: divide while the quotient exceeds 1 */
static void print_mem_topology(FILE *o, const struct pev_data_features *f)
{
	fprintf(o, "# memory nodes (nr %d, block size 0x%llx):\n", (int)f->nr_mem_nodes,
		(unsigned long long)f->mem_block_size);
	for (uint64_t i = 0; i < f->nr_mem_nodes; i++) {
		const struct pev_data_mem_node *n = &f->mem_nodes[i];
		uint64_t w = 0, size;
		char map[100] = "";
		size_t len = 0;
		int unit = 0;

		for (uint64_t b = 0; b < n->size; b++) {
			uint64_t top = b;

			if (!(n->bitmap[b / 64] >> (b % 64) & 1))
				continue;
			while (top + 1 < n->size && (n->bitmap[(top + 1) / 64] >> ((top + 1) % 64) & 1))
				top++;
			w += top - b + 1;
			/* perf's bitmap_scnprintf into 100 bytes */
			if (len < sizeof(map) - 1)
				len += (size_t)snprintf(map + len, sizeof(map) - len,
							top > b ? "%s%" PRIu64 "-%" PRIu64 : "%s%" PRIu64,
							len ? "," : "", b, top);
			if (len > sizeof(map) - 1)
				len = sizeof(map) - 1;
			b = top;
		}
		size = f->mem_block_size * w;
		while (size / 1024 > 1 && unit < 3) {
			size /= 1024;
			unit++;
		}
		fprintf(o, "#  %3" PRIu64 " [%" PRIu64 "%c]: %s\n", n->node, size, "BKMG"[unit], map);
	}
}

static void print_full_info(FILE *o, const struct pev_data_features *f, unsigned feat)
{
	switch (feat) {
	case PEV_FEAT_CPU_TOPOLOGY:
		print_cpu_topology(o, f);
		break;
	case PEV_FEAT_NUMA_TOPOLOGY:
		for (uint32_t i = 0; i < f->nr_numa_nodes; i++) {
			const struct pev_data_numa_node *n = &f->numa_nodes[i];

			fprintf(o, "# node%u meminfo  : total = %" PRIu64 " kB, free = %" PRIu64 " kB\n",
				n->node, n->mem_total, n->mem_free);
			fprintf(o, "# node%u cpu list : ", n->node);
			print_cpu_list(o, n->cpus);
		}
		break;
	case PEV_FEAT_CACHE:
		fputs("# CPU cache info:\n", o);
		for (uint32_t i = 0; i < f->nr_caches; i++)
			fprintf(o, "#  L%d %-15s %8s [%s]\n", (int)f->caches[i].level,
				f->caches[i].type, f->caches[i].size, f->caches[i].map);
		break;
	case PEV_FEAT_MEM_TOPOLOGY:
		print_mem_topology(o, f);
		break;
	}
}

static void print_feature(FILE *o, const struct pev_data_features *f, unsigned feat,
			  bool full)
{
	switch (feat) {
	case PEV_FEAT_HOSTNAME: fprintf(o, "# hostname : %s\n", f->hostname); break;
	case PEV_FEAT_OSRELEASE: fprintf(o, "# os release : %s\n", f->osrelease); break;
	case PEV_FEAT_VERSION: fprintf(o, "# perf version : %s\n", f->version); break;
	case PEV_FEAT_ARCH: fprintf(o, "# arch : %s\n", f->arch); break;
	case PEV_FEAT_NRCPUS:
		fprintf(o, "# nrcpus online : %u\n# nrcpus avail : %u\n", f->nr_cpus_online,
			f->nr_cpus_avail);
		break;
	case PEV_FEAT_CPUDESC: fprintf(o, "# cpudesc : %s\n", f->cpudesc); break;
	case PEV_FEAT_CPUID: fprintf(o, "# cpuid : %s\n", f->cpuid); break;
	case PEV_FEAT_TOTAL_MEM: fprintf(o, "# total memory : %" PRIu64 " kB\n", f->total_mem); break;
	case PEV_FEAT_CMDLINE:
		fputs("# cmdline : ", o);
		for (uint32_t i = 0; i < f->nr_cmdline; i++)
			fprintf(o, "%s ", f->cmdline[i]);
		fputc('\n', o);
		break;
	case PEV_FEAT_EVENT_DESC: print_event_desc(o, f); break;
	case PEV_FEAT_CPU_TOPOLOGY: case PEV_FEAT_NUMA_TOPOLOGY: case PEV_FEAT_CACHE:
	case PEV_FEAT_MEM_TOPOLOGY:
		if (full)
			print_full_info(o, f, feat);
		else
			fprintf(o, "# %s info available, use -I to display\n", pev_feat_name(feat));
		break;
	case PEV_FEAT_BRANCH_STACK: fputs("# contains samples with branch stack\n", o); break;
	case PEV_FEAT_PMU_MAPPINGS:
		if (!f->nr_pmu_mappings) {
			fputs("# pmu mappings: not available\n", o);
			break;
		}
		for (uint32_t i = 0; i < f->nr_pmu_mappings; i++)
			fprintf(o, "%s%s = %" PRIu32, i ? ", " : "# pmu mappings: ",
				f->pmu_mappings[i].name, f->pmu_mappings[i].type);
		fputc('\n', o);
		break;
	case PEV_FEAT_GROUP_DESC: print_groups(o, f); break;
	case PEV_FEAT_AUXTRACE: fputs("# contains AUX area data (e.g. instruction trace)\n", o); break;
	case PEV_FEAT_STAT: fputs("# contains stat data\n", o); break;
	case PEV_FEAT_SAMPLE_TIME:
		fputs("# time of first sample : ", o);
		print_usec(o, f->first_sample_time);
		fputs("\n# time of last sample : ", o);
		print_usec(o, f->last_sample_time);
		fprintf(o, "\n# sample duration : %10.3f ms\n",
			(double)(f->last_sample_time - f->first_sample_time) / 1000000.0);
		break;
	case PEV_FEAT_CLOCKID:
		fprintf(o, "# clockid frequency: %" PRIu64 " MHz\n", f->clockid_res_ns * 1000);
		break;
	case PEV_FEAT_DIR_FORMAT:
		fprintf(o, "# directory data version : %" PRIu64 "\n", f->dir_format_version);
		break;
	case PEV_FEAT_COMPRESSED:
		fprintf(o, "# compressed : %s, level = %d, ratio = %d\n",
			f->compressed.type == 1 ? "Zstd" : "Unknown", (int)f->compressed.level,
			(int)f->compressed.ratio);
		break;
	case PEV_FEAT_CPU_PMU_CAPS:
		if (!f->nr_cpu_pmu_caps) {
			fputs("# cpu pmu capabilities: not available\n", o);
			break;
		}
		for (uint32_t i = 0; i < f->nr_cpu_pmu_caps; i++)
			fprintf(o, "%s%s=%s", i ? ", " : "# cpu pmu capabilities: ",
				f->cpu_pmu_caps[i].name, f->cpu_pmu_caps[i].value);
		fputc('\n', o);
		break;
	case PEV_FEAT_CLOCK_DATA: {
		uint64_t tod = f->clock_data.tod_ns, ck = f->clock_data.clockid_ns;
		time_t sec = (time_t)(tod / 1000000000ull);
		struct tm tm;
		char date[64] = "";

		if (localtime_r(&sec, &tm))
			strftime(date, sizeof(date), "%F %T", &tm);
		fprintf(o, "# clockid: %s (%u)\n", clockid_name(f->clock_data.clockid),
			f->clock_data.clockid);
		fprintf(o, "# reference time: %s.%06d = %ld.%06d (TOD) = %ld.%09ld (%s)\n", date,
			(int)(tod % 1000000000ull / 1000), (long)sec,
			(int)(tod % 1000000000ull / 1000), (long)(ck / 1000000000ull),
			(long)(ck % 1000000000ull), clockid_name(f->clock_data.clockid));
		break;
	}
	case PEV_FEAT_HYBRID_TOPOLOGY:
		fputs("# hybrid cpu system:\n", o);
		for (uint32_t i = 0; i < f->nr_hybrid_nodes; i++)
			fprintf(o, "# %s cpu list : %s\n", f->hybrid_nodes[i].pmu_name,
				f->hybrid_nodes[i].cpus);
		break;
	default:		/* TRACING_DATA, BUILD_ID, BPF_*: nothing */
		break;
	}
}

char *cli_header_text(const struct pev_data *d, const char *path, bool full, size_t *len)
{
	const struct pev_data_features *f = pev_data_features(d);
	struct pev_data_cut cut;
	struct stat st;
	char *buf = NULL;
	FILE *o = open_memstream(&buf, len);
	uint64_t off = pev_data_data_offset(d), size;

	if (!o)
		return NULL;
	size = pev_data_cut_info(d, &cut) && (cut.header_data_size || cut.data_size_zero) ?
	       cut.header_data_size : pev_data_data_size(d);
	fputs("# ========\n", o);
	/* perf: the input's mtime (stdin's when reading a pipe, the file's
	 * for a pipe-mode file given by name), then the file
	 * header's numbers (all 0 for a pipe, whose features perf prints
	 * as they arrive, after the closing lines). */
	if (pev_data_is_pipe(d) && (!path || !strcmp(path, "-")) ? !fstat(0, &st) :
	    !stat(path, &st)) {
		char main_file[4096];

		/* a directory (record --threads): its data file's */
		if (S_ISDIR(st.st_mode) &&
		    (size_t)snprintf(main_file, sizeof(main_file), "%s/data", path) < sizeof(main_file))
			stat(main_file, &st);
		time_t t = st.st_mtime;
		char when[64];

		fprintf(o, "# captured on    : %s", ctime_r(&t, when) ? when : "\n");
	}
	if (pev_data_is_pipe(d))
		off = size = 0;
	fprintf(o, "# header version : 1\n");
	fprintf(o, "# data offset    : %" PRIu64 "\n", off);
	fprintf(o, "# data size      : %" PRIu64 "\n", size);
	fprintf(o, "# feat offset    : %" PRIu64 "\n", off + size);
	if (pev_data_is_pipe(d))
		fputs("# ========\n#\n", o);
	for (unsigned feat = 1; f && feat < PERF61_LAST_FEATURE; feat++)
		if (pev_data_features_has(f, feat))
			print_feature(o, f, feat, full);
	if (f && !pev_data_is_pipe(d)) {
		fputs("# missing features: ", o);
		for (unsigned feat = 1; feat < PERF61_LAST_FEATURE; feat++)
			if (!pev_data_features_has(f, feat))
				fprintf(o, "%s ", pev_feat_name(feat));
		fputc('\n', o);
	}
	if (!pev_data_is_pipe(d))
		fputs("# ========\n#\n", o);
	if (fclose(o))
		return NULL;
	return buf;
}
