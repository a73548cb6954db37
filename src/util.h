/* util.h -- small helpers the stages share: growing arrays, sorting by a
 * numeric key, the one search of sorted arrays, sums of counts that saturate instead of wrapping, base
 * names of paths, and names made printable. */
#ifndef GMON2CG_UTIL_H
#define GMON2CG_UTIL_H

#include <stdbool.h>
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

/* Copies kept side by side in blocks that are freed together, for many
 * small arrays that live until the same moment (a large C++ program's
 * demangled names, the decoded instructions of every function): one free
 * a block instead of one a copy, and no room left over but a block's
 * tail.  Each block has twice its predecessor's room, from FIRST bytes up
 * to MAX (or a larger copy's size); the owner sets both. */
struct copy_blocks {
	size_t first, max;
	struct copy_block *last;	/* the newest; each links the one before */
};

/* A copy of SRC[0..SIZE) in S's blocks, at a multiple of ALIGN (a power of
 * two, at most the alignment of any type); NULL when memory runs out. */
void *copy_blocks_add(struct copy_blocks *s, const void *src, size_t size,
		      size_t align);

/* Frees S's blocks and every copy in them. */
void copy_blocks_release(struct copy_blocks *s);

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

/* The one search of the stages, a cursor over a sorted array: the index
 * of the first of N elements of STRIDE bytes at BASE for which
 * BELOW(element, KEY) is false (those for which it is true come first), N
 * if none.  FROM is the previous answer (0 for none): the search steps
 * from there a few elements, forward while they are below KEY, else
 * back, then gallops and bisects what is left, so that look-ups made in
 * order (or a few elements back) touch a few neighbouring elements
 * instead of a binary search's path across a large table.  Inline, so that BELOW, a constant at every call, is
 * inlined too. */
static inline size_t search_first(const void *base, size_t n, size_t stride,
				  bool (*below)(const void *elem, const void *key),
				  const void *key, size_t from)
{
	const char *at = base;
	size_t lo = 0, hi = n, step = 1;

	if (from > n)
		from = n;
	if (from > 0 && below(at + (from - 1) * stride, key)) {
		/* forward (all before LO are below): a few steps, where the
		 * answer mostly is, then galloping to an element not below */
		for (lo = from; lo - from < 4; lo++)
			if (lo == n || !below(at + lo * stride, key))
				return lo;
		for (;; step *= 2) {
			size_t probe = lo + step - 1;

			if (probe >= n || !below(at + probe * stride, key)) {
				hi = probe < n ? probe : n;
				break;
			}
			lo = probe + 1;
		}
	} else if (from > 0) {
		/* back (the element at HI is not below) */
		for (hi = from - 1; from - 1 - hi < 4; hi--)
			if (hi == 0 || below(at + (hi - 1) * stride, key))
				return hi;
		for (;; step *= 2) {
			if (step > hi) {
				lo = 0;
				break;
			}
			if (below(at + (hi - step) * stride, key)) {
				lo = hi - step + 1;
				break;
			}
			hi -= step;
		}
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (below(at + mid * stride, key))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Whether the uint64_t key at the start of ELEM is at most *LIMIT: with
 * search_first, the first element whose key is above the limit (inline,
 * for the look-ups made per row or bin). */
static inline bool key_at_most(const void *elem, const void *limit)
{
	uint64_t key;

	memcpy(&key, elem, sizeof key);
	return key <= *(const uint64_t *)limit;
}

/* search_first for the first element whose uint64_t key (at the start of
 * each element: BASE may point at a later member to search by it; keys
 * in increasing order) is above LIMIT.  (Not inline: its callers are
 * inlined in turn, symtab_lookup among them.) */
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
