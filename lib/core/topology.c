// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* CPU topology from sysfs: the ids perf's aggregation modes group by. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfev/target.h>
#include <perfev/topology.h>

/* A small decimal file; -1 when it is missing or not a number. */
static int read_id(const char *dir, const char *name)
{
	char path[512], buf[32];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	char *end;
	long v = strtol(buf, &end, 10);
	if (end == buf || v < 0 || v > 1000000)
		return -1;
	return (int)v;
}

/* The kernel links cpuN/nodeM to the node the CPU belongs to. */
static int find_node(const char *cpudir)
{
	DIR *d = opendir(cpudir);
	struct dirent *e;
	int node = -1;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char *end;
		if (strncmp(e->d_name, "node", 4) || !e->d_name[4])
			continue;
		long v = strtol(e->d_name + 4, &end, 10);
		if (*end || v < 0 || v > 1000000)
			continue;
		node = (int)v;
		break;
	}
	closedir(d);
	return node;
}

int pev_cpu_topology_at(const char *sysfs_root, int cpu, struct pev_cpu_topology *out)
{
	char dir[400], topo[420];

	if (!sysfs_root || !out || cpu < 0 || cpu >= PEV_MAX_CPUS)
		return -EINVAL;
	snprintf(dir, sizeof(dir), "%s/devices/system/cpu/cpu%d", sysfs_root, cpu);
	if (access(dir, F_OK))
		return -ENOENT;
	snprintf(topo, sizeof(topo), "%s/topology", dir);
	out->cpu = cpu;
	out->socket = read_id(topo, "physical_package_id");
	out->die = read_id(topo, "die_id");
	out->core = read_id(topo, "core_id");
	out->node = find_node(dir);
	return 0;
}

int pev_cpu_topology(int cpu, struct pev_cpu_topology *out)
{
	return pev_cpu_topology_at("/sys", cpu, out);
}
