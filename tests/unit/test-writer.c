/* test-writer.c -- the callgrind writer on call graphs made by hand,
 * written to memory: header, name and position compression, calls with
 * their inclusive cost, the pseudo caller, functions of two objects
 * (ob=/cob=), names that KCachegrind would merge, and totals; written
 * by two threads from any function on, the same bytes. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>

#include "callgrind_write.h"
#include "check.h"
#include "diag.h"
#include "fake.h"
#include "outstream.h"
#include "source_map.h"

/* Writes CG with MAP into a string (to free); a second thread writes the
 * functions from SPLIT_AT on when it is not 0. */
static char *write_split(const struct callgraph *cg,
			 const struct source_map *map, size_t split_at)
{
	struct callgrind_write_info info = { .dimen = "seconds",
					     .source = "gmon.out", .nsources = 1,
					     .split_at = split_at };
	struct outstream os;
	struct g2c_error err;
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	CHECK(fp != NULL);
	outstream_from_file(&os, fp, "memory");
	CHECK(callgrind_write(cg, map, &info, &os, &err) == 0);
	CHECK(outstream_close(&os, &err) == 0);
	fclose(fp);
	return text;
}

/* Writes CG with MAP into a string (to free), and checks that two threads
 * write the same, whichever function the second one starts from. */
static char *write_to_memory(const struct callgraph *cg,
			     const struct source_map *map)
{
	char *text = write_split(cg, map, 0);
	size_t first_differing = 0;	/* (a split at 0 is no split) */

	for (size_t split = 1; split < cg->nfuncs && !first_differing; split++) {
		char *split_text = write_split(cg, map, split);

		if (strcmp(split_text, text) != 0)
			first_differing = split;
		free(split_text);
	}
	CHECK_U64(first_differing, 0);
	return text;
}

/* main (a.c:10) calls leaf (a.c:20) 5 times from two call sites; main
 * has 1 sample, leaf 3, one of them at an instruction inlined from h.h. */
static void test_one_object(void)
{
	enum { MAIN, LEAF, N };
	struct symtab st;
	struct cg_object obj;
	struct gmon_profile p;
	struct callgraph cg;
	struct source_map map = { 0 };
	struct g2c_error err;
	char *text;

	fake_symtab(&st, N, 0x1000, 32);
	st.funcs[MAIN].name = "main";
	st.funcs[LEAF].name = "leaf";
	fake_profile(&p, 0x1000, 0x1040);
	set_bin(&p, 2, 1);	/* main, 0x1004 */
	set_bin(&p, 17, 2);	/* leaf, 0x1022 */
	set_bin(&p, 18, 1);	/* leaf, 0x1024 */
	add_arc(&p, 0x1008, 0x1024, 3);
	add_arc(&p, 0x1018, 0x1024, 2);
	CHECK(build(&cg, &obj, &p, &st, 100, &err) == 0);
	CHECK_U64(cg.nsites, 2);
	CHECK_U64(cg.ncosts, 3);

	map.home = calloc(cg.nfuncs, sizeof *map.home);
	map.cost = calloc(cg.ncosts, sizeof *map.cost);
	map.site = calloc(cg.nsites, sizeof *map.site);
	map.home[MAIN] = (struct src_pos){ "/src/a.c", 10 };
	map.home[LEAF] = (struct src_pos){ "/src/a.c", 20 };
	map.cost[0] = (struct src_pos){ "/src/a.c", 11 };
	map.cost[1] = (struct src_pos){ "/src/h.h", 3 };
	map.cost[2] = (struct src_pos){ "/src/a.c", 21 };
	map.site[0] = (struct src_pos){ "/src/a.c", 12 };
	map.site[1] = (struct src_pos){ "/src/a.c", 15 };
	text = write_to_memory(&cg, &map);
	CHECK_STR_EQ(text,
		"# callgrind format\n"
		"version: 1\n"
		"creator: " PACKAGE_NAME " " PACKAGE_VERSION "\n"
		"cmd: /fake/prog\n"
		"desc: Trigger: profile gmon.out\n"
		"desc: Sampling rate: 100 Hz (1 sample = 10000000 ns)\n"
		"desc: Samples: 4\n"
		"positions: instr line\n"
		"event: ns : CPU time (ns)\n"
		"events: ns\n"
		"summary: 40000000\n"
		"\n"
		"ob=(1) /fake/prog\n"
		"fl=(1) ???\n"
		"fn=(1) <spontaneous>\n"
		"cfi=(2) /src/a.c\n"
		"cfn=(2) main\n"
		"calls=1 0x1000 10\n"
		"0x0 0 40000000\n"
		"fl=(2)\n"
		"fn=(2)\n"
		"+4100 +11 10000000\n"
		"cfi=(2)\n"
		"cfn=(3) leaf\n"
		"calls=3 0x1020 20\n"
		"+4 +1 18000000\n"
		"cfi=(2)\n"
		"cfn=(3)\n"
		"calls=2 0x1020 20\n"
		"+16 +3 12000000\n"
		"fn=(3)\n"
		"fi=(3) /src/h.h\n"
		"+10 -12 20000000\n"
		"fe=(2)\n"
		"+2 +18 10000000\n"
		"\n"
		"totals: 40000000\n");
	free(text);
	source_map_release(&map);
	callgraph_release(&cg);
	gmon_profile_release(&p);
	free(st.funcs);
}

