/* semihost.c -- the host's services over ARM semihosting (semihost.h). */
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

static int semihost_call(int op, const void *arg)
{
	register int r0 __asm__("r0") = op;
	register const void *r1 __asm__("r1") = arg;

	__asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
	return r0;
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

void semihost_exit(int status)
{
	semihost_call(SYS_EXIT, (const void *)(uintptr_t)(status == 0 ?
		ADP_STOPPED_APPLICATION_EXIT : ADP_STOPPED_RUNTIME_ERROR));
	for (;;)
		continue;
}
