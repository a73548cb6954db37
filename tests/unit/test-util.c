/* test-util.c -- the helpers every stage leans on: sort_by_key must order
 * exactly as qsort with the same comparison does, whatever the keys and
 * the input order (each of its paths: in order already, radix, short
 * arrays, long runs of equal keys, large elements), search_above (the
 * uint64_t form of search_first, the one search of sorted arrays) must
 * give a linear search's answer from any starting point, before or after
 * the answer (galloping forward or back), copy_printable
 * turns control characters (and only those) into '?', base_name
 * finds what follows the last '/', utf8_length and printable_length tell
 * a character to keep from a byte to escape, and section_end (object.h)
 * is just past a section. */
#include <config.h>

#include <bfd.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "object.h"
#include "util.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

/* xorshift64*: the same sequence on every run */
static uint64_t next_random(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1du;
}

struct item {
	uint64_t key;
	uint32_t tie;		/* orders equal keys */
	uint32_t serial;	/* makes the order total */
};

static uint64_t item_key(const void *x)
{
	return ((const struct item *)x)->key;
}

static int compare_items(const void *x, const void *y)
{
	const struct item *a = x, *b = y;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->tie != b->tie)
		return a->tie < b->tie ? -1 : 1;
	return a->serial < b->serial ? -1 : a->serial > b->serial;
}

enum shape { RANDOM, FEW_KEYS, ONE_KEY, SORTED, SORTED_RUNS, REVERSED, HIGH_BYTE };

static const char *const shape_names[] = {
	"random keys", "few distinct keys", "one key", "sorted", "sorted, runs of equal keys",
	"reversed", "keys differing in the top byte only"
};

static void fill(struct item *items, size_t n, enum shape shape)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t r = next_random();

		items[i].tie = (uint32_t)(next_random() % 7);
		items[i].serial = (uint32_t)i;
		switch (shape) {
		case RANDOM: items[i].key = r; break;
		case FEW_KEYS: items[i].key = r % 5; break;
		case ONE_KEY: items[i].key = 42; break;
		case SORTED: items[i].key = i * 3; break;
		case SORTED_RUNS: items[i].key = i / 40; break;
		case REVERSED: items[i].key = (uint64_t)(n - i) << 20; break;
		case HIGH_BYTE: items[i].key = (r & 0xff00000000000000u) | 0x1234; break;
		}
	}
}

static void check_sort(size_t n, enum shape shape)
{
	struct item *got = malloc((n ? n : 1) * sizeof *got);
	struct item *want = malloc((n ? n : 1) * sizeof *want);
	char what[96];

	fill(got, n, shape);
	memcpy(want, got, n * sizeof *got);
	qsort(want, n, sizeof *want, compare_items);
	sort_by_key(got, n, sizeof *got, item_key, compare_items);
	snprintf(what, sizeof what, "sort_by_key = qsort: %zu items, %s", n,
		 shape_names[shape]);
	check_true(memcmp(got, want, n * sizeof *got) == 0, what, __FILE__, __LINE__);
	free(got);
	free(want);
}

/* Orders by key and tie only: equal items must keep their input order
 * (their serials ascending), as the positions whose ticks are summed in
 * the order they were credited. */
/* An element larger than the in-place path's swap space. */
struct large_item {
	struct item item;
	char payload[200];
};

static uint64_t large_key(const void *x)
{
	return ((const struct large_item *)x)->item.key;
}

static int compare_large(const void *x, const void *y)
{
	const struct large_item *a = x, *b = y;
	int c = compare_items(&a->item, &b->item);

	return c ? c : memcmp(a->payload, b->payload, sizeof a->payload);
}

static void check_large_elements(enum shape shape)
{
	size_t n = 500;
	struct large_item *got = calloc(n, sizeof *got), *want = calloc(n, sizeof *want);
	struct item items[500];
	char what[96];

	fill(items, n, shape);
	for (size_t i = 0; i < n; i++) {
		got[i].item = items[i];
		snprintf(got[i].payload, sizeof got[i].payload, "payload %zu", i);
	}
	memcpy(want, got, n * sizeof *got);
	qsort(want, n, sizeof *want, compare_large);
	sort_by_key(got, n, sizeof *got, large_key, compare_large);
	snprintf(what, sizeof what, "sort_by_key = qsort: 216-byte elements, %s",
		 shape_names[shape]);
	check_true(memcmp(got, want, n * sizeof *got) == 0, what, __FILE__, __LINE__);
	free(got);
	free(want);
}

/* What search_above must answer: the first index whose key is above
 * LIMIT. */
