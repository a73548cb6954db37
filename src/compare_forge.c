/* compare_forge.c -- --compare's verdict where a forge shows it. */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "compare_forge.h"
#include "compare_report.h"
#include "util.h"

/* What a row is to a reviewer. */
enum finding { FINDING_NONE, FINDING_FAILED, FINDING_CHANGED, FINDING_INCONCLUSIVE };

static const struct {
	const char *command;	/* GitHub's workflow command */
	const char *severity;	/* Code Quality's */
	const char *verdict;	/* the Markdown table's */
} findings[] = {
	[FINDING_FAILED] = { "error", "major", "fails" },
	[FINDING_CHANGED] = { "warning", "minor", "changed" },
	[FINDING_INCONCLUSIVE] = { "notice", "info", "inconclusive" },
};

static enum finding finding_of(const struct compare_row *row)
{
	if (row->failed)
		return FINDING_FAILED;
	if (row->name && compare_row_changed(row))	/* (the total's is the machine's) */
		return FINDING_CHANGED;
	if (row->inconclusive)
		return FINDING_INCONCLUSIVE;
	return FINDING_NONE;
}

/* A change beyond noise, not past a gate: "self time 3.87s -> 3.60s
 * (-7.0%), beyond noise at p = 0.001; calls 1000 -> 1001 (+1)". */
static void describe_change(char *buf, size_t n, const struct compare_row *row)
{
	char old[24], new[24], change[24];
	size_t len = 0;

	buf[0] = '\0';
	if (row->self_changed) {
		compare_format_time(old, sizeof old, row->self[0]);
		compare_format_time(new, sizeof new, row->self[1]);
		compare_format_change(change, sizeof change, row->self[0], row->self[1], false);
		change[strlen(change) - 1] = '\0';	/* the mark's room */
		snprintf(buf, n, "self time %s -> %s (%s), beyond noise at p = %.2g",
			 old, new, change, row->p_self);
		len = strlen(buf);
	}
	if (row->calls_changed) {
		compare_format_count(old, sizeof old, row->calls[0]);
		compare_format_count(new, sizeof new, row->calls[1]);
		compare_format_count_change(change, sizeof change, row->calls[0],
					    row->calls[1], "");
		snprintf(buf + len, n - len, "%scalls %s -> %s (%s)", len ? "; " : "",
			 old, new, change);
	}
}

/* What is to be said of ROW, of finding F. */
static void describe(char *buf, size_t n, enum finding f, const struct compare_row *row,
		     const struct compare_result *r, const struct compare_options *o)
{
	if (f == FINDING_FAILED)
		compare_describe_failure(buf, n, row, r);
	else if (f == FINDING_CHANGED)
		describe_change(buf, n, row);
	else
		compare_describe_inconclusive(buf, n, row, o);
}

/* FILE as the checkout names it: the longest suffix of whole components
 * that names a file under the current directory (a profile made in
 * another directory names its sources with that directory's prefix);
 * FILE itself, less a leading "/" or "./", when none does. */
static const char *checkout_path(const char *file)
{
	const char *rel = file;
	struct stat st;

	while (*rel == '/' || (rel[0] == '.' && rel[1] == '/'))
		rel += *rel == '/' ? 1 : 2;
	for (const char *s = rel; s; s = strchr(s, '/')) {
		while (*s == '/')
			s++;
		if (*s && stat(s, &st) == 0 && S_ISREG(st.st_mode))
			return s;
	}
	return rel;
}

/* Writes S with the characters ESCAPE names as it says; a control
 * character it does not name, or a byte not of a UTF-8 character, as
 * \xHH (names are an object file's bytes). */
static void put_escaped(struct outstream *os, const char *s,
			const char *(*escape)(char ch))
{
	while (*s) {
		const char *as = escape(*s);
		size_t n = printable_length(s);

		if (as)
			outstream_puts(os, as);
		else if (n == 0)
			outstream_printf(os, "\\x%02x", (unsigned char)*s);
		else
			outstream_write(os, s, n);
		s += n && !as ? n : 1;
	}
}

/* -- GitHub's workflow commands ----------------------------------------- */

/* A command's message: '%', CR and LF as GitHub documents. */
static const char *github_data(char ch)
{
	return ch == '%' ? "%25" : ch == '\r' ? "%0D" : ch == '\n' ? "%0A" : NULL;
}

/* A property's value: the message's escapes, and ':' and ','. */
static const char *github_property(char ch)
{
	return ch == ':' ? "%3A" : ch == ',' ? "%2C" : github_data(ch);
}

