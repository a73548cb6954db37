#!/bin/bash
# riscv-baremetal.sh -- the bare-metal RISC-V example (examples/riscv), as
# tests/lib/bare-metal.bash checks each example: fixtures/riscv-rv32's
# profile has gprof's numbers, the demo's calls and every call site on its
# call instruction (the linker relaxed the calls into 2-byte c.jal); with
# the riscv64-unknown-elf toolchain, picolibc and qemu-system-riscv32, the
# example builds, runs twice with the same gmon.out (qemu -icount
# shift=3,sleep=off), and with a tiny arc table keeps the arcs it has and
# says the table was full.
. "${srcdir:-.}/tests/test-lib.sh"

bm_example=riscv bm_fixture=riscv-rv32 bm_regen=regen-riscv.sh
bm_entry=c_start bm_rate=10000 bm_triplet=riscv64-unknown-elf
bm_qemu=qemu-system-riscv32 bm_libc=picolibc bm_libc_flags=--specs=picolibc.specs
. "$srcdir/tests/lib/bare-metal.bash"
