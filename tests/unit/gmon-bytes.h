/* gmon-bytes.h -- build gmon.out images in memory for the unit tests, in
 * either byte order and address width. */
#ifndef GMON2CG_GMON_BYTES_H
#define GMON2CG_GMON_BYTES_H

#include <stdint.h>
#include <string.h>

#include "gmon.h"

struct bytes {
	unsigned char data[1 << 16];
	size_t len;
	struct gmon_target t;
};

static inline void put(struct bytes *b, uint64_t v, unsigned size)
{
	for (unsigned i = 0; i < size; i++) {
		unsigned shift = b->t.big_endian ? 8 * (size - 1 - i) : 8 * i;

		b->data[b->len++] = (unsigned char)(v >> shift);
	}
}

static inline void put_addr(struct bytes *b, uint64_t v)
{
	put(b, v, b->t.addr_size);
}

static inline void put_tagged_header(struct bytes *b)
{
	memcpy(b->data + b->len, "gmon", 4);
	b->len += 4;
	put(b, 1, 4);
	memset(b->data + b->len, 0, 12);
	b->len += 12;
}

/* A histogram record whose bins hold COUNTS[0..NBINS). */
static inline void put_hist(struct bytes *b, uint64_t low, uint64_t high,
			    uint32_t nbins, uint32_t rate,
			    const uint16_t *counts)
{
	char dimen[15] = "seconds";

	b->data[b->len++] = 0;
	put_addr(b, low);
	put_addr(b, high);
	put(b, nbins, 4);
	put(b, rate, 4);
	memcpy(b->data + b->len, dimen, 15);
	b->len += 15;
	b->data[b->len++] = 's';
	for (uint32_t i = 0; i < nbins; i++)
		put(b, counts ? counts[i] : 0, 2);
}

static inline void put_arc(struct bytes *b, uint64_t from, uint64_t self,
			   uint32_t count)
{
	b->data[b->len++] = 1;
	put_addr(b, from);
	put_addr(b, self);
	put(b, count, 4);
}

/* An LD_PROFILE file laid out as glibc's ld.so maps it: version 0x1ffff,
 * 4-byte tags, one bin per 4 bytes of [LOW, HIGH) with COUNTS (or zeros),
 * then the arc table: NARCS as the count of slots taken, NSLOTS packed
 * slots of which the first NGIVEN hold ARCS (pcs as offsets from LOW) and
 * the rest are zero. */
struct ld_arc {
	uint64_t from_off, self_off;
	uint32_t count;
};

static inline void put_ld_profile(struct bytes *b, uint64_t low, uint64_t high,
				  uint32_t rate, const uint16_t *counts,
				  uint32_t narcs, const struct ld_arc *arcs,
				  size_t ngiven, size_t nslots)
{
	uint32_t nbins = (uint32_t)((high - low) / 4);
	char dimen[15] = "seconds";

	memcpy(b->data + b->len, "gmon", 4);
	b->len += 4;
	put(b, 0x1ffff, 4);
	memset(b->data + b->len, 0, 12);
	b->len += 12;
	put(b, 0, 4);
	put_addr(b, low);
	put_addr(b, high);
	put(b, nbins, 4);
	put(b, rate, 4);
	memcpy(b->data + b->len, dimen, 15);
	b->len += 15;
	b->data[b->len++] = 's';
	for (uint32_t i = 0; i < nbins; i++)
		put(b, counts ? counts[i] : 0, 2);
	put(b, 1, 4);
	put(b, narcs, 4);
	for (size_t i = 0; i < nslots; i++) {
		struct ld_arc a = i < ngiven ? arcs[i] : (struct ld_arc){ 0 };

		put_addr(b, a.from_off);
		put_addr(b, a.self_off);
		put(b, a.count, 4);
	}
}

#endif
