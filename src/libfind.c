/* libfind.c -- the shared library the dynamic loader would load. */
#include <config.h>

#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "libfind.h"

/* What a search needs: the library, where it is loaded from, and what
 * decides whether a file found is it. */
struct search {
	struct object *lib, *exe;
	const char *soname, *debug_dir, *origin;
	libfind_accept accept;
	void *arg;
	struct g2c_error *err;
};

/* Tries PATH.  Returns 1 when it is the library (opened in s->lib), 0
 * when not, -1 with s->err set. */
static int try_path(struct search *s, const char *path)
{
	struct g2c_error ignored;
	int rc;

	if (access(path, R_OK) != 0)
		return 0;
	if (object_open(s->lib, path, s->debug_dir, &ignored) < 0) {
		if (strstr(ignored.msg, "out of memory"))
			return g2c_error_set(s->err, "%s", ignored.msg);
		return 0;
	}
	rc = object_same_machine(s->lib, s->exe) ? s->accept(s->lib, s->arg, s->err) : 0;
	if (rc != 1)
		object_close(s->lib);
	return rc;
}

/* Tries DIR/soname, with $ORIGIN in DIR[0..LEN) expanded. */
static int try_dir(struct search *s, const char *dir, size_t len)
{
	char path[4096];
	size_t n = 0;
	int rc;

	for (size_t i = 0; i < len && n < sizeof path; ) {
		if (strncmp(dir + i, "$ORIGIN", 7) == 0 || strncmp(dir + i, "${ORIGIN}", 9) == 0) {
			n += (size_t)snprintf(path + n, sizeof path - n, "%s", s->origin);
			i += dir[i + 1] == '{' ? 9 : 7;
		} else {
			path[n++] = dir[i++];
		}
	}
	if (n >= sizeof path - 1)
		return 0;
	rc = snprintf(path + n, sizeof path - n, "%s%s", n && path[n - 1] == '/' ? "" : "/",
		      s->soname);
	if (rc < 0 || (size_t)rc >= sizeof path - n)
		return 0;
	return try_path(s, path);
}

/* Tries every directory of the ':'-separated LIST. */
static int try_list(struct search *s, const char *list)
{
	while (list && *list) {
		const char *end = strchr(list, ':');
		size_t len = end ? (size_t)(end - list) : strlen(list);
		int rc = len ? try_dir(s, list, len) : 0;

		if (rc)
			return rc;
		list = end ? end + 1 : NULL;
	}
	return 0;
}

/* glibc's cache: "glibc-ld.so.cache1.1", the number of entries, then
 * entries of flags, key and value (string offsets from the start of the
 * file), OS version and hwcap: 24 bytes each, after a 48-byte header.
 * An old-format table may come first. */
static int try_cache(struct search *s, const char *cache_path)
{
	static const char magic[] = "glibc-ld.so.cache1.1";
	FILE *fp = fopen(cache_path, "rb");
	unsigned char *data = NULL, *start;
	long size = 0;
	uint32_t nlibs;
	int rc = 0;

	if (!fp)
		return 0;
	if (fseek(fp, 0, SEEK_END) == 0 && (size = ftell(fp)) > 0 &&
	    size < (64 << 20) && fseek(fp, 0, SEEK_SET) == 0 &&
	    (data = malloc((size_t)size)) && fread(data, 1, (size_t)size, fp) == (size_t)size) {
		start = memmem(data, (size_t)size, magic, sizeof magic - 1);
		if (start && (size_t)(data + size - start) >= 48) {
			size_t avail = (size_t)(data + size - start);

			memcpy(&nlibs, start + 20, 4);
			for (uint32_t i = 0; rc == 0 && i < nlibs && 48 + (size_t)i * 24 + 24 <= avail; i++) {
				const unsigned char *e = start + 48 + (size_t)i * 24;
				uint32_t key, value;

				memcpy(&key, e + 4, 4);
				memcpy(&value, e + 8, 4);
				if (key >= avail || value >= avail ||
				    !memchr(start + key, '\0', avail - key) ||
				    !memchr(start + value, '\0', avail - value))
					continue;
				if (strcmp((const char *)start + key, s->soname) == 0)
					rc = try_path(s, (const char *)start + value);
			}
		}
	} else if (!data && size > 0) {
		rc = g2c_error_set(s->err, "%s: out of memory", cache_path);
	}
	free(data);
	fclose(fp);
	return rc;
}

/* The default directories, the multiarch ones first. */
static int try_defaults(struct search *s)
{
	static const char *const patterns[] = {
		"/lib/*-linux-gnu*", "/usr/lib/*-linux-gnu*",
		"/lib64", "/usr/lib64", "/lib32", "/usr/lib32", "/lib", "/usr/lib",
	};
	int rc = 0;

	for (size_t p = 0; rc == 0 && p < sizeof patterns / sizeof *patterns; p++) {
		glob_t g;

		if (glob(patterns[p], GLOB_ONLYDIR, NULL, &g) != 0)
			continue;
		for (size_t i = 0; rc == 0 && i < g.gl_pathc; i++)
			rc = try_dir(s, g.gl_pathv[i], strlen(g.gl_pathv[i]));
		globfree(&g);
	}
	return rc;
}

int libfind_open(struct object *lib, struct object *exe, const char *soname,
		 const char *debug_dir, libfind_accept accept, void *arg,
		 struct g2c_error *err)
{
	struct object_dynamic dyn;
	struct search s = { lib, exe, soname, debug_dir, NULL, accept, arg, err };
	char *origin = strdup(exe->path), *slash;
	int rc;

	if (!origin)
		return g2c_error_set(err, "out of memory");
	slash = strrchr(origin, '/');
	if (slash)
		*slash = '\0';
	s.origin = origin;
	if (strchr(soname, '/')) {
		rc = try_path(&s, soname);
	} else if ((rc = object_read_dynamic(exe, &dyn, err)) == 0) {
		if (!dyn.runpath)
			rc = try_list(&s, dyn.rpath);
		if (rc == 0)
			rc = try_list(&s, getenv("LD_LIBRARY_PATH"));
		if (rc == 0)
			rc = try_list(&s, dyn.runpath);
		if (rc == 0)
			rc = try_cache(&s, "/etc/ld.so.cache");
		if (rc == 0)
			rc = try_defaults(&s);
		object_dynamic_release(&dyn);
	}
	free(origin);
	return rc;
}
