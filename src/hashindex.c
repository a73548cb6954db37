/* hashindex.c -- growing the hash index of hashindex.h; its index of
 * strings. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "hashindex.h"
#include "util.h"

bool hash_index_grow(struct hash_index *t, size_t n)
{
	struct hash_index bigger = { NULL, t->cap ? t->cap : 64, t->count };

	while (n > bigger.cap / 2) {
		if (bigger.cap > UINT32_MAX / 2)
			return false;
		bigger.cap *= 2;
	}
	bigger.slots = calloc(bigger.cap, sizeof *bigger.slots);
	if (!bigger.slots)
		return false;
	/* the hashes are kept: moving an entry needs no key */
	for (size_t i = 0; i < t->cap; i++) {
		size_t j = t->slots[i].hash & (bigger.cap - 1);

		if (hash_slot_is_free(&t->slots[i]))
			continue;
		while (!hash_slot_is_free(&bigger.slots[j]))
			j = (j + 1) & (bigger.cap - 1);
		bigger.slots[j] = t->slots[i];
	}
	free(t->slots);
	*t = bigger;
	return true;
}

bool hash_index_copy(struct hash_index *to, const struct hash_index *from)
{
	*to = *from;
	to->slots = malloc((from->cap ? from->cap : 1) * sizeof *to->slots);
	if (!to->slots) {
		*to = (struct hash_index){ NULL, 0, 0 };
		return false;
	}
	if (from->cap)
		memcpy(to->slots, from->slots, from->cap * sizeof *to->slots);
	return true;
}

void hash_index_release(struct hash_index *t)
{
	free(t->slots);
	*t = (struct hash_index){ NULL, 0, 0 };
}

struct string_key {
	const char *s;
	size_t n;
};

static bool same_string(const void *strs, size_t pos, const void *key)
{
	const struct string_key *k = key;
	const char *s = ((const char *const *)strs)[pos];

	return strncmp(s, k->s, k->n) == 0 && s[k->n] == '\0';
}

struct hash_slot *string_index_find(struct string_index *t, const char *s,
				    size_t n, uint64_t *hash)
{
	struct string_key key = { s, n };

	if (!hash_index_reserve(&t->index, t->index.count + 1))
		return NULL;
	*hash = hash_bytes(s, n);
	return hash_index_find(&t->index, *hash, same_string, t->strs, &key);
}

bool string_index_add(struct string_index *t, struct hash_slot *slot,
		      uint64_t hash, const char *s)
{
	size_t count = t->index.count;
	const char **strs = array_grow(t->strs, &t->cap, count + 1,
				       sizeof *strs);

	if (!strs)
		return false;
	t->strs = strs;
	strs[count] = s;
	hash_index_add(&t->index, slot, hash, count);
	return true;
}

bool string_index_copy(struct string_index *to,
		       const struct string_index *from)
{
	size_t cap = from->cap ? from->cap : 1;

	*to = (struct string_index){ 0 };
	if (!(to->strs = malloc(cap * sizeof *to->strs)))
		return false;
	to->cap = cap;
	if (from->index.count)
		memcpy(to->strs, from->strs, from->index.count * sizeof *to->strs);
	return hash_index_copy(&to->index, &from->index);
}

void string_index_release(struct string_index *t)
{
	free(t->strs);
	hash_index_release(&t->index);
	*t = (struct string_index){ 0 };
}
