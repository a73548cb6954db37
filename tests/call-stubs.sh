#!/bin/bash
# call-stubs.sh -- PowerPC's call stubs (fixtures/cross/powerpc/stubs and
# ppc64el/stubs, PIEs linked with the shared libc, run under qemu-user):
# code calls libc through stubs in .text named by local symbols such as
# "00008000.got2.plt_pic32.labs@@GLIBC_2.0" (32-bit) or
# "0000004b.plt_call.labs@@GLIBC_2.17" (64-bit), which gprof drops,
# crediting their samples to the function before them.  They are PLT
# entries ("labs@plt"), and the stub of the mcount family's function
# that -pg code calls is left out of every total with the family, as
# x86's mcount@plt is.  HP-PA's import stubs, which have no symbols, are
# PLT entries too.
. "${srcdir:-.}/tests/test-lib.sh"

[ -n "$PYTHON3" ] || skip "python3 not found"
command -v objdump >/dev/null || skip "objdump not found (install binutils)"
add_samples="$PYTHON3 $srcdir/tests/lib/gmon_rewrite.py"
# left_out STATS_FILE: --stats' samples in functions and in the mcount
# family.
left_out() { sed -n 's/.*in functions \([0-9]*\)\.000, .*(left out) \([0-9]*\)\.000$/\1 \2/p' "$1"; }

# x86-64: clang's -pg prologues call mcount@plt.  Samples in it are the
# profiler's: 50 more there, 50 more left out, no more counted.
C=$FIXTURES/clang
plt=$(objdump -d "$C/prog" | sed -n 's/^0*\([0-9a-f]*\) <mcount@plt>:$/\1/p')
if [ -z "$plt" ]; then
	not_ok "fixtures/clang has no mcount@plt (fixture changed?)"
else
	$add_samples "add-samples=$plt:50" "$C/prog" "$C/gmon.out" "$tmp/clang.out"
	"$GMON2CG" --stats -o /dev/null "$C/prog" "$C/gmon.out" 2>"$tmp/clang.err" &&
		"$GMON2CG" --stats -o /dev/null "$C/prog" "$tmp/clang.out" 2>"$tmp/more.err"
	read -r counted excluded < <(left_out "$tmp/clang.err")
	[ "$(left_out "$tmp/more.err")" = "$counted $((excluded + 50))" ]
	check "samples in mcount@plt are left out with the mcount family"
	# and so does the oracle (gprof credits them to _init)
	PYTHONPATH=$srcdir/tests/lib "$PYTHON3" -c '
import sys, exact_hist
before, after = (exact_hist.compute(sys.argv[1], [g]) for g in sys.argv[2:])
sys.exit(not (abs(after["total"] - before["total"]) < 1e-6 and
              abs(after["excluded"] - before["excluded"] - 50) < 1e-6 and
              after["functions"] == before["functions"]))' \
		"$C/prog" "$C/gmon.out" "$tmp/clang.out"
	check "exact_hist leaves the samples in mcount@plt out too"
fi

