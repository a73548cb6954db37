/* util.c -- small helpers the stages share. */
#include <config.h>

#include <stdlib.h>

#include "util.h"

void *array_grow(void *array, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return array;
	while (n < need) {
		if (n > SIZE_MAX / 2 / elem)
			return NULL;
		n *= 2;
	}
	p = realloc(array, n * elem);
	if (p)
		*cap = n;
	return p;
}
