# bare-metal.bash -- the checks of a bare-metal example (examples/NAME,
# sourced by tests/cortex-m.sh and tests/riscv-baremetal.sh after they set
# what differs): its committed profile converts with gprof's numbers, with
# the call counts the demo's source implies and with every cost on an
# instruction and every call site on its call; where the toolchain and
# qemu are installed, the example also builds, runs twice with the same
# gmon.out, converts the same way, and with a tiny arc table keeps the
# arcs it has and says the table was full.
#   bm_example    examples/ directory        bm_fixture  fixtures/ directory
#   bm_regen      its regeneration script    bm_entry    what calls main
#   bm_rate       the profile's rate (Hz)    bm_triplet  the toolchain's prefix
#   bm_qemu       the qemu-system binary     bm_libc, bm_libc_flags  the C
#                                            library and how gcc finds it
[ "$BFD_MULTIARCH" = yes ] || skip "this libbfd reads only the host's targets (install binutils-multiarch-dev)"
[ -n "$GPROF" ] && [ -n "$PYTHON3" ] || skip "gprof or python3 not found"
export GPROF
lib=$srcdir/tests/lib
example=$(cd "$srcdir/examples/$bm_example" && pwd)

# Every arc as "caller callee count", from a converted profile.
arcs_of() {
	$PYTHON3 "$lib/callgrind_model.py" --json "$1" | $PYTHON3 -c '
import json, sys
for a in json.load(sys.stdin)["arcs"]:
    print(a["caller"], a["callee"], a["count"])'
}

# FUNCTION's share of the samples in whole percent, from a converted profile.
share_of() { # CG FUNCTION
	$PYTHON3 "$lib/callgrind_model.py" --json "$1" | $PYTHON3 -c '
import json, sys
d = json.load(sys.stdin)
print(int(100 * d["functions"].get(sys.argv[1], {"self": 0})["self"] / max(d["summary"], 1)))' "$2"
}

# The demo's calls, from its constants: ROUNDS 16, WORDS 1024, DEPTH 10,
# COLLATZ_N 256 (the cycle's inner counts depend on the numbers).
demo_arcs="$bm_entry main 1
main fill 16
fill next_random 16384
main checksum 16
checksum mix 16384
main tree_sum 16
tree_sum tree_sum 32736
tree_sum mix 16384
main collatz_steps 4096
collatz_steps collatz_odd 2048
collatz_steps collatz_even 2048"

# check_profile NAME EXE GMON: the checks every profile of the demo passes.
check_profile() {
	local name=$1 exe=$2 gmon=$3 cg=$tmp/$1.cg
	if ! "$GMON2CG" -o "$cg" "$exe" "$gmon" 2>"$tmp/err"; then
		not_ok "$name: gmon2cg converts it"
		diag <"$tmp/err"
		return
	fi
	ok "$name: gmon2cg converts it"
	$PYTHON3 "$lib/compare_gprof.py" --cg "$cg" "$exe" "$gmon" >"$tmp/log" 2>&1 &&
		ok "$name agrees with gprof: call counts, exact self samples" ||
		{ not_ok "$name differs from gprof"; diag <"$tmp/log"; }
	$PYTHON3 "$lib/compare_gprof_pct.py" --cg "$cg" "$exe" "$gmon" >"$tmp/log" 2>&1 &&
		ok "$name: self and inclusive costs are gprof's percentages" ||
		{ not_ok "$name: costs differ from gprof's percentages"; diag <"$tmp/log"; }
	# (the demo spends about 70-75 % in mix, by the instructions it runs)
	share=$(share_of "$cg" mix)
	[ "$share" -ge 60 ] && [ "$share" -le 85 ]
	check "$name: the hot leaf mix has most samples ($share %)"
	arcs_of "$cg" >"$tmp/arcs"
	grep -vxFf "$tmp/arcs" <<<"$demo_arcs" >"$tmp/missing"
	[ ! -s "$tmp/missing" ]
	check "$name has the demo's call counts" || diag <"$tmp/missing"
	# (a call site is the call instruction before the return address gcc's
	# -pg passes, whatever its length: RISC-V's linker relaxes calls into
	# 2-byte c.jal, Thumb-2 mixes 2- and 4-byte instructions)
	$PYTHON3 "$lib/check_positions.py" "$cg" "$exe" >"$tmp/log" 2>&1
	check "$name: every cost is on an instruction, every call site on a call" ||
		diag <"$tmp/log"
}

fixture=$FIXTURES/$bm_fixture
check_profile fixture "$fixture/prog.elf" "$fixture/gmon.out"
grep -q "^desc: Sampling rate: $bm_rate Hz" "$tmp/fixture.cg"
check "fixture: the profile's rate is the runtime's timer's ($bm_rate Hz)"

