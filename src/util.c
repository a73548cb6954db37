/* util.c -- small helpers the stages share. */
#include <config.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

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

void *array_fit(void *array, size_t *cap, size_t n, size_t elem)
{
	void *p;

	if (n == 0 || n >= *cap)
		return array;
	p = realloc(array, n * elem);
	if (!p)
		return array;
	*cap = n;
	return p;
}

struct copy_block {
	struct copy_block *before;
	size_t used, cap;
	max_align_t bytes[];	/* (aligned for any copy) */
};

void *copy_blocks_add(struct copy_blocks *s, const void *src, size_t size,
		      size_t align)
{
	struct copy_block *b = s->last;
	size_t at = b ? (b->used + align - 1) & ~(align - 1) : 0;

	if (!b || at > b->cap || b->cap - at < size) {
		size_t cap = !b ? s->first : b->cap < s->max / 2 ? 2 * b->cap : s->max;

		if (cap < size)
			cap = size;
		if (cap > SIZE_MAX - sizeof *b || !(b = malloc(sizeof *b + cap)))
			return NULL;
		*b = (struct copy_block){ s->last, 0, cap };
		s->last = b;
		at = 0;
	}
	b->used = at + size;
	return memcpy((unsigned char *)b->bytes + at, src, size);
}

void copy_blocks_release(struct copy_blocks *s)
{
	while (s->last) {
		struct copy_block *before = s->last->before;

		free(s->last);
		s->last = before;
	}
}

size_t search_above(const void *base, size_t n, size_t stride, uint64_t limit,
		    size_t from)
{
	return search_first(base, n, stride, key_at_most, &limit, from);
}

/* An element's key and its place in the input. */
struct keyed {
	uint64_t key;
	size_t index;
};

/* Orders RUN[0..n), elements of SIZE bytes, by CMP: by insertion where
 * it is short (the usual case), by qsort where a hostile input makes it
 * long.  SWAP has room for one element. */
static void sort_run(char *run, size_t n, size_t size,
		     int (*cmp)(const void *, const void *), char *swap)
{
	if (n > 16) {
		qsort(run, n, size, cmp);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		size_t j = i;

		memcpy(swap, run + i * size, size);
		while (j > 0 && cmp(run + (j - 1) * size, swap) > 0) {
			memcpy(run + j * size, run + (j - 1) * size, size);
			j--;
		}
		if (j != i)
			memcpy(run + j * size, swap, size);
	}
}

/* Runs of equal keys in BASE[0..N), sorted by key, are ordered by CMP.
 * Most runs are of one element: each key is read once, and a run is
 * sorted only when it has two or more. */
static void sort_equal_runs(char *base, size_t n, size_t size,
			    uint64_t (*key)(const void *),
			    int (*cmp)(const void *, const void *), char *swap)
{
	uint64_t k = n > 0 ? key(base) : 0;
	size_t start = 0;

	for (size_t i = 1; i < n; i++) {
		uint64_t next = key(base + i * size);

		if (next == k)
			continue;
		if (i - start > 1)
			sort_run(base + start * size, i - start, size, cmp, swap);
		start = i;
		k = next;
	}
	if (n - start > 1)
		sort_run(base + start * size, n - start, size, cmp, swap);
}

/* Moves BASE's elements so that element I is the one that was at
 * ORDER[I].index, following each cycle of the permutation with one
 * element held in SWAP (ORDER is used up: a placed element's index
 * becomes its own).  In place: a copy of a large array would be the
 * sort's biggest allocation. */
static void permute_in_place(char *base, size_t n, size_t size,
			     struct keyed *order, char *swap)
{
	for (size_t start = 0; start < n; start++) {
		size_t at = start;

		if (order[start].index == start)
			continue;
		memcpy(swap, base + start * size, size);
		while (order[at].index != start) {
			size_t from = order[at].index;

			memcpy(base + at * size, base + from * size, size);
			order[at].index = at;
			at = from;
		}
		memcpy(base + at * size, swap, size);
		order[at].index = at;
	}
}