static void write_command(struct outstream *os, enum finding f,
			  const struct compare_row *row,
			  const struct compare_result *r,
			  const struct compare_options *o)
{
	char what[1024];
	const char *name = row->name ? row->name : "total time";

	outstream_printf(os, "::%s ", findings[f].command);
	if (row->name) {
		outstream_puts(os, "file=");
		put_escaped(os, checkout_path(row->file), github_property);
		if (row->line)
			outstream_printf(os, ",line=%u", row->line);
		outstream_puts(os, ",");
	}
	outstream_puts(os, "title=");
	put_escaped(os, name, github_property);
	if (f == FINDING_FAILED) {
		outstream_puts(os, " fails --fail-on=");
		put_escaped(os, row->failed->text, github_property);
	} else {
		outstream_puts(os, f == FINDING_CHANGED ? " changed beyond noise" :
			       " inconclusive");
	}
	outstream_puts(os, "::");
	put_escaped(os, name, github_data);
	outstream_puts(os, ": ");
	describe(what, sizeof what, f, row, r, o);
	put_escaped(os, what, github_data);
	outstream_puts(os, "\n");
}

void compare_write_github(struct outstream *os, const struct compare_result *r,
			  const struct compare_options *o)
{
	if (r->total.failed)
		write_command(os, FINDING_FAILED, &r->total, r, o);
	for (size_t i = 0; i < r->nrows; i++) {
		enum finding f = finding_of(&r->rows[i]);

		if (f != FINDING_NONE)
			write_command(os, f, &r->rows[i], r, o);
	}
}

/* -- The Markdown summary ----------------------------------------------- */

/* Text in Markdown (a table's cell too): markup characters taken as
 * they are. */
static const char *markdown_text(char ch)
{
	switch (ch) {
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '&': return "&amp;";
	case '\\': return "\\\\";
	case '`': return "\\`";
	case '*': return "\\*";
	case '_': return "\\_";
	case '[': return "\\[";
	case ']': return "\\]";
	case '|': return "\\|";
	case '\r': case '\n': return " ";
	default: return NULL;
	}
}

/* ROW's line of the table. */
static void write_table_row(struct outstream *os, const struct compare_row *row)
{
	enum finding f = finding_of(row);
	char t[6][24];

	outstream_puts(os, "| ");
	if (f == FINDING_FAILED) {
		outstream_puts(os, "**fails** ");
		put_escaped(os, row->failed->text, markdown_text);
	} else if (f != FINDING_NONE) {
		outstream_puts(os, findings[f].verdict);
	}
	outstream_puts(os, " | ");
	put_escaped(os, row->name ? row->name : "(total)", markdown_text);
	outstream_puts(os, " | ");
	if (row->name) {
		put_escaped(os, checkout_path(row->file), markdown_text);
		if (row->line)
			outstream_printf(os, ":%u", row->line);
	}
	compare_format_time(t[0], sizeof t[0], row->self[0]);
	compare_format_time(t[1], sizeof t[1], row->self[1]);
	compare_format_change(t[2], sizeof t[2], row->self[0], row->self[1], false);
	compare_format_count(t[3], sizeof t[3], row->calls[0]);
	compare_format_count(t[4], sizeof t[4], row->calls[1]);
	compare_format_count_change(t[5], sizeof t[5], row->calls[0], row->calls[1], "");
	for (int i = 0; i < 6; i++) {
		size_t len = strlen(t[i]);

		while (len > 0 && t[i][len - 1] == ' ')	/* (a mark's room) */
			t[i][--len] = '\0';
		outstream_puts(os, " | ");
		put_escaped(os, t[i], markdown_text);
	}
	outstream_puts(os, " |\n");
}

