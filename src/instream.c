/* instream.c -- the bytes of one input file, plain or gzip-inflated. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "instream.h"

#define INSTREAM_CHUNK (1u << 16)

static int errno_error(struct instream *in, struct g2c_error *err)
{
	return g2c_error_set(err, "%s: %s", in->name, strerror(errno));
}

/* Reads until at least N bytes that inflate (or, plain, the reader) has not
 * used are buffered, or the file ends. */
static int read_raw(struct instream *in, size_t n, struct g2c_error *err)
{
	if (in->z.avail_in >= n || in->raw_eof)
		return 0;
	memmove(in->raw, in->z.next_in, in->z.avail_in);
	in->z.next_in = in->raw;
	while (in->z.avail_in < n && !in->raw_eof) {
		ssize_t got = read(in->fd, in->raw + in->z.avail_in,
				   INSTREAM_CHUNK - in->z.avail_in);

		if (got < 0 && errno != EINTR)
			return errno_error(in, err);
		if (got == 0)
			in->raw_eof = true;
		if (got > 0)
			in->z.avail_in += (unsigned)got;
	}
	return 0;
}

/* Inflates the next piece of a gzip file into IN->inflated.  Returns the
 * bytes produced (0 at the end of the file), or -1 with ERR set. */
static long inflate_piece(struct instream *in, struct g2c_error *err)
{
	for (;;) {
		int zrc;

		if (in->member_ended) {
			if (read_raw(in, 2, err) < 0)
				return -1;
			if (in->z.avail_in == 0)
				return 0;
			if (in->z.avail_in < 2 || in->z.next_in[0] != 0x1f ||
			    in->z.next_in[1] != 0x8b)
				return g2c_error_set(err,
						     "%s: data that is not gzip follows the compressed profile",
						     in->name);
			if (inflateReset(&in->z) != Z_OK)
				return g2c_error_set(err, "%s: cannot restart gzip decompression", in->name);
			in->member_ended = false;
		}
		if (read_raw(in, 1, err) < 0)
			return -1;
		in->z.next_out = in->inflated;
		in->z.avail_out = INSTREAM_CHUNK;
		zrc = inflate(&in->z, Z_NO_FLUSH);
		if (zrc == Z_STREAM_END)
			in->member_ended = true;
		else if (zrc == Z_DATA_ERROR)
			return g2c_error_set(err, "%s: corrupt gzip data: %s",
					     in->name, in->z.msg ? in->z.msg : "invalid");
		else if (zrc == Z_MEM_ERROR)
			return g2c_error_set(err, "%s: out of memory", in->name);
		else if (zrc == Z_BUF_ERROR && in->z.avail_in == 0 && in->raw_eof)
			return g2c_error_set(err,
					     "%s: the gzip data is cut short (truncated file)",
					     in->name);
		else if (zrc != Z_OK && zrc != Z_BUF_ERROR)
			return g2c_error_set(err, "%s: gzip error %d", in->name, zrc);
		if (in->z.avail_out < INSTREAM_CHUNK)
			return (long)(INSTREAM_CHUNK - in->z.avail_out);
	}
}

/* Makes IN->avail bytes available at IN->next.  Returns 1, 0 at the end of
 * the file, or -1 with ERR set. */
static int fill(struct instream *in, struct g2c_error *err)
{
	long n;

	if (in->avail > 0)
		return 1;
	if (in->fd < 0)
		return 0;
	if (in->gzip) {
		n = inflate_piece(in, err);
		if (n < 0)
			return -1;
		in->next = in->inflated;
		in->avail = (size_t)n;
		return n > 0;
	}
	if (read_raw(in, 1, err) < 0)
		return -1;
	in->next = in->z.next_in;
	in->avail = in->z.avail_in;
	in->z.avail_in = 0;
	return in->avail > 0;
}

void instream_close(struct instream *in)
{
	if (in->gzip)
		inflateEnd(&in->z);
	if (in->fd >= 0)
		close(in->fd);
	free(in->raw);
	free(in->inflated);
}

int instream_open(struct instream *in, const char *path,
		  struct g2c_error *err)
{
	memset(in, 0, sizeof *in);
	in->name = path;
	in->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (in->fd < 0)
		return errno_error(in, err);
	in->raw = malloc(INSTREAM_CHUNK);
	in->inflated = malloc(INSTREAM_CHUNK);
	if (!in->raw || !in->inflated) {
		g2c_error_set(err, "%s: out of memory", path);
		goto fail;
	}
	in->z.next_in = in->raw;
	if (read_raw(in, 2, err) < 0)
		goto fail;
	if (in->z.avail_in >= 2 && in->raw[0] == 0x1f && in->raw[1] == 0x8b) {
		/* 16: a gzip header and trailer, checked */
		if (inflateInit2(&in->z, 16 + MAX_WBITS) != Z_OK) {
			g2c_error_set(err, "%s: out of memory", path);
			goto fail;
		}
		in->gzip = true;
	}
	return 0;
fail:
	instream_close(in);
	return -1;
}

void instream_from_buffer(struct instream *in, const unsigned char *data,
			  size_t len, const char *name)
{
	memset(in, 0, sizeof *in);
	in->name = name;
	in->fd = -1;
	in->next = data;
	in->avail = len;
}

/* Copies up to N bytes of the stream past BACK to DST; *GOT says how
 * many (fewer only at the end of the file). */
static int read_stream(struct instream *in, unsigned char *dst, size_t n,
		       size_t *got, struct g2c_error *err)
{
	*got = 0;
	while (*got < n) {
		size_t k;
		int rc = fill(in, err);

		if (rc < 0)
			return -1;
		if (rc == 0)
			break;
		k = n - *got < in->avail ? n - *got : in->avail;
		memcpy(dst + *got, in->next, k);
		in->next += k;
		in->avail -= k;
		*got += k;
	}
	return 0;
}

int instream_read_across(struct instream *in, unsigned char *dst, size_t n,
			 size_t *got, struct g2c_error *err)
{
	size_t from_back = n < in->back_len ? n : in->back_len, streamed;

	memcpy(dst, in->back, from_back);
	memmove(in->back, in->back + from_back, in->back_len - from_back);
	in->back_len -= from_back;
	if (read_stream(in, dst + from_back, n - from_back, &streamed, err) < 0)
		return -1;
	*got = from_back + streamed;
	in->pos += *got;
	return 0;
}

void instream_unread(struct instream *in, const unsigned char *src, size_t n)
{
	memcpy(in->back, src, n);
	in->back_len = n;
	in->pos -= n;
}

int instream_truncated(struct instream *in, const char *what, uint64_t start,
		       uint64_t end, struct g2c_error *err)
{
	in->cut_short = true;
	return g2c_error_set(err,
			     "%s: truncated %s at offset %llu (%llu bytes needed, %llu present)",
			     in->name, what, (unsigned long long)start,
			     (unsigned long long)(end - start),
			     (unsigned long long)(in->pos - start));
}
