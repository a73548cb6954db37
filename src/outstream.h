/* outstream.h -- where the profile goes: stdout, or a file that appears
 * only when complete.
 *
 * A named output is written to a temporary file in the same directory and
 * renamed over the target by outstream_close(), so a failed or interrupted
 * run never leaves a partial profile and never harms an existing one.  A
 * target that is not a regular file (/dev/null, a pipe) is written in
 * place.  The output may be gzip-compressed.  Write errors are remembered and reported
 * once, by outstream_close().
 */
#ifndef GMON2CG_OUTSTREAM_H
#define GMON2CG_OUTSTREAM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct g2c_error;

struct outstream {
	const char *name;	/* for messages: the target path or "stdout" */
	FILE *fp;		/* plain output */
	void *gz;		/* gzFile for compressed output */
	char *final_path;	/* NULL for stdout */
	char *tmp_path;
	bool own_fd;		/* opened here without a temporary: close it */
	bool to_memory;		/* into mem[0..mem_len) */
	bool failed;
	int saved_errno;
	char *mem;
	size_t mem_len, mem_cap;
	char buf[1 << 16];	/* pending output */
	size_t len;
};

/* Whether PATH (of -o, --junit...; NULL: none given) names standard
 * output by its name ("-", /dev/stdout), before any file is opened. */
bool outstream_names_stdout(const char *path);

/* Opens PATH for writing ("-" or NULL: stdout), gzip-compressed if GZIP.
 * What PATH is decides how it is written (see the top): a name of the file
 * stdout is open on (/dev/stdout) is stdout; a symbolic link is followed,
 * to the regular file it names, which is replaced, or to a device, which is
 * written in place; a link to nothing is refused.  A replaced file keeps
 * its mode, and its owner when the writer may give it. */
int outstream_open(struct outstream *os, const char *path, bool gzip,
		   struct g2c_error *err);

/* Returns -1 with ERR set when the output PATH (as for outstream_open) is
 * the same file as one of INPUTS[0..N) (device and inode), so that writing
 * it would destroy an input; 0 otherwise.  Writes nothing. */
int outstream_check_inputs(const char *path, const char *const *inputs,
			   size_t n, struct g2c_error *err);

/* Writes S with each control character (a newline, say) as '?', so that a
 * name cannot break the line it is written in. */
void outstream_puts_printable(struct outstream *os, const char *s);

/* Writes S as the inside of a JSON string: quotes, backslashes and
 * control characters escaped; a byte that is not of a UTF-8 character
 * (a name is an object file's bytes; JSON is Unicode) as the text \xHH. */
void outstream_puts_json(struct outstream *os, const char *s);

/* Writes S as XML text (or an attribute's value): markup escaped; a
 * control character, or a byte that is not of a UTF-8 character, as the
 * text \xHH (the files are declared UTF-8). */
void outstream_puts_xml(struct outstream *os, const char *s);

/* Wraps an open stream (for harnesses that write to /dev/null or a
 * memory stream); outstream_close() flushes it but does not close it. */
void outstream_from_file(struct outstream *os, FILE *fp, const char *name);

/* Makes OS write into memory, os->mem[0..os->mem_len), for a part of the
 * output written by a thread of its own.  CAP bytes are allocated now (by
 * the caller's thread, whose freed memory they can reuse); more when
 * needed.  The caller frees os->mem.  Returns false when out of memory. */
bool outstream_to_memory(struct outstream *os, size_t cap);

/* outstream_write's path when DATA does not fit the buffer's room. */
void outstream_write_through(struct outstream *os, const char *data, size_t len);

/* Hands the pending output on, making the whole buffer room. */
void outstream_flush_pending(struct outstream *os);

/* Where to put up to N (at most sizeof os->buf) bytes of output, written
 * in place and then ended by outstream_advance: the writer builds each
 * line there rather than through a call per token. */
static inline char *outstream_room(struct outstream *os, size_t n)
{
	if (sizeof os->buf - os->len < n)
		outstream_flush_pending(os);
	return os->buf + os->len;
}

/* Takes the bytes put at outstream_room up to END. */
static inline void outstream_advance(struct outstream *os, char *end)
{
	os->len = (size_t)(end - os->buf);
}

/* "00" "01" ... "99", for outstream_format_u64. */
extern const char outstream_digit_pairs[200];

/* The number of decimal digits of V. */
static inline unsigned outstream_digits(uint64_t v)
{
	for (unsigned n = 1;; n += 4, v /= 10000) {
		if (v < 10)
			return n;
		if (v < 100)
			return n + 1;
		if (v < 1000)
			return n + 2;
		if (v < 10000)
			return n + 3;
	}
}

/* Puts V in decimal at P; returns the end.  At most 20 bytes.  Inline:
 * the writer puts several numbers on every line. */
static inline char *outstream_format_u64(char *p, uint64_t v)
{
	char *end = p + outstream_digits(v);

	/* two digits at a time, from the end */
	p = end;
	while (v >= 100) {
		p -= 2;
		memcpy(p, outstream_digit_pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10)
		memcpy(p - 2, outstream_digit_pairs + 2 * v, 2);
	else
		p[-1] = (char)('0' + v);
	return end;
}

/* Inline: the writer calls it for every token it writes. */
static inline void outstream_write(struct outstream *os, const char *data,
				   size_t len)
{
	if (len < sizeof os->buf - os->len) {
		memcpy(os->buf + os->len, data, len);
		os->len += len;
	} else {
		outstream_write_through(os, data, len);
	}
}

void outstream_puts(struct outstream *os, const char *s);
void outstream_printf(struct outstream *os, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Flushes and closes; on success moves the file into place.  Returns 0, or
 * -1 with ERR set, in which case nothing is left at the target path that
 * was not there before. */
int outstream_close(struct outstream *os, struct g2c_error *err);

/* Closes and removes the temporary file, leaving the target untouched. */
void outstream_discard(struct outstream *os);

#endif
