/* report.c -- what a run says besides its output: the warnings' causes,
 * desc: lines, --stats and --summary. */
#include <config.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "attribution.h"
#include "diag.h"
#include "gmon_format.h"
#include "report.h"
#include "util.h"

/* Writes at most MAX bytes of NAME, control characters as '?', so that
 * a name cannot break the line. */
static void put_name(FILE *fp, const char *name, size_t max)
{
	char chunk[256];
	size_t len = strlen(name);

	if (len > max)
		len = max;
	for (size_t n; len > 0; name += n, len -= n) {
		n = len < sizeof chunk ? len : sizeof chunk;
		copy_printable(chunk, name, n);
		fwrite(chunk, 1, n, fp);
	}
}

/* The samples in PROF's histograms. */
static uint64_t count_samples(const struct gmon_profile *prof)
{
	uint64_t samples = 0;

	for (size_t h = 0; h < prof->nhists; h++)
		for (size_t i = 0; i < prof->hists[h].ncounted; i++)
			samples += prof->hists[h].counted[i].count;
	return samples;
}

void report_calls_lost(struct warnings *w, const struct gmon_profile *prof,
		       const char *source)
{
	if (prof->calls_lost)
		warnings_add(w, "%s: the dynamic loader's arc table was full: %" PRIu64
		     " calls it counted are in no arc, so the call counts are"
		     " short (LD_PROFILE keeps a fixed table)", source,
		     prof->calls_lost);
}

void report_no_samples(struct warnings *w, const struct program_object *po,
		       const struct gmon_profile *prof, const char *source,
		       size_t nsources)
{
	const char *more = nsources > 1 ? " and the other profiles" : "";

	if (count_samples(prof) > 0)
		return;
	if (po->ld_profile) {
		if (prof->narcs > 0)
			warnings_add(w, "%s: call counts but no samples: a program built"
			     " with -pg takes the profiling timer for its own"
			     " gmon.out, so no time in %s was sampled (gprof"
			     " says \"no time accumulated\"); profile a program"
			     " built without -pg for its time", source,
			     base_name(po->obj.path));
	} else if (prof->nhists == 0) {
		warnings_add(w, "%s%s: no histogram, so no time: only counts (gprof"
		     " says \"no time propagated\")", source, more);
	} else {
		warnings_add(w, "%s%s: no samples (gprof says \"no time"
		     " accumulated\"): the run was shorter than one tick of"
		     " the profiling timer, or its time was spent in shared"
		     " libraries, which the histogram does not cover"
		     " (LD_PROFILE=LIBRARY profiles one of them)", source,
		     more);
	}
}

int report_describe_object(char **line, const struct program_object *po,
			   const struct gmon_profile *prof,
			   struct g2c_error *err)
{
	const char *symbols = po->obj.dynamic_symbols_only ?
		"; exported functions only (stripped, no debug file found)" : "";
	uint64_t samples = count_samples(prof);
	int n;

	if (po->nfiles == 0)
		n = asprintf(line, "Object: %s: not profiled%s", po->obj.path,
			     symbols);
	else
		n = asprintf(line, "Object: %s: %s from %s%s%s", po->obj.path,
			     samples ? "samples and calls" : "calls only, no samples",
			     po->files[0], po->ld_profile ? " (LD_PROFILE)" : "",
			     symbols);
	if (n < 0) {
		*line = NULL;
		return g2c_error_set(err, "out of memory");
	}
	return 0;
}

/* Positions without a decoder are histogram bins and call buckets: say
 * so, and how to get one, once per object (also as a --stats line). */
void report_no_decoder(struct warnings *w, const struct machine_code *code,
		       bool stats)
{
	warnings_add(w, "%s: this gmon2cg cannot decode its instructions (%s): costs"
	     " stay at histogram bins and calls at their hash buckets (build"
	     " gmon2cg with binutils-multiarch-dev for exact positions)",
	     code->obj->path, machine_code_arch_name(code));
	if (stats)
		fprintf(warnings_stream(w), "%s: stats: instructions of %s: not decoded (%s)\n",
			PACKAGE_NAME, code->obj->path, machine_code_arch_name(code));
}

void report_folded(struct warnings *w, const char *file, size_t folded,
		   const char *example)
{
	warnings_add(w, "%s: a sum gprof -s wrote has the calls of gprof's own"
	     " functions: %zu function%s it does not list (such as %s)"
	     " %s part of the function before, as in its call graph",
	     file, folded, folded == 1 ? "" : "s", example,
	     folded == 1 ? "is" : "are");
}

