/* object.c -- one object file of the profiled program, opened with libbfd. */
#include <config.h>

#include <bfd.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arch_calls.h"
#include "diag.h"
#include "object.h"
#include "util.h"

struct loaded_section {
	asection *sec;
	struct section_bytes bytes;
};

static int bfd_failure(struct g2c_error *err, const char *path)
{
	if (bfd_get_error() == bfd_error_no_memory)
		return g2c_error_set(err, "%s: out of memory", path);
	return g2c_error_set(err, "%s: %s", path, bfd_errmsg(bfd_get_error()));
}

static int check_file(const char *path, struct g2c_error *err)
{
	struct stat sb;

	if (stat(path, &sb) < 0)
		return g2c_error_set(err, "%s: %s", path, strerror(errno));
	if (S_ISDIR(sb.st_mode))
		return g2c_error_set(err, "%s: is a directory, not an executable",
				     path);
	if (!S_ISREG(sb.st_mode))
		return g2c_error_set(err, "%s: not a regular file", path);
	return 0;
}

/* Whether ABFD is an object file; libbfd 2.40 prints the warnings of
 * the target that matched straight to stderr, not through the error
 * handler, so stderr is closed meanwhile. */
static bool quietly_check_object(bfd *abfd, char ***matching)
{
	int saved = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY);
	bool is_object;

	fflush(stderr);
	if (saved >= 0 && null >= 0)
		dup2(null, STDERR_FILENO);
	is_object = bfd_check_format_matches(abfd, bfd_object, matching);
	fflush(stderr);
	if (saved >= 0 && null >= 0)
		dup2(saved, STDERR_FILENO);
	if (saved >= 0)
		close(saved);
	if (null >= 0)
		close(null);
	return is_object;
}

/* Opens PATH as an object file (not an archive) in *OUT. */
static int open_bfd(const char *path, bfd **out, struct g2c_error *err)
{
	char **matching = NULL;

	*out = bfd_openr(path, NULL);
	if (!*out)
		return bfd_failure(err, path);
	(*out)->flags |= BFD_DECOMPRESS;
	if (bfd_check_format(*out, bfd_archive))
		return g2c_error_set(err, "%s: is an archive, not an executable",
				     path);
	if (!quietly_check_object(*out, &matching)) {
		if (bfd_get_error() == bfd_error_file_ambiguously_recognized) {
			free(matching);
			return g2c_error_set(err,
					     "%s: file format is ambiguous",
					     path);
		}
		return g2c_error_set(err, "%s: not an executable (%s)", path,
				     bfd_errmsg(bfd_get_error()));
	}
	/* gcc -gz=zlib-gnu's .zdebug_* sections are decompressed already;
	 * libbfd's DWARF reader finds some of them only by their plain
	 * names (.debug_rnglists in binutils 2.40). */
	for (asection *sec = (*out)->sections; sec; sec = sec->next) {
		char *plain;

		if (strncmp(sec->name, ".zdebug_", 8) != 0)
			continue;
		if (!(plain = bfd_alloc(*out, strlen(sec->name))))
			return g2c_error_set(err, "%s: out of memory", path);
		sprintf(plain, ".%s", sec->name + 2);
		bfd_rename_section(sec, plain);
	}
	return 0;
}

/* The bytes from ABFD's lowest loaded address to its highest, and the
 * headers that may precede its first section on their page (glibc's
 * histogram starts at __executable_start); 0 without loaded sections. */
static uint64_t loaded_span(struct bfd *abfd)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	for (struct bfd_section *sec = abfd->sections; sec; sec = sec->next) {
		uint64_t vma = bfd_section_vma(sec);

		if (!(bfd_section_flags(sec) & SEC_ALLOC))
			continue;
		if (vma < lo)
			lo = vma;
		if (section_end(sec) > hi)
			hi = section_end(sec);
	}
	return hi > lo ? hi - lo + 65536 : 0;
}

