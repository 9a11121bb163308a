// SPDX-License-Identifier: GPL-2.0-only
/* pev_cpu_topology_at on a constructed sysfs tree whose ids all differ:
 * socket from physical_package_id (not die_id), die from die_id, core
 * from core_id, node from the cpuN/nodeM link; a missing file is -1; a
 * missing CPU is -ENOENT. */
#include <sys/stat.h>
#include <unistd.h>
#include <perfev/topology.h>
#include <perfev/target.h>
#include "testutil.h"

static char root[] = "/tmp/pev-topo-XXXXXX";

static void put(const char *rel, const char *text)
{
	char path[256], dir[300];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(dir, sizeof(dir), "mkdir -p $(dirname %s)", path);
	if (system(dir))
		T_FATAL("%s", dir);
	FILE *f = fopen(path, "w");
	if (!f)
		T_FATAL("cannot write %s", path);
	fputs(text, f);
	fclose(f);
}

int main(void)
{
	struct pev_cpu_topology t;
	char cmd[600];

	if (!mkdtemp(root))
		T_FATAL("mkdtemp");
	put("devices/system/cpu/cpu0/topology/physical_package_id", "4\n");
	put("devices/system/cpu/cpu0/topology/die_id", "9\n");
	put("devices/system/cpu/cpu0/topology/core_id", "17\n");
	put("devices/system/cpu/cpu0/node3/cpumap", "1\n");
	put("devices/system/cpu/cpu1/topology/physical_package_id", "6\n");
	put("devices/system/cpu/cpu1/topology/core_id", "2\n");
	put("devices/system/cpu/cpu1/topology/die_id", "x\n");

	CHECK_EQ_INT(pev_cpu_topology_at(root, 0, &t), 0);
	CHECK_EQ_INT(t.cpu, 0);
	CHECK_EQ_INT(t.socket, 4);
	CHECK_EQ_INT(t.die, 9);
	CHECK_EQ_INT(t.core, 17);
	CHECK_EQ_INT(t.node, 3);
	CHECK_EQ_INT(pev_cpu_topology_at(root, 1, &t), 0);
	CHECK_EQ_INT(t.socket, 6);
	CHECK_EQ_INT(t.core, 2);
	CHECK_EQ_INT(t.die, -1);	/* not a number */
	CHECK_EQ_INT(t.node, -1);	/* no nodeM link */
	CHECK_EQ_INT(pev_cpu_topology_at(root, 2, &t), -ENOENT);
	CHECK_EQ_INT(pev_cpu_topology_at(root, -1, &t), -EINVAL);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd)) {}
	return t_done();
}
