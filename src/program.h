/* program.h -- the objects of the profiled program, and which profile
 * files belong to which.
 *
 * The executable is object 0 and takes the gmon.out files.  Each
 * LD_PROFILE file (glibc's profile of one shared library, named after the
 * soname it was given) goes to its library: the executable itself when
 * that is the library, a library named with --library, or the one the
 * dynamic loader would load for the executable (libfind.h).  Owns every
 * object and what is derived from it: symbols, code, source lines.
 */
#ifndef GMON2CG_PROGRAM_H
#define GMON2CG_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>

#include "code.h"
#include "object.h"
#include "srcline.h"
#include "symtab.h"

struct g2c_error;

/* One object, what is derived from it, and its profile files. */
struct program_object {
	struct object obj;
	struct symtab st;
	struct code code;
	struct source_lines lines;
	char *soname;		/* DT_SONAME, or NULL */
	const char **files;	/* its profile files, in command-line order */
	size_t nfiles;
	bool ld_profile;	/* its files are LD_PROFILE files */
};

struct program_options {
	const char *debug_dir;
	struct symtab_options symbols;
	const char *const *libraries;	/* --library: where libraries are */
	size_t nlibraries;
};

struct program {
	struct program_object **objs;	/* the executable first; each
					   allocated apart, as stages keep
					   pointers into it */
	size_t nobjs;
};

/* Opens the executable EXE and sends each of FILES[0..N) to its object,
 * opening the libraries that LD_PROFILE files name.  Returns 0, or -1
 * with ERR set. */
int program_open(struct program *prog, const char *exe, char **files,
		 size_t n, const struct program_options *opts,
		 struct g2c_error *err);

void program_close(struct program *prog);

#endif