/* A call graph of two objects made by hand: the program's "main" and
 * two static "init"s of one library (in files of one name, so that
 * KCachegrind would take them for one function), called from outside. */
static void test_two_objects(void)
{
	struct symtab prog_st, lib_st;
	struct object lib = { .path = "/lib/libx.so.1", .target = { 8, false } };
	struct cg_object objs[2] = {
		{ .obj = &fake_object, .st = &prog_st, .first_func = 0 },
		{ .obj = &lib, .st = &lib_st, .first_func = 1 },
	};
	struct cg_func funcs[6] = {
		[0] = { .used = true, .shown = true, .first_cost = 0, .ncosts = 1 },
		[1] = { .used = true, .shown = true, .first_cost = 1, .ncosts = 1 },
		[2] = { .used = true, .shown = true, .first_cost = 2, .ncosts = 1 },
	};
	static const uint64_t cost_pcs[3] = { 0x1000, 0x500, 0x600 };
	static const uint64_t cost_ns[3] = { 5, 7, 11 };
	struct cg_cost costs[3] = { { 0 } };
	struct cg_root roots[3] = { { 0, 5, 1 }, { 1, 7, 1 }, { 2, 11, 1 } };
	struct callgraph cg = { .phase = CG_PROPAGATED, .objs = objs, .nobjs = 2,
				.nfuncs = 6, .first_pseudo = 3,
				.funcs = funcs, .costs = costs, .ncosts = 3,
				.roots = roots, .nroots = 3, .hz = 100,
				.total_ns = 23 };
	struct src_pos home[6] = { { "/src/main.c", 1 }, { "/x/a/util.c", 2 },
				   { "/x/b/util.c", 3 }, { "???", 0 }, { "???", 0 },
				   { "???", 0 } };
	struct src_pos cost_pos[3] = { { "/src/main.c", 1 }, { "/x/a/util.c", 2 },
				       { "/x/b/util.c", 3 } };
	struct source_map map = { .home = home, .cost = cost_pos };
	char *text;

	for (size_t i = 0; i < 3; i++) {
		costs[i].pc = cost_pcs[i];
		cg_cost_set_ns(&cg, &costs[i], cost_ns[i]);
	}
	fake_symtab(&prog_st, 1, 0x1000, 16);
	prog_st.funcs[0].name = "main";
	fake_symtab(&lib_st, 2, 0x500, 0x100);
	lib_st.funcs[0].name = lib_st.funcs[1].name = "init";
	text = write_to_memory(&cg, &map);
	/* The pseudo caller calls into the library with cob=. */
	CHECK_STR_CONTAINS(text, "ob=(1) /fake/prog\nfl=(1) ???\nfn=(1) <spontaneous>\n"
			   "cfi=(2) /src/main.c\ncfn=(2) main\ncalls=1 0x1000 1\n");
	CHECK_STR_CONTAINS(text, "cob=(2) /lib/libx.so.1\ncfi=(3) /x/a/util.c\n"
			   "cfn=(3) init [/x/a/util.c]\ncalls=1 0x500 2\n");
	CHECK_STR_CONTAINS(text, "cob=(2)\ncfi=(4) /x/b/util.c\n"
			   "cfn=(4) init [/x/b/util.c]\ncalls=1 0x600 3\n");
	/* The library's functions follow under their own ob=. */
	CHECK_STR_CONTAINS(text, "fn=(2)\n+4096 +1 5\nob=(2)\nfl=(3)\nfn=(3)\n-2816 +1 7\n"
			   "fl=(4)\nfn=(4)\n+256 +1 11\n");
	CHECK_STR_CONTAINS(text, "\ntotals: 23\n");
	free(text);
	free(prog_st.funcs);
	free(lib_st.funcs);
}

/* Four static "init"s that KCachegrind would take for one: two in files
 * of their own (util.c in two directories), two in one file, which only
 * their addresses tell apart. */
