/* program.c -- the objects of the profiled program, and which profile
 * files belong to which. */
#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "gmon.h"
#include "libfind.h"
#include "program.h"
#include "util.h"

/* The executable's gmon.out files, read on a thread while its symbols are
 * read (the larger part of opening it): those that are not LD_PROFILE
 * files, in order, as program_open sends them. */
struct profile_ahead {
	pthread_t thread;
	char **files;		/* the candidates */
	size_t nfiles;
	struct gmon_target target;	/* a copy: the object may be closed */
	const char **read;	/* the files read */
	size_t nread;
	struct gmon_profile prof;
	struct g2c_error err;
	int rc;			/* -1: ERR says why the last file read failed */
	bool gave_up;		/* at a file it could not classify, or at a
				   pipe (read when asked for: if the
				   executable fails, not at all) */
};

/* Sets *LD_PROFILE to whether FILE is an LD_PROFILE file, *ONCE to
 * whether it can be read only once (a pipe): such a file is a profile of
 * the executable, read once there. */
static int classify_file(const char *file, bool *ld_profile, bool *once,
			 struct g2c_error *err)
{
	struct stat sb;

	*ld_profile = false;
	*once = stat(file, &sb) == 0 && !S_ISREG(sb.st_mode);
	if (*once)
		return 0;
	return gmon_file_is_ld_profile(file, ld_profile, err);
}

static void *read_profiles_ahead(void *arg)
{
	struct profile_ahead *a = arg;
	bool ld_profile, once;

	for (size_t i = 0; i < a->nfiles && a->rc == 0; i++) {
		if (classify_file(a->files[i], &ld_profile, &once, &a->err) < 0 ||
		    once) {
			a->gave_up = true;
			break;
		}
		if (ld_profile)
			continue;
		a->read[a->nread++] = a->files[i];
		a->rc = gmon_profile_add_file(&a->prof, &a->target, a->files[i],
					      &a->err);
	}
	return NULL;
}

/* Starts reading the executable's profiles among FILES[0..N); nothing
 * when a thread cannot be had (they are read when asked for). */
static void start_reading_ahead(struct program *prog, char **files, size_t n)
{
	struct profile_ahead *a = calloc(1, sizeof *a);

	if (!a || !(a->read = malloc(n * sizeof *a->read))) {
		free(a);
		return;
	}
	a->files = files;
	a->nfiles = n;
	a->target = prog->objs[0]->obj.target;
	gmon_profile_init(&a->prof);
	if (pthread_create(&a->thread, NULL, read_profiles_ahead, a) != 0) {
		free(a->read);
		free(a);
		return;
	}
	prog->ahead = a;
}

/* Waits for the reading ahead and forgets it. */
static struct profile_ahead *stop_reading_ahead(struct program *prog)
{
	struct profile_ahead *a = prog->ahead;

	if (a)
		pthread_join(a->thread, NULL);
	prog->ahead = NULL;
	return a;
}

static void profile_ahead_release(struct profile_ahead *a)
{
	if (!a)
		return;
	gmon_profile_release(&a->prof);
	free(a->read);
	free(a);
}

/* Whether the reading ahead read FILES[0..N), or failed on one of them
 * as reading them in order would. */
static bool read_ahead_these(const struct profile_ahead *a, const char **files,
			     size_t n)
{
	if (a->gave_up || (a->rc == 0 ? a->nread != n : a->nread > n))
		return false;
	/* (with nothing read, a->read may be NULL: no memcmp on it) */
	return a->nread == 0 ||
	       memcmp(a->read, files, a->nread * sizeof *files) == 0;
}

int program_read_profiles(struct program *prog, size_t i, const char **files,
			  size_t n, struct gmon_profile *prof,
			  struct g2c_error *err)
{
	struct profile_ahead *a = i == 0 ? stop_reading_ahead(prog) : NULL;

	if (a && read_ahead_these(a, files, n)) {
		int rc = a->rc;

		*prof = a->prof;
		gmon_profile_init(&a->prof);
		if (rc < 0)
			*err = a->err;
		profile_ahead_release(a);
		return rc;
	}
	profile_ahead_release(a);
	gmon_profile_init(prof);
	for (size_t k = 0; k < n; k++)
		if (gmon_profile_add_file(prof, &prog->objs[i]->obj.target,
					  files[k], err) < 0)
			return -1;
	return 0;
}

/* Derives symbols and lines of an opened object; reads its soname. */
static int prepare_object(struct program_object *po,
			  const struct program_options *opts,
			  struct g2c_error *err)
{
	struct object_dynamic dyn;