bool object_code_extent(const struct object *obj, uint64_t *lo, uint64_t *hi)
{
	*lo = UINT64_MAX;
	*hi = 0;
	for (struct bfd_section *sec = obj->abfd->sections; sec; sec = sec->next) {
		if ((bfd_section_flags(sec) & (SEC_CODE | SEC_ALLOC)) !=
		    (SEC_CODE | SEC_ALLOC) || bfd_section_size(sec) == 0)
			continue;
		if (bfd_section_vma(sec) < *lo)
			*lo = bfd_section_vma(sec);
		if (section_end(sec) > *hi)
			*hi = section_end(sec);
	}
	return *hi > *lo;
}

static int read_target(struct object *obj, const char *path,
		       struct g2c_error *err)
{
	int bits = bfd_get_arch_size(obj->abfd);

	if (bits < 0)
		bits = (int)bfd_arch_bits_per_address(obj->abfd);
	if (bits != 32 && bits != 64)
		return g2c_error_set(err, "%s: unsupported address size of %d bits",
				     path, bits);
	obj->target.addr_size = (unsigned)bits / 8;
	obj->target.big_endian = bfd_big_endian(obj->abfd);
	obj->target.code_span = loaded_span(obj->abfd);
	/* 64-bit COFF is Windows' PE32+, and Windows is LLP64. */
	obj->target.llp64 = bfd_get_flavour(obj->abfd) == bfd_target_coff_flavour &&
			    bits == 64;
	obj->symbol_leading_char = bfd_get_symbol_leading_char(obj->abfd);
	return 0;
}

/* A stripped object's symbols and debug information may be in a separate
 * file, named by its build-id or its .gnu_debuglink, looked for where gdb
 * looks (beside it, in .debug/ beside it, and below DEBUG_DIR, by default
 * /usr/lib/debug).  Uses that file, when the object has no debug
 * information of its own and the file is found. */
static int open_debug_file(struct object *obj, const char *debug_dir,
			   struct g2c_error *err)
{
	const char *dir = debug_dir ? debug_dir : "/usr/lib/debug";
	char *found;

	obj->dbfd = obj->abfd;
	if (bfd_get_section_by_name(obj->abfd, ".debug_info"))
		return 0;
	found = bfd_follow_build_id_debuglink(obj->abfd, dir);
	if (!found)
		found = bfd_follow_gnu_debuglink(obj->abfd, dir);
	if (!found)
		return 0;
	obj->debug_path = found;
	if (open_bfd(found, &obj->dbfd, err) < 0) {
		if (obj->dbfd)
			bfd_close(obj->dbfd);
		obj->dbfd = obj->abfd;
		return -1;
	}
	return 0;
}

/* The object's dynamic symbols, into obj->dynsyms; returns how many. */
static long read_dynamic_symbols(struct object *obj, const char *path,
				 struct g2c_error *err)
{
	long size = bfd_get_dynamic_symtab_upper_bound(obj->abfd), n;

	if (size <= 0)
		return 0;
	obj->dynsyms = malloc((size_t)size);
	if (!obj->dynsyms)
		return g2c_error_set(err, "%s: out of memory for symbols", path);
	n = bfd_canonicalize_dynamic_symtab(obj->abfd, obj->dynsyms);
	return n > 0 ? n : 0;
}

/* Whether any of SYMS[0..N) is a function defined in a code section. */
static bool defines_functions(asymbol **syms, long n)
{
	for (long i = 0; i < n; i++)
		if ((syms[i]->flags & BSF_FUNCTION) && syms[i]->section &&
		    (syms[i]->section->flags & SEC_CODE))
			return true;
	return false;
}

/* Whether SEC's header claims more contents than ABFD's file holds (a
 * broken header can claim gigabytes, which libbfd would allocate). */
static bool claims_more_than_file(bfd *abfd, asection *sec)
{
	ufile_ptr size = bfd_get_file_size(abfd);

	return (sec->flags & SEC_HAS_CONTENTS) && size &&
	       bfd_section_size(sec) > size;
}

/* Whether the PLT and relocation sections that libbfd sizes its
 * synthetic symbols by fit in the file. */
