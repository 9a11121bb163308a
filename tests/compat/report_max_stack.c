// SPDX-License-Identifier: GPL-2.0-only
/* report --max-stack 0 on a file with call chains: perf 6.1 keeps its
 * call-graph settings (the Children column, the order they choose) but
 * takes no entry of any chain, so the report is flat (Children equal to
 * Self, no graph); perfev read 0 as "no limit" (the library's 127) and
 * printed the full call graphs.  Against perf report --stdio on a file
 * perf records here with -g (python3, or a shell loop without it), byte
 * for byte with the random tip left out; other limits too. */
#include "report_cmp.h"

static const char *const modes[] = {
	"--max-stack 0", "--max-stack 0 --no-children", "--max-stack 0 -g caller",
	"--max-stack 0 -G", "--max-stack 0 -n --sort dso,sym",
	"--max-stack 0 --sort parent,sym", "--max-stack 0 -g folded --no-children",
	"--max-stack 0 -F overhead_children,overhead,comm",
	"--max-stack 1", "--max-stack 2 --no-children", "--max-stack=3 -g caller",
	NULL,
};

static const char py_src[] =
	"import json\ns = 0\nfor i in range(40000):\n"
	"    s += len(json.dumps({'a': i, 'b': [i, str(i) * 3]}))\nprint(s)\n";

int main(void)
{
	char path[256], file[256];

	report_cmp_start("/tmp/perfev-maxstack-XXXXXX", true);
	report_cmp_write(path, sizeof(path), "w.py", py_src);
	snprintf(file, sizeof(file), "%s/g.data", dir);
	if (have("python3"))
		CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -F 4000 -g -o %s -- python3 %s > /dev/null 2>&1",
				  PERF, file, path), 0);
	else
		CHECK_EQ_INT(t_sh("%s record -q -e cpu-clock -F 4000 -g -o %s -- sh -c "
				  "'for i in $(seq 1 30000); do :; done' > /dev/null 2>&1",
				  PERF, file), 0);
	for (const char *const *m = modes; *m; m++)
		same_report("python3 -g", file, *m);
	return report_cmp_end();
}
