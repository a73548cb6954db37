/* gmon-rt.c -- a gprof runtime for bare-metal RISC-V (see gmon-rt.h).
 *
 * Board settings (all -D options; README says how to choose them):
 *   GMON_TIMER_HZ  the clock mtime counts (qemu's virt board: 10 MHz)
 *   GMON_RATE      samples per second, a divisor of GMON_TIMER_HZ; the
 *                  histogram's profrate
 *   GMON_CLINT_BASE the CLINT (or ACLINT), which holds hart 0's mtimecmp
 *                  at +0x4000 and mtime at +0xBFF8
 *   GMON_HIST_BINS 16-bit histogram bins in RAM; the bin width is the
 *                  smallest power of two >= 2 bytes that covers the text
 *   GMON_ARC_BITS  the arc table has 2^GMON_ARC_BITS slots of 12 bytes,
 *                  of which three quarters are used */
#include "gmon-rt.h"

#ifndef GMON_TIMER_HZ
#define GMON_TIMER_HZ 10000000u
#endif
#ifndef GMON_RATE
#define GMON_RATE 10000u
#endif
#ifndef GMON_CLINT_BASE
#define GMON_CLINT_BASE 0x02000000u
#endif
#ifndef GMON_HIST_BINS
#define GMON_HIST_BINS 4096u
#endif
#ifndef GMON_ARC_BITS
#define GMON_ARC_BITS 8
#endif

#define ARC_SLOTS (1u << GMON_ARC_BITS)
/* (a lookup ends at the pair or at a free slot, and a quarter stay free:
 * lookups stay short, and end) */
#define ARC_LIMIT (ARC_SLOTS - ARC_SLOTS / 4)
#define TICKS_PER_SAMPLE (GMON_TIMER_HZ / GMON_RATE)
_Static_assert(GMON_ARC_BITS >= 2 && GMON_ARC_BITS <= 16, "GMON_ARC_BITS: 2 to 16");
_Static_assert(GMON_RATE > 0 && GMON_TIMER_HZ % GMON_RATE == 0,
	"GMON_RATE must divide GMON_TIMER_HZ, or the profile's rate is not the real one");

/* hart 0's registers; on RV32 each 64-bit register is two words */
#define MTIMECMP_LO (*(volatile uint32_t *)(GMON_CLINT_BASE + 0x4000u))
#define MTIMECMP_HI (*(volatile uint32_t *)(GMON_CLINT_BASE + 0x4004u))
#define MTIME_LO (*(volatile uint32_t *)(GMON_CLINT_BASE + 0xBFF8u))
#define MTIME_HI (*(volatile uint32_t *)(GMON_CLINT_BASE + 0xBFFCu))
#define MIE_MTIE (1u << 7)	/* mie: machine timer interrupt enable */
#define MSTATUS_MIE (1u << 3)	/* mstatus: machine interrupts enable */

struct arc {
	uint32_t from_pc, self_pc, count;	/* count 0: a free slot */
};

static uint16_t hist[GMON_HIST_BINS];
static struct arc arcs[ARC_SLOTS];
static uint32_t arcs_used, calls_dropped;
static uint32_t low_pc, text_span, bin_shift, nbins;
static volatile uint32_t recording;
static uint64_t next_tick;	/* mtimecmp's value: the next sample's time */

/* Called from _mcount's assembly below, so not static.  The arc recorder
 * has glibc's name, which gprof (and gmon2cg) leave out of the profile,
 * as they leave out _mcount: their samples are profiling overhead, not
 * the program. */
void __mcount_internal(uint32_t from_pc, uint32_t self_pc);

static uint64_t read_mtime(void)
{
	uint32_t hi, lo;

	do {	/* (the low word may carry into the high one between reads) */
		hi = MTIME_HI;
		lo = MTIME_LO;
	} while (hi != MTIME_HI);
	return (uint64_t)hi << 32 | lo;
}

/* The timer interrupts while mtime >= mtimecmp: while the two halves are
 * written, the high one holds the largest value, so that no half-written
 * value lies in the past. */
static void write_mtimecmp(uint64_t when)
{
	MTIMECMP_HI = UINT32_MAX;
	MTIMECMP_LO = (uint32_t)when;
	MTIMECMP_HI = (uint32_t)(when >> 32);
}

void gmon_start(uintptr_t lowpc, uintptr_t highpc)
{
	gmon_stop();
	low_pc = lowpc & ~1u;
	/* the fewest bins of 2^bin_shift bytes that cover the text: whole
	 * 2-byte units (compressed instructions), which gprof's bin model
	 * maps exactly */
	uint32_t last = highpc - 1 - low_pc;	/* the offset of the last byte */
	for (bin_shift = 1; last >> bin_shift >= GMON_HIST_BINS; bin_shift++)
		continue;
	nbins = (last >> bin_shift) + 1;
	text_span = nbins << bin_shift;
	for (uint32_t i = 0; i < nbins; i++)
		hist[i] = 0;
	for (uint32_t i = 0; i < ARC_SLOTS; i++)
		arcs[i].count = 0;
	arcs_used = calls_dropped = 0;
	recording = 1;
	next_tick = read_mtime() + TICKS_PER_SAMPLE;
	write_mtimecmp(next_tick);
	__asm__ volatile("csrs mie, %0\n\tcsrs mstatus, %1"
		: : "r"(MIE_MTIE), "r"(MSTATUS_MIE) : "memory");
}

