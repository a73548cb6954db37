/* fuzz-callgrind.c -- libFuzzer harness: the callgrind reader that
 * --compare uses, on any bytes as a file (gzip or not).  What it returns
 * must keep its promises: each function's inclusive cost at least its
 * self cost, and the total the sum of the self costs, without wrapping. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "callgrind_read.h"
#include "diag.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len)
{
	static char path[] = "/tmp/fuzz-callgrind-XXXXXX";
	static int fd = -1;
	struct callgrind_read_profile p;
	struct g2c_error err;

	if (fd < 0 && (fd = mkstemp(path)) < 0)
		abort();
	if (ftruncate(fd, 0) < 0 || pwrite(fd, data, len, 0) != (ssize_t)len)
		abort();
	if (callgrind_read_file(&p, path, true, &err) == 0) {
		uint64_t sum = 0;

		for (size_t f = 0; f < p.nfns; f++) {
			if (p.fns[f].incl_ns < p.fns[f].self_ns ||
			    sum > UINT64_MAX - p.fns[f].self_ns)
				abort();
			sum += p.fns[f].self_ns;
		}
		if (sum != p.total_ns)
			abort();
	}
	callgrind_read_release(&p);
	return 0;
}
