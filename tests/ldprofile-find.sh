#!/bin/bash
# ldprofile-find.sh -- which library an LD_PROFILE file profiles: found
# from the file's content (its code range and callees against each
# candidate's code), the file name only a hint, so that renamed profiles
# convert; and found as ld.so finds it, in a private tree built here with
# gcc: an empty LD_LIBRARY_PATH entry (the current directory), the
# glibc-hwcaps subdirectories, the legacy ones (tls, the platform), $LIB
# and $PLATFORM in RUNPATH, the RUNPATH or RPATH of the library that
# needs the one profiled.  Two builds
# of one library with different layouts stand where the wrong one would
# be taken: 200 000 calls of x_delta must not come out as another
# function's, and a library whose code does not fit is never taken.
. "${srcdir:-.}/tests/test-lib.sh"

fix=$FIXTURES/ldprofile
command -v gcc >/dev/null || skip "gcc not found"

# calls_to NAME FILE: the calls to function NAME in callgrind file FILE.
calls_to() {
	awk -v want="$1" '
		/^c?fn=/ { id = $1; sub(/^c?fn=/, "", id); if (NF > 1) name[id] = $2
			   if ($0 ~ /^cfn=/) callee = name[id] }
		/^calls=/ { split($1, c, "="); if (callee == want) n += c[2] }
		END { print n + 0 }' "$2"
}

# --- Renamed profiles: the content says which library they are of.
cp "$fix/nopg/libmix.so.1.profile" "$tmp/nopg.profile"
cp "$fix/nopg/libmix.so.1.profile" "$tmp/libmix.so.1.run1.profile"
cp "$fix/pg/libmix.so.1.profile" "$tmp/libmix.so.1.run2.profile"
"$GMON2CG" -o "$tmp/plain.cg" "$fix/prog" "$fix/nopg/libmix.so.1.profile" 2>/dev/null
if "$GMON2CG" -o "$tmp/renamed.cg" "$fix/prog" "$tmp/nopg.profile" 2>"$tmp/err" &&
	[ "$(grep -v '^desc: Trigger\|^desc: Object' "$tmp/renamed.cg")" = \
	  "$(grep -v '^desc: Trigger\|^desc: Object' "$tmp/plain.cg")" ]; then
	ok "a renamed profile (nopg.profile) converts as the original"
else
	not_ok "nopg.profile: $(cat "$tmp/err")"
fi
if "$GMON2CG" -o "$tmp/runs.cg" "$fix/prog" "$tmp/libmix.so.1.run1.profile" \
	"$tmp/libmix.so.1.run2.profile" 2>"$tmp/err" &&
	[ "$(grep -c '^desc: Object: .*libmix.so.1: samples and calls' "$tmp/runs.cg")" -eq 1 ] &&
	[ "$(calls_to mix_round "$tmp/runs.cg")" -eq 51200000 ]; then
	ok "two renamed runs of one library are summed"
else
	not_ok "renamed runs: $(cat "$tmp/err")"
fi
"$GMON2CG" -o "$tmp/self.cg" "$fix/libmix.so.1" "$tmp/nopg.profile" 2>/dev/null &&
	[ "$(calls_to mix_round "$tmp/self.cg")" -eq 25600000 ]
check "a renamed profile of the executable, a library"
mkdir "$tmp/named" && cp "$fix/libmix.so.1" "$tmp/named/mix-copy.so" &&
	mkdir "$tmp/away" && cp "$fix/prog" "$tmp/away/" &&
	"$GMON2CG" -o "$tmp/named.cg" --library="$tmp/named/mix-copy.so" "$tmp/away/prog" \
		"$tmp/nopg.profile" 2>/dev/null &&
	grep -q "^ob=(.*) $tmp/named/mix-copy.so$\|^cob=(.*) $tmp/named/mix-copy.so$" "$tmp/named.cg"
check "--library is honoured whatever the library's file name"

# --- The search, in a private tree: two builds of libx.so.1, their
# functions in another order and at other addresses.
cd "$tmp" || exit 1
# (x_delta calls x_beta through the PLT: ld.so profiles only a library
# with PLT relocations)
cat >x.c <<'C'
int x_beta(int v);
#ifdef OTHER_LAYOUT
void x_pad(void) { __asm__(".skip 4096"); }
int x_delta(int v) { return x_beta(v) * 7 + 3; }
int x_gamma(int v) { return v ^ 0x55; }
int x_beta(int v) { return v + 11; }
int x_alpha(int v) { return v - 5; }
#else
int x_alpha(int v) { return v - 5; }
int x_beta(int v) { return v + 11; }
int x_gamma(int v) { return v ^ 0x55; }
int x_delta(int v) { return x_beta(v) * 7 + 3; }
#endif
C
cat >main.c <<'C'
int x_delta(int);
int main(void)
{
	int s = 0;

	for (int i = 0; i < 200000; i++)
		s += x_delta(i);
	return s == 42;
}
C
# Under valgrind gmon2cg sees valgrind's CPU (an Intel one without
# AVX-512, whatever this machine has), not the one ld.so ran on: the
# platform is then another.
under_valgrind=${G2C_VALGRIND:+"valgrind shows gmon2cg another CPU than ld.so's"}
# ld.so's platform ($PLATFORM): before glibc 2.37 its --help names it
# among the legacy subdirectories (on Intel CPUs "haswell" or "xeon_phi",
# not AT_PLATFORM); else AT_PLATFORM.
platform=$(ld.so --help 2>/dev/null | awk '/\(AT_PLATFORM/ { print $1; exit }')
[ -n "$platform" ] ||
	platform=$(LD_SHOW_AUXV=1 /bin/true 2>/dev/null | awk '$1 == "AT_PLATFORM:" { print $2 }')
