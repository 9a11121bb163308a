// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* What perf record takes from the running system for the perf.data
 * features, and build ids (ELF notes, /sys/kernel/notes). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <sys/utsname.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "data/data_internal.h"

/* Reads a small text file whole (sysfs/procfs report size 0, so read to
 * EOF); NULL on failure.  The trailing newline is dropped. */
static char *slurp(const char *path, size_t *lenp)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	size_t cap = 4096, len = 0;
	char *p = malloc(cap + 1);

	while (p) {
		ssize_t n = read(fd, p + len, cap - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n < 0) {
				free(p);
				p = NULL;
			}
			break;
		}
		len += (size_t)n;
		if (len == cap) {
			char *q = realloc(p, cap * 2 + 1);

			if (!q) {
				free(p);
				p = NULL;
				break;
			}
			p = q;
			cap *= 2;
		}
	}
	close(fd);
	if (!p)
		return NULL;
	p[len] = 0;
	if (lenp)
		*lenp = len;
	else if (len && p[len - 1] == '\n')
		p[len - 1] = 0;
	return p;
}

static long read_long(const char *path, long dflt)
{
	char *s = slurp(path, NULL);
	long v = dflt;

	if (s) {
		char *end;
		long x = strtol(s, &end, 10);

		if (end != s)
			v = x;
		free(s);
	}
	return v;
}

static int set_str(struct pev_data_features *f, unsigned feat, char **dst,
		   const char *s)
{
	char *c = strdup(s);

	if (!c)
		return -ENOMEM;
	free(*dst);
	*dst = c;
	pev_data_features_set(f, feat, true);
	return 0;
}

static int host_cpu(struct pev_data_features *f)
{
	char *info = slurp("/proc/cpuinfo", NULL);
	int r = 0;

	if (info) {
		char *m = strstr(info, "model name");

		if (!m)
			m = strstr(info, "Processor");	/* arm */
		if (m && (m = strchr(m, ':'))) {
			char desc[256];
			size_t n = 0;

			m++;
			while (*m == ' ' || *m == '\t')
				m++;
			/* perf squeezes runs of blanks to one space. */
			for (; *m && *m != '\n' && n < sizeof(desc) - 1; m++) {
				if (isspace((unsigned char)*m) && n &&
				    desc[n - 1] == ' ')
					continue;
				desc[n++] = isspace((unsigned char)*m) ? ' ' : *m;
			}
			while (n && desc[n - 1] == ' ')
				n--;
			desc[n] = 0;
			r = set_str(f, PEV_FEAT_CPUDESC, &f->cpudesc, desc);
		}
		free(info);
	}
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	char vendor[13], cpuid[64];

	if (r == 0 && __get_cpuid(0, &a, &b, &c, &d)) {
		memcpy(vendor, &b, 4);
		memcpy(vendor + 4, &d, 4);
		memcpy(vendor + 8, &c, 4);
		vendor[12] = 0;
		if (__get_cpuid(1, &a, &b, &c, &d)) {
			unsigned fam = (a >> 8) & 0xf, model = (a >> 4) & 0xf;

			if (fam == 0xf)
				fam += (a >> 20) & 0xff;
			if (fam >= 6)
				model += ((a >> 16) & 0xf) << 4;
			snprintf(cpuid, sizeof(cpuid), "%s,%u,%u,%u", vendor,
				 fam, model, a & 0xf);
			r = set_str(f, PEV_FEAT_CPUID, &f->cpuid, cpuid);
		}
	}
#endif
	return r;
}

/* Adds s to the list unless it is there already. */
static int add_unique(char ***list, uint32_t *n, const char *s)
{
	for (uint32_t i = 0; i < *n; i++)
		if (!strcmp((*list)[i], s))
			return 0;
	char **l = realloc(*list, (*n + 1) * sizeof(*l));

	if (!l)
		return -ENOMEM;
	*list = l;
	l[*n] = strdup(s);
	if (!l[*n])
		return -ENOMEM;
	(*n)++;
	return 0;
}

