/* outstream.c -- where the profile goes: stdout, or a file that appears
 * only when complete. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "diag.h"
#include "outstream.h"
#include "util.h"

/* The temporary file a signal handler must remove: one output at a time. */
static char pending_tmp[4096];
static volatile sig_atomic_t have_pending_tmp;

static void remove_pending_and_die(int sig)
{
	if (have_pending_tmp)
		unlink(pending_tmp);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void watch_signals(const char *tmp_path)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };

	if (strlen(tmp_path) >= sizeof pending_tmp)
		return;
	strcpy(pending_tmp, tmp_path);
	have_pending_tmp = 1;
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
		signal(sigs[i], remove_pending_and_die);
}

static void unwatch_signals(void)
{
	have_pending_tmp = 0;
}

static void free_paths(struct outstream *os)
{
	free(os->tmp_path);
	free(os->final_path);
	os->tmp_path = os->final_path = NULL;
}

/* Creates the temporary file beside PATH, the file to replace; OLD is its
 * status when it exists (EXISTS), whose mode and owner the new file takes,
 * as editors keep them.  The owner can be kept only by root (or, for the
 * group, a member of it); otherwise the file is the writer's own. */
static int open_temp(struct outstream *os, const char *path,
		     const struct stat *old, bool exists, struct g2c_error *err)
{
	const char *base = base_name(path);
	size_t dirlen = (size_t)(base - path);
	mode_t mask;
	int fd;

	os->final_path = strdup(path);
	os->tmp_path = malloc(dirlen + strlen(base) + 16);
	if (!os->final_path || !os->tmp_path) {
		free_paths(os);
		return g2c_error_set(err, "%s: out of memory", os->name);
	}
	/* A hidden name in the target's directory, so rename() is atomic. */
	memcpy(os->tmp_path, path, dirlen);
	sprintf(os->tmp_path + dirlen, ".%s.XXXXXX", base);
	fd = mkstemp(os->tmp_path);
	if (fd < 0) {
		int saved = errno;

		free_paths(os);
		return g2c_error_set(err, "%s: %s", os->name, strerror(saved));
	}
	watch_signals(os->tmp_path);
	if (exists) {
		/* chown first: it clears set-user-ID and set-group-ID bits */
		if (fchown(fd, old->st_uid, old->st_gid) < 0)
			(void)fchown(fd, (uid_t)-1, old->st_gid);
		fchmod(fd, old->st_mode & 07777);
	} else {
		mask = umask(0);
		umask(mask);
		fchmod(fd, 0666 & ~mask);
	}
	return fd;
}

/* How a named output is written. */
enum target_kind {
	TARGET_STDOUT,		/* it is the file stdout is open on */
	TARGET_IN_PLACE,	/* not a regular file: a device, a pipe */
	TARGET_REPLACE,		/* a regular file, new or replaced whole */
};

/* Decides how PATH is written, from what it is before anything follows a
 * symbolic link (lstat).  A name of stdout's file (/dev/stdout,
 * /proc/self/fd/1) is stdout, as "-" is.  A symbolic link is written
 * through: a link to a regular file has that file replaced (*REPLACE, its
 * resolved path), a link to anything else is written in place, and a link
 * to nothing is refused.  Otherwise a regular or missing file is replaced
 * and anything else written in place.  For TARGET_REPLACE, *REPLACE is the
 * file to replace (to free) and *OLD its status when *EXISTS. */
static int decide_target(struct outstream *os, const char *path,
			 char **replace, struct stat *old, bool *exists,
			 struct g2c_error *err)
{
	struct stat sb, out;

	*replace = NULL;
	*exists = false;
	if (stat(path, &sb) == 0 && fstat(STDOUT_FILENO, &out) == 0 &&
	    sb.st_dev == out.st_dev && sb.st_ino == out.st_ino)
		return TARGET_STDOUT;
	if (lstat(path, old) < 0) {
		if (errno != ENOENT)
			return g2c_error_set(err, "%s: %s", os->name, strerror(errno));
		*replace = strdup(path);
	} else if (S_ISLNK(old->st_mode)) {
		if (stat(path, old) < 0)
			return g2c_error_set(err, "%s: a symbolic link to nothing (%s)",
					     os->name, strerror(errno));
		if (!S_ISREG(old->st_mode))
			return TARGET_IN_PLACE;
		*replace = realpath(path, NULL);
		*exists = true;
	} else if (S_ISREG(old->st_mode)) {
		*replace = strdup(path);
		*exists = true;
	} else {
		return TARGET_IN_PLACE;
	}
	if (!*replace)
		return g2c_error_set(err, "%s: %s", os->name, strerror(errno));
	return TARGET_REPLACE;
}