static bool plt_fits_file(bfd *abfd)
{
	for (asection *sec = abfd->sections; sec; sec = sec->next)
		if ((strncmp(sec->name, ".plt", 4) == 0 ||
		     strncmp(sec->name, ".rel", 4) == 0) &&
		    claims_more_than_file(abfd, sec))
			return false;
	return true;
}

/* One import stub found: where, in which section, and the relocation of
 * its PLT slot. */
struct import_stub {
	uint64_t addr;
	asection *sec;
	const arelent *slot;
};

/* The dynamic relocation of RELS[0..N) at ADDR, or NULL. */
static const arelent *reloc_at(arelent **rels, long n, uint64_t addr)
{
	for (long i = 0; i < n; i++)
		if (rels[i]->address == addr && rels[i]->sym_ptr_ptr &&
		    *rels[i]->sym_ptr_ptr)
			return rels[i];
	return NULL;
}

/* Appends to *STUBS (*N of *CAP) the import stubs in OBJ's code sections
 * whose PLT slot, found from the global pointer GP, RELS[0..NREL) names.
 * Returns 0, or -1 with ERR set. */
static int find_import_stubs(struct object *obj, const struct arch_calls *row,
			     uint64_t gp, arelent **rels, long nrel,
			     struct import_stub **stubs, size_t *n, size_t *cap,
			     struct g2c_error *err)
{
	bool big = bfd_big_endian(obj->abfd);

	for (asection *sec = obj->abfd->sections; sec; sec = sec->next) {
		struct code_bytes code;
		int found;

		if (!(sec->flags & SEC_CODE) ||
		    (found = object_code_at(obj, bfd_section_vma(sec), &code, err)) == 0)
			continue;
		if (found < 0)
			return -1;
		for (uint64_t off = 0; off + 4 <= code.size;) {
			const arelent *slot;
			uint32_t len;
			int64_t offset;

			if (!row->import_stub(code.data + off, code.size - off, big,
					      &len, &offset)) {
				off += 4;
				continue;
			}
			slot = reloc_at(rels, nrel, gp + (uint64_t)offset);
			if (slot) {
				struct import_stub *grown = array_grow(*stubs, cap, *n + 1,
								       sizeof **stubs);

				if (!grown)
					return g2c_error_set(err, "out of memory for symbols");
				*stubs = grown;
				(*stubs)[(*n)++] = (struct import_stub){ code.vma + off, sec, slot };
			}
			off += len;
		}
	}
	return 0;
}

/* The import stubs the linker of OBJ's architecture writes without
 * symbols, where libbfd makes no synthetic ones (HP-PA, arch_calls.h):
 * "NAME@plt" symbols in obj->synth, one block of the symbols and their
 * names, as libbfd makes its own.  Returns 0, or -1 with ERR set. */
static int read_import_stubs(struct object *obj, const char *path,
			     struct g2c_error *err)
{
	const struct arch_calls *row = arch_calls_of(bfd_get_arch(obj->abfd));
	struct import_stub *stubs = NULL;
	size_t n = 0, cap = 0, names = 0;
	arelent **rels;
	long size, nrel;
	uint64_t gp = 0;
	bool have_gp = false;
	char *name;
	int rc;