	if (symtab_build(&po->st, &po->obj, &opts->symbols, err) < 0)
		return -1;
	object_lines_init(&po->lines, &po->obj);
	if (object_read_dynamic(&po->obj, &dyn, err) < 0)
		return -1;
	po->soname = dyn.soname;
	dyn.soname = NULL;
	object_dynamic_release(&dyn);
	return 0;
}

/* Frees what prepare_object derived. */
static void release_derived(struct program_object *po)
{
	object_lines_close(&po->lines);
	symtab_release(&po->st);
	free(po->soname);
	po->soname = NULL;
}

static void close_object(struct program_object *po)
{
	release_derived(po);
	object_close(&po->obj);
	free(po->files);
}

/* Whether object PO is the library that ld.so calls SONAME. */
static bool is_library(const struct program_object *po, const char *soname)
{
	return (po->soname && strcmp(po->soname, soname) == 0) ||
	       strcmp(base_name(po->obj.path), soname) == 0;
}

/* The soname an LD_PROFILE file was probably written for: ld.so names the
 * file SONAME.profile (a hint only: files are renamed to keep runs
 * apart). */
static char *profile_soname(const char *file)
{
	const char *base = base_name(file);
	size_t len = strlen(base);

	if (len > 11 && strcmp(base + len - 11, ".profile.gz") == 0)
		len -= 11;
	else if (len > 8 && strcmp(base + len - 8, ".profile") == 0)
		len -= 8;
	return strndup(base, len);
}

/* The largest page ld.so rounds the profiled range to (64 KiB pages). */
#define MAX_PAGE_SIZE 65536

/* Whether the code range of the LD_PROFILE profile PROF fits OBJ: ld.so's
 * low and high pc are the page-rounded bounds of the library's executable
 * segment, so they hold its code and span little more than the object. */
static bool range_fits(const struct object *obj, const struct gmon_profile *prof)
{
	uint64_t lo, hi;

	return prof->nhists == 1 && object_code_extent(obj, &lo, &hi) &&
	       prof->hists[0].low_pc <= lo && hi <= prof->hists[0].high_pc &&
	       prof->hists[0].high_pc - prof->hists[0].low_pc <=
		       obj->target.code_span + MAX_PAGE_SIZE;
}

/* Whether PROF fits PO: its range, and its callees, which ld.so records
 * by the entry of the function called: most must be function entries. */
static bool profile_fits(const struct program_object *po,
			 const struct gmon_profile *prof)
{
	size_t entries = 0;

	if (!range_fits(&po->obj, prof))
		return false;
	for (size_t i = 0; i < prof->narcs; i++) {
		size_t f = symtab_lookup(&po->st, prof->arcs[i].self_pc);

		entries += f != SYMTAB_NONE && po->st.funcs[f].addr == prof->arcs[i].self_pc;
	}
	return entries * 2 >= prof->narcs;
}

/* An object whose DT_NEEDED libraries are looked for: where ld.so looks
 * for them (chain), and the strings it points to. */
struct loader_node {
	struct libfind_loader chain;
	char *path;
	struct object_dynamic dyn;
};

/* The libraries to look at, in the order ld.so loads them (breadth
 * first), each with the object that needs it; and those objects. */
struct soname_queue {
	struct queued {
		char *name;
		const struct libfind_loader *loader;
		bool hint;	/* not from a DT_NEEDED: the profile's name */
	} *entries;
	size_t n;
	struct loader_node **loaders;
	size_t nloaders;
};

/* Adds NAME, needed by LOADER (or, as a HINT, the profile file's name
 * for LOADER), to Q: once, as ld.so loads it once, but a hint is looked
 * for again where a library needs it. */
static int queue_add(struct soname_queue *q, const char *name,
		     const struct libfind_loader *loader, bool hint,
		     struct g2c_error *err)
{
	struct queued *entries;

	for (size_t i = 0; i < q->n; i++)
		if (strcmp(q->entries[i].name, name) == 0 &&
		    (!q->entries[i].hint || q->entries[i].loader == loader))
			return 0;
	entries = realloc(q->entries, (q->n + 1) * sizeof *entries);
	if (!entries || !(entries[q->n].name = strdup(name))) {
		if (entries)
			q->entries = entries;
		return g2c_error_set(err, "out of memory");
	}
	entries[q->n].loader = loader;
	entries[q->n].hint = hint;
	q->entries = entries;
	q->n++;
	return 0;
}

/* Adds OBJ, loaded by PARENT (NULL: OBJ is the program), to Q's objects
 * that need libraries.  Returns it, or NULL with ERR set. */
