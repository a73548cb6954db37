/* startup.c -- reset and exception vectors for qemu's mps2-an385
 * (Cortex-M3): the C environment is set up, profiling wraps main, and
 * the profile is written to the host's gmon.out before the run ends. */
#include <stdint.h>
#include <string.h>

#include "gmon-rt.h"
#include "semihost.h"

/* from mps2-an385.ld */
extern char __text_start[], __text_end[];
extern char __data_load[], __data_start[], __data_end[];
extern char __bss_start[], __bss_end[], __stack_top[];

int main(void);

__attribute__((noreturn)) void Reset_Handler(void)
{
	int status;

	memcpy(__data_start, __data_load, (size_t)(__data_end - __data_start));
	memset(__bss_start, 0, (size_t)(__bss_end - __bss_start));
	gmon_start((uintptr_t)__text_start, (uintptr_t)__text_end);
	status = main();
	if (semihost_write_gmon("gmon.out") != 0) {
		semihost_print("gmon.out could not be written\n");
		status = 1;
	}
	semihost_exit(status);
}

/* Any other exception is a bug: end the run rather than hang. */
static void Fault_Handler(void)
{
	semihost_print("unexpected exception\n");
	semihost_exit(1);
}

/* ARMv7-M's table: initial stack pointer, then the handlers in order. */
__attribute__((section(".vectors"), used))
static void (*const vectors[16])(void) = {
	(void (*)(void))__stack_top, Reset_Handler,
	Fault_Handler, Fault_Handler, Fault_Handler, Fault_Handler,	/* NMI..BusFault */
	Fault_Handler, 0, 0, 0, 0, Fault_Handler, Fault_Handler, 0,	/* UsageFault..DebugMon */
	Fault_Handler, SysTick_Handler,					/* PendSV, SysTick */
};
