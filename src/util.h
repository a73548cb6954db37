/* util.h -- small helpers the stages share: growing arrays and sums of
 * counts that saturate instead of wrapping. */
#ifndef GMON2CG_UTIL_H
#define GMON2CG_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* Makes room for NEED elements of ELEM bytes in ARRAY, whose capacity is
 * *CAP, doubling it as needed.  Returns the (possibly moved) array, or
 * NULL when out of memory or past SIZE_MAX, leaving ARRAY as it was. */
void *array_grow(void *array, size_t *cap, size_t need, size_t elem);

/* A + B, or UINT64_MAX when that does not fit. */
static inline uint64_t add_saturating(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

#endif
