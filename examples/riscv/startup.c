/* startup.c -- reset code and trap vectors for qemu's virt board (RV32,
 * machine mode): the C environment is set up, profiling wraps main, and
 * the profile is written to the host's gmon.out before the run ends. */
#include <stdint.h>
#include <string.h>

#include "gmon-rt.h"
#include "semihost.h"

/* from virt.ld */
extern char __text_start[], __text_end[];
extern char __data_load[], __data_start[], __data_end[];
extern char __bss_start[], __bss_end[];

int main(void);
__attribute__((noreturn)) void c_start(void);
__attribute__((noreturn)) void trap_unexpected(void);

/* The reset entry, at the start of RAM where qemu's virt board jumps: a
 * stack, the trap vectors, then C.  mtvec's mode 1 (vectored): exceptions
 * go to the table's first entry, interrupt number N to entry N (a jump
 * each), so the machine timer (7) goes straight to gmon_timer_handler.
 * No global pointer: virt.ld defines no __global_pointer$, so the linker
 * relaxes no accesses to gp-relative ones. */
__asm__(
	".section .init, \"ax\", @progbits\n"
	".globl _start\n"
	".type _start, @function\n"
	"_start:\n"
	"	la sp, __stack_top\n"
	"	la t0, trap_vectors + 1\n"
	"	csrw mtvec, t0\n"
	"	j c_start\n"
	".size _start, . - _start\n"
	"\n"
	".section .vectors, \"ax\", @progbits\n"
	".balign 64\n"
	"trap_vectors:\n"
	"	j trap_unexpected\n"	/* 0: exceptions (ecall, faults) */
	"	j trap_unexpected\n"	/* 1: supervisor software */
	"	j trap_unexpected\n"
	"	j trap_unexpected\n"	/* 3: machine software */
	"	j trap_unexpected\n"
	"	j trap_unexpected\n"	/* 5: supervisor timer */
	"	j trap_unexpected\n"
	"	j gmon_timer_handler\n"	/* 7: machine timer */
	"	j trap_unexpected\n"
	"	j trap_unexpected\n"	/* 9: supervisor external */
	"	j trap_unexpected\n"
	"	j trap_unexpected\n"	/* 11: machine external */
	".text\n");

void c_start(void)
{
	int status;

	/* (qemu loads .data where it runs; a board that runs from flash
	 * copies it, as here, from where virt.ld's AT> put it) */
	if ((uintptr_t)__data_load != (uintptr_t)__data_start)
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

/* Any other trap is a bug: end the run rather than hang.  Without a host
 * for semihosting the ebreak traps again, and ends here in a loop. */
void trap_unexpected(void)
{
	static volatile int trapped;

	if (!trapped) {
		trapped = 1;
		semihost_print("unexpected trap\n");
		semihost_exit(1);
	}
	for (;;)
		continue;
}
