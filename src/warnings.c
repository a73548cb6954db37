/* warnings.c -- the warnings and reports a run says besides its output. */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "warnings.h"

void warnings_add(struct warnings *w, const char *fmt, ...)
{
	char **lines = realloc(w->lines, (w->n + 1) * sizeof *lines);
	va_list ap;

	if (!lines)
		return;
	w->lines = lines;
	va_start(ap, fmt);
	if (vasprintf(&lines[w->n], fmt, ap) >= 0)
		w->n++;
	va_end(ap);
	/* the same cause again (another part of the profile): said once */
	for (size_t i = 0; w->n > 0 && i + 1 < w->n; i++)
		if (strcmp(lines[i], lines[w->n - 1]) == 0) {
			free(lines[--w->n]);
			break;
		}
}

FILE *warnings_stream(struct warnings *w)
{
	if (!w->held)
		w->held = open_memstream(&w->held_text, &w->held_len);
	return w->held ? w->held : stderr;
}

void warnings_print(struct warnings *w, bool succeeded)
{
	fflush(stdout);
	if (w->held) {
		fclose(w->held);
		w->held = NULL;
		if (succeeded)
			fwrite(w->held_text, 1, w->held_len, stderr);
	}
	for (size_t i = 0; succeeded && i < w->n; i++) {
		/* (a file name cannot break the line) */
		copy_printable(w->lines[i], w->lines[i], strlen(w->lines[i]));
		fprintf(stderr, "%s: warning: %s\n", PACKAGE_NAME, w->lines[i]);
	}
	warnings_release(w);
}

void warnings_release(struct warnings *w)
{
	if (w->held)
		fclose(w->held);
	free(w->held_text);
	for (size_t i = 0; i < w->n; i++)
		free(w->lines[i]);
	free(w->lines);
	memset(w, 0, sizeof *w);
}