static void test_clashing_names(void)
{
	struct symtab st;
	struct cg_object obj = { .obj = &fake_object, .st = &st };
	struct cg_func funcs[6] = { 0 };	/* 4, 5: <no symbol>, <outside> */
	struct cg_cost costs[4];
	struct cg_root roots[4];
	struct callgraph cg = { .phase = CG_PROPAGATED, .objs = &obj,
				.nobjs = 1, .nfuncs = 6,
				.first_pseudo = 4, .funcs = funcs, .costs = costs,
				.ncosts = 4, .roots = roots, .nroots = 4,
				.hz = 100, .total_ns = 4 };
	struct src_pos home[6] = { { "/x/a/util.c", 1 }, { "/x/c/util.c", 2 },
				   { "/x/b/util.c", 3 }, { "/x/c/util.c", 4 },
				   { "???", 0 }, { "???", 0 } };
	struct source_map map = { .home = home, .cost = home };
	char *text;

	fake_symtab(&st, 4, 0x1000, 16);
	for (size_t f = 0; f < 4; f++) {
		st.funcs[f].name = "init";
		funcs[f] = (struct cg_func){ .used = true, .shown = true,
					     .first_cost = f, .ncosts = 1 };
		costs[f] = (struct cg_cost){ .pc = 0x1000 + 16 * f };
		cg_cost_set_ns(&cg, &costs[f], 1);
		roots[f] = (struct cg_root){ f, 1, 1 };
	}
	text = write_to_memory(&cg, &map);
	CHECK_STR_CONTAINS(text, "cfn=(2) init [/x/a/util.c]\n");
	CHECK_STR_CONTAINS(text, "cfn=(3) init [0x1010]\n");
	CHECK_STR_CONTAINS(text, "cfn=(4) init [/x/b/util.c]\n");
	CHECK_STR_CONTAINS(text, "cfn=(5) init [0x1030]\n");
	free(text);
	free(st.funcs);
}

/* A callback: cmp (2 samples) is called 193 times from code in no
 * function (a library's qsort, not profiled), and once by main, which
 * calls nothing else.  main's call carries cmp's whole cost, as in gprof
 * (the calls from outside are not among the callers it shares by).  fin
 * (1 sample) is only called from outside, 7 times: the pseudo caller's
 * call says 7 calls, not 1.  main, whose call nothing recorded, keeps 1. */
static void test_callback(void)
{
	enum { MAIN, CMP, FIN, N };
	struct symtab st;
	struct cg_object obj;
	struct gmon_profile p;
	struct callgraph cg;
	struct source_map map = { 0 };
	struct g2c_error err;
	char *text;

	fake_symtab(&st, N, 0x1000, 32);
	st.funcs[MAIN].name = "main";
	st.funcs[CMP].name = "cmp";
	st.funcs[FIN].name = "fin";
	fake_profile(&p, 0x1000, 0x1060);
	set_bin(&p, 18, 2);	/* cmp, 0x1024 */
	set_bin(&p, 34, 1);	/* fin, 0x1044 */
	add_arc(&p, 0x1008, 0x1024, 1);
	add_arc(&p, 0x9000, 0x1024, 193);	/* from outside every function */
	add_arc(&p, 0x9010, 0x1044, 7);
	CHECK(build(&cg, &obj, &p, &st, 100, &err) == 0);
	CHECK_U64(cg.funcs[CMP].ncalls, 1);
	CHECK_U64(cg.funcs[CMP].outside_calls, 193);
	CHECK_U64(cg.funcs[FIN].outside_calls, 7);
	map.home = calloc(cg.nfuncs, sizeof *map.home);
	map.cost = calloc(cg.ncosts, sizeof *map.cost);
	map.site = calloc(cg.nsites, sizeof *map.site);
	for (size_t f = 0; f < cg.nfuncs; f++)
		map.home[f] = (struct src_pos){ "/src/a.c", 10 * (unsigned)f };
	for (size_t i = 0; i < cg.ncosts; i++)
		map.cost[i] = (struct src_pos){ "/src/a.c", 1 };
	for (size_t i = 0; i < cg.nsites; i++)
		map.site[i] = (struct src_pos){ "/src/a.c", 2 };
	text = write_to_memory(&cg, &map);
	CHECK_STR_CONTAINS(text, "fn=(1) <spontaneous>\ncfi=(2) /src/a.c\n"
			   "cfn=(2) main\ncalls=1 0x1000 0\n0x0 0 20000000\n"
			   "cfi=(2)\ncfn=(3) fin\ncalls=7 0x1040 20\n* * 10000000\n");
	CHECK_STR_CONTAINS(text, "cfn=(4) cmp\ncalls=1 0x1020 10\n");
	free(text);
	free(map.home);
	free(map.cost);
	free(map.site);
	callgraph_release(&cg);
	gmon_profile_release(&p);
	free(st.funcs);
}

int main(void)
{
	test_one_object();
	test_two_objects();
	test_clashing_names();
	test_callback();
	return check_report("test-writer");
}
