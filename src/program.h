/* program.h -- the objects of the profiled program, and which profile
 * files belong to which.
 *
 * The executable is object 0 and takes the gmon.out files (none when it
 * is stripped and names no function: it is then only where an LD_PROFILE
 * library's callers are).  Each
 * LD_PROFILE file (glibc's profile of one shared library) goes to the
 * library whose code it fits (its code range and callees): the executable
 * itself when that is a library, a library named with --library, or one
 * the dynamic loader would load for the executable (libfind.h): the one
 * the file's name (SONAME.profile, a hint only) names, or one it needs
 * (DT_NEEDED), directly or through another library.  Owns every
 * object and what is derived from it: symbols, code, source lines; reads
 * the objects' profiles (the executable's may be read on a thread while
 * its symbols are: they need only its address size and byte order).
 */
#ifndef GMON2CG_PROGRAM_H
#define GMON2CG_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>

#include "gmon_store.h"
#include "machine_code.h"
#include "object.h"
#include "object_lines.h"
#include "symtab.h"

struct g2c_error;

/* One object, what is derived from it, and its profile files. */
struct program_object {
	struct object obj;
	struct symtab st;
	struct machine_code code;
	struct object_lines lines;
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
	bool force;		/* a --library the profile does not fit is
				   taken all the same (--force) */
	bool read_ahead;	/* read the executable's profiles while its
				   symbols are read */
};

struct program {
	struct program_object **objs;	/* the executable first; each
					   allocated apart, as stages keep
					   pointers into it */
	size_t nobjs;
	struct profile_ahead *ahead;	/* private */
	char *default_file;		/* private: the profile read when
					   none is named */
};

/* Opens the executable EXE and sends each of FILES[0..N) to its object,
 * opening the libraries that LD_PROFILE files name.  With no FILES (N
 * 0) the profile is gmon.out, or FreeBSD's name for it, PROG.gmon (PROG
 * being EXE's base name), when only that is in the working directory.
 * Returns 0, or -1 with ERR set. */
int program_open(struct program *prog, const char *exe, char **files,
		 size_t n, const struct program_options *opts,
		 struct g2c_error *err);

/* Where PROF, object PO's profile, is a sum gprof -s wrote (its calls at
 * the callees' entries, where mcount never returns), folds the functions
 * gprof does not list into the function before each, as its call graph
 * does (symtab_fold_as_gprof): sets *FOLDED to how many, *EXAMPLE to
 * one.  Returns 0, or -1 with ERR set. */
int program_fold_summed(struct program_object *po,
			const struct gmon_profile *prof, size_t *folded,
			const char **example, struct g2c_error *err);

/* Reads FILES[0..N), object I's profile files (all or some of them),
 * summed, into PROF.  Returns 0, or -1 with ERR set; PROF is then fit only
 * for gmon_profile_release(). */
int program_read_profiles(struct program *prog, size_t i, const char **files,
			  size_t n, struct gmon_profile *prof,
			  struct g2c_error *err);

void program_close(struct program *prog);

#endif