	if (!row->import_stub)
		return 0;
	for (size_t i = 0; i < obj->nsyms && !have_gp; i++)
		if (strcmp(obj->syms[i]->name, row->global_pointer) == 0) {
			gp = bfd_asymbol_value(obj->syms[i]);
			have_gp = true;
		}
	size = bfd_get_dynamic_reloc_upper_bound(obj->abfd);
	if (!have_gp || size <= 0)
		return 0;
	if (!(rels = malloc((size_t)size)))
		return g2c_error_set(err, "%s: out of memory for symbols", path);
	nrel = bfd_canonicalize_dynamic_reloc(obj->abfd, rels, obj->dynsyms);
	rc = nrel > 0 ? find_import_stubs(obj, row, gp, rels, nrel, &stubs, &n,
					  &cap, err) : 0;
	for (size_t i = 0; i < n; i++)
		names += strcspn((*stubs[i].slot->sym_ptr_ptr)->name, "@") + sizeof "@plt";
	if (rc == 0 && n > 0) {
		free(obj->synth);	/* (libbfd's, of none) */
		obj->synth = malloc(n * sizeof *obj->synth + names);
	}
	if (rc == 0 && n > 0 && !obj->synth)
		rc = g2c_error_set(err, "%s: out of memory for symbols", path);
	name = rc == 0 && n > 0 ? (char *)(obj->synth + n) : NULL;
	for (size_t i = 0; name && i < n; i++) {
		const char *callee = (*stubs[i].slot->sym_ptr_ptr)->name;
		int len = (int)strcspn(callee, "@");

		obj->synth[i] = (asymbol){ .the_bfd = obj->abfd, .name = name,
					   .value = stubs[i].addr - bfd_section_vma(stubs[i].sec),
					   .flags = BSF_LOCAL | BSF_SYNTHETIC,
					   .section = stubs[i].sec };
		name += sprintf(name, "%.*s@plt", len, callee) + 1;
	}
	if (name)
		obj->nsynth = n;
	free(stubs);
	free(rels);
	return rc;
}

/* The static symbols (of the debug file, if one is used) or, in a
 * stripped object without a debug file, its dynamic symbols; plus the
 * synthetic "name@plt" symbols of the object's PLT. */
static int read_symbols(struct object *obj, const char *path,
			struct g2c_error *err)
{
	long size, count = 0, ndyn, nsynth = 0;

	ndyn = read_dynamic_symbols(obj, path, err);
	if (ndyn < 0)
		return -1;
	if (bfd_get_file_flags(obj->dbfd) & HAS_SYMS) {
		size = bfd_get_symtab_upper_bound(obj->dbfd);
		if (size < 0)
			return bfd_failure(err, path);
		obj->syms = malloc(size > 0 ? (size_t)size : 1);
		if (!obj->syms)
			return g2c_error_set(err, "%s: out of memory for symbols", path);
		count = bfd_canonicalize_symtab(obj->dbfd, obj->syms);
		if (count < 0)
			return bfd_failure(err, path);
	}
	if (count == 0) {
		/* The exported functions are all a stripped library has (a
		 * stripped program may have none). */
		/* (NULL-terminated, as libbfd's readers of it expect) */
		free(obj->syms);
		obj->syms = malloc(((size_t)ndyn + 1) * sizeof *obj->syms);
		if (!obj->syms)
			return g2c_error_set(err, "%s: out of memory for symbols", path);
		if (ndyn > 0)
			memcpy(obj->syms, obj->dynsyms, (size_t)ndyn * sizeof *obj->syms);
		obj->syms[ndyn] = NULL;
		count = ndyn;
		obj->dynamic_symbols_only = true;
	}
	obj->nsyms = (size_t)count;
	/* (a static program has synthetic symbols too: 64-bit PowerPC's
	 * ELFv1 code entries, from its function descriptors) */
	if ((ndyn > 0 || count > 0) && plt_fits_file(obj->abfd))
		nsynth = bfd_get_synthetic_symtab(obj->abfd, count, obj->syms,
						  ndyn, obj->dynsyms, &obj->synth);
	obj->nsynth = nsynth > 0 ? (size_t)nsynth : 0;
	if (nsynth <= 0 && ndyn > 0)
		return read_import_stubs(obj, path, err);
	return 0;
}

/* libbfd prints its own warnings about odd input ("BFD: warning: ...
 * invalid alignment", "DWARF error: ...") on stderr; gmon2cg says what
 * went wrong in one line of its own, so they are dropped. */
static void drop_bfd_message(const char *fmt, va_list ap)
{
	(void)fmt;
	(void)ap;
}

