#!/bin/bash
# cortex-m.sh -- the bare-metal Cortex-M example (examples/cortex-m), as
# tests/lib/bare-metal.bash checks each example: fixtures/cortex-m's
# profile has gprof's numbers, the demo's calls and every call site on its
# call instruction; with the arm-none-eabi toolchain and qemu-system-arm,
# the example builds, runs twice with the same gmon.out, and with a tiny
# arc table keeps the arcs it has and says the table was full.
. "${srcdir:-.}/tests/test-lib.sh"

bm_example=cortex-m bm_fixture=cortex-m bm_regen=regen-cortex-m.sh
bm_entry=Reset_Handler bm_rate=10000 bm_triplet=arm-none-eabi
bm_qemu=qemu-system-arm bm_libc=newlib bm_libc_flags=
. "$srcdir/tests/lib/bare-metal.bash"
