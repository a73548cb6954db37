/* diag.h -- error reports passed from the stages up to the command line.
 *
 * Stages never print and never exit: they fill a struct g2c_error with one
 * line of text (no program name, no newline) and return -1.  Only main.c
 * prints it.  Control characters in it (a newline in a file name) become
 * '?', so that it stays one line.  The text conventionally starts with the file it is about, as
 * in "gmon.out: truncated histogram record at offset 0x1c".
 */
#ifndef GMON2CG_DIAG_H
#define GMON2CG_DIAG_H

struct g2c_error {
	char msg[1024];
};

/* Formats the message into ERR (truncating if needed) and returns -1, so
 * that callers can write "return g2c_error_set(err, ...);". */
int g2c_error_set(struct g2c_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Puts "FILE: " before ERR's message, for a module whose errors name no
 * file (the instruction decoder's), and returns -1. */
int g2c_error_prefix(struct g2c_error *err, const char *file);

#endif