libdir=$(ld.so --help 2>/dev/null | awk '/system search path/ { sub(/^\//, "", $1); print $1; exit }')
build() { # DIR [-DOTHER_LAYOUT]: libx.so.1 in DIR
	mkdir -p "$1" && gcc -O1 -fPIC -shared -Wl,-soname,libx.so.1 ${2:-} -o "$1/libx.so.1" x.c
}
prog() { # NAME RUNPATH
	gcc -O1 -o "$1" main.c -L"$tmp/t/a" -l:libx.so.1 -Wl,--enable-new-dtags,-rpath,"$2"
}
if ! build t/a || ! build t/b -DOTHER_LAYOUT || ! prog t/prog-hw '$ORIGIN/hw'; then
	not_ok "cannot build the test libraries with gcc"
	finish
fi
# run_and_convert NAME DIR PROG [ENV...]: runs PROG in DIR under
# LD_PROFILE, then converts its profile there, with the same environment;
# checks that x_delta has the 200 000 calls.
run_and_convert() {
	local name=$1 dir=$2 program=$3
	shift 3
	rm -f "$tmp/libx.so.1.profile"
	if ! (cd "$dir" && env "$@" LD_PROFILE=libx.so.1 LD_PROFILE_OUTPUT="$tmp" "$program") ||
		[ ! -s "$tmp/libx.so.1.profile" ]; then
		skip_check "$name" "no LD_PROFILE output here"
		return
	fi
	if (cd "$dir" && env "$@" "$GMON2CG" -o "$tmp/case.cg" "$program" \
		"$tmp/libx.so.1.profile") 2>"$tmp/err" &&
		[ "$(calls_to x_delta "$tmp/case.cg")" -eq 200000 ] &&
		[ "$(calls_to x_alpha "$tmp/case.cg")" -eq 0 ]; then
		ok "$name"
	else
		not_ok "$name: x_delta $(calls_to x_delta "$tmp/case.cg" 2>/dev/null),"\
			"x_alpha $(calls_to x_alpha "$tmp/case.cg" 2>/dev/null): $(cat "$tmp/err")"
	fi
}

# glibc-hwcaps/x86-64-v2 before the directory itself, on a CPU of that
# level (ld.so searches only levels the CPU supports).
if ld.so --help 2>/dev/null | grep -q 'x86-64-v2 (supported, searched)'; then
	mkdir -p t/hw/glibc-hwcaps/x86-64-v2
	cp t/a/libx.so.1 t/hw/ && cp t/b/libx.so.1 t/hw/glibc-hwcaps/x86-64-v2/
	run_and_convert "glibc-hwcaps/x86-64-v2 first" "$tmp" "$tmp/t/prog-hw"
else
	skip_check "glibc-hwcaps/x86-64-v2 first" "this ld.so does not search x86-64-v2"
fi

