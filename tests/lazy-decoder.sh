#!/bin/bash
# lazy-decoder.sh -- a shared libopcodes is loaded only when an
# instruction needs it (mapping it costs 4 MB of memory): gcc's x86-64
# code decodes without it and converts even where the library found by
# its name is not libopcodes at all; code that needs it (clang's, another
# architecture's, from the start) then fails with one line naming the
# program, exit 1
# and no output file.
. "${srcdir:-.}/tests/test-lib.sh"

[ "${OPCODES_SONAME:-none}" != none ] || skip "libopcodes is linked, not loaded"
cc=${CC:-cc}
command -v "$cc" >/dev/null || skip "no C compiler to build a stand-in library"
# a library of libopcodes' name without its functions, found first
echo 'int not_libopcodes;' >"$tmp/stand-in.c"
"$cc" -shared -fPIC -o "$tmp/$OPCODES_SONAME" "$tmp/stand-in.c"
check "a stand-in for $OPCODES_SONAME builds"

"$GMON2CG" -o "$tmp/ref.cg" "$FIXTURES/calltree/prog" "$FIXTURES/calltree/gmon.out"
env LD_LIBRARY_PATH="$tmp" "$GMON2CG" -o "$tmp/lazy.cg" \
	"$FIXTURES/calltree/prog" "$FIXTURES/calltree/gmon.out"
check "gcc's x86-64 code converts without loading libopcodes"
cmp -s "$tmp/ref.cg" "$tmp/lazy.cg"; check "the same output as with libopcodes at hand"

expect -n "clang's code needs libopcodes: one line" 1 \
	"^gmon2cg: .*fixtures/clang/prog: $OPCODES_SONAME has no disassembler$" \
	env LD_LIBRARY_PATH="$tmp" "$GMON2CG" -o "$tmp/clang.cg" \
	"$FIXTURES/clang/prog" "$FIXTURES/clang/gmon.out"
[ ! -e "$tmp/clang.cg" ]; check "and no output file"
"$GMON2CG" -o "$tmp/clang.cg" "$FIXTURES/clang/prog" "$FIXTURES/clang/gmon.out"
check "clang's code converts with libopcodes at hand"

if [ "$BFD_MULTIARCH" = yes ]; then
	expect -n "PowerPC code: libopcodes from the start, one line" 1 \
		"^gmon2cg: .*fixtures/cross/powerpc/prog: $OPCODES_SONAME has no disassembler$" \
		env LD_LIBRARY_PATH="$tmp" "$GMON2CG" -o "$tmp/ppc.cg" \
		"$FIXTURES/cross/powerpc/prog" "$FIXTURES/cross/powerpc/gmon.out"
	[ ! -e "$tmp/ppc.cg" ]; check "and no output file"
else
	skip_check "PowerPC code: libopcodes from the start" "libbfd reads only the host's code"
	skip_check "and no output file" "libbfd reads only the host's code"
fi
finish
