/* dump-gmon.c -- print what the gmon reader read, for tests/ldprofile.sh to
 * compare with the independent reader tests/lib/ldprofile.py.
 *
 *   dump-gmon ADDR_SIZE little|big FILE...
 *   dump-gmon --sniff FILE...
 *
 * The FILEs are summed into one profile; the output is ldprofile.py's text
 * form (addresses in hex): "format", "hist", a "bin LO HI COUNT" line per
 * non-empty bin with the pcs profil(2) counts in it, "arc FROM SELF COUNT",
 * and "calls_lost N".  With --sniff, one line "ld-profile" or "other" per
 * FILE, from its header alone (gmon_file_is_ld_profile). */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "gmon.h"

static const char *format_name(enum gmon_format format)
{
	switch (format) {
	case GMON_FORMAT_TAGGED:
		return "tagged";
	case GMON_FORMAT_BSD_OLD:
		return "bsd-old";
	case GMON_FORMAT_BSD44:
		return "bsd44";
	case GMON_FORMAT_LD_PROFILE:
		return "ld-profile";
	}
	return "?";
}

static int sniff(char **files, int n)
{
	struct g2c_error err;

	for (int i = 0; i < n; i++) {
		bool yes;

		if (gmon_file_is_ld_profile(files[i], &yes, &err) < 0) {
			fprintf(stderr, "dump-gmon: %s\n", err.msg);
			return 1;
		}
		printf("%s\n", yes ? "ld-profile" : "other");
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct gmon_target target = { 0 };	/* (no code span: any file) */
	struct gmon_profile prof;
	struct g2c_error err;

	if (argc >= 2 && strcmp(argv[1], "--sniff") == 0)
		return sniff(argv + 2, argc - 2);
	if (argc < 4 || (strcmp(argv[2], "little") && strcmp(argv[2], "big"))) {
		fprintf(stderr, "usage: dump-gmon ADDR_SIZE little|big FILE...\n"
			"       dump-gmon --sniff FILE...\n");
		return 2;
	}
	target.addr_size = (unsigned)atoi(argv[1]);
	target.big_endian = strcmp(argv[2], "big") == 0;
	gmon_profile_init(&prof);
	for (int i = 3; i < argc; i++) {
		if (gmon_profile_add_file(&prof, &target, argv[i], &err) < 0) {
			fprintf(stderr, "dump-gmon: %s\n", err.msg);
			gmon_profile_release(&prof);
			return 1;
		}
	}
	printf("format %s %u %s\n", format_name(prof.first_format),
	       target.addr_size, argv[2]);
	for (size_t h = 0; h < prof.nhists; h++) {
		const struct gmon_hist *hist = &prof.hists[h];
		uint32_t scale = gmon_hist_scale(hist);

		printf("hist 0x%" PRIx64 " 0x%" PRIx64 " %" PRIu32 " %" PRIu32
		       " %s %c\n", hist->low_pc, hist->high_pc, hist->nbins,
		       hist->rate, hist->dimen, hist->dimen_abbrev);
		for (size_t b = 0; b < hist->ncounted; b++) {
			uint64_t lo, hi;

			gmon_hist_bin_to_pc(hist, scale, hist->counted[b].index,
					    &lo, &hi);
			printf("bin 0x%" PRIx64 " 0x%" PRIx64 " %" PRIu64 "\n",
			       lo, hi, hist->counted[b].count);
		}
	}
	for (size_t a = 0; a < prof.narcs; a++)
		printf("arc 0x%" PRIx64 " 0x%" PRIx64 " %" PRIu64 "\n",
		       prof.arcs[a].from_pc, prof.arcs[a].self_pc,
		       prof.arcs[a].count);
	printf("calls_lost %" PRIu64 "\n", prof.calls_lost);
	gmon_profile_release(&prof);
	return 0;
}
