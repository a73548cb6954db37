/* diag.c -- error reports passed from the stages up to the command line. */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "util.h"

int g2c_error_set(struct g2c_error *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	/* One line, whatever the names in it hold. */
	copy_printable(err->msg, err->msg, strlen(err->msg));
	return -1;
}

int g2c_error_prefix(struct g2c_error *err, const char *file)
{
	struct g2c_error was = *err;

	return g2c_error_set(err, "%s: %s", file, was.msg);
}
