/* gmon-rt.h -- a gprof runtime for bare-metal Cortex-M (ARMv7-M, ARMv8-M
 * Mainline): call arcs from gcc's -pg code, pc samples from SysTick, and
 * the profile in glibc's gmon.out format.  See README for porting.
 *
 * Compile this runtime WITHOUT -pg, the code to profile with -pg, and link
 * without -pg (newlib has no -lc_p).  The board's vector table must point
 * its SysTick entry at SysTick_Handler. */
#ifndef GMON_RT_H
#define GMON_RT_H

#include <stddef.h>
#include <stdint.h>

/* Start profiling the code in [lowpc, highpc), a non-empty range
 * (normally the linker script's start and end of .text): clear the tables
 * and start SysTick at GMON_RATE interrupts per second.  Calls before
 * this are not recorded. */
void gmon_start(uintptr_t lowpc, uintptr_t highpc);

/* Stop SysTick and stop recording calls. */
void gmon_stop(void);

/* Receives the profile in pieces; returns 0, or nonzero to give up. */
typedef int gmon_put_fn(void *ctx, const void *data, size_t len);

/* Stop profiling and pass the whole gmon.out file to PUT, in order.
 * Returns 0, or PUT's nonzero value when it gave up. */
int gmon_emit(gmon_put_fn *put, void *ctx);

/* Calls not recorded because the arc table was full (GMON_ARC_BITS). */
uint32_t gmon_calls_dropped(void);

/* The SysTick exception handler: one pc sample per interrupt. */
void SysTick_Handler(void);

#endif
