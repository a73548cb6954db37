/* gmon_format.h -- the on-disk layouts gmon.c reads, as gprof's
 * gmon_out.h and glibc's sys/gmon_out.h, sys/gmon.h and elf/dl-profile.c
 * define them.
 *
 * Owns the numbers only: magic numbers, versions, record tags and the
 * sizes of headers and records.  A size that depends on the profiled
 * object's address width takes it, in bytes, as P.  Every field is in
 * the object's byte order.
 */
#ifndef GMON2CG_GMON_FORMAT_H
#define GMON2CG_GMON_FORMAT_H

/* A histogram bin (HISTCOUNTER): 16 bits in every layout. */
#define GMON_BIN_SIZE 2

/* GNU tagged format: the header is the cookie, a 4-byte version and 12
 * spare bytes; then records, each a 1-byte tag and its body. */
#define GMON_MAGIC "gmon"
#define GMON_MAGIC_SIZE 4
#define GMON_VERSION_SIZE 4
#define GMON_VERSION 1
/* Version 0 is read too, except its basic-block records: their layout
 * depended on the host that wrote them. */
#define GMON_VERSION_OLD 0
#define GMON_HEADER_SIZE 20
enum { GMON_TAG_TIME_HIST = 0, GMON_TAG_CG_ARC = 1, GMON_TAG_BB_COUNT = 2 };
/* histogram: low_pc, high_pc, 4-byte bin count, 4-byte rate, the
 * dimension's name and its 1-byte abbreviation; then the bins */
#define GMON_HIST_DIMEN_SIZE 15
#define GMON_HIST_HEADER_SIZE(P) (2 * (P) + 4 + 4 + GMON_HIST_DIMEN_SIZE + 1)
/* call arc: from_pc, self_pc, 4-byte count */
#define GMON_ARC_SIZE(P) (2 * (P) + 4)
/* basic-block counts: a 4-byte number of blocks, then for each its
 * address and an address-sized count */
#define GMON_BB_COUNT_SIZE 4
#define GMON_BB_SIZE(P) (2 * (P))

/* BSD layouts, without a magic number.  The old header is low_pc, high_pc
 * and ncnt, the size of the header and bins together; 4.4BSD's adds a
 * version word (at the same offset in both), the rate and 12 spare bytes.
 * The bins follow; then arcs, whose counts are address-sized. */
#define BSD_OLD_HEADER_SIZE(P) (2 * (P) + 4)
#define BSD44_HEADER_SIZE(P) (2 * (P) + 24)
#define BSD44_VERSION 0x00051879u
#define BSD_ARC_SIZE(P) (3 * (P))

/* The longest header of all, read first to recognise the format. */
#define GMON_LONGEST_HEADER_SIZE BSD44_HEADER_SIZE(8)

/* glibc's LD_PROFILE file: the tagged header with this version, then
 * 4-byte tags: a histogram record with one bin per 4 bytes (HISTFRACTION *
 * sizeof (HISTCOUNTER)) of the library's executable pages, and the arc
 * table, which is its tag, the 4-byte number of slots taken and the slots
 * (from_pc and self_pc as offsets in the library, a 4-byte count). */
#define LD_PROFILE_VERSION 0x0001ffffu
#define LD_PROFILE_TAG_SIZE 4
#define LD_PROFILE_BYTES_PER_BIN 4
#define LD_PROFILE_ARC_TABLE_HEADER_SIZE 8
#define LD_PROFILE_ARC_SIZE(P) (2 * (P) + 4)
/* The arcs the table has room for, for TEXTSIZE bytes of code:
 * ARCDENSITY percent of them, at least MINARCS, at most MAXARCS (65534 in
 * older glibc, 1 << 20 now); the file has two pointers' size times as
 * many slots. */
#define LD_PROFILE_ARC_DENSITY 3
#define LD_PROFILE_MIN_ARCS 50
#define LD_PROFILE_OLD_MAX_ARCS 65534
#define GLIBC_MAX_ARCS (1u << 20)

#endif