bool outstream_names_stdout(const char *path)
{
	return path && (strcmp(path, "-") == 0 || strcmp(path, "/dev/stdout") == 0);
}

int outstream_open(struct outstream *os, const char *path, bool gzip,
		   struct g2c_error *err)
{
	int fd = -1, kind = TARGET_STDOUT;

	memset(os, 0, offsetof(struct outstream, buf));
	os->len = 0;
	os->name = "stdout";
	if (path && strcmp(path, "-") != 0) {
		char *replace;
		struct stat old;
		bool exists;

		os->name = path;
		kind = decide_target(os, path, &replace, &old, &exists, err);
		if (kind < 0)
			return -1;
		if (kind == TARGET_REPLACE) {
			fd = open_temp(os, replace, &old, exists, err);
			free(replace);
			if (fd < 0)
				return -1;
		}
	}
	if (kind == TARGET_STDOUT) {
		fd = STDOUT_FILENO;
		if (gzip)
			fd = dup(fd);
	} else if (kind == TARGET_IN_PLACE) {
		fd = open(path, O_WRONLY | O_TRUNC);
		if (fd < 0)
			return g2c_error_set(err, "%s: %s", path, strerror(errno));
		os->own_fd = true;
	}
	if (gzip) {
		os->gz = fd >= 0 ? gzdopen(fd, "wb9") : NULL;
		if (!os->gz) {
			g2c_error_set(err, "%s: cannot start gzip output", os->name);
			outstream_discard(os);
			return -1;
		}
		gzbuffer(os->gz, 1 << 17);
	} else if (fd == STDOUT_FILENO) {
		os->fp = stdout;
	} else {
		os->fp = fdopen(fd, "wb");
		if (!os->fp) {
			g2c_error_set(err, "%s: %s", os->name, strerror(errno));
			close(fd);
			outstream_discard(os);
			return -1;
		}
	}
	if (os->fp)
		setvbuf(os->fp, NULL, _IOFBF, 1 << 17);
	return 0;
}

int outstream_check_inputs(const char *path, const char *const *inputs,
			   size_t n, struct g2c_error *err)
{
	bool to_stdout = !path || strcmp(path, "-") == 0;
	struct stat out, in;

	if ((to_stdout ? fstat(STDOUT_FILENO, &out) : stat(path, &out)) < 0 ||
	    !S_ISREG(out.st_mode))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (stat(inputs[i], &in) == 0 && in.st_dev == out.st_dev &&
		    in.st_ino == out.st_ino)
			return g2c_error_set(err,
					     "%s: is the input %s; refusing to write the output over it",
					     to_stdout ? "stdout" : path, inputs[i]);
	return 0;
}

void outstream_from_file(struct outstream *os, FILE *fp, const char *name)
{
	memset(os, 0, offsetof(struct outstream, buf));
	os->len = 0;
	os->fp = fp;
	os->name = name;
}

bool outstream_to_memory(struct outstream *os, size_t cap)
{
	memset(os, 0, offsetof(struct outstream, buf));
	os->len = 0;
	os->name = "memory";
	os->to_memory = true;
	os->mem = malloc(cap ? cap : 1);
	os->mem_cap = cap;
	return os->mem != NULL;
}

/* Appends DATA[0..N) to the output in memory. */
static bool append_to_memory(struct outstream *os, const char *data, size_t n)
{
	if (n > os->mem_cap - os->mem_len) {
		size_t cap = os->mem_cap * 2 > os->mem_len + n ?
			     os->mem_cap * 2 : os->mem_len + n;
		char *mem = realloc(os->mem, cap);

		if (!mem) {
			errno = ENOMEM;
			return false;
		}
		os->mem = mem;
		os->mem_cap = cap;
	}
	memcpy(os->mem + os->mem_len, data, n);
	os->mem_len += n;
	return true;
}

/* Hands DATA[0..N) (N < 2^31) to the file, the compressor or the memory. */
static void hand_on(struct outstream *os, const char *data, size_t n)
{
	if (os->failed || n == 0)
		return;
	errno = 0;
	if (os->gz)
		os->failed = gzwrite(os->gz, data, (unsigned)n) != (int)n;
	else if (os->to_memory)
		os->failed = !append_to_memory(os, data, n);
	else
		os->failed = fwrite(data, 1, n, os->fp) != n;
	if (os->failed)
		os->saved_errno = errno;
}