int report_check_belongs(struct warnings *w, const struct callgraph *cg,
			 const struct attribution_stats *stats,
			 const char *source, bool more_sources,
			 const char *exe, bool force, struct g2c_error *err)
{
	const char *misfit = attribute_misfit(cg, stats);

	if (misfit && !force)
		return g2c_error_set(err, "%s%s: does not belong to %s: %s (--force converts anyway)",
				     source, more_sources ? " and the other profiles" : "",
				     exe, misfit);
	if (!misfit && stats->arcs_not_after_call > 0)
		warnings_add(w, "%" PRIu64 " of %" PRIu64 " call arcs of %s are not where"
		     " %s's calls return (was it rebuilt after profiling?)",
		     stats->arcs_not_after_call, stats->arcs_checked,
		     source, exe);
	return 0;
}

/* Viewers show sources only where the file names lead: when none of them
 * exists here, say so (and how to map them) in one line. */
int report_sources(struct warnings *w, const struct source_map *map,
		   const struct callgraph *cg, bool stats,
		   struct g2c_error *err)
{
	size_t named, found;
	const char *example;

	if (source_map_count_files(map, cg, &named, &found, &example) < 0)
		return g2c_error_set(err, "out of memory");
	if (stats)
		fprintf(warnings_stream(w), "%s: stats: source files: %zu named, %zu of them"
			" found here\n", PACKAGE_NAME, named, found);
	if (named > 0 && found == 0 && !w->sources_warned) {
		w->sources_warned = true;
		warnings_add(w, "none of the %zu source files the profile names is here"
		     " (such as %s); --prefix-map=OLD=NEW says where they are",
		     named, example);
	}
	return 0;
}

void report_stats(FILE *fp, const struct callgraph *cg,
		  const struct attribution_stats *s, const struct program *prog,
		  const struct gmon_profile *profs, const char **files, size_t n)
{
	static const char *const format_names[] = {
		[GMON_FORMAT_TAGGED] = "GNU tagged",
		[GMON_FORMAT_BSD_OLD] = "old BSD",
		[GMON_FORMAT_BSD44] = "4.4BSD",
		[GMON_FORMAT_LD_PROFILE] = "glibc LD_PROFILE",
	};
	size_t written = 0;

	for (size_t f = 0; f < cg->nfuncs; f++)
		written += cg->funcs[f].shown;
	for (size_t o = 0; o < prog->nobjs; o++) {
		const struct program_object *po = prog->objs[o];
		const char **own = o == 0 && files ? files : po->files;
		size_t nown = o == 0 && files ? n : po->nfiles;

		if (nown == 0)
			continue;
		fprintf(fp, "%s: stats: ", PACKAGE_NAME);
		put_name(fp, own[0], SIZE_MAX);
		fprintf(fp, " (%s format", format_names[profs[o].first_format]);
		/* FreeBSD's header names other counter types than gprof's */
		if (profs[o].first_bin_size != GMON_BIN_SIZE ||
		    profs[o].first_bins_signed)
			fprintf(fp, ", %u-bit %s counts", 8 * profs[o].first_bin_size,
				profs[o].first_bins_signed ? "signed" : "unsigned");
		if (prog->nobjs > 1 || po->ld_profile) {
			fputs(", of ", fp);
			put_name(fp, po->obj.path, SIZE_MAX);
		}
		fputc(')', fp);
		for (size_t i = 1; i < nown; i++) {
			fputs(i == 1 ? ", summed with " : ", ", fp);
			put_name(fp, own[i], SIZE_MAX);
		}
		fputc('\n', fp);
		if (po->obj.dynamic_symbols_only) {
			fprintf(fp, "%s: stats: ", PACKAGE_NAME);
			put_name(fp, po->obj.path, SIZE_MAX);
			fputs(": stripped, no debug file found: only its exported"
			      " functions are known\n", fp);
		}
		if (profs[o].calls_lost) {
			fprintf(fp, "%s: stats: ", PACKAGE_NAME);
			put_name(fp, own[0], SIZE_MAX);
			fprintf(fp, ": %" PRIu64 " calls the dynamic loader could not"
				" count (its arc table was full)\n",
				profs[o].calls_lost);
		}
	}
	fprintf(fp, "%s: stats: samples: %" PRIu64 " at %" PRIu32 " Hz;"
		" in functions %.3f, in no function %.3f, in the mcount family"
		" (left out) %.3f\n", PACKAGE_NAME, cg->samples, cg->hz,
		(double)cg->samples - s->unattributed_ticks - s->excluded_ticks,
		s->unattributed_ticks, s->excluded_ticks);
	if (s->never_ran_ticks > 0)
		fprintf(fp, "%s: stats: samples kept off functions that never"
			" ran (no call recorded, no sample of their own) in"
			" bins they share: %.3f\n",
			PACKAGE_NAME, s->never_ran_ticks);
	fprintf(fp, "%s: stats: functions: %zu in the objects, %zu"
		" written; cycles: %u\n", PACKAGE_NAME, cg->first_pseudo, written,
		cg->ncycles);
	fprintf(fp, "%s: stats: call arcs: %" PRIu64 " records; %zu arcs"
		" at %zu call sites; dropped: %" PRIu64 " with an end in no"
		" function, %" PRIu64 " into or out of the mcount family, %" PRIu64
		" by -k\n", PACKAGE_NAME, s->arcs_read, cg->narcs, cg->nsites,
		s->arcs_unresolved, s->arcs_excluded, s->arcs_deselected);
	fprintf(fp, "%s: stats: call arcs checked against the code: %" PRIu64
		"; not where calls return: %" PRIu64 "\n", PACKAGE_NAME,
		s->arcs_checked, s->arcs_not_after_call);
	if (s->arcs_summed)
		fprintf(fp, "%s: stats: call arcs summed by gprof -s: %" PRIu64
			"; their call sites are unknown: each is at the start of"
			" the line gprof gave (the caller's, without lines)\n",
			PACKAGE_NAME, s->arcs_summed);
	if (cg->has_executions || s->blocks_unresolved)
		fprintf(fp, "%s: stats: basic blocks: %" PRIu64 " executions;"
			" dropped: %" PRIu64 " blocks in no function\n",
			PACKAGE_NAME, cg->total_executions, s->blocks_unresolved);
}

