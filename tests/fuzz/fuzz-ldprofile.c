/* fuzz-ldprofile.c -- libFuzzer harness: LD_PROFILE files through the
 * whole conversion, against the library they profile
 * (fixtures/ldprofile), alone or combined with the program's own
 * gmon.out as gmon2cg converts "prog-pg gmon.out libmix.so.1.profile".
 * The first input byte picks the form:
 *   0  the rest is an LD_PROFILE file of the x86-64 libmix.so.1
 *   1  the same for the i386 build (4-byte pcs, 12-byte arc slots)
 *   2  combined: bytes 1-4 (little-endian) are the length of prog-pg's
 *      gmon.out, which follows; the rest is the library's LD_PROFILE file
 * (others as byte & 3, 3 as 2).  Every input must give a profile or one
 * error; the sanitizers catch everything else. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>

#include "convert.h"

enum { LIB64, LIB32, PROG_PG, NOBJS };

static const char *const paths[NOBJS] = {
	FUZZ_LDPROFILE_DIR "/libmix.so.1",
	FUZZ_LDPROFILE_DIR "/i386/libmix.so.1",
	FUZZ_LDPROFILE_DIR "/prog-pg",
};
static struct object objs[NOBJS];
static struct symtab sts[NOBJS];
static struct object_lines lines[NOBJS];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct g2c_error err;

	(void)argc;
	(void)argv;
	for (int i = 0; i < NOBJS; i++) {
		if (object_open(&objs[i], paths[i], NULL, &err) < 0 ||
		    symtab_build(&sts[i], &objs[i], &(struct symtab_options){ true }, &err) < 0 ||
		    symtab_names(&sts[i], &err) < 0) {
			fprintf(stderr, "%s\n", err.msg);
			abort();
		}
		object_lines_init(&lines[i], &objs[i]);
	}
	return 0;
}

/* Reads DATA[0..LEN) as a file of object O into PROF; whether it is one. */
static bool read_file(struct gmon_profile *prof, int o,
		      const unsigned char *data, size_t len)
{
	struct g2c_error err;

	return gmon_profile_add_buffer(prof, &objs[o].target, data, len,
				       "fuzz", &err) == 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len)
{
	struct gmon_profile prof[2];
	struct cg_object cgo[2];
	struct attribution_input in[2];
	struct object_lines *lp[2];
	int form;
	size_t n = 0;

	if (len < 1)
		return 0;
	form = data[0] & 3;
	data++, len--;
	gmon_profile_init(&prof[0]);
	gmon_profile_init(&prof[1]);
	if (form >= 2) {
		size_t first;

		if (len < 4)
			goto out;
		first = (size_t)data[0] | (size_t)data[1] << 8 |
			(size_t)data[2] << 16 | (size_t)data[3] << 24;
		data += 4, len -= 4;
		if (first > len)
			first = len;
		if (!read_file(&prof[0], PROG_PG, data, first))
			goto out;
		cgo[n] = (struct cg_object){ .obj = &objs[PROG_PG], .st = &sts[PROG_PG] };
		in[n] = (struct attribution_input){ .prof = &prof[0], .hz = 100 };
		lp[n++] = &lines[PROG_PG];
		data += first, len -= first;
		form = LIB64;
	}
	if (!gmon_is_ld_profile(data, len) || !read_file(&prof[1], form, data, len))
		goto out;
	cgo[n] = (struct cg_object){ .obj = &objs[form], .st = &sts[form] };
	in[n] = (struct attribution_input){
		.prof = &prof[1], .hz = gmon_profile_rate(&prof[1], 100) };
	lp[n++] = &lines[form];
	fuzz_convert_objects(cgo, in, n, lp);
out:
	gmon_profile_release(&prof[0]);
	gmon_profile_release(&prof[1]);
	return 0;
}