# The legacy subdirectories that ld.so before glibc 2.37 searches after
# glibc-hwcaps: combinations of the hwcap names, the platform and tls,
# the deepest first.
legacy=$(ld.so --help 2>/dev/null | awk '/^Legacy HWCAP/ { on = 1; next }
	on && /supported, searched/ && !/AT_PLATFORM/ && $1 != "tls" { print $1 }')
if ld.so --help 2>/dev/null | grep -q '^  tls (supported, searched)'; then
	n=0
	for sub in tls "$platform" "tls/$platform" ${legacy:+"tls/$platform/${legacy%%$'\n'*}"}; do
		n=$((n + 1))
		if [ "$sub" != tls ] && [ -n "$under_valgrind" ]; then
			skip_check "legacy subdirectory $sub/" "$under_valgrind"
			continue
		fi
		prog "t/prog-leg$n" "\$ORIGIN/leg$n" && mkdir -p "t/leg$n/$sub" &&
			cp t/a/libx.so.1 "t/leg$n/" && cp t/b/libx.so.1 "t/leg$n/$sub/"
		run_and_convert "legacy subdirectory $sub/ before the directory" "$tmp" "$tmp/t/prog-leg$n"
	done
else
	skip_check "legacy subdirectories" "this ld.so searches none (glibc 2.37 or later)"
fi

# An empty LD_LIBRARY_PATH entry is the current directory, before RUNPATH.
prog t/prog-cwd "$tmp/t/a" && mkdir -p t/cwd && cp t/b/libx.so.1 t/cwd/
for llp in ':' ':/nonexistent' '/nonexistent:' '/nonexistent::/nonexistent2'; do
	run_and_convert "LD_LIBRARY_PATH='$llp': the current directory" "$tmp/t/cwd" \
		"$tmp/t/prog-cwd" LD_LIBRARY_PATH="$llp"
done
# ... without it, the RUNPATH build does not fit the profile: refused,
# never converted with the wrong functions.
(cd t/cwd && "$GMON2CG" -o "$tmp/wrong.cg" "$tmp/t/prog-cwd" "$tmp/libx.so.1.profile") 2>"$tmp/err"
[ $? -eq 1 ] && [ ! -e "$tmp/wrong.cg" ] && grep -q -- "--library=PATH" "$tmp/err" &&
	[ "$(wc -l <"$tmp/err")" -eq 1 ]
check "a library found whose code does not fit the profile is not taken"

# A renamed profile of a library that the program needs only through
# another library (libw.so.1 needs libx.so.1).
cat >w.c <<'C'
int x_delta(int);
int w_call(int v) { return x_delta(v); }
C
sed 's/x_delta(i)/w_call(i)/; s/^int x_delta(int);/int w_call(int);/' main.c >mainw.c
if mkdir -p t/w && cp t/b/libx.so.1 t/w/ &&
	gcc -O1 -fPIC -shared -Wl,-soname,libw.so.1 -o t/w/libw.so.1 w.c -Lt/w -l:libx.so.1 \
		-Wl,--enable-new-dtags,-rpath,'$ORIGIN' &&
	gcc -O1 -o t/prog-w mainw.c -Lt/w -l:libw.so.1 -Wl,-rpath-link,t/w \
		-Wl,--enable-new-dtags,-rpath,'$ORIGIN/w' &&
	rm -f libx.so.1.profile && LD_PROFILE=libx.so.1 LD_PROFILE_OUTPUT="$tmp" t/prog-w; then
	mv libx.so.1.profile run1.profile
	if "$GMON2CG" -o "$tmp/w.cg" t/prog-w run1.profile 2>"$tmp/err" &&
		[ "$(calls_to x_delta "$tmp/w.cg")" -eq 200000 ]; then
		ok "a renamed profile of a library needed through another"
	else
		not_ok "a library needed through another: $(cat "$tmp/err")"
	fi
else
	not_ok "cannot build or run the program needing libw.so.1"
fi

# A library that another needs is looked for where ld.so looks for it
# for that library: its RUNPATH (not the program's), or, without one, its
# RPATH and then the program's.  The program's own directories hold the
# build that does not fit.
# needed_through DIR NAME DTAGS PROG_RPATH: libv.so.1 (in t/DIR/v,
# linked with DTAGS, --enable-new-dtags for RUNPATH, --disable-new-dtags
# for RPATH, '$ORIGIN/../x') needs libx.so.1 (in t/DIR/x); the program
# t/DIR/prog has PROG_RPATH (its DTAGS alike), whose t/DIR/p holds the
# other build of libx.so.1.
cat >v.c <<'C'
int x_delta(int);
int v_call(int v) { return x_delta(v); }
C
sed 's/x_delta(i)/v_call(i)/; s/^int x_delta(int);/int v_call(int);/' main.c >mainv.c
needed_through() {
	local d=t/$1 name=$2 dtags=$3
	mkdir -p "$d/v" "$d/x" "$d/p" && cp t/b/libx.so.1 "$d/x/" && cp t/a/libx.so.1 "$d/p/" &&
		gcc -O1 -fPIC -shared -Wl,-soname,libv.so.1 -o "$d/v/libv.so.1" v.c \
			-L"$d/x" -l:libx.so.1 -Wl,"$dtags",-rpath,'$ORIGIN/../x' &&
		gcc -O1 -o "$d/prog" mainv.c -L"$d/v" -l:libv.so.1 -Wl,-rpath-link,"$d/x" \
			-Wl,"$dtags",-rpath,"$4" ||
		{ not_ok "$name: cannot build the program needing libv.so.1"; return; }
	run_and_convert "$name" "$tmp" "$tmp/$d/prog"
}
needed_through vr "a library's own RUNPATH for what it needs" --enable-new-dtags '$ORIGIN/v:$ORIGIN/p'
needed_through vp "a library's own RPATH for what it needs" --disable-new-dtags '$ORIGIN/v:$ORIGIN/p'

# $PLATFORM and $LIB in RUNPATH, expanded as ld.so expands them.
if [ -n "$under_valgrind" ]; then
	skip_check "\$PLATFORM in RUNPATH" "$under_valgrind"
elif [ -n "$platform" ]; then
	prog t/prog-plat '$ORIGIN/plat/$PLATFORM' && mkdir -p "t/plat/$platform" &&
		cp t/b/libx.so.1 "t/plat/$platform/"
	run_and_convert "\$PLATFORM in RUNPATH" "$tmp" "$tmp/t/prog-plat"
fi
if [ -n "$libdir" ]; then
	prog t/prog-lib '$ORIGIN/l/$LIB' && mkdir -p "t/l/$libdir" && cp t/b/libx.so.1 "t/l/$libdir/"
	run_and_convert "\$LIB in RUNPATH" "$tmp" "$tmp/t/prog-lib"
fi
finish
