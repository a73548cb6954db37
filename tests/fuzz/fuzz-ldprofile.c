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

#include "fuzz-convert.h"

enum { LIB64, LIB32, PROG_PG, NOBJS };

static const char *const paths[NOBJS] = {
	FUZZ_LDPROFILE_DIR "/libmix.so.1",
	FUZZ_LDPROFILE_DIR "/i386/libmix.so.1",
	FUZZ_LDPROFILE_DIR "/prog-pg",
};
static struct program_object objs[NOBJS];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	for (int i = 0; i < NOBJS; i++)
		fuzz_open_object(&objs[i], paths[i]);
	objs[LIB64].ld_profile = objs[LIB32].ld_profile = true;
	return 0;
}

/* Reads DATA[0..LEN) as a file of object O into PROF; whether it is one. */
static bool read_file(struct gmon_profile *prof, int o,
		      const unsigned char *data, size_t len)
{
	struct g2c_error err;

	return gmon_profile_add_buffer(prof, &objs[o].obj.target, data, len,
				       "fuzz", &err) == 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len)
{
	struct gmon_profile prof[2];
	struct program_object *po[2];
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
		po[n++] = &objs[PROG_PG];
		data += first, len -= first;
		form = LIB64;
	}
	if (!gmon_is_ld_profile(data, len) || !read_file(&prof[1], form, data, len))
		goto out;
	po[n++] = &objs[form];
	fuzz_convert(po, n, n == 2 ? prof : &prof[1]);
out:
	gmon_profile_release(&prof[0]);
	gmon_profile_release(&prof[1]);
	return 0;
}
