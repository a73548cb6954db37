#!/bin/bash
# oom.sh -- out of memory at every stage: under address-space limits from
# too small to start to enough, a conversion either succeeds with the same
# output as without a limit or fails with exit 1 and one line saying so;
# never a crash, another profile, or a second line.
. "${srcdir:-.}/tests/test-lib.sh"

[ -z "${G2C_VALGRIND:-}" ] || skip "valgrind needs more address space than the limits leave"
ldd "$G2C_BINARY" 2>/dev/null | grep -q 'libasan\|libtsan' &&
	skip "the sanitizers reserve more address space than the limits leave"
# limits EXE GMON KB...: the conversion under each limit of KB kB.
limits() {
	local exe=$1 gmon=$2 kb st lines bad=0 failed=0 passed=0 runs=0
	shift 2
	"$GMON2CG" -o "$tmp/full.cg" "$exe" "$gmon" 2>/dev/null || { not_ok "$exe: no conversion without a limit"; return; }
	for kb in "$@"; do
		(ulimit -v "$kb" && exec "$GMON2CG" -o "$tmp/lim.cg" "$exe" "$gmon") 2>"$tmp/err" >/dev/null
		st=$?
		# Too little even for the dynamic loader to map the libraries or
		# to set up the first thread's TLS (it exits 127 before main).
		[ "$st" -eq 127 ] && grep -q 'error while loading shared libraries\|cannot allocate TLS data structures for initial thread' "$tmp/err" &&
			continue
		runs=$((runs + 1))
		lines=$(grep -vc 'warning: none of the' "$tmp/err")
		case $st in
		0) passed=$((passed + 1))
		   cmp -s "$tmp/full.cg" "$tmp/lim.cg" ||
			{ bad=$((bad + 1)); diag "$kb kB: another profile"; } ;;
		1) failed=$((failed + 1))
		   [ "$lines" -eq 1 ] && [ ! -e "$tmp/lim.cg" ] ||
			{ bad=$((bad + 1)); diag "$kb kB: exit 1 with $lines lines: $(head -2 "$tmp/err")"; } ;;
		*) bad=$((bad + 1)); diag "$kb kB: exit $st: $(head -2 "$tmp/err")" ;;
		esac
		rm -f "$tmp/lim.cg"
	done
	[ "$bad" -eq 0 ]; check "${exe#"$FIXTURES"/}: $runs limits: $failed refused in one line, $passed converted exactly, none otherwise"
	[ "$failed" -gt 0 ] && [ "$passed" -gt 0 ]; check "${exe#"$FIXTURES"/}: the limits cover both failing and succeeding runs"
}

limits "$FIXTURES/interp/prog" "$FIXTURES/interp/gmon.out" \
	$(seq 12288 64 20480) $(seq 21504 1024 40960)
# Names demangled on a thread of their own, whose stack is address space
# too: without room for it they are demangled without the thread.
limits "$FIXTURES/manycxx/prog" "$FIXTURES/manycxx/gmon.out" \
	$(seq 12288 256 40960)
finish
