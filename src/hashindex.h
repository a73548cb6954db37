/* hashindex.h -- finds entries of an array the caller keeps by a key: open
 * addressing with linear probing over slots that hold each entry's hash
 * and position, at most half of them used.  Each user brings its own hash
 * and equality; the look-up is inline, so that the compiler inlines the
 * equality into it (the writer looks up every name it writes).  On it,
 * the index of strings that the callgrind writer and reader share. */
#ifndef GMON2CG_HASHINDEX_H
#define GMON2CG_HASHINDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Eight bytes, so that probes stay within few cache lines: an index
 * holds at most 2^30 entries. */
struct hash_slot {
	uint32_t hash;		/* its low bits, compared before the keys */
	uint32_t ref;		/* the entry's position + 1; 0: a free slot */
};

struct hash_index {
	struct hash_slot *slots;
	size_t cap, count;	/* cap: 0 or a power of two */
};

/* Makes room for N entries in all (hash_index_reserve calls it when T is
 * too small).  Returns false when out of memory, leaving T as it was. */
bool hash_index_grow(struct hash_index *t, size_t n);

static inline bool hash_index_reserve(struct hash_index *t, size_t n)
{
	return n <= t->cap / 2 || hash_index_grow(t, n);
}

/* The slot of the entry at POS for which SAME(ENTRIES, POS, KEY) holds,
 * among those whose hash is HASH, or else the free slot where KEY's entry
 * goes.  T must have room for one more entry (hash_index_reserve). */
static inline struct hash_slot *
hash_index_find(const struct hash_index *t, uint64_t hash,
		bool (*same)(const void *entries, size_t pos, const void *key),
		const void *entries, const void *key)
{
	size_t mask = t->cap - 1;

	for (size_t i = hash & mask;; i = (i + 1) & mask) {
		struct hash_slot *slot = &t->slots[i];

		if (!slot->ref || (slot->hash == (uint32_t)hash &&
				   same(entries, slot->ref - 1, key)))
			return slot;
	}
}

/* The address where a look-up of HASH in T starts, for a caller that
 * knows the hashes of its next look-ups to prefetch. */
static inline const struct hash_slot *hash_index_first_probe(const struct hash_index *t,
							     uint64_t hash)
{
	return &t->slots[hash & (t->cap - 1)];
}

static inline bool hash_slot_is_free(const struct hash_slot *slot)
{
	return !slot->ref;
}

/* The position of the entry in SLOT, which is not free. */
static inline size_t hash_slot_entry(const struct hash_slot *slot)
{
	return slot->ref - 1;
}

/* Puts the entry at POS, whose hash is HASH, into SLOT: the free slot
 * that hash_index_find returned for it. */
static inline void hash_index_add(struct hash_index *t, struct hash_slot *slot,
				  uint64_t hash, size_t pos)
{
	*slot = (struct hash_slot){ (uint32_t)hash, (uint32_t)pos + 1 };
	t->count++;
}

/* Find-or-add, the first half: the position of KEY's entry among the
 * COUNT entries T indexes, or COUNT where it has none yet, *SLOT then the
 * free slot for hash_index_add once the caller has put the entry at
 * COUNT.  SIZE_MAX when memory runs out. */
static inline size_t hash_index_place(struct hash_index *t, uint64_t hash,
		bool (*same)(const void *entries, size_t pos, const void *key),
		const void *entries, size_t count, const void *key,
		struct hash_slot **slot)
{
	*slot = NULL;
	if (!hash_index_reserve(t, count + 1))
		return SIZE_MAX;
	*slot = hash_index_find(t, hash, same, entries, key);
	return hash_slot_is_free(*slot) ? count : hash_slot_entry(*slot);
}

/* Makes TO a copy of FROM.  Returns false when out of memory, with TO
 * empty. */
bool hash_index_copy(struct hash_index *to, const struct hash_index *from);

void hash_index_release(struct hash_index *t);

/* Strings found by their bytes, each once, numbered from 0 in the order
 * added: the writer's compressed names, the reader's names.  The strings
 * are the caller's, and must outlive the index. */
struct string_index {
	const char **strs;	/* by number; index.count of them */
	size_t cap;
	struct hash_index index;	/* of strs, by hash_bytes */
};

/* The slot of S[0..N) in T, with *HASH its hash: free when T has no such
 * string (string_index_add puts it there), else hash_slot_entry() is its
 * number.  NULL when out of memory. */
struct hash_slot *string_index_find(struct string_index *t, const char *s,
				    size_t n, uint64_t *hash);

/* Adds S, equal to the string looked for, in SLOT, the free slot that
 * string_index_find returned for it.  Returns false when out of memory,
 * leaving T as it was. */
bool string_index_add(struct string_index *t, struct hash_slot *slot,
		      uint64_t hash, const char *s);

/* Makes TO a copy of FROM, with the same strings.  Returns false when out
 * of memory; TO is to be released either way. */
bool string_index_copy(struct string_index *to,
		       const struct string_index *from);

/* Frees T's tables, not its strings. */
void string_index_release(struct string_index *t);

#endif