static struct loader_node *add_loader(struct soname_queue *q, struct object *obj,
				      const struct libfind_loader *parent,
				      struct g2c_error *err)
{
	struct loader_node **loaders, *node = calloc(1, sizeof *node);

	loaders = node ? realloc(q->loaders, (q->nloaders + 1) * sizeof *loaders) : NULL;
	if (!loaders || !(node->path = strdup(obj->path))) {
		free(node);
		if (loaders)
			q->loaders = loaders;
		g2c_error_set(err, "out of memory");
		return NULL;
	}
	q->loaders = loaders;
	loaders[q->nloaders++] = node;
	if (object_read_dynamic(obj, &node->dyn, err) < 0)
		return NULL;
	node->chain = (struct libfind_loader){
		node->path, node->dyn.runpath ? NULL : node->dyn.rpath,
		node->dyn.runpath, parent };
	return node;
}

/* Adds the DT_NEEDED libraries of NODE to Q, each to be looked for as
 * NODE's object loads it. */
static int queue_needed(struct soname_queue *q, const struct loader_node *node,
			struct g2c_error *err)
{
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < node->dyn.nneeded; i++)
		rc = queue_add(q, node->dyn.needed[i], &node->chain, false, err);
	return rc;
}

static void queue_release(struct soname_queue *q)
{
	for (size_t i = 0; i < q->n; i++)
		free(q->entries[i].name);
	free(q->entries);
	for (size_t i = 0; i < q->nloaders; i++) {
		free(q->loaders[i]->path);
		object_dynamic_release(&q->loaders[i]->dyn);
		free(q->loaders[i]);
	}
	free(q->loaders);
}

/* A library being looked for: the object it is opened in, the profile
 * it must fit, the libraries still to look at, and the object that
 * needs the one being looked for. */
struct wanted {
	struct program_object *po;
	const struct gmon_profile *prof;
	const struct program_options *opts;
	struct soname_queue queue;
	const struct libfind_loader *loader;
};

/* libfind's test of a library found: the profile fits it (prepared).
 * The libraries it needs are looked at later. */
static int accept_library(struct object *lib, void *arg, struct g2c_error *err)
{
	struct wanted *w = arg;
	struct g2c_error no_symbols = { "" };
	struct loader_node *node = add_loader(&w->queue, lib, w->loader, err);

	if (!node || queue_needed(&w->queue, node, err) < 0)
		return -1;
	if (!range_fits(lib, w->prof))
		return 0;
	if (prepare_object(w->po, w->opts, &no_symbols) == 0 &&
	    profile_fits(w->po, w->prof))
		return 1;
	release_derived(w->po);
	if (strstr(no_symbols.msg, "out of memory"))
		return g2c_error_set(err, "%s", no_symbols.msg);
	return 0;
}

/* Opens PATH, a --library, as *W's object; with FIT, only if the profile
 * fits it.  Returns 1, 0 (closed), or -1 with ERR set. */
static int open_named_library(struct wanted *w, const char *path, bool fit,
			      struct g2c_error *err)
{
	int rc;

	if (object_open(&w->po->obj, path, w->opts->debug_dir, err) < 0)
		return -1;
	rc = fit ? accept_library(&w->po->obj, w, err)
		 : prepare_object(w->po, w->opts, err) < 0 ? -1 : 1;
	if (rc != 1) {
		release_derived(w->po);
		object_close(&w->po->obj);
	}
	return rc;
}

/* Opens as *PO the library the LD_PROFILE profile PROF (read from FILE)
 * is of, the one its code fits: among the --library paths, then as the
 * dynamic loader finds them, the library SONAME (the file's name) for the
 * executable and the libraries the executable needs, directly or through
 * the others, each for the object that needs it; failing that, with
 * --force, a --library (the one called SONAME first), else a refusal
 * that names it.  Returns 1, 0 when there is none, or -1 with ERR set. */
static int open_library(struct program *prog, struct program_object *po,
			const char *file, const char *soname,
			const struct gmon_profile *prof,
			const struct program_options *opts,
			struct g2c_error *err)
{
	struct object *exe = &prog->objs[0]->obj;
	struct wanted w = { po, prof, opts, { NULL, 0, NULL, 0 }, NULL };
	struct loader_node *program = add_loader(&w.queue, exe, NULL, err);
	int found = program ? 0 : -1;

