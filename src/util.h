/* util.h -- small helpers the stages share: growing arrays, sorting by a
 * numeric key, sums of counts that saturate instead of wrapping, base
 * names of paths, and names made printable. */
#ifndef GMON2CG_UTIL_H
#define GMON2CG_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Makes room for NEED elements of ELEM bytes in ARRAY, whose capacity is
 * *CAP, doubling it as needed.  Returns the (possibly moved) array, or
 * NULL when out of memory or past SIZE_MAX, leaving ARRAY as it was. */
void *array_grow(void *array, size_t *cap, size_t need, size_t elem);

/* Gives back the room past the first N elements of ELEM bytes of ARRAY
 * (capacity *CAP), once it is complete: array_grow leaves up to half
 * unused.  Returns the (possibly moved) array; ARRAY as it was when the
 * system keeps the room. */
void *array_fit(void *array, size_t *cap, size_t n, size_t elem);

/* Sorts BASE[0..N) of SIZE-byte elements as qsort(BASE, N, SIZE, CMP)
 * does, where CMP orders by KEY first: a radix sort on the bytes of the
 * keys that differ, then CMP within runs of equal keys.  The stages sort
 * hundreds of thousands of symbols, arcs and addresses, whose keys spread
 * over a few bytes; a comparison sort spends most of a large conversion's
 * sorting time on calls to CMP.  Besides the array it needs 32 bytes per
 * element (keys and places), never a copy of the elements: the largest
 * arrays are sorted where memory is at its peak.  Short arrays, and any
 * without memory for the radix sort, are sorted by qsort. */
void sort_by_key(void *base, size_t n, size_t size,
		 uint64_t (*key)(const void *),
		 int (*cmp)(const void *, const void *));

/* The index of the first of N elements of STRIDE bytes at BASE whose
 * uint64_t key (at the start of each element: BASE may point at a later
 * member to search by it; keys in increasing order) is above LIMIT, N if
 * none is.  Searches from FROM first (the answer of the
 * previous search, 0 for none), galloping forward: look-ups made in
 * address order then touch a few neighbouring elements instead of a
 * binary search's path across a large table. */
size_t search_above(const void *base, size_t n, size_t stride, uint64_t limit,
		    size_t from);

/* Asks for the memory at P to be read into the cache: loops that read
 * strings scattered over megabytes (the names of a large program) ask for
 * those of a few elements ahead, so that their cache misses overlap. */
#if defined(__GNUC__)
#define prefetch(p) __builtin_prefetch(p)
#else
#define prefetch(p) ((void)(p))
#endif
#define PREFETCH_AHEAD 16

/* Copies SRC[0..LEN) to DST (which may be SRC), each control character
 * (below 0x20, or 0x7f) as '?': wherever a name is written (messages,
 * warnings, reports, the profile's lines), it cannot break its line.
 * Returns DST + LEN. */
char *copy_printable(char *dst, const char *src, size_t len);

/* The length of the UTF-8 sequence S starts with (1 to 4; 1 for ASCII),
 * or 0 when S does not start a valid one: a stray or truncated sequence,
 * an overlong form, a surrogate or a code point past U+10FFFF.  Names
 * come from object files and may hold any bytes; the writers of text
 * declared UTF-8 (XML, JSON, the report) escape such bytes. */
size_t utf8_length(const char *s);

/* The length of the character S starts with when it is printable UTF-8
 * text: utf8_length, but 0 (to be escaped) for a control character (C0,
 * DEL, C1: a terminal obeys them) and for U+FFFE and U+FFFF (not XML). */
size_t printable_length(const char *s);

/* The part of PATH after its last '/' (all of PATH without one). */
const char *base_name(const char *path);

/* The hash of S[0..N), eight bytes at a time (the writer hashes every
 * name it writes, the comparison every name it reads). */
uint64_t hash_bytes(const char *s, size_t n);

static inline uint64_t hash_string(const char *s)
{
	return hash_bytes(s, strlen(s));
}

/* A + B, or UINT64_MAX when that does not fit. */
static inline uint64_t add_saturating(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

#endif