void compare_write_markdown(struct outstream *os, const struct compare_result *r,
			    const struct compare_options *o)
{
	static const char *const side[2] = { "Old", "new" };
	size_t shown = 0;

	outstream_printf(os, "### gmon2cg --compare: %s\n\n",
			 r->nfailed ? "failed" : "passed");
	outstream_printf(os, "**%zu of %zu functions changed; %zu past a gate",
			 r->nchanged, r->nrows, r->nfailed);
	if (r->ninconclusive)
		outstream_printf(os, "; %zu inconclusive", r->ninconclusive);
	outstream_puts(os, "** (exit status ");
	outstream_puts(os, r->nfailed ? "3).\n\n" : "0).\n\n");
	for (int s = 0; s < 2; s++) {
		outstream_printf(os, "%s: ", side[s]);
		put_escaped(os, o->files[s][0], markdown_text);
		if (o->nfiles[s] > 1)
			outstream_printf(os, " and %zu more", o->nfiles[s] - 1);
		outstream_puts(os, s ? ".  " : "; ");
	}
	outstream_printf(os, "Means per run: %u old, %u new", r->nprofiles[0],
			 r->nprofiles[1]);
	if (r->hz)
		outstream_printf(os, ", sampled at %" PRIu32 " Hz", r->hz);
	outstream_printf(os, "; times beyond sampling noise at p < %g (Holm's correction "
			 "over %zu tests).\n\n", o->alpha, r->ntests);
	outstream_puts(os, "| Verdict | Function | Source | Self time, old | Self time, new "
		       "| Change | Calls, old | Calls, new | Change |\n"
		       "|:--|:--|:--|--:|--:|--:|--:|--:|--:|\n");
	write_table_row(os, &r->total);
	for (size_t i = 0; i < r->nrows; i++) {
		enum finding f = finding_of(&r->rows[i]);

		if (f == FINDING_FAILED || f == FINDING_CHANGED) {
			write_table_row(os, &r->rows[i]);
			shown++;
		}
	}
	if (!shown)
		outstream_puts(os, "\nNo function changed beyond noise.\n");
	if (r->ninconclusive) {
		outstream_puts(os, "\n#### Inconclusive\n\nMoved past a gate, but these runs "
			       "cannot tell it from noise (exit status 0 all the same):\n\n");
		for (size_t i = 0; i < r->nrows; i++) {
			const struct compare_row *row = &r->rows[i];
			char what[1024];

			if (!row->inconclusive)
				continue;
			outstream_puts(os, "- **");
			put_escaped(os, row->name, markdown_text);
			outstream_puts(os, "** (");
			put_escaped(os, checkout_path(row->file), markdown_text);
			outstream_puts(os, "): ");
			compare_describe_inconclusive(what, sizeof what, row, o);
			put_escaped(os, what, markdown_text);
			outstream_puts(os, "\n");
		}
	}
}

/* -- GitLab's Code Quality report --------------------------------------- */

/* FNV-1a over S and its terminating zero, from H: the same on every
 * machine, whatever its byte order. */
static uint64_t fnv1a(uint64_t h, const char *s)
{
	do {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3u;
	} while (*s++);
	return h;
}

static void write_issue(struct outstream *os, bool first, enum finding f,
			const struct compare_row *row,
			const struct compare_result *r,
			const struct compare_options *o)
{
	const char *path = checkout_path(row->file);
	char what[1024], check[96];
	uint64_t h = 0xcbf29ce484222325u;

	describe(what, sizeof what, f, row, r, o);
	if (f == FINDING_FAILED)
		snprintf(check, sizeof check, "gmon2cg --fail-on=%s", row->failed->text);
	else
		snprintf(check, sizeof check, "gmon2cg %s", findings[f].verdict);
	/* the finding, not its numbers: the same in every run that has it */
	h = fnv1a(fnv1a(fnv1a(fnv1a(h, check), row->object), path), row->name);
	outstream_puts(os, first ? "[\n  {\"description\": \"" : ",\n  {\"description\": \"");
	outstream_puts_json(os, row->name);
	outstream_puts(os, ": ");
	outstream_puts_json(os, what);
	outstream_puts(os, "\",\n   \"check_name\": \"");
	outstream_puts_json(os, check);
	outstream_printf(os, "\",\n   \"fingerprint\": \"%016" PRIx64 "\",\n"
			 "   \"severity\": \"%s\",\n   \"location\": {\"path\": \"",
			 h, findings[f].severity);
	outstream_puts_json(os, path);
	outstream_printf(os, "\", \"lines\": {\"begin\": %u}}}", row->line ? row->line : 1);
}

void compare_write_codequality(struct outstream *os,
			       const struct compare_result *r,
			       const struct compare_options *o)
{
	bool first = true;

	/* (the total has no source file to be shown at) */
	for (size_t i = 0; i < r->nrows; i++) {
		enum finding f = finding_of(&r->rows[i]);

		if (f == FINDING_NONE)
			continue;
		write_issue(os, first, f, &r->rows[i], r, o);
		first = false;
	}
	outstream_puts(os, first ? "[]\n" : "\n]\n");
}
