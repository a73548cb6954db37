/* instream.h -- the bytes of one input file, read in pieces.
 *
 * Owns reading and decompression: a file is read in pieces and, when it
 * starts with gzip's magic number, inflated as it is read, so that no
 * input is held whole in memory.  A gzip file may hold
 * several members, which are concatenated as gzip -d does; anything else
 * after a member, a member cut short or a failed check is an error.  A
 * buffer already in memory can be read the same way.  Knows nothing of
 * what the bytes mean, but says where a record that needs more bytes than
 * the file has was cut short.
 */
#ifndef GMON2CG_INSTREAM_H
#define GMON2CG_INSTREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <zlib.h>

struct g2c_error;

struct instream {
	const char *name;		/* for messages */
	int fd;				/* -1: the bytes are all in NEXT */
	bool gzip;
	bool member_ended;		/* inflate reached a member's end */
	bool raw_eof;			/* read() returned 0 */
	z_stream z;			/* next_in/avail_in: bytes read and
					 * not used yet, also when plain */
	unsigned char *raw, *inflated;	/* buffers of INSTREAM_CHUNK bytes
					 * (instream.c) */
	const unsigned char *next;	/* file bytes delivered, not taken */
	size_t avail;
	uint64_t pos;			/* offset of the next byte in the file */
	unsigned char back[48];		/* given back by instream_unread() */
	size_t back_len;
	bool cut_short;			/* the error is instream_truncated()'s */
};

/* Opens PATH; tells gzip from plain by its first two bytes.  Returns 0, or
 * -1 with ERR set (nothing is left to close). */
int instream_open(struct instream *in, const char *path,
		  struct g2c_error *err);

/* Reads DATA[0..LEN) as the bytes of the file NAME; needs no closing. */
void instream_from_buffer(struct instream *in, const unsigned char *data,
			  size_t len, const char *name);

/* instream_read where the bytes are not all at hand, or some were given
 * back. */
int instream_read_across(struct instream *in, unsigned char *dst, size_t n,
			 size_t *got, struct g2c_error *err);

/* Copies up to N bytes to DST; *GOT says how many (fewer only at the end
 * of the file).  Returns 0, or -1 with ERR set.  (Inline: the readers
 * call it for every record, most of which lie in the bytes at hand.) */
static inline int instream_read(struct instream *in, unsigned char *dst,
				size_t n, size_t *got, struct g2c_error *err)
{
	if (in->back_len == 0 && n <= in->avail) {
		memcpy(dst, in->next, n);
		in->next += n;
		in->avail -= n;
		in->pos += n;
		*got = n;
		return 0;
	}
	return instream_read_across(in, dst, n, got, err);
}

/* Gives back the N bytes (at most sizeof IN->back) just read into SRC, to
 * be read again: a format is recognised by its first bytes, then read from
 * its start. */
void instream_unread(struct instream *in, const unsigned char *src, size_t n);

/* Sets ERR to say that the record WHAT, which starts at START and needs
 * END - START bytes, has only those up to the current position.  Returns
 * -1. */
int instream_truncated(struct instream *in, const char *what, uint64_t start,
		       uint64_t end, struct g2c_error *err);

/* Reads exactly N bytes of the record WHAT, which spans START..END, into
 * DST.  Returns 0, or -1 with ERR set. */
static inline int instream_take(struct instream *in, unsigned char *dst,
				size_t n, const char *what, uint64_t start,
				uint64_t end, struct g2c_error *err)
{
	size_t got;

	if (instream_read(in, dst, n, &got, err) < 0)
		return -1;
	return got == n ? 0 : instream_truncated(in, what, start, end, err);
}

/* Reads a whole fixed-size record WHAT of N bytes into DST. */
static inline int instream_take_record(struct instream *in, unsigned char *dst,
				       size_t n, const char *what,
				       uint64_t start, struct g2c_error *err)
{
	return instream_take(in, dst, n, what, start, in->pos + n, err);
}

void instream_close(struct instream *in);

#endif