	memset(po, 0, sizeof *po);
	for (size_t i = 0; i < opts->nlibraries && !found; i++) {
		w.loader = &program->chain;
		found = open_named_library(&w, opts->libraries[i], true, err);
	}
	if (!found && (queue_add(&w.queue, soname, &program->chain, true, err) < 0 ||
		       queue_needed(&w.queue, program, err) < 0))
		found = -1;
	for (size_t i = 0; i < w.queue.n && !found; i++) {
		w.loader = w.queue.entries[i].loader;
		found = libfind_open(&po->obj, exe, w.loader, w.queue.entries[i].name,
				     opts->debug_dir, accept_library, &w, err);
	}
	if (found == 0 && opts->nlibraries > 0 && !opts->force) {
		const char *named = opts->libraries[0];

		for (size_t i = 0; i < opts->nlibraries; i++)
			if (strcmp(base_name(opts->libraries[i]), soname) == 0) {
				named = opts->libraries[i];
				break;
			}
		found = g2c_error_set(err, "%s: does not belong to %s%s: the code it profiled is not that library's (--force converts anyway)",
				      file, named, opts->nlibraries > 1 ?
				      " nor to the other --library paths" : "");
	}
	for (int pass = 0; pass < 2 && found == 0; pass++)
		for (size_t i = 0; i < opts->nlibraries && !found; i++)
			if (pass == 1 || strcmp(base_name(opts->libraries[i]), soname) == 0)
				found = open_named_library(&w, opts->libraries[i],
							   false, err);
	queue_release(&w.queue);
	return found;
}

/* Adds FILE to the files of PO. */
static int add_file(struct program_object *po, const char *file, bool ld_profile,
		    struct g2c_error *err)
{
	const char **files = realloc(po->files, (po->nfiles + 1) * sizeof *files);

	if (!files)
		return g2c_error_set(err, "out of memory");
	po->files = files;
	files[po->nfiles++] = file;
	if (po->nfiles > 1 && po->ld_profile != ld_profile)
		return g2c_error_set(err, "%s: an LD_PROFILE profile cannot be summed with a gmon.out of the same object (%s)",
				     file, po->files[0]);
	po->ld_profile = ld_profile;
	return 0;
}

/* The object already open that the LD_PROFILE profile PROF is of: a
 * library opened for another file, or the executable when it is a
 * library, that PROF fits; failing that, the one called SONAME.  Returns
 * its index, or prog->nobjs. */
static size_t find_open_library(const struct program *prog,
				const struct gmon_profile *prof,
				const char *soname)
{
	size_t o;

	for (o = 0; o < prog->nobjs; o++) {
		const struct program_object *po = prog->objs[o];

		if (o == 0 && !po->soname && !is_library(po, soname))
			continue;	/* a program, not a library */
		if (profile_fits(po, prof))
			return o;
	}
	for (o = 0; o < prog->nobjs && !is_library(prog->objs[o], soname); o++)
		;
	return o;
}

/* Sends the LD_PROFILE file FILE to its object, opening it if needed:
 * FILE is read (as the executable's machine writes it) to tell which. */
static int add_ld_profile(struct program *prog, const char *file,
			  const struct program_options *opts,
			  struct g2c_error *err)
{
	char *soname = profile_soname(file);
	struct gmon_profile prof;
	struct program_object **objs, *lib = NULL;
	size_t o;
	int found = -1;

	gmon_profile_init(&prof);
	if (!soname) {
		g2c_error_set(err, "out of memory");
		goto out;
	}
	if (gmon_profile_add_file(&prof, &prog->objs[0]->obj.target, file, err) < 0)
		goto out;
	o = find_open_library(prog, &prof, soname);
	if (o == prog->nobjs) {
		objs = realloc(prog->objs, (prog->nobjs + 1) * sizeof *objs);
		lib = calloc(1, sizeof *lib);
		if (objs)
			prog->objs = objs;
		if (!objs || !lib) {
			g2c_error_set(err, "out of memory");
			goto out;
		}
		found = open_library(prog, lib, file, soname, &prof, opts, err);
		if (found == 0)
			g2c_error_set(err, "%s: a profile of a library that %s does not load from where the dynamic loader looks (neither %s nor another library it needs has the profile's code; name it with --library=PATH)",
				      file, prog->objs[0]->obj.path, soname);
		if (found != 1) {
			found = -1;
			goto out;
		}
		prog->objs[prog->nobjs++] = lib;
		lib = NULL;
	}
	found = add_file(prog->objs[o], file, true, err);
out:
	free(lib);
	free(soname);
	gmon_profile_release(&prof);
	return found < 0 ? -1 : 0;
}