void sort_by_key(void *base, size_t n, size_t size,
		 uint64_t (*key)(const void *),
		 int (*cmp)(const void *, const void *))
{
	struct keyed *a = NULL, *b = NULL;
	uint64_t differ = 0;
	size_t in_order = 1;
	uint64_t last = n > 0 ? key(base) : 0;
	_Alignas(max_align_t) char local_swap[128];
	char *swap = size <= sizeof local_swap ? local_swap : malloc(size);

	/* in key order already (arcs come by caller): only the runs */
	for (; in_order < n; in_order++) {
		uint64_t k = key((char *)base + in_order * size);

		if (k < last)
			break;
		last = k;
	}
	if (in_order >= n && swap) {
		sort_equal_runs(base, n, size, key, cmp, swap);
		goto out;
	}
	if (n < 64 || !swap) {
		qsort(base, n, size, cmp);	/* without buffers to allocate */
		goto out;
	}
	if (n <= SIZE_MAX / 2 / sizeof *a) {
		a = malloc(n * sizeof *a);
		b = malloc(n * sizeof *b);
	}
	if (!a || !b) {
		free(a);
		free(b);
		qsort(base, n, size, cmp);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		a[i] = (struct keyed){ key((char *)base + i * size), i };
		differ |= a[i].key ^ a[0].key;
	}
	/* least significant byte first, each pass stable; bytes every key
	 * shares need no pass */
	for (unsigned shift = 0; shift < 64; shift += 8) {
		size_t count[257] = { 0 };
		struct keyed *t;

		if (!((differ >> shift) & 0xff))
			continue;
		for (size_t i = 0; i < n; i++)
			count[((a[i].key >> shift) & 0xff) + 1]++;
		for (unsigned d = 0; d < 256; d++)
			count[d + 1] += count[d];
		for (size_t i = 0; i < n; i++)
			b[count[(a[i].key >> shift) & 0xff]++] = a[i];
		t = a, a = b, b = t;
	}
	free(b);
	permute_in_place(base, n, size, a, swap);
	free(a);
	sort_equal_runs(base, n, size, key, cmp, swap);
out:
	if (swap != local_swap)
		free(swap);
}

static bool is_unprintable(char c)
{
	return (unsigned char)c < 0x20 || c == 0x7f;
}

/* Whether one of the eight bytes of W is a control character (below 0x20,
 * or 0x7f): a byte below N sets its high bit in W - N (and a borrow
 * passes only above such a byte); 0x7f is the zero byte of W ^ 0x7f... */
static bool word_has_unprintable(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101u, highs = ones << 7;
	uint64_t del = w ^ (0x7f * ones);

	return (((w - 0x20 * ones) & ~w) | ((del - ones) & ~del)) & highs;
}

/* Names are most of what the writer copies: they are checked eight bytes
 * at a time. */
char *copy_printable(char *dst, const char *src, size_t len)
{
	size_t i = 0;

	for (;;) {
		uint64_t word;

		for (; i + 8 <= len; i += 8) {
			memcpy(&word, src + i, 8);
			if (word_has_unprintable(word))
				break;
			memcpy(dst + i, &word, 8);
		}
		for (; i < len && !is_unprintable(src[i]); i++)
			dst[i] = src[i];
		if (i == len)
			return dst + len;
		dst[i++] = '?';
	}
}

size_t utf8_length(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n;
	uint32_t cp;

	if (u[0] < 0x80)
		return 1;
	if (u[0] >= 0xc2 && u[0] <= 0xdf)
		n = 2, cp = u[0] & 0x1f;
	else if (u[0] >= 0xe0 && u[0] <= 0xef)
		n = 3, cp = u[0] & 0x0f;
	else if (u[0] >= 0xf0 && u[0] <= 0xf4)
		n = 4, cp = u[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((u[i] & 0xc0) != 0x80)	/* (the NUL ends it too) */
			return 0;
		cp = cp << 6 | (u[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

size_t printable_length(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = utf8_length(s);

	if ((n == 1 && (u[0] < 0x20 || u[0] == 0x7f)) ||
	    (n == 2 && u[0] == 0xc2 && u[1] < 0xa0) ||
	    (n == 3 && u[0] == 0xef && u[1] == 0xbf && u[2] >= 0xbe))
		return 0;
	return n;
}

const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

uint64_t hash_bytes(const char *s, size_t n)
{
	uint64_t h = n * 0x9e3779b97f4a7c15u, word;

	for (; n >= 8; n -= 8, s += 8) {
		memcpy(&word, s, 8);
		h = (h ^ word) * 0xbf58476d1ce4e5b9u;
		h ^= h >> 31;
	}
	word = 0;
	memcpy(&word, s, n);
	h = (h ^ word) * 0x94d049bb133111ebu;
	return h ^ (h >> 29);
}
