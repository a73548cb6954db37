/* test-outstream.c -- the output stream: a named file appears only when
 * complete, a discarded one leaves the old file as it was, gzip output
 * reads back, numbers are formatted as the writer needs, names are
 * written with every control character as '?', and a write error is
 * reported once, naming the file. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "diag.h"
#include "outstream.h"

static char dir[] = "/tmp/test-outstream.XXXXXX";

static char *read_file(const char *path)
{
	static char buf[4096];
	FILE *fp = fopen(path, "r");
	size_t n;

	if (!fp)
		return NULL;
	n = fread(buf, 1, sizeof buf - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

static bool exists(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0;
}

static void test_complete_or_nothing(void)
{
	static const uint64_t numbers[] = {
		0, 9, 10, 99, 100, 101, 999, 1000, 12345, 4195792, UINT64_MAX,
	};
	static const char expected[] =
		"a 0 9 10 99 100 101 999 1000 12345 4195792 18446744073709551615 end\n";
	char path[64];
	struct outstream os;
	struct g2c_error err;

	snprintf(path, sizeof path, "%s/out.cg", dir);
	CHECK(outstream_open(&os, path, false, &err) == 0);
	outstream_puts(&os, "a");
	for (size_t i = 0; i < sizeof numbers / sizeof *numbers; i++) {
		char *p = outstream_room(&os, 21);

		*p++ = ' ';
		outstream_advance(&os, outstream_format_u64(p, numbers[i]));
	}
	outstream_printf(&os, " %s\n", "end");
	CHECK(!exists(path));	/* not before it is complete */
	CHECK(outstream_close(&os, &err) == 0);
	CHECK_STR_EQ(read_file(path), expected);

	/* A failed run leaves the old file untouched. */
	CHECK(outstream_open(&os, path, false, &err) == 0);
	outstream_puts(&os, "partial");
	outstream_discard(&os);
	CHECK_STR_EQ(read_file(path), expected);
	unlink(path);
}

static void test_gzip(void)
{
	char path[64], buf[256];
	struct outstream os;
	struct g2c_error err;
	gzFile gz;
	int n;

	snprintf(path, sizeof path, "%s/out.cg.gz", dir);
	CHECK(outstream_open(&os, path, true, &err) == 0);
	for (int i = 0; i < 10; i++)
		outstream_printf(&os, "line %d\n", i);
	CHECK(outstream_close(&os, &err) == 0);
	gz = gzopen(path, "rb");
	CHECK(gz != NULL);
	if (!gz)
		return;
	n = gzread(gz, buf, sizeof buf - 1);
	CHECK(n > 0);
	buf[n > 0 ? n : 0] = '\0';
	CHECK_STR_CONTAINS(buf, "line 0\nline 1\n");
	CHECK_STR_CONTAINS(buf, "line 9\n");
	CHECK(gzdirect(gz) == 0);	/* really compressed */
	gzclose(gz);
	unlink(path);
}

/* What outstream_puts_printable writes for S. */
static char *printable(const char *s)
{
	struct outstream os;
	struct g2c_error err;
	char *text = NULL;
	size_t size;
	FILE *fp = open_memstream(&text, &size);

	if (!fp)
		return NULL;
	outstream_from_file(&os, fp, "memory");
	outstream_puts_printable(&os, s);
	outstream_close(&os, &err);
	fclose(fp);
	return text;
}

/* A name longer than the buffer, control characters on either side of
 * where it fills the buffer, is written whole. */
static void test_long_printable(void)
{
	size_t len = 3 * sizeof ((struct outstream *)0)->buf + 5;
	char *name = malloc(len + 1), *expected = malloc(len + 1), *got;

	if (!name || !expected) {
		CHECK(!"out of memory");
		free(name);
		free(expected);
		return;
	}
	memset(name, 'n', len);
	name[len] = '\0';
	memcpy(expected, name, len + 1);
	for (size_t at = 0; at < len; at += sizeof ((struct outstream *)0)->buf)
		for (size_t i = at > 0 ? at - 1 : 0; i <= at + 1; i++) {
			name[i] = '\n';
			expected[i] = '?';
		}
	got = printable(name);
	CHECK(got && strcmp(got, expected) == 0);
	free(got);
	free(name);
	free(expected);
}

/* Every byte value at every place of an eight-byte word and around it,
 * alone and next to another control character: only bytes below 0x20
 * and 0x7f become '?'. */
static void test_printable(void)
{
	unsigned first_wrong = 0;	/* the first byte written wrongly */
	char *empty = printable("");

	for (unsigned byte = 1; byte < 256 && !first_wrong; byte++) {
		bool control = byte < 0x20 || byte == 0x7f;

		for (size_t at = 0; at < 19; at++) {
			char name[24], expected[24];
			char *got;

			memset(name, 'a', 20);
			name[20] = '\0';
			name[at] = (char)byte;
			memcpy(expected, name, sizeof name);
			expected[at] = control ? '?' : (char)byte;
			if (at + 1 < 20) {	/* a tab right after it */
				name[at + 1] = '\t';
				expected[at + 1] = '?';
			}
			got = printable(name);
			if (!got || strcmp(got, expected) != 0)
				first_wrong = byte;
			free(got);
		}
	}
	CHECK_U64(first_wrong, 0);
	CHECK_STR_EQ(empty, "");
	free(empty);
	test_long_printable();
}

static void test_write_error(void)
{
	struct outstream os;
	struct g2c_error err;

	if (!exists("/dev/full"))
		return;
	CHECK(outstream_open(&os, "/dev/full", false, &err) == 0);
	for (int i = 0; i < 100000; i++)
		outstream_puts(&os, "0123456789");
	CHECK(outstream_close(&os, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "/dev/full");
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 99;
	}
	test_complete_or_nothing();
	test_gzip();
	test_printable();
	test_write_error();
	rmdir(dir);
	return check_report("test-outstream");
}
