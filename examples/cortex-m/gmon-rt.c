/* gmon-rt.c -- a gprof runtime for bare-metal Cortex-M (see gmon-rt.h).
 *
 * Board settings (all -D options; README says how to choose them):
 *   GMON_CPU_HZ    SysTick's clock: the core clock (CLKSOURCE = 1)
 *   GMON_RATE      samples per second; the histogram's profrate
 *   GMON_HIST_BINS 16-bit histogram bins in RAM; the bin width is the
 *                  smallest power of two >= 2 bytes that covers the text
 *   GMON_ARC_BITS  the arc table has 2^GMON_ARC_BITS slots of 12 bytes,
 *                  of which three quarters are used */
#include "gmon-rt.h"

#ifndef GMON_CPU_HZ
#define GMON_CPU_HZ 25000000u
#endif
#ifndef GMON_RATE
#define GMON_RATE 10000u
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
_Static_assert(GMON_ARC_BITS >= 2 && GMON_ARC_BITS <= 16, "GMON_ARC_BITS: 2 to 16");
_Static_assert(GMON_CPU_HZ / GMON_RATE - 1 <= 0xFFFFFFu,
	"SysTick's reload value GMON_CPU_HZ / GMON_RATE - 1 must fit in 24 bits");

#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)
#define SYST_ENABLE_TICKINT_CORECLK 7u

struct arc {
	uint32_t from_pc, self_pc, count;	/* count 0: a free slot */
};

static uint16_t hist[GMON_HIST_BINS];
static struct arc arcs[ARC_SLOTS];
static uint32_t arcs_used, calls_dropped;
static uint32_t low_pc, text_span, bin_shift, nbins;
static volatile uint32_t recording;

/* Called from the assembly entries below, so neither static nor inlined.
 * The arc recorder has glibc's name, which gprof (and gmon2cg) leave out
 * of the profile: its samples are profiling overhead, not the program. */
void __mcount_internal(uint32_t from_pc, uint32_t self_pc);
void gmon_record_sample(uint32_t pc);

void gmon_start(uintptr_t lowpc, uintptr_t highpc)
{
	gmon_stop();
	low_pc = lowpc & ~1u;
	/* the fewest bins of 2^bin_shift bytes that cover the text: whole
	 * 2-byte units, which gprof's bin model maps exactly */
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
	SYST_RVR = GMON_CPU_HZ / GMON_RATE - 1;
	SYST_CVR = 0;
	SYST_CSR = SYST_ENABLE_TICKINT_CORECLK;
}

void gmon_stop(void)
{
	SYST_CSR = 0;
	recording = 0;
}

uint32_t gmon_calls_dropped(void)
{
	return calls_dropped;
}

/* gcc's -pg prologue is "push {lr}; bl __gnu_mcount_nc": on entry lr is
 * the return address into the profiled function and the word on the stack
 * its own return address into its caller.  Both go to __mcount_internal; the
 * exit pops that word back into lr and returns to the function (r12 is
 * free to use at a call).  r0-r3 hold the function's arguments. */
__attribute__((naked)) void __gnu_mcount_nc(void)
{
	__asm__ volatile(
		"push {r0, r1, r2, r3, lr}\n\t"
		"ldr r0, [sp, #20]\n\t"
		"mov r1, lr\n\t"
		"bl __mcount_internal\n\t"
		"pop {r0, r1, r2, r3, r12, lr}\n\t"
		"bx r12\n\t");
}

/* The interrupted pc is word 6 of the exception frame, on the stack that
 * EXC_RETURN's bit 2 names (also in ARMv7-M's extended FP frame). */
__attribute__((naked)) void SysTick_Handler(void)
{
	__asm__ volatile(
		"tst lr, #4\n\t"
		"ite eq\n\t"
		"mrseq r0, msp\n\t"
		"mrsne r0, psp\n\t"
		"ldr r0, [r0, #24]\n\t"
		"b gmon_record_sample\n\t");
}

void gmon_record_sample(uint32_t pc)
{
	uint32_t offset = pc - low_pc;

	/* (bins saturate: a wrapped bin would under-report its hottest code) */
	if (offset < text_span && hist[offset >> bin_shift] != UINT16_MAX)
		hist[offset >> bin_shift]++;
}

void __mcount_internal(uint32_t from_pc, uint32_t self_pc)
{
	uint32_t primask, slot;

	from_pc &= ~1u;	/* the Thumb bit */
	self_pc &= ~1u;
	/* (like glibc: calls from code outside the profiled text are not kept) */
	if (!recording || from_pc - low_pc >= text_span)
		return;
	/* Interrupt handlers compiled with -pg may call in here too. */
	__asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask) : : "memory");
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
	__asm__ volatile("msr primask, %0" : : "r"(primask) : "memory");
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
