/* gmon-rt.h -- a gprof runtime for bare-metal RISC-V (RV32, machine
 * mode): call arcs from gcc's -pg code, pc samples from the machine timer
 * (mtime and mtimecmp), and the profile in glibc's gmon.out format.  See
 * README for porting.
 *
 * Compile this runtime WITHOUT -pg, the code to profile with -pg, and link
 * without -pg (picolibc has no profiling libraries).  The trap vector
 * table must send the machine timer interrupt to gmon_timer_handler. */
#ifndef GMON_RT_H
#define GMON_RT_H

#include <stddef.h>
#include <stdint.h>

/* Start profiling the code in [lowpc, highpc), a non-empty range
 * (normally the linker script's start and end of .text): clear the tables,
 * start the machine timer at GMON_RATE interrupts per second and enable
 * machine-mode interrupts.  Calls before this are not recorded. */
void gmon_start(uintptr_t lowpc, uintptr_t highpc);

/* Stop the timer interrupt and stop recording calls. */
void gmon_stop(void);

/* Receives the profile in pieces; returns 0, or nonzero to give up. */
typedef int gmon_put_fn(void *ctx, const void *data, size_t len);

/* Stop profiling and pass the whole gmon.out file to PUT, in order.
 * Returns 0, or PUT's nonzero value when it gave up. */
int gmon_emit(gmon_put_fn *put, void *ctx);

/* Calls not recorded because the arc table was full (GMON_ARC_BITS). */
uint32_t gmon_calls_dropped(void);

/* The machine timer interrupt's handler: one pc sample per interrupt.
 * It saves what it uses and returns with mret. */
void gmon_timer_handler(void);

#endif
