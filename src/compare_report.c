/* compare_report.c -- what gmon2cg --compare writes. */
#include <config.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callgrind_format.h"
#include "compare_report.h"
#include "util.h"

/* -- The text report ---------------------------------------------------- */

/* NS in at most 7 characters, with its unit. */
void compare_format_time(char *buf, size_t n, double ns)
{
	static const struct { double ns; const char *unit; } units[] = {
		{ 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" },
	};
	size_t u = 0;

	while (u + 1 < sizeof units / sizeof *units && ns < units[u].ns)
		u++;
	if (ns == 0)
		snprintf(buf, n, "0");
	else if (ns / units[u].ns >= 100)
		snprintf(buf, n, "%.0f%s", ns / units[u].ns, units[u].unit);
	else if (ns / units[u].ns >= 10)
		snprintf(buf, n, "%.1f%s", ns / units[u].ns, units[u].unit);
	else
		snprintf(buf, n, "%.2f%s", ns / units[u].ns, units[u].unit);
}

/* The relative change from OLD to NEW, with "*" when it is beyond noise. */
void compare_format_change(char *buf, size_t n, double old, double new,
			  bool changed)
{
	const char *mark = changed ? "*" : " ";

	if (old == new)
		snprintf(buf, n, "0 %s", mark);
	else if (old == 0)
		snprintf(buf, n, "new%s", mark);
	else if (new == 0)
		snprintf(buf, n, "-100%%%s", mark);
	else if ((new - old) / old >= 9.995)	/* (from less than a sample) */
		snprintf(buf, n, ">+999%%%s", mark);
	else if (fabs(new - old) / old >= 9.995)
		snprintf(buf, n, "%+.0f%%%s", (new - old) / old * 100, mark);
	else
		snprintf(buf, n, "%+.1f%%%s", (new - old) / old * 100, mark);
}

/* A count, exact: a whole number as it is, a mean of runs to a tenth
 * (a count of billions takes its columns and pushes the line wider). */
void compare_format_count(char *buf, size_t n, double v)
{
	if (v == floor(v) && v < 0x1p64)
		snprintf(buf, n, "%" PRIu64, (uint64_t)v);
	else
		snprintf(buf, n, "%.1f", v);
}

/* The change from OLD to NEW, and MARK after it ("*": changed, "~":
 * varies between runs, " " neither). */
void compare_format_count_change(char *buf, size_t n, double old, double new,
				const char *mark)
{
	double d = new - old;

	if (d == 0)
		snprintf(buf, n, "0 ");
	else if (d == floor(d) && fabs(d) < 0x1p64)
		snprintf(buf, n, "%c%" PRIu64 "%s", d < 0 ? '-' : '+', (uint64_t)fabs(d), mark);
	else
		snprintf(buf, n, "%+.1f%s", d, mark);
}

#define COLUMNS "  %7s %7s %8s  %7s %7s %8s  %8s %8s %7s"

/* LINE[0..LEN) and a newline, without trailing blanks (the change
 * columns keep a blank where an unmarked number has no '*'). */
static void write_trimmed(FILE *fp, const char *line, size_t len)
{
	while (len > 0 && line[len - 1] == ' ')
		len--;
	fwrite(line, 1, len, fp);
	fputc('\n', fp);
}

/* S right-aligned in WIDTH columns at P (as "%*s" would); past it. */
static char *put_right(char *p, const char *s, int width)
{
	size_t n = strlen(s);

	for (; width > (int)n; width--)
		*p++ = ' ';
	memcpy(p, s, n);
	return p + n;
}

/* A row's numbers in COLUMNS; put together by hand, as each of a large
 * program's rows would cost a parse of COLUMNS. */
static void write_numbers(FILE *fp, const struct compare_row *row)
{
	static const int width[9] = { 7, 7, 8, 7, 7, 8, 8, 8, 7 };
	static const char gap[9] = { 2, 1, 1, 2, 1, 1, 2, 1, 1 };
	char t[9][24], line[9 * 26], *p = line;

	compare_format_time(t[0], sizeof t[0], row->self[0]);
	compare_format_time(t[1], sizeof t[1], row->self[1]);
	compare_format_change(t[2], sizeof t[2], row->self[0], row->self[1], row->self_changed);
	compare_format_time(t[3], sizeof t[3], row->incl[0]);
	compare_format_time(t[4], sizeof t[4], row->incl[1]);
	compare_format_change(t[5], sizeof t[5], row->incl[0], row->incl[1], row->incl_changed);
	compare_format_count(t[6], sizeof t[6], row->calls[0]);
	compare_format_count(t[7], sizeof t[7], row->calls[1]);
	compare_format_count_change(t[8], sizeof t[8], row->calls[0], row->calls[1],
			    row->calls_changed ? "*" : row->calls_vary ? "~" : " ");
	for (int i = 0; i < 9; i++) {
		memset(p, ' ', (size_t)gap[i]);
		p = put_right(p + gap[i], t[i], width[i]);
	}
	write_trimmed(fp, line, (size_t)(p - line));
}

/* S for a terminal: a control character, or a byte that is not of a
 * UTF-8 character, as \xHH (the names are an object file's bytes). */
static void put_text(FILE *fp, const char *s)
{
	while (*s) {
		size_t n = printable_length(s);

		if (n == 0) {
			fprintf(fp, "\\x%02x", (unsigned char)*s++);
		} else {
			fwrite(s, 1, n, fp);
			s += n;
		}
	}
}

/* Whether ROW's calls vary between runs, and that is all there is to
 * say of it. */
static bool only_varying(const struct compare_row *row)
{
	return row->calls_vary && !compare_row_changed(row) && !row->failed &&
	       !row->inconclusive;
}

/* A function's name line: "!" past a gate, "*" changed, "?" moved past a
 * gate but not beyond noise, "~" calls that vary between runs. */
static void write_name(FILE *fp, const struct compare_row *row)
{
	bool changed = row->name ? compare_row_changed(row) : row->self_changed;

	fprintf(fp, "%c ", row->failed ? '!' : changed ? '*' : row->inconclusive ? '?' :
		only_varying(row) ? '~' : ' ');
	put_text(fp, row->name ? row->name : "(total)");
	if (row->name) {
		fputs("  ", fp);
		put_text(fp, row->file);
		if (*row->object) {
			fputs(" in ", fp);
			put_text(fp, row->object);
		}
		fputs(!row->present[0] ? " (new)" : !row->present[1] ? " (gone)" : "", fp);
	}
	if (row->failed)
		fprintf(fp, "  [fails %s]", row->failed->text);
	else if (row->inconclusive)
		fputs("  [inconclusive]", fp);
	else if (only_varying(row))
		fputs("  [calls vary between runs]", fp);
	fputc('\n', fp);
}

/* The calls of ROW, which vary between runs: "calls per run 540 to 570
 * old, 546 to 568 new: ...", the ranges overlapping, or parting within
 * chance or beyond it. */
static void describe_varying(char *buf, size_t n, const struct compare_row *row,
			     const struct compare_result *r)
{
	char lo[2][24], hi[2][24];
	size_t len;

	for (int s = 0; s < 2; s++) {
		compare_format_count(lo[s], sizeof lo[s], row->calls_lo[s]);
		compare_format_count(hi[s], sizeof hi[s], row->calls_hi[s]);
	}
	snprintf(buf, n, "calls per run %s to %s old, %s to %s new (%u and %u runs): ",
		 lo[0], hi[0], lo[1], hi[1], r->nprofiles[0], r->nprofiles[1]);
	len = strlen(buf);
	if (row->calls_changed)
		snprintf(buf + len, n - len, "the sides part, beyond chance (p = %.2g after "
			 "the correction)", row->p_calls);
	else if (row->calls_hi[0] < row->calls_lo[1] || row->calls_hi[1] < row->calls_lo[0])
		snprintf(buf + len, n - len, "the sides part, but runs of one build "
			 "would as often as p = %.2g (%.2g after the correction); %u runs "
			 "a side can tell", row->p_calls_alone, row->p_calls, r->calls_runs_needed);
	else
		snprintf(buf + len, n - len, "the sides overlap: no change");
}

/* A relative change (0.5: +50 %) in a few characters. */
static void format_relative(char *buf, size_t n, double change)
{
	if (!isfinite(change))
		snprintf(buf, n, "none up to 1000x");
	else if (fabs(change) >= 9.995)
		snprintf(buf, n, "%+.0fx", change + 1);
	else
		snprintf(buf, n, "%+.0f%%", change * 100);
}

/* Why ROW is inconclusive, and what would tell: "self time 400ms ->
 * 620ms (+55.0%; +55% against the rest of the program) past
 * --fail-on=self:+0%, but not beyond noise (p = 0.03 alone, 0.63 after the
 * correction); these runs find +95% or more; 3 runs a side would find
 * +55%". */
void compare_describe_inconclusive(char *buf, size_t n, const struct compare_row *row,
				  const struct compare_options *o)
{
	char old[24], new[24], change[24], moved[24], least[24], wanted[24], runs[48];

	compare_format_time(old, sizeof old, row->self[0]);
	compare_format_time(new, sizeof new, row->self[1]);
	compare_format_change(change, sizeof change, row->self[0], row->self[1], false);
	change[strlen(change) - 1] = '\0';	/* the mark's room */
	format_relative(moved, sizeof moved, row->moved);
	format_relative(least, sizeof least, row->detectable);
	format_relative(wanted, sizeof wanted, row->change_for_runs);
	if (row->runs_needed)
		snprintf(runs, sizeof runs, "%u runs a side", row->runs_needed);
	else if (row->against_old && fabs(row->change_for_runs) <= o->machine_noise)
		snprintf(runs, sizeof runs, "no number of runs");
	else
		snprintf(runs, sizeof runs, "over %u runs a side", COMPARE_RUNS_MAX);
	if (row->against_old) {
		snprintf(buf, n, "self time %s -> %s (%s) past --fail-on=%s, but it holds most "
			 "of the samples: judged against the old run, the machine's speed "
			 "can move it by %g%% (--machine-noise); these runs find %s%s; "
			 "%s would find %s",
			 old, new, change, row->inconclusive->text, o->machine_noise * 100,
			 least, isfinite(row->detectable) ? " or more" : "", runs, wanted);
		return;
	}
	snprintf(buf, n, "self time %s -> %s (%s; %s against the rest of the program) "
		 "past --fail-on=%s, but not beyond noise (p = %.2g alone, %.2g after "
		 "the correction); these runs find %s%s; %s would find %s",
		 old, new, change, moved, row->inconclusive->text, row->p_self_alone,
		 row->p_self, least, isfinite(row->detectable) ? " or more" : "", runs, wanted);
}

/* WHAT as lines of at most 76 characters, each indented by 4. */
static void write_wrapped(FILE *fp, const char *what)
{
	while (*what) {
		size_t len = strlen(what), cut = len;

		if (len > 76) {
			for (cut = 76; cut > 0 && what[cut] != ' '; cut--)
				;
			if (cut == 0)
				cut = 76;
		}
		fprintf(fp, "    %.*s\n", (int)cut, what);
		what += cut;
		while (*what == ' ')
			what++;
	}
}

/* Whether the report leaves ROW out without --all: no sample of its
 * time on either side (a function that ran too briefly for the clock)
 * and no change of calls. */
static bool left_out(const struct compare_row *row, const struct compare_options *o)
{
	return !o->show_all && !row->sampled && !compare_row_changed(row) &&
	       !row->failed && !row->calls_vary;
}

/* Whether any function's calls changed. */
static bool calls_changed(const struct compare_result *r)
{
	for (size_t i = 0; i < r->nrows; i++)
		if (r->rows[i].calls_changed)
			return true;
	return false;
}

static void write_sides(FILE *fp, const struct compare_options *o,
			const struct compare_result *r)
{
	static const char *const side[2] = { "old", "new" };

	for (int s = 0; s < 2; s++) {
		fprintf(fp, "%s: ", side[s]);
		put_text(fp, o->files[s][0]);
		if (o->nfiles[s] > 1)
			fprintf(fp, " and %zu more", o->nfiles[s] - 1);
		fputc('\n', fp);
	}
	for (size_t i = 0; i < r->nremaps; i++) {
		fprintf(fp, "Matched %zu function%s by file name suffix: ", r->remaps[i].nfns,
			r->remaps[i].nfns == 1 ? "" : "s");
		put_text(fp, *r->remaps[i].old_prefix ? r->remaps[i].old_prefix : "''");
		fputs(" -> ", fp);
		put_text(fp, *r->remaps[i].new_prefix ? r->remaps[i].new_prefix : "''");
		fputc('\n', fp);
	}
	fprintf(fp, "Means per run: %u old, %u new", r->nprofiles[0], r->nprofiles[1]);
	if (r->hz)
		fprintf(fp, ", sampled at %" PRIu32 " Hz", r->hz);
	fprintf(fp, ".  * marks a change: beyond\n"
		"sampling noise for times (p < %g, Holm's correction over %zu tests),\n"
		"any for calls; by a function's name, of its self time or calls.\n"
		"! marks a change past a gate (--fail-on).\n",
		o->alpha, r->ntests);
	if (r->nuntestable)
		fprintf(fp, "%zu more times have too few samples ever to be beyond noise: not tested.\n",
			r->nuntestable);
	if (r->ninconclusive)
		fputs("? marks a move past a gate that the runs cannot tell from noise.\n", fp);
	if (r->nvarying)
		fputs("~ marks calls that vary between the runs of a side: a change only when\n"
		      "every run of one side has fewer than every run of the other, beyond\n"
		      "chance (p, in the correction).\n", fp);
	else if ((r->nprofiles[0] == 1 || r->nprofiles[1] == 1) && calls_changed(r))
		fprintf(fp, "With one run a side, calls that vary between runs of one build (a\n"
			"hash seeded by the clock) look changed: such a program needs %u runs a side.\n",
			r->calls_runs_needed);
	for (size_t i = 0; i < r->nrows; i++)
		if (r->rows[i].against_old) {
			put_text(fp, r->rows[i].name);
			fprintf(fp, " holds most of the samples: its time is judged against the\n"
				"old run's, beyond the %g%% the machine's speed can move it (--machine-noise).\n",
				o->machine_noise * 100);
		}
	fputc('\n', fp);
}

void compare_write_text(FILE *fp, const struct compare_result *r,
			const struct compare_options *o)
{
	char head[96];
	size_t hidden = 0;

	write_sides(fp, o, r);
	fprintf(fp, "  %-23s  %-23s  %s\n", "        self time", "     inclusive time",
		"          calls");
	snprintf(head, sizeof head, COLUMNS, "old", "new", "change ", "old", "new",
		 "change ", "old", "new", "change ");
	write_trimmed(fp, head, strlen(head));
	write_name(fp, &r->total);
	write_numbers(fp, &r->total);
	for (size_t i = 0; i < r->nrows; i++) {
		if (left_out(&r->rows[i], o)) {
			hidden++;
			continue;
		}
		write_name(fp, &r->rows[i]);
		write_numbers(fp, &r->rows[i]);
	}
	if (r->ninconclusive) {
		fprintf(fp, "\nInconclusive (exit status 0 all the same): moved past a gate, but the\n"
			"runs cannot tell it from noise.\n");
		for (size_t i = 0; i < r->nrows; i++) {
			char what[512];

			if (!r->rows[i].inconclusive)
				continue;
			write_name(fp, &r->rows[i]);
			compare_describe_inconclusive(what, sizeof what, &r->rows[i], o);
			write_wrapped(fp, what);
		}
	}
	if (r->nvarying) {
		fprintf(fp, "\nCalls that vary between runs, not changed: the sides' calls per run.\n");
		for (size_t i = 0; i < r->nrows; i++) {
			char what[256];

			if (!r->rows[i].calls_vary || r->rows[i].calls_changed)
				continue;
			write_name(fp, &r->rows[i]);
			describe_varying(what, sizeof what, &r->rows[i], r);
			write_wrapped(fp, what);
		}
	}
	fprintf(fp, "\n%zu of %zu functions changed; %zu past a gate", r->nchanged,
		r->nrows, r->nfailed);
	if (r->ninconclusive)
		fprintf(fp, "; %zu inconclusive", r->ninconclusive);
	if (r->nvarying)
		fprintf(fp, "; %zu with calls that vary between runs", r->nvarying);
	fputs(".\n", fp);
	if (hidden)
		fprintf(fp, "%zu function%s with no sample and no change of calls not shown (--all).\n",
			hidden, hidden == 1 ? "" : "s");
}

/* -- JUnit XML ---------------------------------------------------------- */

/* What crossed the gate, in words, e.g. "self 11.0s -> 14.3s (+30.0%)". */
void compare_describe_failure(char *buf, size_t n, const struct compare_row *row,
			     const struct compare_result *r)
{
	const struct compare_gate *g = row->failed;
	const double *v = g->what == MEASURE_CALLS ? row->calls :
			  g->what == MEASURE_INCL ? row->incl : row->self;
	char old[24], new[24], change[24];

	if (g->what == MEASURE_CALLS) {
		compare_format_count(old, sizeof old, v[0]);
		compare_format_count(new, sizeof new, v[1]);
		compare_format_count_change(change, sizeof change, v[0], v[1], " ");
	} else {
		compare_format_time(old, sizeof old, v[0]);
		compare_format_time(new, sizeof new, v[1]);
		compare_format_change(change, sizeof change, v[0], v[1], false);
	}
	change[strlen(change) - 1] = '\0';	/* the mark's room */
	snprintf(buf, n, "%s %s -> %s (%s) crosses --fail-on=%s",
		 g->what == MEASURE_CALLS ? "calls" : g->what == MEASURE_INCL ?
		 "inclusive time" : g->what == MEASURE_TOTAL ? "total time" : "self time",
		 old, new, change, g->text);
	if (g->what != MEASURE_CALLS) {	/* (calls are exact) */
		size_t len = strlen(buf);

		snprintf(buf + len, n - len, "; beyond noise at p = %.2g",
			 g->what == MEASURE_INCL ? row->p_incl : row->p_self);
	} else if (row->calls_vary) {
		size_t len = strlen(buf);

		snprintf(buf + len, n - len, "; ");
		describe_varying(buf + len + 2, n - len - 2, row, r);
	}
	if (g->what == MEASURE_SELF && isfinite(row->detectable)) {
		size_t len = strlen(buf);
		char least[24];

		format_relative(least, sizeof least, row->detectable);
		snprintf(buf + len, n - len, "; these runs find %s or more", least);
	}
}

static void write_testcase(struct outstream *os, const struct compare_row *row,
			   const struct compare_result *r, const struct compare_options *o)
{
	outstream_puts(os, "  <testcase classname=\"");
	outstream_puts_xml(os, row->name ? row->file : "gmon2cg.compare");
	if (*row->object) {
		outstream_puts(os, " in ");
		outstream_puts_xml(os, row->object);
	}
	outstream_puts(os, "\" name=\"");
	outstream_puts_xml(os, row->name ? row->name : "(total)");
	outstream_printf(os, "\" time=\"%.6f\"", row->self[1] / 1e9);
	if (row->failed || row->inconclusive) {
		char what[512];

		if (row->failed)
			compare_describe_failure(what, sizeof what, row, r);
		else
			compare_describe_inconclusive(what, sizeof what, row, o);
		outstream_puts(os, row->failed ?
			       ">\n    <failure type=\"performance\" message=\"" :
			       ">\n    <skipped message=\"inconclusive: ");
		outstream_puts_xml(os, what);
		outstream_puts(os, "\"/>\n  </testcase>\n");
	} else if (row->calls_vary) {
		char what[256];

		describe_varying(what, sizeof what, row, r);
		outstream_puts(os, ">\n    <system-out>");
		outstream_puts_xml(os, what);
		outstream_puts(os, "</system-out>\n  </testcase>\n");
	} else {
		outstream_puts(os, "/>\n");
	}
}

void compare_write_junit(struct outstream *os, const struct compare_result *r,
			 const struct compare_options *o)
{
	outstream_puts(os, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	outstream_printf(os, "<testsuites>\n<testsuite name=\"gmon2cg --compare\" tests=\"%zu\" failures=\"%zu\" errors=\"0\">\n",
			 r->nrows + 1, r->nfailed);
	write_testcase(os, &r->total, r, o);
	for (size_t i = 0; i < r->nrows; i++)
		write_testcase(os, &r->rows[i], r, o);
	outstream_puts(os, "</testsuite>\n</testsuites>\n");
}

/* -- The comparison as a callgrind file --------------------------------- */

static uint64_t rounded(double ns)
{
	return ns > 0 ? (uint64_t)llround(ns) : 0;
}

/* The header, with the events' totals SUM. */
static void write_callgrind_header(struct outstream *os,
				   const struct compare_options *o,
				   const uint64_t sum[4])
{
	static const char *const side[2] = { "Old", "New" };

	outstream_printf(os, CALLGRIND_FIRST_LINE "\n"
			 CALLGRIND_KEY_VERSION ": " CALLGRIND_VERSION "\n"
			 CALLGRIND_KEY_CREATOR ": %s %s\n"
			 CALLGRIND_KEY_CMD ": %s --compare\n",
			 PACKAGE_NAME, PACKAGE_VERSION, PACKAGE_NAME);
	for (int s = 0; s < 2; s++) {
		outstream_printf(os, CALLGRIND_KEY_DESC ": %s: ", side[s]);
		outstream_puts_printable(os, o->files[s][0]);
		if (o->nfiles[s] > 1)
			outstream_printf(os, " and %zu more", o->nfiles[s] - 1);
		outstream_puts(os, "\n");
	}
	outstream_puts(os, CALLGRIND_KEY_POSITIONS ": " CALLGRIND_POSITIONS_LINE "\n"
		       CALLGRIND_KEY_EVENT ": Old : Self time, old (ns, mean per run)\n"
		       CALLGRIND_KEY_EVENT ": New : Self time, new (ns, mean per run)\n"
		       CALLGRIND_KEY_EVENT ": Slower : Self time added (New - Old where more)\n"
		       CALLGRIND_KEY_EVENT ": Faster : Self time saved (Old - New where less)\n"
		       CALLGRIND_KEY_EVENTS ": Old New Slower Faster\n");
	outstream_printf(os, CALLGRIND_KEY_SUMMARY ": %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n\n",
			 sum[0], sum[1], sum[2], sum[3]);
}

void compare_write_callgrind(struct outstream *os,
			     const struct compare_result *r,
			     const struct compare_options *o)
{
	uint64_t sum[4] = { 0 };
	const char *object = NULL, *file = NULL;

	for (size_t i = 0; i < r->nrows; i++) {
		uint64_t old = rounded(r->rows[i].self[0]), new = rounded(r->rows[i].self[1]);

		sum[0] += old;
		sum[1] += new;
		sum[2] += new > old ? new - old : 0;
		sum[3] += old > new ? old - new : 0;
	}
	write_callgrind_header(os, o, sum);
	for (size_t i = 0; i < r->nrows; i++) {
		const struct compare_row *row = &r->rows[i];
		uint64_t old = rounded(row->self[0]), new = rounded(row->self[1]);

		if (!object || strcmp(object, row->object) != 0) {
			outstream_puts(os, "ob=");
			outstream_puts_printable(os, *row->object ? row->object : "(program)");
			outstream_puts(os, "\n");
			object = row->object;
		}
		if (!file || strcmp(file, row->file) != 0) {
			outstream_puts(os, "fl=");
			outstream_puts_printable(os, row->file);
			outstream_puts(os, "\n");
			file = row->file;
		}
		outstream_printf(os, "fn=(%zu) ", i + 1);
		outstream_puts_printable(os, row->name);
		outstream_printf(os, "\n0 %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
				 old, new, new > old ? new - old : 0,
				 old > new ? old - new : 0);
	}
	outstream_printf(os, "\n" CALLGRIND_KEY_TOTALS ": %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
			 sum[0], sum[1], sum[2], sum[3]);
}