static int host_topology(struct pev_data_features *f)
{
	uint32_t n = f->nr_cpus_avail;
	char path[128];
	int r = 0;

	if (!n)
		return 0;
	f->topo_cpus = calloc(n, sizeof(*f->topo_cpus));
	if (!f->topo_cpus)
		return -ENOMEM;
	f->nr_topo_cpus = n;
	f->has_dies = true;
	for (uint32_t cpu = 0; cpu < n && r == 0; cpu++) {
		static const char *const names[3][2] = {
			{ "package_cpus_list", "core_siblings_list" },
			{ "core_cpus_list", "thread_siblings_list" },
			{ "die_cpus_list", NULL },
		};
		char ***lists[3] = { &f->core_siblings, &f->thread_siblings,
				     &f->die_siblings };
		uint32_t *nrs[3] = { &f->nr_core_siblings,
				     &f->nr_thread_siblings,
				     &f->nr_die_siblings };

		for (int k = 0; k < 3 && r == 0; k++) {
			char *s = NULL;

			for (int alt = 0; alt < 2 && !s && names[k][alt]; alt++) {
				snprintf(path, sizeof(path),
					 "/sys/devices/system/cpu/cpu%u/topology/%s",
					 cpu, names[k][alt]);
				s = slurp(path, NULL);
			}
			if (s)
				r = add_unique(lists[k], nrs[k], s);
			else if (k == 2)
				f->has_dies = false;
			free(s);
		}
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%u/topology/core_id", cpu);
		f->topo_cpus[cpu].core_id = (uint32_t)read_long(path, -1);
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%u/topology/physical_package_id", cpu);
		f->topo_cpus[cpu].socket_id = (uint32_t)read_long(path, -1);
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%u/topology/die_id", cpu);
		f->topo_cpus[cpu].die_id = (uint32_t)read_long(path, -1);
	}
	if (r == 0 && f->nr_core_siblings)
		pev_data_features_set(f, PEV_FEAT_CPU_TOPOLOGY, true);
	return r;
}

static int host_numa(struct pev_data_features *f)
{
	char path[128];

	for (uint32_t node = 0; node < 1024; node++) {
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%u", node);
		if (access(path, F_OK))
			continue;
		struct pev_data_numa_node *v = realloc(f->numa_nodes,
			(f->nr_numa_nodes + 1) * sizeof(*v));

		if (!v)
			return -ENOMEM;
		f->numa_nodes = v;
		v += f->nr_numa_nodes++;
		memset(v, 0, sizeof(*v));
		v->node = node;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/node/node%u/meminfo", node);
		char *mi = slurp(path, NULL);

		for (char *l = mi; l && *l; ) {
			unsigned long long kb;
			char key[32];

			if (sscanf(l, "Node %*u %31[^:]: %llu", key, &kb) == 2) {
				if (!strcmp(key, "MemTotal"))
					v->mem_total = kb;
				else if (!strcmp(key, "MemFree"))
					v->mem_free = kb;
			}
			l = strchr(l, '\n');
			l = l ? l + 1 : NULL;
		}
		free(mi);
		snprintf(path, sizeof(path),
			 "/sys/devices/system/node/node%u/cpulist", node);
		v->cpus = slurp(path, NULL);
		if (!v->cpus && !(v->cpus = strdup("")))
			return -ENOMEM;
	}
	if (f->nr_numa_nodes)
		pev_data_features_set(f, PEV_FEAT_NUMA_TOPOLOGY, true);
	return 0;
}

static int host_pmus(struct pev_data_features *f)
{
	DIR *d = opendir("/sys/bus/event_source/devices");
	struct dirent *de;
	char path[512];

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path),
			 "/sys/bus/event_source/devices/%s/type", de->d_name);
		long type = read_long(path, -1);

		if (type < 0)
			continue;
		struct pev_data_pmu_mapping *m = realloc(f->pmu_mappings,
			(f->nr_pmu_mappings + 1) * sizeof(*m));

		if (!m) {
			closedir(d);
			return -ENOMEM;
		}
		f->pmu_mappings = m;
		m += f->nr_pmu_mappings;
		m->type = (uint32_t)type;
		m->name = strdup(de->d_name);
		if (!m->name) {
			closedir(d);
			return -ENOMEM;
		}
		f->nr_pmu_mappings++;
	}
	closedir(d);
	if (f->nr_pmu_mappings)
		pev_data_features_set(f, PEV_FEAT_PMU_MAPPINGS, true);
	return 0;
}