void outstream_flush_pending(struct outstream *os)
{
	size_t n = os->len;

	os->len = 0;
	hand_on(os, os->buf, n);
}

void outstream_write_through(struct outstream *os, const char *data, size_t len)
{
	while (len > 0 && !os->failed) {
		size_t room = sizeof os->buf - os->len;
		size_t n = len < room ? len : room;

		/* a block larger than the buffer goes on without a copy */
		if (os->len == 0 && len >= sizeof os->buf) {
			n = len < (1u << 30) ? len : (1u << 30);
			hand_on(os, data, n);
			data += n;
			len -= n;
			continue;
		}

		memcpy(os->buf + os->len, data, n);
		os->len += n;
		data += n;
		len -= n;
		if (os->len == sizeof os->buf)
			outstream_flush_pending(os);
	}
}

void outstream_puts(struct outstream *os, const char *s)
{
	outstream_write(os, s, strlen(s));
}

void outstream_puts_printable(struct outstream *os, const char *s)
{
	/* copied into the buffer, at most a bufferful at a time */
	for (size_t n, len = strlen(s); len > 0; s += n, len -= n) {
		n = len < sizeof os->buf ? len : sizeof os->buf;
		outstream_advance(os, copy_printable(outstream_room(os, n), s, n));
	}
}

void outstream_puts_json(struct outstream *os, const char *s)
{
	while (*s) {
		unsigned char ch = (unsigned char)*s;
		size_t n = utf8_length(s);

		if (ch == '"' || ch == '\\')
			outstream_printf(os, "\\%c", ch);
		else if (ch < 0x20)
			outstream_printf(os, "\\u%04x", ch);
		else if (n == 0)
			outstream_printf(os, "\\\\x%02x", ch);
		else
			outstream_write(os, s, n);
		s += n ? n : 1;
	}
}

void outstream_puts_xml(struct outstream *os, const char *s)
{
	while (*s) {
		size_t n = printable_length(s);

		switch (*s) {
		case '<': outstream_puts(os, "&lt;"); break;
		case '>': outstream_puts(os, "&gt;"); break;
		case '&': outstream_puts(os, "&amp;"); break;
		case '"': outstream_puts(os, "&quot;"); break;
		default:
			if (n == 0)
				outstream_printf(os, "\\x%02x", (unsigned char)*s);
			else
				outstream_write(os, s, n);
		}
		s += n ? n : 1;
	}
}

const char outstream_digit_pairs[200] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

void outstream_printf(struct outstream *os, const char *fmt, ...)
{
	char buf[512], *big = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0) {
		os->failed = true;
		return;
	}
	if ((size_t)n >= sizeof buf) {
		big = malloc((size_t)n + 1);
		if (!big) {
			os->failed = true;
			os->saved_errno = ENOMEM;
			return;
		}
		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	outstream_write(os, big ? big : buf, (size_t)n);
	free(big);
}

/* Closes the stream; returns false on any error, keeping errno. */
static bool close_stream(struct outstream *os)
{
	bool ok;

	outstream_flush_pending(os);
	ok = !os->failed;

	if (os->gz) {
		int rc = gzclose(os->gz);

		os->gz = NULL;
		if (rc != Z_OK) {
			if (ok)
				os->saved_errno = rc == Z_ERRNO ? errno : EIO;
			ok = false;
		}
	} else if (os->fp) {
		if (fflush(os->fp) != 0 || ferror(os->fp)) {
			if (ok)
				os->saved_errno = errno;
			ok = false;
		}
		if ((os->tmp_path || os->own_fd) && fclose(os->fp) != 0 && ok) {
			os->saved_errno = errno;
			ok = false;
		}
		os->fp = NULL;
	}
	return ok;
}

int outstream_close(struct outstream *os, struct g2c_error *err)
{
	if (!close_stream(os)) {
		g2c_error_set(err, "%s: write error: %s", os->name,
			      os->saved_errno ? strerror(os->saved_errno)
					      : "unknown cause");
		outstream_discard(os);
		return -1;
	}
	if (os->tmp_path && rename(os->tmp_path, os->final_path) < 0) {
		g2c_error_set(err, "%s: %s", os->name, strerror(errno));
		outstream_discard(os);
		return -1;
	}
	unwatch_signals();
	free_paths(os);
	return 0;
}

void outstream_discard(struct outstream *os)
{
	close_stream(os);
	if (os->tmp_path)
		unlink(os->tmp_path);
	unwatch_signals();
	free_paths(os);
}
