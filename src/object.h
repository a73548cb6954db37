/* object.h -- one object file of the profiled program, opened with libbfd.
 *
 * Owns the open BFDs (the object itself and, for a stripped object, the
 * separate debug file that holds its symbols and lines), the raw symbol
 * arrays read from them, and the contents of code sections read so far.
 * Everything else about an object is derived from this by its own stage:
 * functions (symtab), instructions (disasm, code), source lines (object_lines).
 * An executable and the shared libraries it loaded are objects alike.
 */
#ifndef GMON2CG_OBJECT_H
#define GMON2CG_OBJECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gmon.h"

struct g2c_error;
struct bfd;
struct bfd_section;
struct bfd_symbol;

/* The contents of one section: a view of the mapped file, or a copy. */
struct section_bytes {
	const unsigned char *data;	/* NULL: absent, or no contents */
	size_t size;
	unsigned char *copy;		/* what section_bytes_release frees */
};

/* The bytes of one code section, as loaded at VMA. */
struct code_bytes {
	const unsigned char *data;
	uint64_t vma;
	uint64_t size;
};

struct object {
	char *path;			/* absolute, for ob= lines */
	char *debug_path;		/* the separate debug file used, or NULL */
	struct gmon_target target;	/* address width and byte order */
	struct bfd *abfd;		/* the object: code and target */
	struct bfd *dbfd;		/* symbols and lines: abfd or the debug file */
	struct bfd_symbol **syms;	/* static symbols, from dbfd */
	size_t nsyms;
	struct bfd_symbol *synth;	/* synthetic symbols (name@plt) of abfd */
	size_t nsynth;
	char symbol_leading_char;	/* '_' on some targets, else 0 */
	bool dynamic_symbols_only;	/* stripped: only exported functions,
					   if any */

	/* private */
	struct file_view {		/* the file of abfd [0] and dbfd [1] */
		const unsigned char *base;
		size_t size;
		bool tried;
	} views[2];
	struct bfd_symbol **dynsyms;
	struct loaded_section *loaded;	/* code section contents read */
	size_t nloaded;
	struct bfd_section *last_code;	/* cache for object_code_at */
	size_t last_loaded;		/* loaded[] index of last_code, where
					   it is below nloaded */
};

/* Opens PATH and reads its symbols (from its separate debug file when it
 * has no debug information of its own and one is found below DEBUG_DIR,
 * NULL for the default), which must name functions
 * (object_require_functions).  Returns 0, or -1 with ERR set. */
int object_open(struct object *obj, const char *path, const char *debug_dir,
		struct g2c_error *err);

/* object_open in two steps, so that what needs only the object's target
 * can go on while its symbols are read: the first opens PATH and its
 * debug file and sets obj->target, the second reads the symbols.  After
 * an error OBJ is closed. */
int object_open_file(struct object *obj, const char *path,
		     const char *debug_dir, struct g2c_error *err);
int object_read_symbols(struct object *obj, const char *path,
			struct g2c_error *err);

/* Whether OBJ, opened from PATH, has symbols that name functions: 0, or
 * -1 with ERR set.  A stripped object without a debug file has only its
 * dynamic symbols: a library's exported functions, a program's often no
 * function at all.  Such a program is still where an LD_PROFILE
 * library's callers are, its code "<unknown code in .text>" (symtab). */
int object_require_functions(const struct object *obj, const char *path,
			     struct g2c_error *err);

void object_close(struct object *obj);

/* The address just past section SEC. */
uint64_t section_end(const struct bfd_section *sec);

/* Sets *LO and *HI to the lowest and the end of the highest address of
 * OBJ's code sections; false when it has none. */
bool object_code_extent(const struct object *obj, uint64_t *lo, uint64_t *hi);

/* The code section of ABFD (the object or its debug file) holding PC,
 * or NULL; *CACHE, the last one found, is tried first. */
struct bfd_section *object_find_code_section(struct bfd *abfd,
					     struct bfd_section **cache,
					     uint64_t pc);

/* Sets *OUT to the contents of the code section holding PC, read once.
 * Returns 1, 0 when no code section holds PC or it has no contents, or -1
 * with ERR set when memory runs out. */
int object_code_at(struct object *obj, uint64_t pc, struct code_bytes *out,
		   struct g2c_error *err);

/* Sets *OUT to the contents of SEC of ABFD (OBJ's object or its debug
 * file).  Where the file holds them as they are (not compressed), they
 * are a view of the file, mapped once, so that only the pages used are
 * read; otherwise libbfd's copy (decompressed).  Returns 0, or -1 with
 * ERR set when memory runs out; a section libbfd cannot read is left
 * empty. */
int object_section_bytes(struct object *obj, struct bfd *abfd,
			 struct bfd_section *sec, struct section_bytes *out,
			 struct g2c_error *err);

void section_bytes_release(struct section_bytes *sb);

/* What the dynamic section says about loading: each NULL when absent. */
struct object_dynamic {
	char *soname;		/* DT_SONAME */
	char *rpath;		/* DT_RPATH */
	char *runpath;		/* DT_RUNPATH */
	char **needed;		/* DT_NEEDED, in order */
	size_t nneeded;
};

/* Reads OBJ's dynamic section into *DYN (strings to free with
 * object_dynamic_release).  Returns 0, or -1 with ERR set. */
int object_read_dynamic(struct object *obj, struct object_dynamic *dyn,
			struct g2c_error *err);
void object_dynamic_release(struct object_dynamic *dyn);

/* Whether A and B are code of one architecture, address size and byte
 * order (so that one process can load both). */
bool object_same_machine(const struct object *a, const struct object *b);

/* Frees the section contents read so far; they are read again if asked. */
void object_forget_code(struct object *obj);

#endif