# The percentage comparison notices one sample (of about 2 000) moved
# from the hot leaf mix to fill.
awk '/^fn=.*mix$/ { f = 1 } f && /^[0-9+*-]/ && !done { $NF -= 100000; done = 1 }
	/^fn=.*fill$/ { g = 1 } g && /^[0-9+*-]/ && !done2 { $NF += 100000; done2 = 1 } { print }' \
	"$tmp/fixture.cg" >"$tmp/moved.cg"
if cmp -s "$tmp/fixture.cg" "$tmp/moved.cg"; then
	not_ok "moved sample: the mutation changed nothing"
elif $PYTHON3 "$lib/compare_gprof_pct.py" --cg "$tmp/moved.cg" "$fixture/prog.elf" \
	"$fixture/gmon.out" >"$tmp/log"; then
	not_ok "moved sample: the percentage comparison missed it"
else
	ok "moved sample: caught ($(grep -c '^FAIL' "$tmp/log") failures)"
fi

cross_gprof=$(command -v "$bm_triplet-gprof")
if [ -n "$cross_gprof" ]; then
	cmp -s <("$GPROF" -b "$fixture/prog.elf" "$fixture/gmon.out") \
		<("$cross_gprof" -b "$fixture/prog.elf" "$fixture/gmon.out")
	check "$bm_triplet-gprof reports the fixture as gprof does"
else
	skip_check "$bm_triplet-gprof reports the fixture as gprof does" \
		"$bm_triplet-gprof not installed (binutils-$bm_triplet)"
fi

# The example itself, built as fixtures/$bm_regen builds it
# (without the MAKEFLAGS of "make check": variables given there, such as
# the sanitizer pass's CFLAGS, are for the host compiler).
build() { # DIR [MAKE ARGS...]
	local dir=$1
	shift
	mkdir -p "$dir" &&
		env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		make -s -C "$dir" -f "$example/Makefile" TIMEOUT=60 \
			EXTRA_CFLAGS="-ffile-prefix-map=$example=examples/$bm_example -ffile-prefix-map=$dir=." "$@"
}
missing=""
for tool in "$bm_triplet-gcc" "$bm_qemu" make timeout; do
	command -v "$tool" >/dev/null || missing="$missing $tool"
done
# (the C library's headers, such as picolibc-riscv64-unknown-elf's)
if [ -z "$missing" ] && ! echo '#include <string.h>' |
	"$bm_triplet-gcc" $bm_libc_flags -E -x c - >/dev/null 2>&1; then
	missing="$missing $bm_libc"
fi
if [ -n "$missing" ]; then
	skip_check "the example builds, runs and converts" "not installed:$missing"
	finish
fi
fresh=$tmp/fresh
build "$fresh" prog.elf >"$tmp/log" 2>&1
check "the example builds with -pg" || { diag <"$tmp/log"; finish; }
build "$fresh" run >"$tmp/log" 2>&1
check "the example runs in qemu and writes gmon.out" || { diag <"$tmp/log"; finish; }
cp "$fresh/gmon.out" "$tmp/first.out"
build "$fresh" run >"$tmp/log" 2>&1 && cmp -s "$fresh/gmon.out" "$tmp/first.out"
check "a second run writes the same gmon.out (qemu -icount)"
check_profile fresh "$fresh/prog.elf" "$fresh/gmon.out"
if cmp -s "$fresh/prog.elf" "$fixture/prog.elf"; then
	cmp -s "$fresh/gmon.out" "$fixture/gmon.out"
	check "the same prog.elf as the fixture's writes the fixture's gmon.out"
else
	skip_check "the same prog.elf as the fixture's writes the fixture's gmon.out" \
		"this toolchain builds another prog.elf (fixtures/$bm_regen)"
fi

# Four slots, three used: the first three arcs of the run are kept with
# their exact counts, the other calls are dropped, and the run says so.
small=$tmp/small
build "$small" ARC_BITS=2 run >"$tmp/log" 2>&1
check "with a full arc table the run still writes gmon.out" || diag <"$tmp/log"
grep -q 'arc table was full' "$tmp/log"
check "with a full arc table the run says so"
"$GMON2CG" -o "$tmp/small.cg" "$small/prog.elf" "$small/gmon.out" 2>"$tmp/err" &&
	arcs_of "$tmp/small.cg" | grep -v '^<spontaneous> ' >"$tmp/arcs" &&
	[ "$(sort "$tmp/arcs")" = "$(printf '%s\n' "$bm_entry main 1" "fill next_random 16384" "main fill 16" | sort)" ]
check "with a full arc table the first arcs keep their exact counts" ||
	{ diag <"$tmp/err"; diag <"$tmp/arcs"; }
finish