/* A row of the flat profile, in ns as gprof computes them: self time
 * not scaled by the selections' shares, child time as gprof's. */
struct flat_row {
	const char *name;
	double self_ns, incl_ns;
	uint64_t calls;
};

/* gprof's order: most self time first, then most calls, then by name. */
static int by_rows(const void *x, const void *y)
{
	const struct flat_row *a = x, *b = y;

	if (a->self_ns != b->self_ns)
		return a->self_ns > b->self_ns ? -1 : 1;
	if (a->calls != b->calls)
		return a->calls > b->calls ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* gprof's flat profile lists every function sampled or called, whether
 * or not the selections show it in the graph, with its whole self time
 * as a share of all samples: the selections change only the child time
 * in "total" per call. */
void report_summary(FILE *fp, const struct callgraph *cg, unsigned rows)
{
	static const struct { const char *unit; double per_second; } units[] = {
		{ "s", 1 }, { "ms", 1e3 }, { "us", 1e6 }, { "ns", 1e9 },
	};
	struct flat_row *flat = malloc(cg->nfuncs * sizeof *flat);
	size_t n = 0, unit = 0;
	double max_per_call = 0, cumulative = 0, total = 0;

	if (!flat) {
		fprintf(fp, "%s: summary: out of memory\n", PACKAGE_NAME);
		return;
	}
	for (size_t f = 0; f < cg->nfuncs; f++) {
		const struct cg_func *fn = &cg->funcs[f];
		const struct symtab_func *sym = callgraph_symbol(cg, f);
		double self = fn->self_ticks * fn->ns_per_tick;

		total += self;
		if (!sym || (self == 0 && fn->ncalls == 0))
			continue;
		flat[n++] = (struct flat_row){ sym->name, self,
					       self + fn->flat_child_ns, fn->ncalls };
	}
	qsort(flat, n, sizeof *flat, by_rows);
	if (rows > n)
		rows = (unsigned)n;
	/* Like gprof, the finest unit in which every function's time per
	 * call stays below 1000. */
	for (size_t i = 0; i < n; i++)
		if (flat[i].calls && flat[i].incl_ns / 1e9 / (double)flat[i].calls > max_per_call)
			max_per_call = flat[i].incl_ns / 1e9 / (double)flat[i].calls;
	while (unit + 1 < sizeof units / sizeof *units &&
	       max_per_call * units[unit + 1].per_second < 1000)
		unit++;
	fprintf(fp, "%s: flat profile, %u of %zu functions (each sample counts as %g seconds):\n",
		PACKAGE_NAME, rows, n, cg->hz ? 1.0 / cg->hz : 0.0);
	fprintf(fp, "  %%   cumulative   self              self     total\n"
		    " time   seconds   seconds    calls %3s/call %3s/call  name\n",
		units[unit].unit, units[unit].unit);
	for (size_t i = 0; i < rows; i++) {
		const struct flat_row *r = &flat[i];
		double self = r->self_ns / 1e9;

		cumulative += self;
		fprintf(fp, "%6.2f %9.2f %8.2f ", total > 0 ?
			100.0 * r->self_ns / total : 0.0, cumulative, self);
		if (r->calls)
			fprintf(fp, "%8" PRIu64 " %8.2f %8.2f  ", r->calls,
				self * units[unit].per_second / (double)r->calls,
				r->incl_ns / 1e9 * units[unit].per_second /
				(double)r->calls);
		else
			fprintf(fp, "%8s %8s %8s  ", "", "", "");
		/* whole, as gprof prints names */
		put_name(fp, r->name, SIZE_MAX);
		fputc('\n', fp);
	}
	free(flat);
}
