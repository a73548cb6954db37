/* test-gmon.c -- the gmon.out reader on hand-made byte images: both byte
 * orders and address widths, the BSD layouts, merging, truncation at every
 * byte, hostile sizes, and the profil(2) bin-to-address relation. */
#include <config.h>

#include <stdlib.h>

#include "check.h"
#include "diag.h"
#include "gmon-bytes.h"
#include "gmon.h"

static const struct gmon_target targets[] = {
	{ .addr_size = 8 }, { .addr_size = 8, .big_endian = true },
	{ .addr_size = 4 }, { .addr_size = 4, .big_endian = true },
};

/* The samples of bin INDEX of H; checks that the bins with samples are
 * kept in increasing order, each once, none with 0 samples. */
static uint64_t bin_count(const struct gmon_hist *h, uint64_t index)
{
	uint64_t count = 0;

	for (size_t i = 0; i < h->ncounted; i++) {
		CHECK(h->counted[i].count > 0);
		CHECK(i == 0 || h->counted[i - 1].index < h->counted[i].index);
		if (h->counted[i].index == index)
			count = h->counted[i].count;
	}
	return count;
}

static struct bytes *tagged_sample(struct gmon_target t)
{
	static struct bytes b;
	uint16_t counts[8] = { 0, 3, 0, 0, 65535, 0, 1, 0 };

	memset(&b, 0, sizeof b);
	b.t = t;
	put_tagged_header(&b);
	put_hist(&b, 0x1000, 0x1020, 8, 100, counts);
	put_arc(&b, 0x1004, 0x1010, 7);
	put_arc(&b, 0x1008, 0x1010, 5);
	put_arc(&b, 0x1004, 0x1010, 2);	/* same pair again: summed */
	/* a basic-block record with two blocks */
	b.data[b.len++] = 2;
	put(&b, 2, 4);
	put_addr(&b, 0x1002);
	put(&b, 9, t.addr_size);
	put_addr(&b, 0x1006);
	put(&b, 4, t.addr_size);
	return &b;
}

static void test_tagged(void)
{
	for (size_t i = 0; i < sizeof targets / sizeof *targets; i++) {
		struct bytes *b = tagged_sample(targets[i]);
		struct gmon_profile p;
		struct g2c_error err = { "" };

		gmon_profile_init(&p);
		CHECK(gmon_profile_add_buffer(&p, &b->t, b->data, b->len, "t", &err) == 0);
		CHECK_U64(p.nhists, 1);
		CHECK_U64(p.hists[0].low_pc, 0x1000);
		CHECK_U64(p.hists[0].high_pc, 0x1020);
		CHECK_U64(p.hists[0].nbins, 8);
		CHECK_U64(p.hists[0].rate, 100);
		CHECK(strcmp(p.hists[0].dimen, "seconds") == 0);
		CHECK_U64(bin_count(&p.hists[0], 1), 3);
		CHECK_U64(bin_count(&p.hists[0], 4), 65535);
		CHECK_U64(p.narcs, 2);
		CHECK_U64(p.arcs[0].from_pc, 0x1004);
		CHECK_U64(p.arcs[0].count, 9);
		CHECK_U64(p.arcs[1].count, 5);
		CHECK_U64(p.nbbs, 2);
		CHECK_U64(p.bbs[0].addr, 0x1002);
		CHECK_U64(p.bbs[0].count, 9);
		CHECK_U64(p.first_format, GMON_FORMAT_TAGGED);
		/* A second file with the same range sums bin by bin. */
		CHECK(gmon_profile_add_buffer(&p, &b->t, b->data, b->len, "t", &err) == 0);
		CHECK_U64(p.nhists, 1);
		CHECK_U64(bin_count(&p.hists[0], 4), 131070);
		CHECK_U64(p.arcs[0].count, 18);
		CHECK_U64(p.bbs[1].count, 8);
		CHECK_U64(p.hists[0].ncounted, 3);
		gmon_profile_release(&p);
	}
}

/* Files with samples in different bins of one range: the bins with
 * samples are merged in order, shared ones summed, empty ones not kept. */
static void test_bins_merged(void)
{
	static const uint16_t first[8] = { 0, 2, 0, 0, 0, 0, 5, 0 };
	static const uint16_t second[8] = { 1, 0, 0, 3, 0, 0, 4, 9 };
	static const uint16_t none[8] = { 0 };
	const uint16_t *files[] = { first, none, second };
	struct gmon_profile p;
	struct g2c_error err = { "" };

	gmon_profile_init(&p);
	for (size_t f = 0; f < 3; f++) {
		struct bytes b = { .t = targets[0] };

		put_tagged_header(&b);
		put_hist(&b, 0x1000, 0x1020, 8, 100, files[f]);
		CHECK(gmon_profile_add_buffer(&p, &b.t, b.data, b.len, "t", &err) == 0);
	}
	CHECK_U64(p.nhists, 1);
	CHECK_U64(p.hists[0].ncounted, 5);
	CHECK_U64(bin_count(&p.hists[0], 0), 1);
	CHECK_U64(bin_count(&p.hists[0], 1), 2);
	CHECK_U64(bin_count(&p.hists[0], 3), 3);
	CHECK_U64(bin_count(&p.hists[0], 6), 9);
	CHECK_U64(bin_count(&p.hists[0], 7), 9);
	gmon_profile_release(&p);
}

