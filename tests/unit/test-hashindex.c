/* test-hashindex.c -- the hash index finds each entry it was given and no
 * other: with keys whose hashes collide, with runs of slots that wrap
 * around the end of the array, after it has grown (which moves every
 * entry), and in a copy; the index of strings numbers each string once,
 * found by its bytes (not only up to a NUL), in its copy too. */
#include <config.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "hashindex.h"

#define NKEYS 5000

/* The entries are keys; the test chooses each key's hash. */
static bool same_key(const void *keys, size_t pos, const void *key)
{
	return ((const uint64_t *)keys)[pos] == *(const uint64_t *)key;
}

struct table {
	struct hash_index index;
	uint64_t keys[NKEYS];
	size_t nkeys;
};

/* The position of KEY in T, adding it with HASH if it is new (*ADDED). */
static size_t find_or_add(struct table *t, uint64_t key, uint64_t hash, bool *added)
{
	struct hash_slot *slot;

	if (!hash_index_reserve(&t->index, t->nkeys + 1))
		return SIZE_MAX;
	slot = hash_index_find(&t->index, hash, same_key, t->keys, &key);
	*added = hash_slot_is_free(slot);
	if (*added) {
		if (t->nkeys == NKEYS)	/* a broken index misses keys */
			return SIZE_MAX;
		t->keys[t->nkeys] = key;
		hash_index_add(&t->index, slot, hash, t->nkeys++);
	}
	return hash_slot_entry(slot);
}

/* Whether every key of T is at its own position when looked up again,
 * and a key never added is not found. */
static bool all_found(const struct table *t, uint64_t (*hash)(uint64_t))
{
	uint64_t absent = UINT64_MAX;

	for (size_t i = 0; i < t->nkeys; i++) {
		const struct hash_slot *slot =
			hash_index_find(&t->index, hash(t->keys[i]), same_key, t->keys, &t->keys[i]);

		if (hash_slot_is_free(slot) || hash_slot_entry(slot) != i)
			return false;
	}
	return hash_slot_is_free(hash_index_find(&t->index, hash(absent), same_key,
						 t->keys, &absent));
}

static uint64_t spread(uint64_t key)
{
	return key * 0x9e3779b97f4a7c15u;
}

static uint64_t seven_hashes(uint64_t key)
{
	return spread(key % 7);
}

/* hashes that all fall on the last slot of a 64-slot array */
static uint64_t last_slot(uint64_t key)
{
	return 63 + (key % 2) * 64;
}

/* Adds keys 0..N-1 with HASH, each twice: the first time it is new, the
 * second it is found where it was put. */
static void check_adds(struct table *t, size_t n, uint64_t (*hash)(uint64_t),
		       const char *what)
{
	bool positions = true, news = true;

	check_comment(what);
	t->index = (struct hash_index){ NULL, 0, 0 };
	t->nkeys = 0;
	for (size_t k = 0; k < n; k++) {
		bool added;

		positions &= find_or_add(t, k, hash(k), &added) == k;
		news &= added;
		positions &= find_or_add(t, k, hash(k), &added) == k;
		news &= !added;
	}
	CHECK(positions);
	CHECK(news);
	CHECK_U64(t->index.count, n);
	CHECK(t->index.cap >= 2 * n && (t->index.cap & (t->index.cap - 1)) == 0);
	CHECK(all_found(t, hash));
}

/* The number of S[0..N) in T, adding S (which must stay) if it is new;
 * SIZE_MAX when out of memory. */
static size_t string_number(struct string_index *t, const char *s, size_t n,
			    bool *added)
{
	uint64_t hash;
	struct hash_slot *slot = string_index_find(t, s, n, &hash);

	if (!slot)
		return SIZE_MAX;
	*added = hash_slot_is_free(slot);
	if (*added && !string_index_add(t, slot, hash, s))
		return SIZE_MAX;
	return hash_slot_entry(slot);
}

static void check_string_index(void)
{
	static char names[300][8];
	struct string_index t = { 0 }, copy;
	const char *line = "main.c:12";	/* "main.c" is its first 6 bytes */
	bool added, all = true;

	CHECK_U64(string_number(&t, "main.c", 6, &added), 0);
	CHECK(added);
	CHECK_U64(string_number(&t, line, 6, &added), 0);
	CHECK(!added);
	CHECK_U64(string_number(&t, "main", 4, &added), 1);
	CHECK(added);
	CHECK_U64(string_number(&t, line, strlen(line), &added), 2);
	CHECK(added);
	/* enough to grow the index several times */
	for (int i = 0; i < 300; i++) {
		snprintf(names[i], sizeof names[i], "f%d", i);
		all &= string_number(&t, names[i], strlen(names[i]), &added) ==
		       (size_t)i + 3 && added;
	}
	CHECK(all);
	CHECK_U64(t.index.count, 303);
	CHECK(string_index_copy(&copy, &t));
	string_index_release(&t);
	CHECK(t.strs == NULL && t.index.count == 0);
	all = true;
	for (int i = 0; i < 300; i++)
		all &= string_number(&copy, names[i], strlen(names[i]), &added) ==
		       (size_t)i + 3 && !added && copy.strs[i + 3] == names[i];
	CHECK(all);
	CHECK_U64(string_number(&copy, "main", 4, &added), 1);
	CHECK(!added);
	CHECK_U64(string_number(&copy, "util.c", 6, &added), 303);
	CHECK(added);
	string_index_release(&copy);
}

int main(void)
{
	static struct table t, copy;

	check_adds(&t, 20, spread, "a few keys, no growth");
	CHECK_U64(t.index.cap, 64);
	hash_index_release(&t.index);

	check_adds(&t, 20, last_slot, "keys on the last slot wrap around to the first");
	{
		uint64_t key = 1;	/* the second key added */
		struct hash_slot *slot = hash_index_find(&t.index, last_slot(key), same_key,
							 t.keys, &key);

		CHECK(slot == &t.index.slots[0]);
	}
	hash_index_release(&t.index);

	check_adds(&t, 500, seven_hashes, "500 keys on 7 hashes, through growth");
	hash_index_release(&t.index);

	check_adds(&t, NKEYS, spread, "5000 keys, through eight doublings");
	CHECK_U64(t.index.cap, 16384);
	copy = t;
	CHECK(hash_index_copy(&copy.index, &t.index));
	CHECK(copy.index.slots != t.index.slots);
	hash_index_release(&t.index);
	CHECK(all_found(&copy, spread));
	hash_index_release(&copy.index);
	CHECK(copy.index.slots == NULL && copy.index.count == 0);

	CHECK(hash_index_reserve(&t.index, 1000));
	CHECK_U64(t.index.cap, 2048);
	CHECK(!hash_index_reserve(&t.index, SIZE_MAX / 4));
	CHECK_U64(t.index.cap, 2048);
	hash_index_release(&t.index);

	check_string_index();
	return check_report("test-hashindex");
}