void gmon_stop(void)
{
	__asm__ volatile("csrc mie, %0" : : "r"(MIE_MTIE) : "memory");
	recording = 0;
}

uint32_t gmon_calls_dropped(void)
{
	return calls_dropped;
}

/* gcc's -pg prologue is "mv a0,ra; call _mcount", an ordinary call: a0 is
 * the profiled function's return address into its caller (gprof's
 * from_pc), and _mcount's own return address, in ra, is the one into the
 * profiled function (self_pc).  The function saved what it needs across
 * the call, as for any other call, so _mcount only passes both addresses
 * on, in a tail call (t1 holds the far address if the linker does not
 * relax "tail" into a jump). */
__asm__(
	".text\n"
	".globl _mcount\n"
	".type _mcount, @function\n"
	"_mcount:\n"
	"	mv a1, ra\n"
	"	tail __mcount_internal\n"
	".size _mcount, . - _mcount\n");

void __mcount_internal(uint32_t from_pc, uint32_t self_pc)
{
	uint32_t mstatus, slot;

	/* (like glibc: calls from code outside the profiled text are not kept) */
	if (!recording || from_pc - low_pc >= text_span)
		return;
	/* Interrupt handlers compiled with -pg may call in here too. */
	__asm__ volatile("csrrc %0, mstatus, %1" : "=r"(mstatus) : "r"(MSTATUS_MIE) : "memory");
	slot = ((from_pc ^ (self_pc << 15)) * 2654435761u) >> (32 - GMON_ARC_BITS);
	for (;; slot = (slot + 1) & (ARC_SLOTS - 1)) {
		struct arc *a = &arcs[slot];
		if (a->count != 0 && a->from_pc == from_pc && a->self_pc == self_pc) {
			if (a->count != UINT32_MAX)
				a->count++;
			break;
		}
		if (a->count == 0) {
			if (arcs_used < ARC_LIMIT) {
				*a = (struct arc){ from_pc, self_pc, 1 };
				arcs_used++;
			} else {
				calls_dropped++;
			}
			break;
		}
	}
	__asm__ volatile("csrs mstatus, %0" : : "r"(mstatus & MSTATUS_MIE) : "memory");
}

/* mepc is the interrupted instruction, the one mret returns to.  The next
 * sample is due a fixed number of ticks after this one was (not after
 * now), so the rate does not drift with the handler's latency.  The
 * interrupt attribute saves the registers used and returns with mret. */
__attribute__((interrupt("machine"))) void gmon_timer_handler(void)
{
	uint32_t pc, offset;

	__asm__ volatile("csrr %0, mepc" : "=r"(pc));
	next_tick += TICKS_PER_SAMPLE;
	write_mtimecmp(next_tick);
	offset = pc - low_pc;
	/* (bins saturate: a wrapped bin would under-report its hottest code) */
	if (offset < text_span && hist[offset >> bin_shift] != UINT16_MAX)
		hist[offset >> bin_shift]++;
}

/* glibc's gmon.out (gmon/sys/gmon_out.h): header, one histogram record,
 * then one record per arc; every field in the target's byte order. */
struct __attribute__((packed)) gmon_head {
	char cookie[4];
	uint32_t version;
	uint8_t spare[12];
	uint8_t hist_tag;
	uint32_t low_pc, high_pc, nbins, profrate;
	char dimen[15], dimen_abbrev;
};

struct __attribute__((packed)) gmon_arc {
	uint8_t tag;
	uint32_t from_pc, self_pc, count;
};

enum { GMON_TAG_TIME_HIST = 0, GMON_TAG_CG_ARC = 1 };

int gmon_emit(gmon_put_fn *put, void *ctx)
{
	struct gmon_head head = {
		{ 'g', 'm', 'o', 'n' }, 1, { 0 }, GMON_TAG_TIME_HIST,
		low_pc, low_pc + text_span, nbins, GMON_RATE, "seconds", 's'
	};
	struct gmon_arc batch[32];
	uint32_t n = 0;
	int status;

	gmon_stop();
	if ((status = put(ctx, &head, sizeof head)) != 0 ||
	    (status = put(ctx, hist, nbins * sizeof hist[0])) != 0)
		return status;
	for (uint32_t i = 0; i < ARC_SLOTS; i++) {
		if (arcs[i].count == 0)
			continue;
		batch[n++] = (struct gmon_arc){ GMON_TAG_CG_ARC, arcs[i].from_pc,
			arcs[i].self_pc, arcs[i].count };
		if (n == sizeof batch / sizeof batch[0]) {
			if ((status = put(ctx, batch, sizeof batch)) != 0)
				return status;
			n = 0;
		}
	}
	return n == 0 ? 0 : put(ctx, batch, n * sizeof batch[0]);
}