/* Every proper prefix that does not end on a record boundary, and the
 * header alone, is refused with a message naming the file; none crashes. */
static void test_truncation(void)
{
	for (size_t i = 0; i < sizeof targets / sizeof *targets; i++) {
		struct bytes *b = tagged_sample(targets[i]);
		unsigned P = b->t.addr_size;
		size_t hist_end = 20 + 1 + 2 * P + 24 + 16;
		size_t arc_size = 1 + 2 * P + 4;

		for (size_t len = 0; len < b->len; len++) {
			struct gmon_profile p;
			struct g2c_error err = { "" };
			bool boundary = len == hist_end ||
					len == hist_end + arc_size ||
					len == hist_end + 2 * arc_size ||
					len == hist_end + 3 * arc_size;
			int rc;

			gmon_profile_init(&p);
			rc = gmon_profile_add_buffer(&p, &b->t, b->data, len, "cut", &err);
			if (boundary) {
				CHECK(rc == 0);
			} else if (len == 20) {
				/* the header alone carries nothing */
				CHECK(rc < 0);
				CHECK_STR_CONTAINS(err.msg, "cut: empty profile");
			} else {
				CHECK(rc < 0);
				CHECK(strncmp(err.msg, "cut: ", 5) == 0);
			}
			gmon_profile_release(&p);
		}
	}
}

static int read_one(struct bytes *b, struct gmon_profile *p,
		    struct g2c_error *err)
{
	gmon_profile_init(p);
	return gmon_profile_add_buffer(p, &b->t, b->data, b->len, "f", err);
}

