/* libfind.c -- the shared library the dynamic loader would load. */
#include <config.h>

#include <bfd.h>
#include <ctype.h>
#include <glob.h>
#include <gnu/libc-version.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "libfind.h"

/* glibc-hwcaps levels (3), legacy combinations (at most 2^4 - 1), and
 * the directory itself */
#define MAX_SUBDIRS 19

/* What a search needs: the library, where it is loaded from, what
 * decides whether a file found is it, and the subdirectories ld.so
 * tries in each directory, best first ("" for the directory itself). */
struct search {
	struct object *lib, *exe;
	const char *soname, *debug_dir;
	char origin[4096];		/* $ORIGIN of the list being tried */
	const char *lib_dir, *platform;	/* $LIB and $PLATFORM */
	libfind_accept accept;
	void *arg;
	struct g2c_error *err;
	char subdirs[MAX_SUBDIRS][64];
	size_t nsubdirs;
};

/* Tries PATH.  Returns 1 when it is the library (opened in s->lib), 0
 * when not, -1 with s->err set. */
static int try_path(struct search *s, const char *path)
{
	struct g2c_error ignored;
	struct stat sb;
	int rc;

	if (access(path, R_OK) != 0 || stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
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

#if defined(__x86_64__)
/* Whether EXE runs on this machine's x86-64 ld.so. */
static bool x86_64_here(const struct object *exe)
{
	return bfd_get_arch(exe->abfd) == bfd_arch_i386 &&
	       exe->target.addr_size == 8;
}

/* The x86-64 micro-architecture level (0 to 4) of this CPU, by the
 * features of each level that both gcc and clang can test (clang 14
 * knows no "x86-64-vN" names); the few it cannot test (cx16, lahf,
 * f16c, lzcnt, movbe) come with these on every CPU that has them. */
static int x86_64_level(void)
{
	__builtin_cpu_init();
	if (!(__builtin_cpu_supports("sse3") && __builtin_cpu_supports("ssse3") &&
	      __builtin_cpu_supports("sse4.1") && __builtin_cpu_supports("sse4.2") &&
	      __builtin_cpu_supports("popcnt")))
		return 1;
	if (!(__builtin_cpu_supports("avx") && __builtin_cpu_supports("avx2") &&
	      __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
	      __builtin_cpu_supports("fma")))
		return 2;
	if (!(__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
	      __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512dq") &&
	      __builtin_cpu_supports("avx512vl")))
		return 3;
	return 4;
}
#endif

/* Whether this glibc's ld.so still searches the legacy hwcap
 * subdirectories (tls, the platform, hwcap names), which glibc 2.37
 * dropped. */
static bool glibc_has_legacy_hwcaps(void)
{
	unsigned major = 0, minor = 0;

	return sscanf(gnu_get_libc_version(), "%u.%u", &major, &minor) == 2 &&
	       (major < 2 || (major == 2 && minor < 37));
}

/* ld.so's platform for EXE, what $PLATFORM stands for, into *PLATFORM,
 * and the legacy hwcap names it searches (in bit order) into NAMES.
 * AT_PLATFORM and no names, but for x86-64: the name x86_64, and on
 * Intel CPUs, with glibc before 2.37 (LEGACY), what its cpu-features
 * make of them: the platform "xeon_phi" for AVX-512 ER and PF, else
 * "haswell" for AVX2, FMA and BMI (with them come the LZCNT and MOVBE it
 * also asks for), and the name avx512_1 for AVX-512 CD, BW, DQ and VL
 * without ER. */
static size_t ld_capabilities(const struct object *exe, bool legacy,
			      const char **platform, const char **names)
{
	const char *at_platform = (const char *)getauxval(AT_PLATFORM);
	size_t n = 0;

	*platform = at_platform ? at_platform : "";
#if defined(__x86_64__)
	if (!x86_64_here(exe))
		return 0;
	names[n++] = "x86_64";
	__builtin_cpu_init();
	if (!legacy || !__builtin_cpu_is("intel"))
		return n;
	if (__builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512er")) {
		if (__builtin_cpu_supports("avx512pf"))
			*platform = "xeon_phi";
	} else if (__builtin_cpu_supports("avx512cd") &&
		   __builtin_cpu_supports("avx512bw") &&
		   __builtin_cpu_supports("avx512dq") &&
		   __builtin_cpu_supports("avx512vl")) {
		names[n++] = "avx512_1";
	}
	if (strcmp(*platform, "xeon_phi") != 0 && __builtin_cpu_supports("avx2") &&
	    __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi") &&
	    __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt"))
		*platform = "haswell";
#else
	(void)exe;
	(void)legacy;
	(void)names;
#endif
	return n;
}

/* The subdirectories ld.so searches in each directory, best first, into
 * s->subdirs: on x86-64 the glibc-hwcaps levels this CPU supports; then,
 * with glibc before 2.37 (LEGACY; and without /etc/ld.so.nohwcap), every
 * combination of the hwcap NAMES[0..NNAMES), the platform and "tls",
 * from all of them down, each written from "tls" to the first name, as
 * ld.so orders them; last the directory itself. */
static void set_subdirs(struct search *s, bool legacy, const char **names,
			size_t nnames)
{
	const char *strings[4];
	size_t nstrings = 0;

	s->nsubdirs = 0;
#if defined(__x86_64__)
	if (x86_64_here(s->exe))
		for (int level = x86_64_level(); level >= 2; level--)
			snprintf(s->subdirs[s->nsubdirs++], sizeof *s->subdirs,
				 "glibc-hwcaps/x86-64-v%d/", level);
#endif
	if (legacy && access("/etc/ld.so.nohwcap", F_OK) != 0) {
		memcpy(strings, names, nnames * sizeof *names);
		nstrings = nnames;
		if (*s->platform)
			strings[nstrings++] = s->platform;
		strings[nstrings++] = "tls";
		for (size_t set = ((size_t)1 << nstrings) - 1; set > 0; set--) {
			char *dir = s->subdirs[s->nsubdirs++];
			size_t n = 0;

			dir[0] = '\0';
			for (size_t k = nstrings; k-- > 0;)
				if (set & ((size_t)1 << k))
					n += (size_t)snprintf(dir + n, sizeof *s->subdirs - n,
							      "%.20s/", strings[k]);
		}
	}
	s->subdirs[s->nsubdirs++][0] = '\0';
}

/* The value of the dynamic string token at DIR (without its '$'), and
 * its length with braces, in *LEN; NULL when there is none. */
static const char *token_value(const struct search *s, const char *dir,
			       size_t avail, size_t *len)
{
	static const char *const names[] = { "ORIGIN", "LIB", "PLATFORM" };
	const char *values[] = { s->origin, s->lib_dir, s->platform };

	for (size_t t = 0; t < sizeof names / sizeof *names; t++) {
		size_t n = strlen(names[t]);

		if (avail >= n + 2 && dir[0] == '{' &&
		    strncmp(dir + 1, names[t], n) == 0 && dir[n + 1] == '}') {
			*len = n + 2;
			return values[t];
		}
		/* unbraced, a name ends where a name's characters do */
		if (avail >= n && strncmp(dir, names[t], n) == 0 &&
		    (avail == n || !(dir[n] == '_' || isalnum((unsigned char)dir[n])))) {
			*len = n;
			return values[t];
		}
	}
	return NULL;
}

/* Tries DIR[0..LEN) (the current directory when empty, as for ld.so),
 * with $ORIGIN, $LIB and $PLATFORM expanded, after its subdirectories. */
static int try_dir(struct search *s, const char *dir, size_t len)
{
	char path[4096];
	size_t n = 0;
	int rc = 0;

	if (len == 0) {
		dir = ".";
		len = 1;
	}
	for (size_t i = 0; i < len && n < sizeof path; ) {
		const char *value;
		size_t tlen;

		if (dir[i] == '$' &&
		    (value = token_value(s, dir + i + 1, len - i - 1, &tlen))) {
			n += (size_t)snprintf(path + n, sizeof path - n, "%s", value);
			i += 1 + tlen;
		} else {
			path[n++] = dir[i++];
		}
	}
	if (n >= sizeof path - 1)
		return 0;
	for (size_t k = 0; k < s->nsubdirs && rc == 0; k++) {
		int w = snprintf(path + n, sizeof path - n, "%s%s%s",
				 n && path[n - 1] == '/' ? "" : "/", s->subdirs[k],
				 s->soname);

		if (w >= 0 && (size_t)w < sizeof path - n)
			rc = try_path(s, path);
	}
	return rc;
}

/* Tries every directory of LIST, separated by any of SEPARATORS, the
 * list of the object at OWNER (its directory is $ORIGIN); an empty
 * directory is the current one (an empty LIST, none). */
static int try_list(struct search *s, const char *list, const char *separators,
		    const char *owner)
{
	const char *slash = strrchr(owner, '/');
	int dirlen = slash ? (int)(slash - owner) : 1;

	if (!list || !*list || dirlen >= (int)sizeof s->origin)
		return 0;
	snprintf(s->origin, sizeof s->origin, "%.*s", dirlen, slash ? owner : ".");
	while (list) {
		size_t len = strcspn(list, separators);
		int rc = try_dir(s, list, len);

		if (rc)
			return rc;
		list = list[len] ? list + len + 1 : NULL;
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

/* $LIB as ld.so expands it for EXE: the multiarch directory where the
 * system has one (Debian: lib/x86_64-linux-gnu), else lib64 or lib. */
static const char *lib_dir(const struct object *exe)
{
	static const struct { int arch; unsigned addr_size; const char *dir; } multiarch[] = {
		{ bfd_arch_i386, 8, "lib/x86_64-linux-gnu" },
		{ bfd_arch_i386, 4, "lib/i386-linux-gnu" },
		{ bfd_arch_aarch64, 8, "lib/aarch64-linux-gnu" },
	};
	struct stat sb;
	char path[64];

	for (size_t i = 0; i < sizeof multiarch / sizeof *multiarch; i++) {
		if ((int)bfd_get_arch(exe->abfd) != multiarch[i].arch ||
		    exe->target.addr_size != multiarch[i].addr_size)
			continue;
		snprintf(path, sizeof path, "/%s", multiarch[i].dir);
		if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
			return multiarch[i].dir;
	}
	return exe->target.addr_size == 8 ? "lib64" : "lib";
}

int libfind_open(struct object *lib, struct object *exe,
		 const struct libfind_loader *loader, const char *soname,
		 const char *debug_dir, libfind_accept accept, void *arg,
		 struct g2c_error *err)
{
	struct search s = { lib, exe, soname, debug_dir, "", lib_dir(exe),
			    "", accept, arg, err, { "" }, 0 };
	bool legacy = glibc_has_legacy_hwcaps();
	const struct libfind_loader *program = loader;
	const char *names[2];
	size_t nnames = ld_capabilities(exe, legacy, &s.platform, names);
	int rc = 0;

	while (program->parent)
		program = program->parent;
	set_subdirs(&s, legacy, names, nnames);
	if (strchr(soname, '/'))
		return try_path(&s, soname);
	/* (the needing object's DT_RUNPATH turns off the DT_RPATHs of the
	 * whole chain) */
	for (const struct libfind_loader *l = loader; !loader->runpath && l && rc == 0;
	     l = l->parent)
		rc = try_list(&s, l->rpath, ":", l->path);
	if (rc == 0)
		rc = try_list(&s, getenv("LD_LIBRARY_PATH"), ":;", program->path);
	if (rc == 0)
		rc = try_list(&s, loader->runpath, ":", loader->path);
	if (rc == 0)
		rc = try_cache(&s, "/etc/ld.so.cache");
	if (rc == 0)
		rc = try_defaults(&s);
	return rc;
}