/* The profile to read when none is named: gmon.out, as gprof reads it,
 * or FreeBSD's PROG.gmon when only that exists (its libc names the file
 * after the program, in the working directory).  Sets *FILE, to be freed.
 * Returns 0, or -1 with ERR set when neither exists. */
static int default_profile(const char *exe, char **file,
			   struct g2c_error *err)
{
	static const char gnu[] = "gmon.out";
	const char *slash = strrchr(exe, '/');
	char *freebsd;

	if (access(gnu, F_OK) == 0 || errno != ENOENT) {
		*file = strdup(gnu);
		return *file ? 0 : g2c_error_set(err, "out of memory");
	}
	if (asprintf(&freebsd, "%s.gmon", slash ? slash + 1 : exe) < 0)
		return g2c_error_set(err, "out of memory");
	if (access(freebsd, F_OK) == 0 || errno != ENOENT) {
		*file = freebsd;
		return 0;
	}
	g2c_error_set(err, "%s: No such file or directory (nor %s, FreeBSD's name for it)",
		      gnu, freebsd);
	free(freebsd);
	return -1;
}

int program_open(struct program *prog, const char *exe, char **files,
		 size_t n, const struct program_options *opts,
		 struct g2c_error *err)
{
	struct g2c_error no_functions;
	bool has_functions;

	memset(prog, 0, sizeof *prog);
	prog->objs = calloc(1, sizeof *prog->objs);
	if (!prog->objs || !(prog->objs[0] = calloc(1, sizeof **prog->objs))) {
		program_close(prog);
		return g2c_error_set(err, "out of memory");
	}
	prog->nobjs = 1;
	if (object_open_file(&prog->objs[0]->obj, exe, opts->debug_dir, err) < 0) {
		/* (gmon2cg gmon.out prog: the operands swapped) */
		if (gmon_file_has_cookie(exe))
			g2c_error_set(err, "%s: a profile, not an executable: the"
				      " executable comes first (gmon2cg EXECUTABLE"
				      " [GMON_FILE]...)", exe);
		goto fail;
	}
	if (n == 0) {
		if (default_profile(exe, &prog->default_file, err) < 0)
			goto fail;
		files = &prog->default_file;
		n = 1;
	}
	if (opts->read_ahead && n > 0)
		start_reading_ahead(prog, files, n);
	if (object_read_symbols(&prog->objs[0]->obj, exe, err) < 0 ||
	    prepare_object(prog->objs[0], opts, err) < 0)
		goto fail;
	/* A stripped program may name no function: it is then only where
	 * an LD_PROFILE library's callers are, no use for its own gmon.out
	 * (whose refusal, the executable's error, comes first). */
	has_functions = object_require_functions(&prog->objs[0]->obj, exe,
						 &no_functions) == 0;
	for (size_t i = 0; i < n; i++) {
		bool ld_profile, once;
		int rc = classify_file(files[i], &ld_profile, &once, err);

		if (!has_functions && (rc < 0 || !ld_profile)) {
			*err = no_functions;
			goto fail;
		}
		if (rc < 0)
			goto fail;
		if (ld_profile ? add_ld_profile(prog, files[i], opts, err) < 0
			       : add_file(prog->objs[0], files[i], false, err) < 0)
			goto fail;
	}
	return 0;
fail:
	program_close(prog);
	return -1;
}

int program_fold_summed(struct program_object *po,
			const struct gmon_profile *prof, size_t *folded,
			const char **example, struct g2c_error *err)
{
	const struct symtab *st = &po->st;
	bool *entered, summed = false;

	*folded = 0;
	if (po->ld_profile || prof->narcs == 0)
		return 0;
	if (!(entered = calloc(st->nfuncs, sizeof *entered)))
		return g2c_error_set(err, "%s: out of memory for the functions called",
				     po->obj.path);
	for (size_t i = 0; i < prof->narcs; i++) {
		size_t f = symtab_lookup(st, prof->arcs[i].self_pc);

		if (f != SYMTAB_NONE && prof->arcs[i].count &&
		    st->funcs[f].addr == prof->arcs[i].self_pc)
			summed = entered[f] = true;
	}
	if (summed)
		*folded = symtab_fold_as_gprof(&po->st, entered, example);
	free(entered);
	return 0;
}

void program_close(struct program *prog)
{
	profile_ahead_release(stop_reading_ahead(prog));
	for (size_t o = 0; o < prog->nobjs; o++) {
		if (prog->objs[o])
			close_object(prog->objs[o]);
		free(prog->objs[o]);
	}
	free(prog->objs);
	free(prog->default_file);
	memset(prog, 0, sizeof *prog);
}