static void test_bad_files(void)
{
	static struct bytes b;
	struct gmon_profile p;
	struct g2c_error err;

	/* A histogram that claims 2^31 bins in a short file: refused before
	 * anything is allocated for it. */
	memset(&b, 0, sizeof b);
	b.t = targets[0];
	put_tagged_header(&b);
	put_hist(&b, 0x1000, 0x2000, 4, 100, NULL);
	memcpy(b.data + 20 + 1 + 16, "\0\0\0\x80", 4);
	CHECK(read_one(&b, &p, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "truncated histogram record at offset 20");
	gmon_profile_release(&p);

	/* Unknown tag. */
	memset(&b, 0, sizeof b);
	b.t = targets[0];
	put_tagged_header(&b);
	b.data[b.len++] = 7;
	CHECK(read_one(&b, &p, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "unknown record tag 7 at offset 20");
	gmon_profile_release(&p);

	/* Unsupported version. */
	memset(&b, 0, sizeof b);
	b.t = targets[0];
	put_tagged_header(&b);
	b.data[4] = 9;
	CHECK(read_one(&b, &p, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "unsupported gmon.out version 9");
	gmon_profile_release(&p);

	/* Empty file. */
	b.len = 0;
	CHECK(read_one(&b, &p, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "f: empty file");
	gmon_profile_release(&p);

	/* A range that ends before it starts. */
	memset(&b, 0, sizeof b);
	b.t = targets[0];
	put_tagged_header(&b);
	put_hist(&b, 0x2000, 0x1000, 4, 100, NULL);
	CHECK(read_one(&b, &p, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "ends (0x1000) before it starts (0x2000)");
	gmon_profile_release(&p);
}

static void test_hist_merging(void)
{
	static struct bytes b;
	struct gmon_profile p;
	struct g2c_error err;
	uint16_t ones[4] = { 1, 1, 1, 1 };

	/* Disjoint ranges are kept side by side. */
	memset(&b, 0, sizeof b);
	b.t = targets[2];
	put_tagged_header(&b);
	put_hist(&b, 0x1000, 0x1010, 4, 100, ones);
	put_hist(&b, 0x2000, 0x2010, 4, 100, ones);
	put_hist(&b, 0x1000, 0x1010, 4, 100, ones);
	CHECK(read_one(&b, &p, &err) == 0);
	CHECK_U64(p.nhists, 2);
	CHECK_U64(bin_count(&p.hists[0], 3), 2);
	CHECK_U64(bin_count(&p.hists[1], 3), 1);
	gmon_profile_release(&p);

	/* Overlapping without matching is refused. */
	memset(&b, 0, sizeof b);
	b.t = targets[2];
	put_tagged_header(&b);
	put_hist(&b, 0x1000, 0x1010, 4, 100, ones);
	put_hist(&b, 0x1008, 0x1018, 4, 100, ones);
	CHECK(read_one(&b, &p, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "overlaps");
	gmon_profile_release(&p);

	/* Bins of another size are refused. */
	memset(&b, 0, sizeof b);
	b.t = targets[2];
	put_tagged_header(&b);
	put_hist(&b, 0x1000, 0x1010, 4, 100, ones);
	put_hist(&b, 0x2000, 0x2020, 4, 100, ones);
	CHECK(read_one(&b, &p, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "different bin size");
	gmon_profile_release(&p);
}

static void test_bsd(void)
{
	for (size_t i = 0; i < sizeof targets / sizeof *targets; i++) {
		static struct bytes b;
		struct gmon_profile p;
		struct g2c_error err;
		unsigned P = targets[i].addr_size;

		for (int bsd44 = 0; bsd44 <= 1; bsd44++) {
			size_t header = bsd44 ? 2 * P + 24 : 2 * P + 4;

			memset(&b, 0, sizeof b);
			b.t = targets[i];
			put_addr(&b, 0x1000);
			put_addr(&b, 0x1010);
			put(&b, header + 4 * 2, 4);
			if (bsd44) {
				put(&b, 0x00051879, 4);
				put(&b, 1000, 4);
				b.len += 12;
			}
			for (int k = 0; k < 4; k++)
				put(&b, (uint64_t)k + 1, 2);
			put_addr(&b, 0x1004);
			put_addr(&b, 0x100c);
			put(&b, 0x100000000ull >> (P == 4 ? 4 : 0), P);
			CHECK(read_one(&b, &p, &err) == 0);
			CHECK_U64(p.first_format, bsd44 ? GMON_FORMAT_BSD44 : GMON_FORMAT_BSD_OLD);
			CHECK_U64(p.nhists, 1);
			CHECK_U64(p.hists[0].nbins, 4);
			CHECK_U64(bin_count(&p.hists[0], 3), 4);
			CHECK_U64(p.hists[0].rate, bsd44 ? 1000 : 0);
			CHECK_U64(p.narcs, 1);
			CHECK_U64(p.arcs[0].count, P == 4 ? 0x10000000 : 0x100000000ull);
			gmon_profile_release(&p);
		}
	}
}

/* A 4.4BSD image over [0x1000, 0x1040) with SPARE as its three spare
 * words, NBINS bins of BIN_SIZE bytes holding BINS, and NARCS arcs. */
static void put_bsd44(struct bytes *b, struct gmon_target t,
		      const uint32_t spare[3], uint32_t nbins,
		      unsigned bin_size, const uint64_t *bins, unsigned narcs)
{
	unsigned P = t.addr_size;

	memset(b, 0, sizeof *b);
	b->t = t;
	put_addr(b, 0x1000);
	put_addr(b, 0x1040);
	put(b, 2 * P + 24 + nbins * bin_size, 4);
	put(b, 0x00051879, 4);
	put(b, 1000, 4);
	for (int k = 0; k < 3; k++)
		put(b, spare[k], 4);
	for (uint32_t k = 0; k < nbins; k++)
		put(b, bins[k], bin_size);
	for (unsigned k = 0; k < narcs; k++) {
		put_addr(b, 0x1004 + 4 * k);
		put_addr(b, 0x1030);
		put(b, 3, P);
	}
}

/* 64-bit MinGW-w64 (LLP64, gmon_target.llp64): a BSD arc's count is a C
 * long of 4 bytes, then 4 bytes of padding that MinGW leaves
 * uninitialised, in a record still 3 * 8 bytes long; the spare words of
 * the header are left uninitialised too. */
static void test_bsd_llp64(void)
{
	static struct bytes b;
	struct gmon_profile p;
	struct g2c_error err;
	const struct gmon_target t = { 8, false, 0, true };
	const uint32_t spare[3] = { 0x5eed1e55, 0xdeadbeef, 0x12345678 };
	const uint64_t bins[4] = { 1, 2, 3, 4 };

	put_bsd44(&b, t, spare, 4, 2, bins, 0);
	put_addr(&b, 0x1004);
	put_addr(&b, 0x1030);
	put(&b, 7, 4);
	put(&b, 0xa5a5a5a5, 4);	/* padding */
	put_addr(&b, 0x1008);
	put_addr(&b, 0x1030);
	put(&b, 0xfffffffe, 4);
	put(&b, 0xffffffff, 4);
	CHECK(read_one(&b, &p, &err) == 0);
	CHECK_U64(p.first_format, GMON_FORMAT_BSD44);
	CHECK_U64(bin_count(&p.hists[0], 3), 4);
	CHECK_U64(p.narcs, 2);
	CHECK_U64(p.arcs[0].from_pc, 0x1004);
	CHECK_U64(p.arcs[0].self_pc, 0x1030);
	CHECK_U64(p.arcs[0].count, 7);
	CHECK_U64(p.arcs[1].from_pc, 0x1008);
	CHECK_U64(p.arcs[1].count, 0xfffffffe);
	gmon_profile_release(&p);
}

/* FreeBSD's histcounter_type and OpenBSD's totarc, the first spare word. */
static void test_bsd44_spare(void)
{
	static struct bytes b;
	struct gmon_profile p;
	struct g2c_error err;

	for (size_t i = 0; i < sizeof targets / sizeof *targets; i++) {
		struct gmon_target t = targets[i];
		unsigned arc = 3 * t.addr_size;

		for (int bits = 8; bits <= 64; bits *= 2) {
			for (int sign = 1; sign >= -1; sign -= 2) {
				uint32_t spare[3] = { (uint32_t)(sign * bits), 0, 0 };
				uint64_t bins[4], top = (uint64_t)1 << (bits - 1);

				for (int k = 0; k < 4; k++)
					bins[k] = (uint64_t)(k + 1) << (bits - 8);
				put_bsd44(&b, t, spare, 4, bits / 8, bins, 1);
				CHECK(read_one(&b, &p, &err) == 0);
				CHECK_U64(p.hists[0].nbins, 4);
				for (int k = 0; k < 4; k++)
					CHECK_U64(bin_count(&p.hists[0], k), bins[k]);
				CHECK_U64(p.narcs, 1);
				gmon_profile_release(&p);
				/* the sign bit set: a count, or below zero */
				bins[2] = top | 5;
				put_bsd44(&b, t, spare, 4, bits / 8, bins, 0);
				if (sign > 0) {
					CHECK(read_one(&b, &p, &err) == 0);
					CHECK_U64(bin_count(&p.hists[0], 2), top | 5);
				} else {
					CHECK(read_one(&b, &p, &err) < 0);
					CHECK_STR_CONTAINS(err.msg, "bin 2 holds a negative count");
				}
				gmon_profile_release(&p);
			}
		}

		/* OpenBSD: two arcs declared; one, two and three present */
		for (unsigned narcs = 1; narcs <= 3; narcs++) {
			uint32_t spare[3] = { 2 * arc, 0, 0 };
			uint64_t bins[16] = { 7 };

			put_bsd44(&b, t, spare, 16, 2, bins, narcs);
			CHECK(read_one(&b, &p, &err) == (narcs == 2 ? 0 : -1));
			if (narcs != 2)
				CHECK_STR_CONTAINS(err.msg, narcs < 2 ? "truncated call arcs"
								      : "run past their end");
			gmon_profile_release(&p);
		}

		/* a counter type or arc length followed by words that are
		 * not zero is another writer's garbage: 16-bit bins, arcs to
		 * the end, as gprof reads them */
		for (int k = 0; k < 2; k++) {
			uint32_t spare[3] = { k ? 2 * arc : 64, 0, 0x1234 };
			uint64_t bins[16] = { 7, 0, 9 };

			put_bsd44(&b, t, spare, 16, 2, bins, 3);
			CHECK(read_one(&b, &p, &err) == 0);
			CHECK_U64(bin_count(&p.hists[0], 2), 9);
			CHECK_U64(p.narcs, 3);
			gmon_profile_release(&p);
		}
	}
}

/* profil's bin of PC, computed exactly as profil(2) states it. */
static uint64_t profil_bin(uint64_t pc, uint64_t low, uint32_t scale)
{
	return (pc - low) / 2 * scale / 65536;
}

static void test_bin_to_pc(void)
{
	/* glibc's numbers for a real non-PIE program (glibc's gmon.c and profil.c). */
	struct gmon_hist glibc = { .low_pc = 0x400000, .high_pc = 0x401338,
				   .nbins = 1232 };
	struct gmon_hist two_byte = { .low_pc = 0x1000, .high_pc = 0x1010,
				      .nbins = 8 };
	struct gmon_hist coarse = { .low_pc = 0x1000, .high_pc = 0x2000,
				    .nbins = 16 };
	struct gmon_hist *hists[] = { &glibc, &two_byte, &coarse };

	CHECK_U64(gmon_hist_scale(&two_byte), 65536);
	CHECK_U64(gmon_hist_scale(&coarse), 512);
	/* (float)2464 / 4920 * 65536 = 32821.28..., truncated */
	CHECK_U64(gmon_hist_scale(&glibc), 32821);
	for (size_t h = 0; h < sizeof hists / sizeof *hists; h++) {
		struct gmon_hist *hist = hists[h];
		uint32_t scale = gmon_hist_scale(hist);
		uint64_t expect_lo = hist->low_pc;

		/* The bins tile the range, and every pc of a bin maps to it. */
		for (uint32_t i = 0; i < hist->nbins; i++) {
			uint64_t lo, hi;
			bool ok = true;

			gmon_hist_bin_to_pc(hist, scale, i, &lo, &hi);
			CHECK_U64(lo, expect_lo);
			CHECK(hi > lo);
			for (uint64_t pc = lo; pc < hi && pc < hist->high_pc; pc++)
				ok = ok && profil_bin(pc, hist->low_pc, scale) == i;
			CHECK(ok);
			expect_lo = hi;
		}
		CHECK(expect_lo >= hist->high_pc);
	}
}

/* The ranges profil(2) cannot map to their bins: scale 0 (a bin of more
 * than 128 KiB), and bins past the top of the address space; bins that
 * end just at it map. */
static void test_hist_misfit(void)
{
	struct gmon_hist glibc = { .low_pc = 0x400000, .high_pc = 0x401338,
				   .nbins = 1232 };
	struct gmon_hist whole = { .low_pc = 0, .high_pc = UINT64_MAX,
				   .nbins = 1308 };
	struct gmon_hist coarsest = { .low_pc = 0, .high_pc = 131072,
				      .nbins = 1 };
	struct gmon_hist top = { .low_pc = UINT64_MAX - 2047,
				 .high_pc = UINT64_MAX, .nbins = 1308 };
	struct gmon_hist at_top = { .low_pc = UINT64_MAX - 2616,
				    .high_pc = UINT64_MAX, .nbins = 1308 };
	uint64_t lo, hi;

	CHECK(gmon_hist_misfit(&glibc) == NULL);
	CHECK(gmon_hist_misfit(&coarsest) == NULL);
	coarsest.high_pc += 2;
	CHECK_STR_CONTAINS(gmon_hist_misfit(&coarsest), "128 KiB");
	CHECK_STR_CONTAINS(gmon_hist_misfit(&whole), "128 KiB");
	CHECK_STR_CONTAINS(gmon_hist_misfit(&top), "past the end of the address space");
	CHECK(gmon_hist_misfit(&at_top) == NULL);
	gmon_hist_bin_to_pc(&at_top, gmon_hist_scale(&at_top), 1307, &lo, &hi);
	CHECK_U64(lo, UINT64_MAX - 2);
	CHECK_U64(hi, UINT64_MAX);
}

/* A small LD_PROFILE file: 64 bins over 0x10000-0x10100, three arcs (one
 * from outside the library) in a table of 50 arcs (MINARCS), whose file
 * has two pointers' size times as many slots, as ld.so sizes it. */
#define LD_SAMPLE_SLOTS(t) (2 * (t).addr_size * 50)

static struct bytes *ld_sample(struct gmon_target t, uint32_t narcs)
{
	static struct bytes b;
	static const struct ld_arc arcs[] = {
		{ 0, 0x40, 7 }, { 0x44, 0x80, 9 }, { 0x84, 0xc0, 11 },
	};
	uint16_t counts[64] = { 0 };

	counts[3] = 5;
	counts[48] = 65535;
	memset(&b, 0, sizeof b);
	b.t = t;
	put_ld_profile(&b, 0x10000, 0x10100, 100, counts, narcs, arcs, 3,
		       LD_SAMPLE_SLOTS(t));
	return &b;
}

/* Byte offset of the first arc slot in ld_sample's file. */
static size_t ld_first_slot(struct gmon_target t)
{
	return 20 + 4 + 2 * t.addr_size + 24 + 64 * 2 + 8;
}

static void check_ld_sample(const struct gmon_profile *p, uint64_t times)
{
	CHECK_U64(p->first_format, GMON_FORMAT_LD_PROFILE);
	CHECK_U64(p->nhists, 1);
	CHECK_U64(p->hists[0].low_pc, 0x10000);
	CHECK_U64(p->hists[0].high_pc, 0x10100);
	CHECK_U64(p->hists[0].nbins, 64);
	CHECK_U64(p->hists[0].rate, 100);
	CHECK(strcmp(p->hists[0].dimen, "seconds") == 0);
	CHECK_U64(p->hists[0].dimen_abbrev, 's');
	CHECK_U64(bin_count(&p->hists[0], 3), 5 * times);
	CHECK_U64(bin_count(&p->hists[0], 48), 65535 * times);
	CHECK_U64(p->narcs, 3);
	/* pcs are link-time addresses; a caller outside stays 0 */
	CHECK_U64(p->arcs[0].from_pc, GMON_FROM_OUTSIDE);
	CHECK_U64(p->arcs[0].self_pc, 0x10040);
	CHECK_U64(p->arcs[0].count, 7 * times);
	CHECK_U64(p->arcs[1].from_pc, 0x10044);
	CHECK_U64(p->arcs[1].self_pc, 0x10080);
	CHECK_U64(p->arcs[1].count, 9 * times);
	CHECK_U64(p->arcs[2].from_pc, 0x10084);
	CHECK_U64(p->arcs[2].self_pc, 0x100c0);
	CHECK_U64(p->arcs[2].count, 11 * times);
	CHECK_U64(p->nbbs, 0);
}

static void test_ld_profile(void)
{
	for (size_t i = 0; i < sizeof targets / sizeof *targets; i++) {
		struct bytes *b = ld_sample(targets[i], 3);
		struct gmon_profile p;
		struct g2c_error err = { "" };
		uint64_t lo, hi;

		CHECK(gmon_is_ld_profile(b->data, b->len));
		gmon_profile_init(&p);
		CHECK(gmon_profile_add_buffer(&p, &b->t, b->data, b->len, "l", &err) == 0);
		check_ld_sample(&p, 1);
		CHECK_U64(p.calls_lost, 0);
		/* profil's relation with ld.so's scale: 4 bytes a bin */
		CHECK_U64(gmon_hist_scale(&p.hists[0]), 32768);
		gmon_hist_bin_to_pc(&p.hists[0], 32768, 3, &lo, &hi);
		CHECK_U64(lo, 0x1000c);
		CHECK_U64(hi, 0x10010);
		/* Profiles of several runs are summed. */
		CHECK(gmon_profile_add_buffer(&p, &b->t, b->data, b->len, "l", &err) == 0);
		check_ld_sample(&p, 2);
		gmon_profile_release(&p);
	}
}

/* The layout spelled out byte by byte for a 32-bit big-endian process, so
 * that it does not rest on the builder alone: 8 bytes of text at 0x400
 * (2 bins), one slot in use: from outside to offset 4, 258 calls. */
static void test_ld_profile_bytes(void)
{
	static const unsigned char file[] = {
		'g', 'm', 'o', 'n', 0x00, 0x01, 0xff, 0xff,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0,			/* tag: histogram */
		0, 0, 0x04, 0x00,		/* low_pc */
		0, 0, 0x04, 0x08,		/* high_pc */
		0, 0, 0, 2,			/* bins */
		0, 0, 0, 100,			/* rate */
		's', 'e', 'c', 'o', 'n', 'd', 's', 0, 0, 0, 0, 0, 0, 0, 0,
		's',
		0x00, 0x07, 0x01, 0x00,		/* bins: 7, 256 */
		0, 0, 0, 1,			/* tag: arcs */
		0, 0, 0, 1,			/* slots taken */
		0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0x01, 0x02,
	};
	const struct gmon_target be32 = { .addr_size = 4, .big_endian = true },
				 le32 = { .addr_size = 4 },
				 be64 = { .addr_size = 8, .big_endian = true };
	struct gmon_profile p;
	struct g2c_error err = { "" };

	gmon_profile_init(&p);
	CHECK(gmon_profile_add_buffer(&p, &be32, file, sizeof file, "b", &err) == 0);
	CHECK_U64(p.nhists, 1);
	CHECK_U64(p.hists[0].low_pc, 0x400);
	CHECK_U64(p.hists[0].high_pc, 0x408);
	CHECK_U64(bin_count(&p.hists[0], 0), 7);
	CHECK_U64(bin_count(&p.hists[0], 1), 256);
	CHECK_U64(p.narcs, 1);
	CHECK_U64(p.arcs[0].from_pc, GMON_FROM_OUTSIDE);
	CHECK_U64(p.arcs[0].self_pc, 0x404);
	CHECK_U64(p.arcs[0].count, 258);
	gmon_profile_release(&p);

	/* Read as little-endian: refused for its byte order. */
	gmon_profile_init(&p);
	CHECK(gmon_profile_add_buffer(&p, &le32, file, sizeof file, "b", &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "b: LD_PROFILE file in big-endian byte order, for a little-endian object");
	gmon_profile_release(&p);

	/* Read as 64-bit: the histogram does not fit. */
	gmon_profile_init(&p);
	CHECK(gmon_profile_add_buffer(&p, &be64, file, sizeof file, "b", &err) < 0);
	gmon_profile_release(&p);
}

/* Cut short anywhere before the last slot in use: refused.  Past it, the
 * cut only drops unused slots and the arcs are all there. */
static void test_ld_profile_truncation(void)
{
	for (size_t i = 0; i < sizeof targets / sizeof *targets; i++) {
		struct bytes *b = ld_sample(targets[i], 3);
		size_t slot = 2 * b->t.addr_size + 4;
		size_t used_end = ld_first_slot(b->t) + 3 * slot;

		for (size_t len = 0; len < b->len; len++) {
			struct gmon_profile p;
			struct g2c_error err = { "" };
			int rc;

			gmon_profile_init(&p);
			rc = gmon_profile_add_buffer(&p, &b->t, b->data, len, "cut", &err);
			if (len >= used_end && (len - used_end) % slot == 0) {
				CHECK(rc == 0);
				if (rc == 0)
					check_ld_sample(&p, 1);
			} else {
				CHECK(rc < 0);
				CHECK(len == 0 || strncmp(err.msg, "cut: ", 5) == 0);
			}
			gmon_profile_release(&p);
		}
	}
}

static void test_ld_profile_hostile(void)
{
	static struct bytes b;
	const struct gmon_target t = targets[0];
	struct gmon_profile p;
	struct g2c_error err = { "" };
	struct bytes *s;

	/* More slots taken than the table holds: what ld.so leaves once the
	 * table is full, one more per call it could not count.  All slots
	 * are read, and the calls not counted are reported. */
	s = ld_sample(t, 0xffffffffu);
	gmon_profile_init(&p);
	CHECK(gmon_profile_add_buffer(&p, &s->t, s->data, s->len, "h", &err) == 0);
	check_ld_sample(&p, 1);
	CHECK_U64(p.calls_lost, 0xffffffffu - 3);
	gmon_profile_release(&p);

	/* ... but not when the table is cut short, even past the slots ld.so
	 * can take (50) or past the 3 in use here. */
	for (size_t kept = 49; kept <= LD_SAMPLE_SLOTS(t) - 1; kept += 750) {
		s = ld_sample(t, 6000);
		s->len = ld_first_slot(t) + kept * 20;
		gmon_profile_init(&p);
		CHECK(gmon_profile_add_buffer(&p, &s->t, s->data, s->len, "h", &err) < 0);
		CHECK_STR_CONTAINS(err.msg, "truncated LD_PROFILE call-arc table");
		gmon_profile_release(&p);
	}

	/* 2^30 bins for a 4 GiB range in a short file: refused before
	 * anything is allocated for them. */
	memset(&b, 0, sizeof b);
	b.t = t;
	put_ld_profile(&b, 0, 0x100, 100, NULL, 0, NULL, 0, 0);
	memcpy(b.data + 24 + 8, "\0\0\0\0\x01\0\0\0", 8);	/* high_pc */
	memcpy(b.data + 24 + 16, "\0\0\0\x40", 4);		/* bins */
	gmon_profile_init(&p);
	CHECK(gmon_profile_add_buffer(&p, &b.t, b.data, b.len, "h", &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "h: truncated histogram record at offset 20");
	gmon_profile_release(&p);

	/* A bin count that does not match the range. */
	memset(&b, 0, sizeof b);
	b.t = t;
	put_ld_profile(&b, 0x1000, 0x1100, 100, NULL, 0, NULL, 0, 50);
	b.data[24 + 16] = 0x41;
	gmon_profile_init(&p);
	CHECK(gmon_profile_add_buffer(&p, &b.t, b.data, b.len, "h", &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "LD_PROFILE histogram has 65 bins for 0x1000-0x1100");
	gmon_profile_release(&p);

	/* An arc beyond the profiled range. */
	memset(&b, 0, sizeof b);
	b.t = t;
	put_ld_profile(&b, 0x1000, 0x1100, 100, NULL, 1,
		       &(struct ld_arc){ 0, 0x100, 1 }, 1, 50);
	gmon_profile_init(&p);
	CHECK(gmon_profile_add_buffer(&p, &b.t, b.data, b.len, "h", &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "lies outside the profiled range");
	gmon_profile_release(&p);

	/* A wrong tag where the arc table belongs. */
	s = ld_sample(t, 3);
	s->data[ld_first_slot(t) - 8] = 2;
	gmon_profile_init(&p);
	CHECK(gmon_profile_add_buffer(&p, &s->t, s->data, s->len, "h", &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "without its call-arc table");
	gmon_profile_release(&p);
}

/* A program's gmon.out and a library's profile are never summed. */
static void test_ld_profile_mixing(void)
{
	const struct gmon_target t = targets[0];
	struct bytes *s;
	struct gmon_profile p;
	struct g2c_error err = { "" };
	static struct bytes lib;

	s = ld_sample(t, 3);
	lib = *s;
	s = tagged_sample(t);
	CHECK(!gmon_is_ld_profile(s->data, s->len));
	gmon_profile_init(&p);
	CHECK(gmon_profile_add_buffer(&p, &t, s->data, s->len, "prog", &err) == 0);
	CHECK(gmon_profile_add_buffer(&p, &t, lib.data, lib.len, "lib", &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "lib: a shared-library profile (LD_PROFILE) and a program profile cannot be summed");
	gmon_profile_release(&p);

	gmon_profile_init(&p);
	CHECK(gmon_profile_add_buffer(&p, &t, lib.data, lib.len, "lib", &err) == 0);
	CHECK(gmon_profile_add_buffer(&p, &t, s->data, s->len, "prog", &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "prog: a shared-library profile");
	gmon_profile_release(&p);
}

/* The object's code bounds what one file may hold: bins (one per 2 bytes
 * of it) and records (2^20 plus one per 4 bytes of it); a file within the
 * bound is read whole. */
/* An LD_PROFILE file of a library with 4.8 MB of code: ld.so's arc table
 * has 16 slots of room per arc (2.3 million slots, 46 MB) for the 144 000
 * arcs it can take, more than the file's record bound (2^20 + S/4); the
 * table's size is ld.so's, so it converts, and one slot more is refused. */
static void test_ld_profile_large_library(void)
{
	static struct bytes head;
	const uint64_t textsize = 4800000, low = 0x10000;
	const size_t nbins = textsize / 4, nslots = 16 * (textsize / 100 * 3);
	struct gmon_target t = { .addr_size = 8, .code_span = textsize };
	struct gmon_profile p;
	struct g2c_error err;
	size_t len;
	unsigned char *data;

	/* the header and histogram record of one bin, then the real size */
	memset(&head, 0, sizeof head);
	head.t = t;
	put_ld_profile(&head, low, low + 4, 100, NULL, 0, NULL, 0, 0);
	head.len -= 2 + 8;			/* the bin, the arc table's head */
	len = head.len + 2 * nbins + 8 + 20 * (nslots + 1);
	data = calloc(len, 1);
	CHECK(data != NULL);
	if (!data)
		return;
	memcpy(data, head.data, head.len);
	head.len = 24 + 8;			/* high_pc, bins */
	put(&head, low + textsize, 8);
	put(&head, nbins, 4);
	memcpy(data + 24 + 8, head.data + 24 + 8, 12);
	memcpy(data + len - 20 * (nslots + 1) - 8, "\1\0\0\0\1\0\0\0", 8);
	/* slot 0: one call from offset 0x10 to 0x40 */
	memcpy(data + len - 20 * (nslots + 1), "\x10\0\0\0\0\0\0\0\x40\0\0\0\0\0\0\0\7\0\0\0", 20);

	gmon_profile_init(&p);
	CHECK(gmon_profile_add_buffer(&p, &t, data, len - 20, "big", &err) == 0);
	CHECK_U64(p.narcs, 1);
	gmon_profile_release(&p);
	gmon_profile_init(&p);
	CHECK(gmon_profile_add_buffer(&p, &t, data, len, "big", &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "big: LD_PROFILE call-arc table at offset");
	CHECK_STR_CONTAINS(err.msg, "has more slots than ld.so makes for 0x493e00 bytes of code (2304000)");
	gmon_profile_release(&p);
	free(data);
}

static void test_code_span_bound(void)
{
	static struct bytes b;
	struct gmon_target t = { .addr_size = 8, .code_span = 64 };	/* 33 bins, 2^20 + 16 records */
	struct gmon_profile p;
	struct g2c_error err;

	memset(&b, 0, sizeof b);
	b.t = t;
	put_tagged_header(&b);
	put_hist(&b, 0x1000, 0x1040, 33, 100, NULL);
	gmon_profile_init(&p);
	CHECK(gmon_profile_add_buffer(&p, &t, b.data, b.len, "s", &err) == 0);
	gmon_profile_release(&p);

	memset(&b, 0, sizeof b);
	b.t = t;
	put_tagged_header(&b);
	put_hist(&b, 0x1000, 0x1044, 34, 100, NULL);
	gmon_profile_init(&p);
	CHECK(gmon_profile_add_buffer(&p, &t, b.data, b.len, "s", &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "s: histogram record at offset 20 has 34 bins, more than 64 bytes of code can use");
	gmon_profile_release(&p);

	/* Two records of 20 bins each: 40 in the file, over the bound. */
	memset(&b, 0, sizeof b);
	b.t = t;
	put_tagged_header(&b);
	put_hist(&b, 0x1000, 0x1028, 20, 100, NULL);
	put_hist(&b, 0x2000, 0x2028, 20, 100, NULL);
	gmon_profile_init(&p);
	CHECK(gmon_profile_add_buffer(&p, &t, b.data, b.len, "s", &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "has 20 bins, more than 64 bytes");
	gmon_profile_release(&p);

	/* Basic-block records of no blocks still count: a file of 2^20 + 17
	 * of them (5 bytes each) is stopped at the first one too many. */
	{
		size_t n = (1u << 20) + 17, len = 20 + 5 * n;
		unsigned char *data = calloc(len, 1);

		CHECK(data != NULL);
		memcpy(data, b.data, 20);
		for (size_t i = 0; i < n; i++)
			data[20 + 5 * i] = 2;
		gmon_profile_init(&p);
		CHECK(gmon_profile_add_buffer(&p, &t, data, len, "s", &err) < 0);
		CHECK_STR_CONTAINS(err.msg, "s: more than 1048592 records, more than a profile of 64 bytes of code can hold");
		gmon_profile_release(&p);
		/* one fewer is read, and refused only for carrying nothing */
		gmon_profile_init(&p);
		CHECK(gmon_profile_add_buffer(&p, &t, data, len - 5, "s", &err) < 0);
		CHECK_STR_CONTAINS(err.msg, "s: empty profile");
		gmon_profile_release(&p);
		free(data);
	}
}

/* A tagged file of N arc records, each (from, self) pair of PAIRS
 * (from = 0x100000 + 8 * (k % PAIRS), self = 0x200000 + k % 7) in a
 * scrambled order, with count k % 5 + 1. */
static unsigned char *many_arcs(struct gmon_target t, size_t n, size_t pairs,
				size_t *len)
{
	unsigned rec = 1 + 2 * t.addr_size + 4;
	unsigned char *data = malloc(20 + rec * n);
	struct bytes *head = calloc(1, sizeof *head);

	CHECK(data != NULL && head != NULL);
	head->t = t;
	put_tagged_header(head);
	memcpy(data, head->data, 20);
	*len = 20;
	for (size_t i = 0; i < n; i++) {
		size_t k = (i * 7919) % n;

		head->len = 0;
		put_arc(head, 0x100000 + 8 * (k % pairs), 0x200000 + k % 7,
			(uint32_t)(k % 5 + 1));
		memcpy(data + *len, head->data, head->len);
		*len += head->len;
	}
	free(head);
	return data;
}

/* Arcs come out sorted by (from_pc, self_pc), each pair once with its
 * counts summed, however they are spread over records and files: many
 * distinct pairs, and few pairs repeated (merged in the middle of the
 * file too). */
static void test_arcs_merged(void)
{
	/* records, pairs of from_pc, distinct (from_pc, self_pc) pairs:
	 * (k % 3, k % 7) takes 21 values; 70 001 and 7 are coprime */
	static const size_t cases[][3] = { { 300000, 300000, 300000 },
					   { 300000, 3, 21 },
					   { 200000, 70001, 200000 } };

	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		size_t n = cases[c][0], pairs = cases[c][1], len;
		struct gmon_target t = { .addr_size = 8, .big_endian = c == 1 };
		unsigned char *data = many_arcs(t, n, pairs, &len);
		uint64_t total = 0, expected = 0;
		struct gmon_profile p;
		struct g2c_error err;
		bool sorted = true;

		for (size_t k = 0; k < n; k++)
			expected += 2 * (k % 5 + 1);
		gmon_profile_init(&p);
		CHECK(gmon_profile_add_buffer(&p, &t, data, len, "a", &err) == 0);
		CHECK(gmon_profile_add_buffer(&p, &t, data, len, "a", &err) == 0);
		/* every (k % pairs, k % 7) pair that occurs, once */
		CHECK_U64(p.narcs, cases[c][2]);
		for (size_t i = 0; i < p.narcs; i++) {
			total += p.arcs[i].count;
			if (i > 0 && (p.arcs[i - 1].from_pc > p.arcs[i].from_pc ||
				      (p.arcs[i - 1].from_pc == p.arcs[i].from_pc &&
				       p.arcs[i - 1].self_pc >= p.arcs[i].self_pc)))
				sorted = false;
		}
		CHECK(sorted);
		CHECK_U64(total, expected);
		gmon_profile_release(&p);
		free(data);
	}
}

int main(void)
{
	test_tagged();
	test_bins_merged();
	test_truncation();
	test_bad_files();
	test_hist_merging();
	test_bsd();
	test_bsd44_spare();
	test_bsd_llp64();
	test_bin_to_pc();
	test_hist_misfit();
	test_ld_profile();
	test_ld_profile_bytes();
	test_ld_profile_truncation();
	test_ld_profile_hostile();
	test_ld_profile_mixing();
	test_code_span_bound();
	test_ld_profile_large_library();
	test_arcs_merged();
	return check_report("test-gmon");
}
