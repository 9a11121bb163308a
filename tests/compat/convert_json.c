// SPDX-License-Identifier: GPL-2.0-only
/* perfev convert --to json against perf's own `perf data convert
 * --to-json` on the same files, both parsed with python3's json module
 * (tests/helpers/json_cmp.py): perf's headers, and every sample's
 * timestamp, pid, tid, cpu, comm and call chain (ip, symbol, dso), on
 * files perf records at test time (python3 with -g, with --sample-cpu
 * and no chain, with --call-graph dwarf; gcc's cc1; a C++ program built
 * with g++ -O2 -g, -g and dwarf; a tracepoint) and files perfev records.
 * Then a pipe (the header first, then the stream's records), the
 * filters, and malformed input: a file that is not perf.data (exit 1,
 * one error line, no output file left), a file cut short (exit 3, the
 * records before the cut, every line JSON), a sample whose callchain.nr
 * runs past its record (one "error" line for it, every other sample
 * written: perf stops there). */
#include "report_cmp.h"

static char cmp[4096];

static void same_json(const char *file, const char *cmp_opts)
{
	CHECK_EQ_INT(t_sh("rm -f %s/perf.json && %s data convert -i %s --to-json %s/perf.json > /dev/null 2>&1",
			  dir, PERF, file, dir), 0);
	CHECK_EQ_INT(t_sh("%s convert -q -i %s --to json -o %s/ours.jsonl", perfev, file, dir), 0);
	CHECK_MSG(!t_sh("python3 %s %s/perf.json %s/ours.jsonl %s", cmp, dir, dir, cmp_opts),
		  "%s: perfev's JSON differs from perf's", file);
}

/* a python3 check over DIR/ours.jsonl: every line JSON, then `expr`
 * over L (the list of objects) */
static int check_lines(const char *expr)
{
	return t_sh("python3 -c 'import json,sys\n"
		    "L=[json.loads(l) for l in open(\"%s/ours.jsonl\", encoding=\"utf-8\")]\n"
		    "S=[x for x in L if x[\"type\"]==\"sample\"]\n"
		    "sys.exit(0 if (%s) else 1)'", dir, expr);
}