[ "${BFD_MULTIARCH:-no}" = yes ] || { skip_check "PowerPC's stubs" "this libbfd reads only the host's targets"; finish; }
# ARCH FUNCTION: the fixture's gprof credits the stubs to FUNCTION, the
# symbol before them.
while read -r arch before; do
	S=$FIXTURES/cross/$arch/stubs
	# (what regen-ppc-stubs.sh counted in the stubs' bins, and where
	# mcount's stub is)
	labs=$(sed -n 's/^samples in labs.s call stub: //p' "$S/BUILD-INFO")
	mcount=$(sed -n 's/^samples in \(.*mcount[a-z_]*\).s call stub: .*/\1/p' "$S/BUILD-INFO")
	stub=$(sed -n "s/^  \([0-9a-f]*\) [0-9a-f]*[.].*plt_[a-z0-9]*[.]$mcount@.*/\1/p" "$S/BUILD-INFO")
	if [ -z "$labs" ] || [ -z "$mcount" ] || [ -z "$stub" ]; then
		not_ok "$arch: BUILD-INFO does not count the stubs' samples (fixture changed?)"
		continue
	fi
	expect -n "$arch: converts" 0 "" \
		"$GMON2CG" --stats --prefix-map=.="$FIXTURES" -o "$tmp/$arch.cg" "$S/prog" "$S/gmon.out"
	! grep -qv '^gmon2cg: stats: ' "$tmp/err"; check "$arch: no warning"
	grep -q 'in no function 0.000,' "$tmp/err"; check "$arch: no sample in no function"
	# 50 samples more in mcount's stub: 50 more left out, no more counted.
	$add_samples "add-samples=$stub:50" "$S/prog" "$S/gmon.out" "$tmp/more.out"
	"$GMON2CG" --stats -o /dev/null "$S/prog" "$tmp/more.out" 2>"$tmp/more.err"
	read -r counted excluded < <(left_out "$tmp/err")
	[ "$(left_out "$tmp/more.err")" = "$counted $((excluded + 50))" ]
	check "$arch: samples in $mcount's stub are left out with the mcount family"
	[ -s "$tmp/$arch.cg" ] || "$GMON2CG" -o "$tmp/$arch.cg" "$S/prog" "$S/gmon.out" 2>/dev/null
	"$PYTHON3" "$srcdir/tests/lib/callgrind_model.py" --json "$tmp/$arch.cg" >"$tmp/$arch.json"
	json() { "$PYTHON3" -c "import json, sys; d = json.load(open(sys.argv[1])); print($1)" "$tmp/$arch.json"; }
	[ "$(json "d['functions'].get('labs@plt', {}).get('self', 0)")" = "$((labs * 10000000))" ]
	check "$arch: labs@plt has the $labs samples of labs's stub"
	[ "$(json "[n for n in d['functions'] if 'mcount' in n or '.plt_' in n or n == '<no symbol>']")" = "[]" ]
	check "$arch: no stub under its symbol's name, no mcount stub, no <no symbol>"
	# gprof drops the stubs' names and credits their samples to the
	# function before them.
	if [ -n "$GPROF" ]; then
		"$GPROF" -b -p "$S/prog" "$S/gmon.out" >"$tmp/gprof" 2>&1 &&
			grep -q " $before\$" "$tmp/gprof" && ! grep -q '@plt\|[.]plt_' "$tmp/gprof"
		check "$arch: gprof still credits the stubs to $before (fixture changed?)"
	else
		skip_check "$arch: gprof credits the stubs elsewhere" "gprof not found"
	fi
done <<'ARCHES'
powerpc __stack_chk_fail_local
ppc64el _init
ARCHES

# HP-PA's import stubs have no symbols at all (ld writes them at the start
# of .text).  Each is named after the function whose PLT slot it loads,
# found here from objdump's and readelf's text: "addil L%0,dp,r1" then
# "ldo X(r1),r22" loads the slot at $global$ + X, which .rela.plt names.
H=$FIXTURES/cross/hppa-dynamic
global=$(nm "$H/prog" | sed -n 's/^\([0-9a-f]*\) D [$]global[$]$/\1/p')
slot=$(readelf -rW "$H/prog" | awk '$3 == "R_PARISC_IPLT" && $5 ~ /^printf@/ { print $1 }')
stub=
while read -r at x; do
	[ $((16#$x)) -eq $((16#${slot:-0} - 16#${global:-0})) ] && stub=$at && break
done < <(objdump -d "$H/prog" | awk '
	/addil L%0,dp,r1$/ { at = $1; sub(":", "", at); next }
	at != "" && /ldo [0-9a-f]+\(r1\),r22$/ { x = $NF; sub(/\(r1\),r22$/, "", x); print at, x }
	{ at = "" }')
if [ -z "$global" ] || [ -z "$slot" ] || [ -z "$stub" ]; then
	not_ok "hppa: no import stub of printf found (fixture changed?)"
else
	$add_samples "add-samples=$stub:50" "$H/prog" "$H/gmon.out" "$tmp/hppa.out"
	"$GMON2CG" -o "$tmp/hppa.cg" "$H/prog" "$tmp/hppa.out" 2>/dev/null
	"$PYTHON3" "$srcdir/tests/lib/callgrind_model.py" --json "$tmp/hppa.cg" >"$tmp/hppa.json"
	"$PYTHON3" -c '
import json, sys
f = json.load(open(sys.argv[1]))["functions"]
sys.exit(not (f.get("printf@plt", {}).get("self") == 50 * 10000000 and "<no symbol>" not in f))' "$tmp/hppa.json"
	check "hppa: the 50 samples in printf's import stub (0x$stub) are printf@plt's"
fi
finish