/* Highest CPU in a list like "0-3,5" plus one. */
static uint32_t list_max_plus1(const char *s)
{
	uint32_t max = 0;

	while (s && *s) {
		char *end;
		unsigned long v = strtoul(s, &end, 10);

		if (end == s)
			break;
		if (v + 1 > max)
			max = (uint32_t)v + 1;
		s = end;
		while (*s == '-' || *s == ',' || *s == '\n')
			s++;
	}
	return max;
}

PEV_EXPORT int pev_data_features_from_host(struct pev_data_features *f)
{
	struct utsname u;
	char ver[64];
	int r = 0;

	if (uname(&u) == 0) {
		r = set_str(f, PEV_FEAT_HOSTNAME, &f->hostname, u.nodename);
		if (!r)
			r = set_str(f, PEV_FEAT_OSRELEASE, &f->osrelease, u.release);
		if (!r)
			r = set_str(f, PEV_FEAT_ARCH, &f->arch, u.machine);
	}
	snprintf(ver, sizeof(ver), "perfev %s", pev_version());
	if (!r)
		r = set_str(f, PEV_FEAT_VERSION, &f->version, ver);
	char *present = slurp("/sys/devices/system/cpu/present", NULL);

	f->nr_cpus_avail = list_max_plus1(present);
	free(present);
	if (!f->nr_cpus_avail)
		f->nr_cpus_avail = (uint32_t)sysconf(_SC_NPROCESSORS_CONF);
	f->nr_cpus_online = (uint32_t)sysconf(_SC_NPROCESSORS_ONLN);
	pev_data_features_set(f, PEV_FEAT_NRCPUS, true);
	char *mi = slurp("/proc/meminfo", NULL);
	unsigned long long kb;

	if (mi && sscanf(mi, "MemTotal: %llu", &kb) == 1) {
		f->total_mem = kb;
		pev_data_features_set(f, PEV_FEAT_TOTAL_MEM, true);
	}
	free(mi);
	if (!r)
		r = host_cpu(f);
	if (!r)
		r = host_topology(f);
	if (!r)
		r = host_numa(f);
	if (!r)
		r = host_pmus(f);
	/* Without /sys there is nothing more to read, which is no error. */
	if (!r && (r = pev_data_features_from_sysfs(f, NULL)) != -ENOMEM)
		r = 0;
	return r;
}

/* ---- build ids */

/* Finds NT_GNU_BUILD_ID in a buffer of ELF notes (4-byte aligned). */
static int note_build_id(const unsigned char *p, size_t len, uint8_t *id,
			 size_t max)
{
	size_t pos = 0;

	while (len - pos >= 12) {
		uint32_t nsz, dsz, type;

		memcpy(&nsz, p + pos, 4);
		memcpy(&dsz, p + pos + 4, 4);
		memcpy(&type, p + pos + 8, 4);
		pos += 12;
		size_t nal = ((size_t)nsz + 3) & ~(size_t)3;
		size_t dal = ((size_t)dsz + 3) & ~(size_t)3;

		if (nal > len - pos || dal > len - pos - nal)
			return -ENOENT;
		if (type == NT_GNU_BUILD_ID && nsz == 4 &&
		    !memcmp(p + pos, "GNU", 4)) {
			size_t n = dsz < max ? dsz : max;

			memcpy(id, p + pos + nal, n);
			return (int)dsz;
		}
		pos += nal + dal;
	}
	return -ENOENT;
}

PEV_EXPORT int pev_elf_build_id(const char *path, uint8_t *id, size_t max)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), r = -ENOENT;

	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);

	if (!e || elf_kind(e) != ELF_K_ELF) {
		r = -ENOEXEC;
		goto out;
	}
	Elf_Scn *scn = NULL;

	while (r < 0 && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		if (data && data->d_buf)
			r = note_build_id(data->d_buf, data->d_size, id, max);
	}
out:
	if (e)
		elf_end(e);
	close(fd);
	return r;
}

PEV_EXPORT int pev_kernel_build_id(uint8_t *id, size_t max)
{
	size_t len;
	char *notes = slurp("/sys/kernel/notes", &len);

	if (!notes)
		return -errno ? -errno : -ENOENT;
	int r = note_build_id((unsigned char *)notes, len, id, max);

	free(notes);
	return r;
}
