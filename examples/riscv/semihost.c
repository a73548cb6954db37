/* semihost.c -- the host's services over RISC-V semihosting (semihost.h).
 * RISC-V uses ARM's semihosting operations; the call is an ebreak between
 * two marker instructions, the operation in a0, its argument in a1 and
 * the result back in a0. */
#include <string.h>

#include "gmon-rt.h"
#include "semihost.h"

/* Operation numbers and exit reasons of ARM's semihosting specification */
enum {
	SYS_OPEN = 0x01, SYS_CLOSE = 0x02, SYS_WRITE0 = 0x04, SYS_WRITE = 0x05,
	SYS_EXIT = 0x18,
	OPEN_MODE_WB = 5,	/* fopen's "wb" */
	ADP_STOPPED_APPLICATION_EXIT = 0x20026,
	ADP_STOPPED_RUNTIME_ERROR = 0x20023,
};

/* The host recognises the ebreak by the instructions around it, which
 * must be full-size (not compressed) and on one page: .balign 16 keeps
 * the 12 bytes off a page boundary. */
__attribute__((noinline)) static int semihost_call(int op, const void *arg)
{
	register int a0 __asm__("a0") = op;
	register const void *a1 __asm__("a1") = arg;

	__asm__ volatile(
		".balign 16\n\t"
		".option push\n\t"
		".option norvc\n\t"
		"slli zero, zero, 0x1f\n\t"
		"ebreak\n\t"
		"srai zero, zero, 7\n\t"
		".option pop"
		: "+r"(a0) : "r"(a1) : "memory");
	return a0;
}

/* gmon_put_fn: SYS_WRITE returns the number of bytes it did not write. */
static int put_to_host_file(void *handle, const void *data, size_t len)
{
	const uintptr_t args[3] = { (uintptr_t)handle, (uintptr_t)data, len };

	return semihost_call(SYS_WRITE, args) == 0 ? 0 : -1;
}

int semihost_write_gmon(const char *name)
{
	const uintptr_t open_args[3] = { (uintptr_t)name, OPEN_MODE_WB, strlen(name) };
	int handle = semihost_call(SYS_OPEN, open_args);
	int status;

	if (handle == -1)
		return -1;
	status = gmon_emit(put_to_host_file, (void *)(uintptr_t)handle);
	if (semihost_call(SYS_CLOSE, &(uintptr_t){ (uintptr_t)handle }) != 0)
		status = -1;
	if (gmon_calls_dropped() != 0)
		semihost_print("gmon: the arc table was full, some calls are missing"
			" (raise GMON_ARC_BITS)\n");
	return status;
}

void semihost_print(const char *text)
{
	semihost_call(SYS_WRITE0, text);
}

/* (on RV32, as on 32-bit ARM, SYS_EXIT's argument is the reason itself) */
void semihost_exit(int status)
{
	semihost_call(SYS_EXIT, (const void *)(uintptr_t)(status == 0 ?
		ADP_STOPPED_APPLICATION_EXIT : ADP_STOPPED_RUNTIME_ERROR));
	for (;;)
		continue;
}
