/* semihost.h -- the host's services over RISC-V semihosting (qemu's
 * -semihosting, or a debugger such as OpenOCD with semihosting enabled):
 * the profile written to a host file, text printed, the run ended.
 * Without a debugger or qemu, the ebreak instruction these use traps. */
#ifndef SEMIHOST_H
#define SEMIHOST_H

/* Write the profile (gmon-rt.h) to the host file NAME, relative to the
 * host's working directory; prints a warning if calls were dropped.
 * Returns 0, or -1 if the file could not be written. */
int semihost_write_gmon(const char *name);

/* Print TEXT on the host's console. */
void semihost_print(const char *text);

/* End the run: qemu exits with status 0 for STATUS 0, else with 1. */
__attribute__((noreturn)) void semihost_exit(int status);

#endif