static size_t first_above(const uint64_t *keys, size_t n, size_t stride_words,
			  uint64_t limit)
{
	size_t i = 0;

	while (i < n && keys[i * stride_words] <= limit)
		i++;
	return i;
}

/* Ascending keys with repeats, in elements of STRIDE_WORDS words whose
 * key is word KEY_WORD; every look-up from every kind of start. */
static void check_search(size_t n, size_t stride_words, size_t key_word)
{
	uint64_t *elems = calloc(n * stride_words + 1, sizeof *elems);
	const uint64_t *keys = elems + key_word;
	uint64_t key = 5;
	size_t wrong = 0, from = 0, tries = 0;
	char what[96];

	for (size_t i = 0; i < n; i++) {
		key += next_random() % 4;	/* 0: a repeat */
		elems[i * stride_words + key_word] = key;
		elems[i * stride_words + (key_word + 1) % stride_words] = ~key;
	}
	for (uint64_t limit = 0; limit <= key + 2; limit++) {
		size_t want = first_above(keys, n, stride_words, limit);
		size_t starts[] = { 0, from, want, want + 1, n, n + 1,
				    (size_t)(next_random() % (n + 2)) };

		for (size_t s = 0; s < sizeof starts / sizeof *starts; s++, tries++)
			if (search_above(keys, n, stride_words * sizeof *elems, limit,
					 starts[s]) != want)
				wrong++;
		from = want;	/* ascending look-ups, as the stages make them */
	}
	/* and the largest key there is */
	if (search_above(keys, n, stride_words * sizeof *elems, UINT64_MAX, 0) != n)
		wrong++;
	snprintf(what, sizeof what,
		 "search_above = linear search: %zu elements of %zu words, key word %zu (%zu look-ups)",
		 n, stride_words, key_word, tries);
	check_true(wrong == 0, what, __FILE__, __LINE__);
	if (wrong)
		printf("# %zu wrong answers\n", wrong);
	free(elems);
}

/* copy_printable: every byte value at every place of an eight-byte word
 * and around it, alone and next to another control character, copied and
 * in place: only bytes below 0x20 and 0x7f become '?', and nothing past
 * the LEN bytes is written. */
static void check_copy_printable(void)
{
	unsigned first_wrong = 0;	/* the first byte copied wrongly */
	char empty[1] = { 'x' };

	for (unsigned byte = 0; byte < 256 && !first_wrong; byte++) {
		bool control = byte < 0x20 || byte == 0x7f;

		for (size_t len = 1; len <= 19; len++)
			for (size_t at = 0; at < len; at++) {
				char name[24], expected[24], copy[24];

				memset(name, 'a', sizeof name);
				name[at] = (char)byte;
				memcpy(expected, name, sizeof name);
				expected[at] = control ? '?' : (char)byte;
				if (at + 1 < len) {	/* a tab right after it */
					name[at + 1] = '\t';
					expected[at + 1] = '?';
				}
				memset(copy, 'z', sizeof copy);
				if (copy_printable(copy, name, len) != copy + len ||
				    memcmp(copy, expected, len) != 0 || copy[len] != 'z' ||
				    copy_printable(name, name, len) != name + len ||
				    memcmp(name, expected, sizeof name) != 0)
					first_wrong = byte + 1;
			}
	}
	CHECK_U64(first_wrong, 0);
	CHECK(copy_printable(empty, "\n", 0) == empty && empty[0] == 'x');
}

/* base_name: after the last '/', whatever comes before it. */
static void check_base_name(void)
{
	const char *path = "/usr/lib/libc.so.6";

	CHECK_STR_EQ(base_name("/usr/lib/libc.so.6"), "libc.so.6");
	CHECK_STR_EQ(base_name("a/b.profile"), "b.profile");
	CHECK_STR_EQ(base_name("prog"), "prog");
	CHECK_STR_EQ(base_name("/prog"), "prog");
	CHECK_STR_EQ(base_name("dir/"), "");
	CHECK_STR_EQ(base_name(""), "");
	CHECK(base_name(path) == path + 9);	/* a pointer into PATH */
}

/* utf8_length: well-formed sequences only; printable_length: and no
 * control character (C0, DEL, C1) nor U+FFFE, U+FFFF. */