int main(void)
{
	char py[128], c[128], cxx[128], bin[128], f[128], g[160];

	report_cmp_start("/tmp/perfev-json-XXXXXX", true);
	if (!have("python3"))
		T_SKIP("python3 is not installed (it parses both outputs)");
	if (t_sh("%s data convert --help 2>&1 | grep -q to-json", PERF))
		T_SKIP("this perf has no 'perf data convert --to-json'");
	snprintf(cmp, sizeof(cmp), "tests/helpers/json_cmp.py");
	if (access(cmp, R_OK))
		T_FATAL("%s is missing", cmp);
	report_cmp_write(py, sizeof(py), "w.py", report_py_src);
	report_cmp_write(c, sizeof(c), "t.c", report_c_src);
	report_cmp_write(cxx, sizeof(cxx), "t.cc", report_cxx_src);

	snprintf(f, sizeof(f), "%s/py.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q -g -e cpu-clock -c 100000 -o %s -- /usr/bin/python3 %s > /dev/null 2>&1",
			  PERF, f, py), 0);
	same_json(f, "");
	/* the side-band records are there too, in time order */
	CHECK_MSG(!check_lines("L[0][\"type\"]==\"header\" and "
			       "any(x[\"type\"]==\"comm\" and x[\"comm\"]==\"python3\" and x[\"exec\"] for x in L) and "
			       "any(x[\"type\"]==\"mmap2\" and x[\"filename\"].endswith(\"/python3.11\") for x in L) and "
			       "any(x[\"type\"]==\"exit\" for x in L) and "
			       "all(x[\"event\"]==\"cpu-clock\" and x[\"period\"]==100000 for x in S) and "
			       "[x[\"timestamp\"] for x in S]==sorted(x[\"timestamp\"] for x in S)"),
		  "%s: the side-band records or sample fields are missing", f);
	/* --comm keeps that comm's samples, and no other */
	CHECK_EQ_INT(t_sh("%s convert -q -i %s --to json --comm python3 -o %s/ours.jsonl", perfev, f, dir), 0);
	CHECK_MSG(!check_lines("S and all(x[\"comm\"]==\"python3\" for x in S)"), "%s: --comm python3", f);
	CHECK_EQ_INT(t_sh("%s convert -q -i %s --to json --event cycles -o %s/ours.jsonl 2>/dev/null", perfev, f, dir), 2);
	CHECK_EQ_INT(t_sh("%s convert -q -i %s --to json -o %s/no/such/dir 2>/dev/null", perfev, f, dir), 1);

	snprintf(f, sizeof(f), "%s/nog.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q --sample-cpu -e cpu-clock -c 100000 -o %s -- /usr/bin/python3 %s > /dev/null 2>&1",
			  PERF, f, py), 0);
	same_json(f, "");
	snprintf(f, sizeof(f), "%s/pyd.data", dir);
	CHECK_EQ_INT(t_sh("%s record -q --call-graph dwarf -e cpu-clock -c 400000 -o %s -- /usr/bin/python3 %s > /dev/null 2>&1",
			  PERF, f, py), 0);
	same_json(f, "--user-prefix");
	if (have("gcc")) {
		snprintf(f, sizeof(f), "%s/cc1.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q -g -e cpu-clock -c 100000 -o %s -- gcc -O2 -c %s -o %s/t.o > /dev/null 2>&1",
				  PERF, f, c, dir), 0);
		same_json(f, "");
	}
	snprintf(bin, sizeof(bin), "%s/cxx", dir);
	if (have("g++") && !t_sh("g++ -O2 -g -o %s %s", bin, cxx)) {
		snprintf(f, sizeof(f), "%s/cxx.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q -g -e cpu-clock -c 100000 -o %s -- %s 100 > /dev/null 2>&1",
				  PERF, f, bin), 0);
		same_json(f, "");
		snprintf(f, sizeof(f), "%s/cxxd.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q --call-graph dwarf -e cpu-clock -c 200000 -o %s -- %s 60 > /dev/null 2>&1",
				  PERF, f, bin), 0);
		same_json(f, "--user-prefix");
		/* inline frames are marked, with the address of their holder */
		CHECK_MSG(!check_lines("any(fr.get(\"inlined\") for x in S for fr in x[\"callchain\"])"),
			  "%s: no inline frame in perfev's JSON", f);
		/* perfev's own recordings */
		snprintf(f, sizeof(f), "%s/pe.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q -g -e task-clock -c 100000 -o %s -- %s 100 > /dev/null 2>&1",
				  perfev, f, bin), 0);
		same_json(f, "");
		snprintf(f, sizeof(f), "%s/ped.data", dir);
		CHECK_EQ_INT(t_sh("%s record -q --call-graph dwarf -e cpu-clock -o %s -- %s 60 > /dev/null 2>&1",
				  perfev, f, bin), 0);
		same_json(f, "--user-prefix");
	}
	/* a tracepoint, where the kernel has it */
	snprintf(f, sizeof(f), "%s/tp.data", dir);
	if (!t_sh("%s record -q -e sched:sched_switch -o %s -- sleep 0.05 > /dev/null 2>&1", PERF, f))
		same_json(f, "");
	else
		printf("sched:sched_switch cannot be recorded here: its case is left out\n");

	/* a pipe: the header line first, though its features come in the
	 * stream's records */
	CHECK_EQ_INT(t_sh("%s record -q -g -e cpu-clock -c 100000 -o - -- /usr/bin/python3 %s 2>/dev/null | "
			  "%s convert -q -i - --to json > %s/ours.jsonl", PERF, py, perfev, dir), 0);
	CHECK_MSG(!check_lines("L[0][\"type\"]==\"header\" and L[0][\"headers\"][\"arch\"] and "
			       "len(S)>10 and [x for x in L if x[\"type\"]==\"header\"]==[L[0]]"),
		  "the pipe's JSON");

	/* malformed input */
	snprintf(f, sizeof(f), "%s/py.data", dir);
	CHECK_EQ_INT(t_sh("head -c 4096 /dev/urandom > %s/junk.data && %s convert -i %s/junk.data --to json -o %s/j.jsonl 2> %s/err.txt",
			  dir, perfev, dir, dir, dir), 1);
	CHECK_MSG(!t_sh("test ! -e %s/j.jsonl", dir), "a failed conversion left its output file");
	/* a missing input leaves an existing output file as it was */
	CHECK_EQ_INT(t_sh("echo keep > %s/k.jsonl && %s convert -i %s/none.data --to json -o %s/k.jsonl 2>/dev/null",
			  dir, perfev, dir, dir), 1);
	CHECK_MSG(!t_sh("grep -qx keep %s/k.jsonl", dir), "a missing input emptied or removed -o's file");
	CHECK_MSG(!t_sh("test $(wc -l < %s/err.txt) = 1 && grep -q '^perfev: error: ' %s/err.txt", dir, dir),
		  "not one error line for a file that is not perf.data");
	/* cut in its data section: exit 3, the records before the cut */
	CHECK_EQ_INT(t_sh("head -c $(( $(stat -c %%s %s) * 2 / 3 )) %s > %s/cut.data && "
			  "%s convert -q -i %s/cut.data --to json -o %s/ours.jsonl 2>/dev/null",
			  f, f, dir, perfev, dir, dir), 3);
	CHECK_MSG(!check_lines("L[0][\"type\"]==\"header\" and len(S)>0"), "a cut file's JSON");
	/* a sample whose callchain.nr runs past its record */
	snprintf(g, sizeof(g), "%s/bad.data", dir);
	CHECK_EQ_INT(t_sh("python3 -c 'import struct,sys\n"
			  "b=bytearray(open(sys.argv[1],\"rb\").read())\n"
			  "off,size=struct.unpack_from(\"<QQ\",b,40)\n"
			  "p,n=off,0\n"
			  "while p<off+size:\n"
			  " t,m,s=struct.unpack_from(\"<IHH\",b,p)\n"
			  " if t==9:\n"
			  "  n+=1\n"
			  "  if n==20: struct.pack_into(\"<Q\",b,p+32,1<<40); break\n"
			  " p+=s\n"
			  "open(sys.argv[2],\"wb\").write(b)' %s %s", f, g), 0);
	CHECK_EQ_INT(t_sh("%s convert -q -i %s --to json -o %s/ours.jsonl && python3 -c 'import json\n"
			  "print(sum(1 for l in open(\"%s/ours.jsonl\") if \"error\" not in json.loads(l) and json.loads(l)[\"type\"]==\"sample\"))' > %s/nbad.txt",
			  perfev, g, dir, dir, dir), 0);
	CHECK_EQ_INT(t_sh("%s convert -q -i %s --to json -o %s/ours.jsonl", perfev, f, dir), 0);
	CHECK_MSG(!t_sh("test $(( $(cat %s/nbad.txt) + 1 )) = $(grep -c '\"type\":\"sample\"' %s/ours.jsonl)", dir, dir),
		  "%s: not every other sample was written", g);
	CHECK_EQ_INT(t_sh("%s convert -q -i %s --to json -o %s/ours.jsonl", perfev, g, dir), 0);
	CHECK_MSG(!check_lines("sum(1 for x in L if x[\"type\"]==\"sample\" and \"error\" in x and x[\"error\"].startswith(\"callchain.nr\"))==1"),
		  "%s: no error line for the damaged sample", g);
	return report_cmp_end();
}
