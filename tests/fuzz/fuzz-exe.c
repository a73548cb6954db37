/* fuzz-exe.c -- libFuzzer harness: the executable is the input.  Each
 * input is opened as an object (symbols, separate debug file lookup,
 * dynamic section), its function table built, and a profile made up for
 * it (a histogram over its first code section with a sample in every
 * bin, and a call between each two neighbouring functions) is converted
 * all the way: instruction decoding and call sites, the call graph, the
 * source lines (the DWARF reader and libbfd's) and the writer.  Every
 * input must give either a profile or one error message; the sanitizers
 * catch everything else. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz-convert.h"

/* A profile for ST: bins over its functions' range, and arcs from each
 * function into the next, as mcount would record them. */
static int make_profile(struct gmon_profile *p, const struct symtab *st)
{
	uint64_t lo = st->funcs[0].addr, hi = st->funcs[st->nfuncs - 1].end;
	size_t n = st->nfuncs < 64 ? st->nfuncs : 64;

	gmon_profile_init(p);
	if (hi <= lo || hi - lo > (1u << 20))
		hi = lo + 2;
	p->hists = calloc(1, sizeof *p->hists);
	p->arcs = calloc(n, sizeof *p->arcs);
	if (!p->hists || !p->arcs)
		return -1;
	p->nhists = 1;
	p->hists[0] = (struct gmon_hist){ .low_pc = lo, .high_pc = hi,
					  .nbins = (uint32_t)((hi - lo + 1) / 2),
					  .rate = 100, .dimen = "seconds" };
	p->hists[0].counted = calloc(p->hists[0].nbins, sizeof *p->hists[0].counted);
	if (!p->hists[0].counted)
		return -1;
	for (uint32_t i = 0; i < p->hists[0].nbins; i++)
		p->hists[0].counted[i] = (struct gmon_bin){ i, 1 };
	p->hists[0].ncounted = p->hists[0].nbins;
	for (size_t i = 0; i + 1 < n; i++)
		p->arcs[p->narcs++] = (struct gmon_arc){ st->funcs[i].addr,
							 st->funcs[i + 1].addr + 8,
							 i + 1 };
	p->arcs_cap = n;
	return 0;
}

static void convert(struct program_object *po)
{
	struct program_object *objs[1] = { po };
	struct gmon_profile prof;
	static const char *const files[] = { "fuzz" };

	object_lines_init(&po->lines, &po->obj);
	po->files = (const char **)files;
	po->nfiles = 1;
	if (make_profile(&prof, &po->st) == 0)
		fuzz_convert(objs, 1, &prof);
	gmon_profile_release(&prof);
	object_lines_close(&po->lines);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len)
{
	char path[64];
	FILE *fp;
	struct program_object po = { 0 };
	struct object_dynamic dyn;
	struct g2c_error err;

	/* libbfd reads files: the input goes to one in memory (tmpfs). */
	snprintf(path, sizeof path, "/dev/shm/fuzz-exe-%ld", (long)getpid());
	fp = fopen(path, "wb");
	if (!fp)
		return 0;
	if (fwrite(data, 1, len, fp) != len) {
		fclose(fp);
		return 0;
	}
	fclose(fp);
	/* The debug directory is one without debug files. */
	if (object_open(&po.obj, path, "/nonexistent", &err) == 0) {
		if (object_read_dynamic(&po.obj, &dyn, &err) == 0)
			object_dynamic_release(&dyn);
		if (symtab_build(&po.st, &po.obj, &(struct symtab_options){ true, false },
				 &err) == 0) {
			if (symtab_names(&po.st, &err) == 0)
				convert(&po);
			symtab_release(&po.st);
		}
		object_close(&po.obj);
	}
	unlink(path);
	return 0;
}