int object_require_functions(const struct object *obj, const char *path,
			     struct g2c_error *err)
{
	if (!obj->dynamic_symbols_only ||
	    defines_functions(obj->syms, (long)obj->nsyms))
		return 0;
	if (obj->debug_path)
		return g2c_error_set(err, "%s: no symbols in it or in its debug file %s",
				     path, obj->debug_path);
	return g2c_error_set(err, "%s: no symbols (and no separate debug file found)",
			     path);
}

int object_open(struct object *obj, const char *path, const char *debug_dir,
		struct g2c_error *err)
{
	if (object_open_file(obj, path, debug_dir, err) < 0 ||
	    object_read_symbols(obj, path, err) < 0)
		return -1;
	if (object_require_functions(obj, path, err) < 0) {
		object_close(obj);
		return -1;
	}
	return 0;
}

int object_read_symbols(struct object *obj, const char *path,
			struct g2c_error *err)
{
	if (read_symbols(obj, path, err) < 0) {
		object_close(obj);
		return -1;
	}
	return 0;
}

int object_open_file(struct object *obj, const char *path,
		     const char *debug_dir, struct g2c_error *err)
{
	memset(obj, 0, sizeof *obj);
	if (bfd_init() != BFD_INIT_MAGIC)
		return g2c_error_set(err, "libbfd does not match the bfd.h gmon2cg was built with");
	bfd_set_error_handler(drop_bfd_message);
	if (check_file(path, err) < 0)
		return -1;
	obj->path = realpath(path, NULL);
	if (!obj->path)
		return g2c_error_set(err, "%s: %s", path, strerror(errno));
	if (open_bfd(path, &obj->abfd, err) < 0 ||
	    read_target(obj, path, err) < 0 ||
	    open_debug_file(obj, debug_dir, err) < 0) {
		object_close(obj);
		return -1;
	}
	return 0;
}

void object_forget_code(struct object *obj)
{
	for (size_t i = 0; i < obj->nloaded; i++)
		section_bytes_release(&obj->loaded[i].bytes);
	free(obj->loaded);
	obj->loaded = NULL;
	obj->nloaded = 0;
}

void object_close(struct object *obj)
{
	object_forget_code(obj);
	for (size_t i = 0; i < 2; i++)
		if (obj->views[i].base)
			munmap((void *)obj->views[i].base, obj->views[i].size);
	free(obj->syms);
	free(obj->synth);
	free(obj->dynsyms);
	free(obj->path);
	free(obj->debug_path);
	if (obj->dbfd && obj->dbfd != obj->abfd)
		bfd_close(obj->dbfd);
	if (obj->abfd)
		bfd_close(obj->abfd);
	memset(obj, 0, sizeof *obj);
}

uint64_t section_end(const asection *sec)
{
	return bfd_section_vma(sec) + bfd_section_size(sec);
}

asection *object_find_code_section(bfd *abfd, asection **cache, uint64_t pc)
{
	asection *sec = *cache;

	if (sec && pc >= bfd_section_vma(sec) && pc < section_end(sec))
		return sec;
	for (sec = abfd->sections; sec; sec = sec->next) {
		if ((sec->flags & (SEC_CODE | SEC_ALLOC)) != (SEC_CODE | SEC_ALLOC))
			continue;
		if (pc >= bfd_section_vma(sec) && pc < section_end(sec)) {
			*cache = sec;
			return sec;
		}
	}
	return NULL;
}

/* Makes the code section holding PC obj->last_code and its bytes
 * obj->loaded[obj->last_loaded], reading them if need be.  Returns 1, 0
 * when no code section holds PC, or -1 with ERR set.  (Out of line, so
 * that object_code_at's usual case saves no registers.) */