static void check_utf8(void)
{
	CHECK_U64(utf8_length("a"), 1);
	CHECK_U64(utf8_length("\xc3\xa9"), 2);		/* e acute */
	CHECK_U64(utf8_length("\xe2\x82\xac"), 3);		/* euro */
	CHECK_U64(utf8_length("\xf0\x9f\x98\x80"), 4);	/* U+1F600 */
	CHECK_U64(utf8_length("\xff"), 0);
	CHECK_U64(utf8_length("\x80"), 0);			/* a stray continuation */
	CHECK_U64(utf8_length("\xc3"), 0);			/* cut by the NUL */
	CHECK_U64(utf8_length("\xc3" "a"), 0);
	CHECK_U64(utf8_length("\xc0\x80"), 0);		/* overlong */
	CHECK_U64(utf8_length("\xe0\x80\x80"), 0);
	CHECK_U64(utf8_length("\xed\xa0\x80"), 0);		/* a surrogate */
	CHECK_U64(utf8_length("\xf4\x90\x80\x80"), 0);	/* past U+10FFFF */
	CHECK_U64(printable_length("a"), 1);
	CHECK_U64(printable_length("\x1b"), 0);
	CHECK_U64(printable_length("\x7f"), 0);
	CHECK_U64(printable_length("\xc2\x9b"), 0);		/* C1: CSI */
	CHECK_U64(printable_length("\xc2\xa0"), 2);
	CHECK_U64(printable_length("\xef\xbf\xbe"), 0);	/* U+FFFE */
	CHECK_U64(printable_length("\xef\xbf\xbd"), 3);	/* U+FFFD */
	CHECK_U64(printable_length("\xff"), 0);
}

/* section_end: just past the section, wherever it is loaded. */
static void check_section_end(void)
{
	asection sec = { .vma = 0x401000, .size = 0x2345 };

	CHECK_U64(section_end(&sec), 0x403345);
	sec.size = 0;
	CHECK_U64(section_end(&sec), 0x401000);
	sec = (asection){ .vma = 0xffffffff00000000u, .size = 0x10 };
	CHECK_U64(section_end(&sec), 0xffffffff00000010u);
}

/* Copies in blocks: each where it was asked, aligned, the blocks growing
 * to their largest size, a copy larger than that in a block of its own,
 * and none overwritten by a later one. */
static void check_copy_blocks(void)
{
	struct copy_blocks b = { 16, 64, NULL };
	uint64_t words[40];
	const char *copies[100];
	char text[8];

	for (int i = 0; i < 100; i++) {
		snprintf(text, sizeof text, "n%d", i);
		copies[i] = copy_blocks_add(&b, text, strlen(text) + 1, 1);
		CHECK(copies[i] != NULL);
	}
	for (int i = 0; i < 100; i++) {
		snprintf(text, sizeof text, "n%d", i);
		CHECK_STR_EQ(copies[i], text);
	}
	for (size_t i = 0; i < 40; i++)
		words[i] = i * 0x0101010101010101u;
	for (size_t n = 1; n <= 40; n += 13) {
		const uint64_t *w = copy_blocks_add(&b, words, n * sizeof *words,
						    _Alignof(uint64_t));

		CHECK(w != NULL && (uintptr_t)w % _Alignof(uint64_t) == 0);
		CHECK(w && memcmp(w, words, n * sizeof *words) == 0);
	}
	CHECK_STR_EQ(copies[0], "n0");
	copy_blocks_release(&b);
	CHECK(b.last == NULL);
}

int main(void)
{
	static const size_t sizes[] = { 0, 1, 2, 17, 63, 64, 65, 1000, 100000 };

	for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
		for (enum shape shape = RANDOM; shape <= HIGH_BYTE; shape++)
			check_sort(sizes[s], shape);
	for (enum shape shape = RANDOM; shape <= HIGH_BYTE; shape++)
		check_large_elements(shape);

	check_search(0, 1, 0);
	check_search(1, 1, 0);
	check_search(7, 1, 0);
	check_search(1000, 1, 0);
	check_search(1000, 3, 1);	/* a later member, as for function ends */
	check_search(5000, 2, 0);

	{
		size_t cap = 0;
		int *a = array_grow(NULL, &cap, 100, sizeof *a);

		CHECK(a != NULL && cap >= 100);
		CHECK(array_grow(a, &cap, 50, sizeof *a) == a);
		CHECK(array_grow(a, &cap, SIZE_MAX / 2, sizeof *a) == NULL);
		CHECK(cap >= 100 && cap < SIZE_MAX / 2);
		free(a);
	}
	CHECK_U64(add_saturating(UINT64_MAX - 1, 5), UINT64_MAX);
	CHECK_U64(add_saturating(40, 2), 42);
	check_copy_printable();
	check_base_name();
	check_utf8();
	check_section_end();
	check_copy_blocks();
	return check_report("test-util");
}
