/* hashindex.c -- growing the hash index of hashindex.h. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "hashindex.h"

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