__attribute__((noinline))
static int find_loaded(struct object *obj, uint64_t pc, struct g2c_error *err)
{
	asection *sec = object_find_code_section(obj->abfd, &obj->last_code, pc);
	struct loaded_section *loaded;
	struct section_bytes bytes;
	size_t i;

	if (!sec)
		return 0;
	for (i = 0; i < obj->nloaded && obj->loaded[i].sec != sec; i++)
		;
	if (i == obj->nloaded) {
		loaded = realloc(obj->loaded, (obj->nloaded + 1) * sizeof *loaded);
		if (!loaded)
			return g2c_error_set(err, "%s: out of memory for code", obj->path);
		obj->loaded = loaded;
		if (object_section_bytes(obj, obj->abfd, sec, &bytes, err) < 0)
			return -1;
		obj->loaded[obj->nloaded++] = (struct loaded_section){ sec, bytes };
	}
	obj->last_loaded = i;
	return 1;
}

int object_code_at(struct object *obj, uint64_t pc, struct code_bytes *out,
		   struct g2c_error *err)
{
	asection *sec = obj->last_code;
	const struct loaded_section *loaded;
	int rc;

	/* (this runs for every arc and function, and most look-ups are in
	 * the section of the one before, read already) */
	if (!sec || pc < bfd_section_vma(sec) || pc >= section_end(sec) ||
	    obj->last_loaded >= obj->nloaded ||
	    obj->loaded[obj->last_loaded].sec != sec) {
		if ((rc = find_loaded(obj, pc, err)) <= 0)
			return rc;
		sec = obj->last_code;
	}
	loaded = &obj->loaded[obj->last_loaded];
	if (!loaded->bytes.data)
		return 0;
	*out = (struct code_bytes){ loaded->bytes.data, bfd_section_vma(sec),
				    loaded->bytes.size };
	return 1;
}

/* ABFD's file mapped whole (read only, private), or NULL where it cannot
 * be: not a plain file of its own, or not the size libbfd saw. */
static const struct file_view *file_view(struct object *obj, bfd *abfd)
{
	struct file_view *v = &obj->views[abfd == obj->abfd ? 0 : 1];
	struct stat sb;
	void *base;
	int fd;

	if (v->tried)
		return v->base ? v : NULL;
	v->tried = true;
	if (abfd->my_archive || (abfd->flags & BFD_IN_MEMORY) ||
	    (fd = open(bfd_get_filename(abfd), O_RDONLY | O_CLOEXEC)) < 0)
		return NULL;
	if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0 &&
	    (uint64_t)sb.st_size == bfd_get_file_size(abfd) &&
	    (uint64_t)sb.st_size <= SIZE_MAX) {
		base = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (base != MAP_FAILED) {
			v->base = base;
			v->size = (size_t)sb.st_size;
		}
	}
	close(fd);
	return v->base ? v : NULL;
}

int object_section_bytes(struct object *obj, bfd *abfd, asection *sec,
			 struct section_bytes *out, struct g2c_error *err)
{
	const struct file_view *v;
	uint64_t size = bfd_section_size(sec);
	bfd_byte *copy = NULL;

	memset(out, 0, sizeof *out);
	if (!(sec->flags & SEC_HAS_CONTENTS) || size == 0)
		return 0;
	if (sec->compress_status == COMPRESS_SECTION_NONE &&
	    !(sec->flags & SEC_IN_MEMORY) && (v = file_view(obj, abfd)) &&
	    sec->filepos >= 0 && (uint64_t)sec->filepos <= v->size &&
	    size <= v->size - (uint64_t)sec->filepos) {
		out->data = v->base + sec->filepos;
		out->size = (size_t)size;
		return 0;
	}
	if (!bfd_malloc_and_get_section(abfd, sec, &copy)) {
		free(copy);
		if (bfd_get_error() == bfd_error_no_memory)
			return g2c_error_set(err, "%s: out of memory reading section %s",
					     bfd_get_filename(abfd), sec->name);
		return 0;
	}
	out->data = out->copy = copy;
	out->size = (size_t)bfd_section_size(sec);
	return 0;
}

void section_bytes_release(struct section_bytes *sb)
{
	free(sb->copy);
	memset(sb, 0, sizeof *sb);
}

/* An address-sized word of the object at P. */
static uint64_t dynamic_word(const struct object *obj, const bfd_byte *p)
{
	return obj->target.addr_size == 8 ? bfd_get_64(obj->abfd, p)
					  : bfd_get_32(obj->abfd, p);
}

