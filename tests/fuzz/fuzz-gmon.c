/* fuzz-gmon.c -- libFuzzer harness: the gmon.out reader alone, for every
 * address width and byte order.  The first input byte picks the target;
 * the rest is the file, read twice into one profile so that merging is
 * exercised too.  The code span bounds the file as a 1 MiB object would. */
#include <config.h>

#include "diag.h"
#include "gmon.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len)
{
	static const struct gmon_target targets[] = {
		{ 8, false, 1 << 20 }, { 8, true, 1 << 20 }, { 4, false, 1 << 20 },
		{ 4, true, 1 << 20 },
	};
	struct gmon_profile prof;
	struct g2c_error err;

	if (len < 1)
		return 0;
	gmon_profile_init(&prof);
	if (gmon_profile_add_buffer(&prof, &targets[data[0] & 3], data + 1,
				    len - 1, "fuzz", &err) == 0) {
		for (size_t h = 0; h < prof.nhists; h++) {
			uint32_t scale = gmon_hist_scale(&prof.hists[h]);
			uint64_t lo, hi;

			gmon_hist_bin_to_pc(&prof.hists[h], scale,
					    prof.hists[h].nbins - 1, &lo, &hi);
		}
		gmon_profile_add_buffer(&prof, &targets[data[0] & 3], data + 1,
					len - 1, "fuzz", &err);
	}
	gmon_profile_release(&prof);
	return 0;
}
