/* libfind.h -- the shared library the dynamic loader would load.
 *
 * An LD_PROFILE profile names its library only by the soname it was
 * given (LD_PROFILE=libz.so.1 writes libz.so.1.profile).  This module
 * finds that library as ld.so does for the object that needs it: when
 * that object has no DT_RUNPATH, its DT_RPATH and those of the objects
 * that loaded it, up to the program's; LD_LIBRARY_PATH; its DT_RUNPATH;
 * /etc/ld.so.cache, then the default directories; $ORIGIN, $LIB and
 * $PLATFORM expanded, an empty entry the current directory, and in each
 * directory its glibc-hwcaps subdirectories for the levels this CPU
 * supports first, then (glibc before 2.37) the legacy tls, platform and
 * hwcap subdirectories.  A file counts only when it is an object of the
 * program's machine and the caller accepts it (its code fits the
 * profile); the search goes on past one that does not.
 */
#ifndef GMON2CG_LIBFIND_H
#define GMON2CG_LIBFIND_H

#include "object.h"

struct g2c_error;

/* An object that needs libraries: its file (whose directory is $ORIGIN
 * in its paths), its DT_RPATH (NULL when it has none, or a DT_RUNPATH,
 * which makes ld.so ignore it) and DT_RUNPATH, and the object that
 * loaded it (NULL: this is the program). */
struct libfind_loader {
	const char *path;
	const char *rpath, *runpath;
	const struct libfind_loader *parent;
};

/* Whether LIB, opened, is the library wanted: 1 yes, 0 no, -1 with ERR
 * set. */
typedef int (*libfind_accept)(struct object *lib, void *arg,
			      struct g2c_error *err);

/* Opens into LIB the library SONAME as LOADER, an object of the program
 * EXE, would load it, looking for separate debug files below DEBUG_DIR
 * (NULL: the default), the first that ACCEPT(LIB, ARG) accepts.  Returns
 * 1, 0 when no such library is found, or -1 with ERR set. */
int libfind_open(struct object *lib, struct object *exe,
		 const struct libfind_loader *loader, const char *soname,
		 const char *debug_dir, libfind_accept accept, void *arg,
		 struct g2c_error *err);

#endif