/* A copy of the string at OFFSET of STRTAB[0..SIZE), or NULL. */
static char *dynamic_string(const bfd_byte *strtab, bfd_size_type size,
			    uint64_t offset, bool *oom)
{
	char *s;

	if (!strtab || offset >= size || !memchr(strtab + offset, '\0', size - offset))
		return NULL;
	s = strdup((const char *)strtab + offset);
	*oom = *oom || !s;
	return s;
}

/* Appends NAME (taken; NULL: none) to DYN's DT_NEEDED list. */
static void add_needed(struct object_dynamic *dyn, char *name, bool *oom)
{
	char **needed;

	if (!name)
		return;
	needed = realloc(dyn->needed, (dyn->nneeded + 1) * sizeof *needed);
	if (!needed) {
		free(name);
		*oom = true;
		return;
	}
	dyn->needed = needed;
	needed[dyn->nneeded++] = name;
}

int object_read_dynamic(struct object *obj, struct object_dynamic *dyn,
			struct g2c_error *err)
{
	enum { DT_NULL = 0, DT_NEEDED = 1, DT_SONAME = 14, DT_RPATH = 15,
	       DT_RUNPATH = 29 };
	asection *dynamic = bfd_get_section_by_name(obj->abfd, ".dynamic");
	asection *dynstr = bfd_get_section_by_name(obj->abfd, ".dynstr");
	bfd_byte *d = NULL, *str = NULL;
	size_t entry = 2 * obj->target.addr_size;
	bool oom = false;

	memset(dyn, 0, sizeof *dyn);
	/* (libbfd would allocate whatever size a broken header claims, and
	 * zeros for a section without contents) */
	if (!dynamic || !dynstr ||
	    !(dynamic->flags & SEC_HAS_CONTENTS) || !(dynstr->flags & SEC_HAS_CONTENTS) ||
	    claims_more_than_file(obj->abfd, dynamic) ||
	    claims_more_than_file(obj->abfd, dynstr) ||
	    !bfd_malloc_and_get_section(obj->abfd, dynamic, &d) ||
	    !bfd_malloc_and_get_section(obj->abfd, dynstr, &str)) {
		free(d);
		if (bfd_get_error() == bfd_error_no_memory)
			return g2c_error_set(err, "%s: out of memory", obj->path);
		return 0;	/* not dynamically linked */
	}
	for (bfd_size_type at = 0; d && at + entry <= bfd_section_size(dynamic); at += entry) {
		uint64_t tag = dynamic_word(obj, d + at);
		uint64_t val = dynamic_word(obj, d + at + obj->target.addr_size);
		char **slot = tag == DT_SONAME ? &dyn->soname :
			      tag == DT_RPATH ? &dyn->rpath :
			      tag == DT_RUNPATH ? &dyn->runpath : NULL;

		if (tag == DT_NULL)
			break;
		if (tag == DT_NEEDED)
			add_needed(dyn, dynamic_string(str, bfd_section_size(dynstr),
						       val, &oom), &oom);
		else if (slot && !*slot)
			*slot = dynamic_string(str, bfd_section_size(dynstr), val, &oom);
	}
	free(d);
	free(str);
	if (oom) {
		object_dynamic_release(dyn);
		return g2c_error_set(err, "%s: out of memory", obj->path);
	}
	return 0;
}

void object_dynamic_release(struct object_dynamic *dyn)
{
	free(dyn->soname);
	free(dyn->rpath);
	free(dyn->runpath);
	for (size_t i = 0; i < dyn->nneeded; i++)
		free(dyn->needed[i]);
	free(dyn->needed);
	memset(dyn, 0, sizeof *dyn);
}

bool object_same_machine(const struct object *a, const struct object *b)
{
	return bfd_get_arch(a->abfd) == bfd_get_arch(b->abfd) &&
	       a->target.addr_size == b->target.addr_size &&
	       a->target.big_endian == b->target.big_endian;
}
