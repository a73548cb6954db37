#!/bin/bash
# compare.sh -- gmon2cg --compare on fixtures/compare (regen-compare.sh):
# the same build run repeatedly compares clean in at least 99 % of all
# pairs of runs; hot_a made 30 % slower (1 000+ samples a run) is found in
# at least 95 % of the pairs of a base and a slower run, tick's one more
# call in every pair, and another function in at most 1 %; a rebuild where
# every address moved compares clean.  Also the exit statuses, the gates, the inputs the reader takes
# (gzip, --no-instr, --parts, C++, statics) and refuses (one line, status
# 1), the JUnit XML, and KCachegrind loading the comparison.
. "${srcdir:-.}/tests/test-lib.sh"

cmp=$FIXTURES/compare
# (valgrind and the sanitizers take memory and address space of their own:
# the checks of memory are for a plain build)
plain_build=yes
[ -z "${G2C_VALGRIND:-}" ] || plain_build=no
ldd "$G2C_BINARY" 2>/dev/null | grep -q 'libasan\|libtsan' && plain_build=no
shopt -s nullglob
[ -f "$cmp/base/gmon.01.out" ] || skip "fixtures/compare not generated (fixtures/regen-compare.sh)"

# Every run of every build, converted once (in the memcheck and sanitizer
# passes, the first three base runs and two slower ones: a few pairs for
# the code paths; the rates are the plain pass's).
declare -A runs
for variant in base slower rebuild; do
	runs[$variant]=''
	kept=0
	for g in "$cmp/$variant"/gmon.*.out; do
		n=${g##*/gmon.} n=${n%.out}
		[ -n "$paths_only" ] && [ "$kept" -ge 3 ] && break
		kept=$((kept + 1))
		"$GMON2CG" -o "$tmp/$variant.$n.cg" "$cmp/$variant/prog" "$g" 2>/dev/null ||
			not_ok "$variant run $n converts"
		runs[$variant]+=" $n"
	done
done
rate_runs_base=${runs[base]} rate_runs_slower=${runs[slower]}
# rate_check DESC: check DESC, a rate the plain pass measures.
rate_check() {
	local status=$?
	if [ -n "$paths_only" ]; then
		skip_check "$1" "the rates are measured in the plain pass"
	else
		(exit "$status")
		check "$1"
	fi
}

# changed OLD NEW [OPTION...]: the functions the report marks as changed,
# one a line (the total is not a function).
changed() {
	local old=$1 new=$2
	shift 2
	"$GMON2CG" --compare "$@" "$old" "$new" >"$tmp/report" 2>"$tmp/report.err"
	case $? in 0|3) ;; *) echo "(error)" ;; esac
	sed -n 's/^[*!] \([^ ]*\)  .*/\1/p' "$tmp/report" | sort
}

# -- False alarms: every pair of runs of the base build.
pairs=0 alarms=0
set -- $rate_runs_base
for i in "$@"; do
	for j in "$@"; do
		[ "$i" \< "$j" ] || continue
		pairs=$((pairs + 1))
		[ -z "$(changed "$tmp/base.$i.cg" "$tmp/base.$j.cg")" ] || alarms=$((alarms + 1))
	done
done
diag "false alarms: $alarms of $pairs pairs of base runs"
[ "$pairs" -ge 190 ] && [ $((alarms * 100)) -le "$pairs" ]
rate_check "the same build: nothing reported in at least 99 % of $pairs pairs ($alarms reported)"

# -- Power: every base run against every slower run.
pairs=0 found=0 calls=0 others=0
for i in $rate_runs_base; do
	for j in $rate_runs_slower; do
		pairs=$((pairs + 1))
		got=$(changed "$tmp/base.$i.cg" "$tmp/slower.$j.cg")
		grep -qx hot_a <<<"$got" && found=$((found + 1))
		grep -qx tick <<<"$got" && calls=$((calls + 1))
		[ -z "$(grep -vx -e hot_a -e tick <<<"$got")" ] || others=$((others + 1))
	done
done
diag "power: hot_a found in $found, tick in $calls, others in $others of $pairs pairs"
[ "$pairs" -ge 100 ] && [ $((found * 100)) -ge $((pairs * 95)) ]
rate_check "hot_a 30 % slower: reported in at least 95 % of $pairs pairs ($found)"
[ "$calls" -eq "$pairs" ]
check "tick called once more: reported in every pair ($calls of $pairs)"
# (no other function: at most the false-alarm rate's 1 % of pairs)
[ $((others * 100)) -le "$pairs" ]
rate_check "no other function reported in at least 99 % of pairs ($others with others)"

# -- A rebuild: every address moved, same functions.
for j in ${runs[rebuild]}; do
	got=$(changed "$tmp/base.01.cg" "$tmp/rebuild.$j.cg")
	[ -z "$got" ] && grep -q '^0 of 9 functions changed' "$tmp/report"
	check "a rebuild with a function added (run $j): every function matched, nothing reported"
done
set -- ${runs[base]}
old=$tmp/base.$1.cg,$tmp/base.$2.cg,$tmp/base.$3.cg
set -- ${runs[rebuild]}
new=$tmp/rebuild.$1.cg,$tmp/rebuild.$2.cg
[ -z "$(changed "$old" "$new")" ] && grep -q '^Means per run: 3 old, 2 new' "$tmp/report"
check "three base runs against two of the rebuild: summed, nothing reported"

# -- Two checkouts of one source in two directories: their files' paths
# differ by a prefix; the functions match by the rest.
"$GMON2CG" --prefix-map=.=/home/ci/one -o "$tmp/one.cg" "$cmp/base/prog" "$cmp/base/gmon.01.out" 2>/dev/null &&
	"$GMON2CG" --prefix-map=.=/builds/two/src -o "$tmp/two.cg" "$cmp/base/prog" "$cmp/base/gmon.02.out" 2>/dev/null
check "converts one profile as from two checkouts"
expect 0 '' "$GMON2CG" --compare "$tmp/one.cg" "$tmp/two.cg"
! grep -q '(gone)\|(new)' "$tmp/out" && grep -q '^0 of 9 functions changed' "$tmp/out" &&
	grep -qx 'Matched 9 functions by file name suffix: /home/ci/one/ -> /builds/two/src/' "$tmp/out"
check "two checkouts compare clean, the match by file name suffix said"
expect 3 '' "$GMON2CG" --compare "$tmp/one.cg" "$tmp/slower.01.cg"
grep -q '^! hot_a  \./compare/src/main.c  \[fails self' "$tmp/out"
check "a checkout against another: its changes found, under the new side's paths"

# -- Exit statuses and gates.
base=$tmp/base.01.cg slower=$tmp/slower.01.cg
expect 0 '' "$GMON2CG" --compare "$base" "$tmp/base.02.cg"
expect 3 '' "$GMON2CG" --compare "$base" "$slower"
grep -q '^! hot_a  .*\[fails self:+0%\]' "$tmp/out" && grep -q '^! tick  .*\[fails calls:1\]' "$tmp/out"
check "the default gates fail hot_a (self) and tick (calls)"
expect 0 '' "$GMON2CG" --compare --fail-on=self:+50% "$base" "$slower"
expect 3 '' "$GMON2CG" --compare --fail-on=self:+20% "$base" "$slower"
expect 0 '' "$GMON2CG" --compare --fail-on=self:-1% "$base" "$slower"
expect 3 '' "$GMON2CG" --compare --fail-on=self:+2s "$base" "$slower"
expect 0 '' "$GMON2CG" --compare --fail-on=self:+20s "$base" "$slower"
expect 3 '' "$GMON2CG" --compare --fail-on=calls:+1 "$base" "$slower"
expect 0 '' "$GMON2CG" --compare --fail-on=calls:+2 "$base" "$slower"
expect 0 '' "$GMON2CG" --compare --fail-on=calls:-1 "$base" "$slower"
expect 3 '' "$GMON2CG" --compare --fail-on=calls:1,self:+90% "$slower" "$base"
expect 0 '' "$GMON2CG" --compare --fail-on=total:+50% "$base" "$slower"
expect 0 '' "$GMON2CG" --compare --min-time=1ms --alpha=0.001 --fail-on=self:+0% "$base" "$tmp/base.02.cg"
expect 2 'invalid --fail-on' "$GMON2CG" --compare --fail-on=speed:+1% "$base" "$slower"
expect 2 'a time needs' "$GMON2CG" --compare --fail-on=self:+1 "$base" "$slower"
expect 2 'invalid --alpha' "$GMON2CG" --compare --alpha=2 "$base" "$slower"
expect 2 'invalid --min-time' "$GMON2CG" --compare --min-time=5 "$base" "$slower"
expect 2 'two operands' "$GMON2CG" --compare "$base"
expect 2 'two operands' "$GMON2CG" --compare "$base" "$slower" "$slower"
expect 2 'is an option of --compare' "$GMON2CG" --fail-on=self:+1% "$cmp/base/prog"
for opt in --rate=100 -z --no-demangle --parts --summary -Qmain --stats; do
	expect 2 "^gmon2cg: $opt is not an option of --compare (it applies to a conversion)\$" \
		"$GMON2CG" --compare "$opt" "$base" "$slower"
done

# -- The report fits build logs.
"$GMON2CG" --compare "$base" "$slower" >"$tmp/report"
[ "$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$tmp/report")" -le 80 ]
check "the report is at most 80 columns wide"
sed -n '/^[*! ] (total)/,$p' "$tmp/report" | sed -n 3p | grep -q '^! hot_a '
check "the largest change comes first"

# -- The report's numbers and names.
# (the base file edited: hot_a called 1 502 000 times more; tick, whose
# 1 ns marks a function without samples, given 50 samples)
t=$(sed -n 's/^totals: //p' "$base")
sed -e 's/^calls=24000 /calls=1526000 /' -e '/^fn=(6)$/{n;s/ 1$/ 500000001/}' \
	-e "s/^\(summary\|totals\): $t\$/\1: $((t + 500000000))/" "$base" >"$tmp/big.cg"
expect 3 '' "$GMON2CG" --compare --junit="$tmp/big.xml" "$base" "$tmp/big.cg"
grep -A1 '^! hot_a ' "$tmp/out" | grep -q ' 24000  1526000 +1502000\*$'
check "a change of 1 502 000 calls in exact figures"
grep -q 'message="calls 24000 -&gt; 1526000 (+1502000) crosses' "$tmp/big.xml"
check "... in the JUnit message too"
grep -A1 '^! tick ' "$tmp/out" | grep -q '^ *1.00ns   500ms  >+999%\*'
check "a change from less than a sample: '>+999%', not a percentage of 1 ns"
expect 0 '' "$GMON2CG" --compare "$base" "$tmp/base.02.cg"
! grep -q '^  util_step ' "$tmp/out" && ! grep -q '^  tick ' "$tmp/out" &&
	grep -q '^0 of 9 functions changed' "$tmp/out" &&
	grep -qx '2 functions with no sample and no change of calls not shown (--all).' "$tmp/out"
check "functions without samples or change of calls left out, and counted"
expect 0 '' "$GMON2CG" --compare --all "$base" "$tmp/base.02.cg"
grep -q '^  util_step ' "$tmp/out" && grep -q '^  tick ' "$tmp/out" && ! grep -q 'not shown' "$tmp/out"
check "--all shows them"
expect 2 'is an option of --compare' "$GMON2CG" --all "$cmp/base/prog"
# names and paths with an escape sequence and a byte that is not UTF-8
sed -e 's/^cfn=(4) hot_a$/cfn=(4) hot\x1b[31m_a\xff/' \
	-e 's/^\(c*f[il]=([0-9]*)\) \.\/compare\/src\/main\.c$/\1 .\/compare\/src\/ma\xffin.c/' \
	"$base" >"$tmp/bytes.cg"
sed -e 's/^calls=24000 /calls=24001 /' "$tmp/bytes.cg" >"$tmp/bytes2.cg"
expect 3 '' "$GMON2CG" --compare --junit="$tmp/bytes.xml" "$tmp/bytes.cg" "$tmp/bytes2.cg"
! LC_ALL=C grep -q "$(printf '[\033\377]')" "$tmp/out" &&
	grep -qF '! hot\x1b[31m_a\xff  ./compare/src/ma\xffin.c  [fails calls:1]' "$tmp/out"
check "control and non-UTF-8 bytes of names and paths reach the report as \\xHH"
if [ -n "${PYTHON3:-}" ]; then
	"$PYTHON3" - "$tmp/bytes.xml" "$tmp/big.xml" <<'EOF' 2>&1 | diag
import sys, xml.etree.ElementTree as ET
suite = ET.parse(sys.argv[1]).getroot().find("testsuite")
names = [c.get("name") for c in suite.iter("testcase")]
assert "hot\\x1b[31m_a\\xff" in names, names
suite = ET.parse(sys.argv[2]).getroot().find("testsuite")
msg = {c.get("name"): c.find("failure").get("message")
       for c in suite.iter("testcase") if c.find("failure") is not None}
assert "; beyond noise at p = " in msg["tick"] and "p =" not in msg["hot_a"], msg
EOF
	[ "${PIPESTATUS[0]}" -eq 0 ]
	check "JUnit XML of names with bytes not UTF-8 parses; a time's message has its p-value"
else
	skip_check "JUnit XML of names with bytes not UTF-8 parses" "python3 not found"
fi

# -- Memory stays flat with the runs a side: each profile is summed into
# its side and let go of (100 000 functions, one run a side and six).
awk 'BEGIN { print "# callgrind format"; print "version: 1"
	print "desc: Sampling rate: 100 Hz"; print "positions: line"; print "events: ns"
	print "ob=(1) prog"; print "fl=(1) /src/a_source_file.c"
	for (i = 1; i <= 100000; i++) printf "fn=(%d) a_function_with_a_long_name_%d\n1 1\n", i, i
	print "totals: 100000" }' >"$tmp/many.cg"
if [ -x /usr/bin/time ] && [ "$plain_build" = yes ]; then
	six=$tmp/many.cg,$tmp/many.cg,$tmp/many.cg,$tmp/many.cg,$tmp/many.cg,$tmp/many.cg
	one_kb=$(/usr/bin/time -f %M "$GMON2CG" --compare "$tmp/many.cg" "$tmp/many.cg" 2>&1 >/dev/null)
	six_kb=$(/usr/bin/time -f %M "$GMON2CG" --compare "$six" "$six" 2>&1 >/dev/null)
	diag "peak RSS: $one_kb kB with one run a side, $six_kb kB with six"
	[ "$six_kb" -le $((one_kb * 5 / 4)) ]
	check "six runs a side take at most a quarter more memory than one"
else
	skip_check "memory with the runs a side" "/usr/bin/time not found, or not a plain build"
fi

# -- When the runs cannot tell: 220 functions at 100 Hz, 199 of them never
# sampled; "slow" of 40 samples 55 % slower, "signal" of 200 samples 42 %.
gen() {	# gen SLOW SIGNAL: their samples; 19 more of 200, 199 of none (1 ns)
	synthetic_profile /src/many.c slow="$1" signal="$2" $(printf 'busy_%d=200 ' $(seq 3 21)) \
		$(printf 'idle_%d=0 ' $(seq 22 220))
}
gen 40 200 >"$tmp/g-base.cg" && gen 62 200 >"$tmp/g-slow.cg" && gen 40 285 >"$tmp/g-signal.cg"
check "profiles of 220 functions written"
# the functions that could never be beyond noise are not in the family
expect 3 '' "$GMON2CG" --compare "$tmp/g-base.cg" "$tmp/g-signal.cg"
grep -q '^! signal  ' "$tmp/out" && grep -q "Holm's correction over 21 tests" "$tmp/out" &&
	grep -qx '199 more times have too few samples ever to be beyond noise: not tested.' "$tmp/out"
check "200 -> 285 samples found: 199 functions without samples left out of the correction"
# 55 % slower, but 40 samples: inconclusive, and said so
expect 0 '' "$GMON2CG" --compare --junit="$tmp/g.xml" "$tmp/g-base.cg" "$tmp/g-slow.cg"
grep -q '^? slow  /src/many.c  \[inconclusive\]$' "$tmp/out" &&
	grep -q '^0 of 220 functions changed; 0 past a gate; 1 inconclusive\.$' "$tmp/out" &&
	tr -s '\n ' ' ' <"$tmp/out" | grep -q 'these runs find +95% or more; 3 runs a side would find +55%'
check "55 % slower at 40 samples: inconclusive, with the least change found and the runs needed"
grep -q '<skipped message="inconclusive: self time 400ms -&gt; 620ms (+55.0%; +55% against the rest of the program)' "$tmp/g.xml"
check "... a skipped test case in the JUnit report"
expect 0 '' "$GMON2CG" --compare --fail-on=self:+20% "$tmp/g-base.cg" "$tmp/g-slow.cg"
tr -s '\n ' ' ' <"$tmp/out" | grep -q 'past --fail-on=self:+20%.* [0-9]* runs a side would find +20%'
check "the runs needed are those for the gate's size"
expect 0 '' "$GMON2CG" --compare --fail-on=self:+60% "$tmp/g-base.cg" "$tmp/g-slow.cg"
! grep -q 'inconclusive' "$tmp/out"
check "a move short of the gate is not inconclusive"

# -- A function of nearly half the samples 25 % slower (Lua's internshrstr
# in bench/compare-real.sh): the program's median ratio is then the
# largest of the others' (s1's, 80 samples), and the others agreeing with
# it leave out its largest peer (peer, 900 samples, unchanged).  Its
# reference is the others agreeing with their pooled ratio: peer in.
gen_many() {	# gen_many "NAME=SAMPLES ...": a profile of these functions
	awk -v spec="$1" 'BEGIN {
		print "# callgrind format"; print "version: 1"
		print "desc: Sampling rate: 100 Hz"; print "positions: line"; print "events: ns"
		print "ob=(1) prog"; print "fl=(1) /src/peers.c"
		n = split(spec, f, " "); p = 10000000; total = 0
		for (i = 1; i <= n; i++) { split(f[i], kv, "="); printf "fn=(%d) %s\n1 %.0f\n", i, kv[1], kv[2] * p; total += kv[2] * p }
		printf "totals: %.0f\n", total }'
}
gen_many "hot=1600 peer=900 s1=80 s2=300 s3=220 s4=170 s5=120 s6=72" >"$tmp/p-old.cg" &&
	gen_many "hot=2000 peer=900 s1=98 s2=313 s3=214 s4=186 s5=124 s6=81" >"$tmp/p-new.cg"
check "profiles of a function of 46 % of the samples and its peers written"
expect 3 '' "$GMON2CG" --compare "$tmp/p-old.cg" "$tmp/p-new.cg"
grep -q '^! hot  /src/peers.c  \[fails self:+0%\]$' "$tmp/out" && ! grep -q '^[!*?] [ps]' "$tmp/out"
check "46 % of the samples 25 % slower: found against its peers, the largest among them; no other"

# -- A function that holds 98 % of the samples: judged against the old
# run with an allowance for the machine's speed, never "nothing changed"
# (the rest of the program, 50 samples, could not find as small a change).
gen_hot() {	# gen_hot HOT OTHER: samples of "hot" and of each of 10 others
	synthetic_profile /src/hot.c hot="$1" $(printf "other_%d=$2 " $(seq 2 11))
}
gen_hot 2700 5 >"$tmp/h-base.cg" && gen_hot 3780 5 >"$tmp/h-40.cg" && gen_hot 2900 5 >"$tmp/h-7.cg"
check "profiles of a program in one function written"
expect 3 '' "$GMON2CG" --compare "$tmp/h-base.cg" "$tmp/h-40.cg"
grep -q '^! hot  /src/hot.c  \[fails self:+0%\]' "$tmp/out" &&
	grep -q "^hot holds most of the samples: its time is judged against the" "$tmp/out" &&
	! grep -q '^[*!?] other_' "$tmp/out"
check "hot 40 % slower, 98 % of the samples: changed beyond the machine's 10 %; the others not"
expect 0 '' "$GMON2CG" --compare "$tmp/h-base.cg" "$tmp/h-7.cg"
grep -q '^? hot  /src/hot.c  \[inconclusive\]' "$tmp/out" &&
	tr -s '\n ' ' ' <"$tmp/out" | grep -q "it holds most of the samples: judged against the old run, the machine's speed can move it by 10% (--machine-noise); these runs find +2[0-9]% or more; no number of runs would find +7%"
check "hot 7 % slower: within the machine's allowance, inconclusive, not nothing"
expect 0 '' "$GMON2CG" --compare --min-time=100s "$tmp/h-base.cg" "$tmp/h-7.cg"
! grep -q 'inconclusive' "$tmp/out"
check "a time --min-time leaves unjudged is not inconclusive either"
expect 3 '' "$GMON2CG" --compare --machine-noise=5 "$tmp/h-base.cg" "$tmp/h-40.cg"
expect 0 '' "$GMON2CG" --compare --machine-noise=50% "$tmp/h-base.cg" "$tmp/h-40.cg"
expect 2 'invalid --machine-noise' "$GMON2CG" --compare --machine-noise=fast "$tmp/h-base.cg" "$tmp/h-40.cg"
# the rest of the program with 300 samples, not 50: against it hot's 40 %
# shows better than against the old run beyond the machine's 50 %
gen_hot 2700 30 >"$tmp/h-rest.cg" && gen_hot 3780 30 >"$tmp/h-rest-40.cg"
expect 3 '' "$GMON2CG" --compare --machine-noise=50% "$tmp/h-rest.cg" "$tmp/h-rest-40.cg"
grep -q '^! hot  /src/hot.c  \[fails self:+0%\]' "$tmp/out" &&
	! grep -q "holds most of the samples" "$tmp/out"
check "hot 40 % slower, 90 % of the samples, the rest 300: judged against the rest, found"
expect 2 'is an option of --compare' "$GMON2CG" --machine-noise=5 "$cmp/base/prog"

# -- The Makefile of the user guide's --compare chapter (README and
# doc/guide/*.md are searched, so wherever it is), run as it is: a baseline, a check of the same
# build, and a check of a build that calls a function once more.
if command -v make >/dev/null && command -v cc >/dev/null; then
	mk=$tmp/make
	mkdir -p "$mk/bin" && ln -s "$GMON2CG" "$mk/bin/gmon2cg"
	{ sed -n '/^### In Make$/,/^###/s/^    //p' "${user_docs[@]}"
	  printf 'prog: prog.c\n\tcc -pg -O1 -DCALLS=$(CALLS) -o $@ prog.c\n'; } >"$mk/Makefile"
	cp "${srcdir:-.}/tests/lib/perf-prog.c" "$mk/prog.c"
	# run_make CALLS TARGET: a build of prog calling step CALLS times
	run_make() {
		rm -f "$mk/prog" "$mk/prog.cg"
		(cd "$mk" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL PATH="$mk/bin:$PATH" \
			make -s CALLS="$1" "$2") >"$tmp/make.out" 2>&1
	}
	run_make 3 perf-baseline && [ -f "$mk/baseline/prog.cg" ]
	check "the guide's Makefile: make perf-baseline makes the baseline"
	run_make 3 perf-check
	check "the guide's Makefile: make perf-check of the same build passes"
	! run_make 4 perf-check && grep -q '^! step .*\[fails calls:1\]' "$tmp/make.out"
	check "the guide's Makefile: make perf-check fails on a call more"
else
	skip_check "the guide's Makefile runs" "make or cc not found"
fi

# The guide's CMake lines, run as they are: the baseline, then ctest of
# the same build and of one that calls a function once more.
if command -v cmake >/dev/null && command -v ctest >/dev/null && command -v cc >/dev/null &&
	[ -f "$tmp/make/prog.c" ]; then
	cm=$tmp/cmake
	mkdir -p "$cm/src/perf" && cp "$tmp/make/prog.c" "$cm/src/"
	{ printf 'cmake_minimum_required(VERSION 3.13)\nproject(perf C)\nadd_executable(prog prog.c)\n'
	  printf 'target_compile_options(prog PRIVATE -pg -DCALLS=${CALLS})\ntarget_link_options(prog PRIVATE -pg)\nenable_testing()\n'
	  sed -n '/^### In CMake and CTest$/,/^###/s/^    //p' "${user_docs[@]}"; } >"$cm/src/CMakeLists.txt"
	# run_ctest CALLS [CTEST ARGS...]: a build of prog calling step CALLS times, tested
	run_ctest() {
		local calls=$1
		shift
		(cd "$cm" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL PATH="$mk/bin:$PATH" CC=cc \
			sh -c 'cmake -S src -B build -DCALLS="$0" && cmake --build build &&
				cd build && ctest --output-on-failure "$@"' "$calls" "$@") >"$tmp/ctest.out" 2>&1
	}
	run_ctest 3 -R perf-run && gzip -c "$cm/build/prog.cg" >"$cm/src/perf/baseline.cg.gz"
	check "the guide's CMake lines: perf-run makes the profile for the baseline"
	run_ctest 3
	check "the guide's CMake lines: ctest of the same build passes"
	! run_ctest 4 -R perf-compare && grep -q '^! step .*\[fails calls:1\]' "$tmp/ctest.out"
	check "the guide's CMake lines: ctest -R perf-compare of a call more runs the new build, and fails"
else
	skip_check "the guide's CMake lines run" "cmake, ctest or cc not found"
fi

# The guide's CI recipes are YAML the services take: upload-artifact's
# paths one a line, the cache saved under a key of its own each run.
if [ -n "${PYTHON3:-}" ] && "$PYTHON3" -c 'import yaml' 2>/dev/null; then
	"$PYTHON3" - "${srcdir:-.}/tests/lib" "${user_docs[@]}" <<'EOF' 2>&1 | diag
import sys
sys.path.insert(0, sys.argv[1])
from ci_recipes import block
text = "\n".join(open(f).read() for f in sys.argv[2:])
steps = block(text, "In GitHub Actions")
uses = {s["uses"].split("@")[0]: s for s in steps if "uses" in s}
paths = uses["actions/upload-artifact"]["with"]["path"].split("\n")
assert all(" " not in p for p in paths) and "perf.xml" in paths, paths
save = uses["actions/cache/save"]["with"]["key"]
assert "github.sha" in save, save
assert "restore-keys" in uses["actions/cache/restore"]["with"]
job = block(text, "In GitLab CI")["perf"]
assert job["artifacts"]["reports"]["junit"] == "perf.xml", job
EOF
	[ "${PIPESTATUS[0]}" -eq 0 ]
	check "the guide's GitHub Actions and GitLab CI recipes: YAML as the services take it"
else
	skip_check "the guide's CI recipes" "python3 with yaml not found"
fi

# -- What the reader takes: everything the writer writes.
g1=$cmp/base/gmon.01.out g2=$cmp/base/gmon.02.out
"$GMON2CG" -o "$tmp/gz.cg.gz" "$cmp/base/prog" "$g1" 2>/dev/null &&
	"$GMON2CG" --no-instr -o "$tmp/line.cg" "$cmp/base/prog" "$g1" 2>/dev/null &&
	"$GMON2CG" --parts -o "$tmp/parts.cg" "$cmp/base/prog" "$g1" "$g2" 2>/dev/null &&
	"$GMON2CG" -o "$tmp/sum.cg" "$cmp/base/prog" "$g1" "$g2" 2>/dev/null
check "converts the inputs for the reader"
"$GMON2CG" --compare "$base" "$base" | sed 1,2d >"$tmp/same"
for f in gz.cg.gz line.cg; do
	expect 0 '' "$GMON2CG" --compare --fail-on=self:0%,incl:0%,calls:1 "$base" "$tmp/$f"
	sed 1,2d "$tmp/out" | cmp -s - "$tmp/same"
	check "$f reads as the same profile, to the nanosecond"
done
expect 0 '' "$GMON2CG" --compare --fail-on=self:0%,incl:0%,calls:1 "$tmp/sum.cg" "$tmp/parts.cg"
grep -q '^Means per run: 1 old, 1 new' "$tmp/out" && grep -q '^0 of 9 functions changed' "$tmp/out"
check "a --parts file reads as its parts summed"
for f in cxx positions/statics calltree cycle recursion; do
	"$GMON2CG" -o "$tmp/a.cg" "$FIXTURES/$f/prog" "$FIXTURES/$f/gmon.out" 2>/dev/null
	"$GMON2CG" -o "$tmp/b.cg.gz" "$FIXTURES/$f/prog" "$FIXTURES/$f/gmon.out" 2>/dev/null
	expect -n "$f compared with itself: exit 0" 0 '' \
		"$GMON2CG" --compare --fail-on=self:0%,incl:0%,calls:1 "$tmp/a.cg" "$tmp/b.cg.gz"
done
"$GMON2CG" -o "$tmp/a.cg" "$FIXTURES/positions/statics/prog" "$FIXTURES/positions/statics/gmon.out" 2>/dev/null
"$GMON2CG" --compare "$tmp/a.cg" "$tmp/a.cg" >"$tmp/out"
[ "$(grep -c '^  helper  ' "$tmp/out")" -eq 2 ]
check "two static helpers of two files stay apart"
"$GMON2CG" -o "$tmp/a.cg" "$FIXTURES/cxx/prog" "$FIXTURES/cxx/gmon.out" 2>/dev/null
"$GMON2CG" --compare "$tmp/a.cg" "$tmp/a.cg" >"$tmp/out"
grep -q '^  util::digest(long, int)  ' "$tmp/out" && grep -q '^  util::digest(double, int)  ' "$tmp/out"
check "C++ names as written, overloads apart"

# -- What it refuses: one line naming the file and line, status 1.
head -c 700 "$base" >"$tmp/cut.cg"
expect 1 "cut.cg:[0-9]*: truncated" "$GMON2CG" --compare "$base" "$tmp/cut.cg"
head -n 30 "$base" >"$tmp/cutline.cg"
expect 1 "cutline.cg:30: truncated: no totals" "$GMON2CG" --compare "$base" "$tmp/cutline.cg"
head -c 300 "$tmp/gz.cg.gz" >"$tmp/cut.cg.gz"
expect 1 "cut.cg.gz" "$GMON2CG" --compare "$base" "$tmp/cut.cg.gz"
expect 1 "gmon.01.out:1: not a callgrind file" "$GMON2CG" --compare "$base" "$g1"
# edited NAME SED ERROR: the base file edited by SED is refused with ERROR
edited() {
	sed "$2" "$base" >"$tmp/$1"
	expect 1 "$1:$3" "$GMON2CG" --compare "$base" "$tmp/$1"
}
edited ir.cg 's/^events: ns$/events: Ir/' "[0-9]*: unknown event 'Ir'"
edited totals.cg 's/^totals: \([0-9]*\)/totals: 1\1/' "[0-9]*: totals: .* but the costs add up"
edited jump.cg '20s/^.*$/jump=1 +4 +1/' "20: unknown line 'jump='"
edited cost.cg '21s/^.*$/+x 12/' "21: bad cost line"
edited pos.cg 's/^positions: instr line$/positions: instr bb line/' "[0-9]*: positions:"
edited id.cg 's/^fn=(\([0-9]*\))$/fn=(99\1)/' "[0-9]*: name number"
expect 1 "missing.cg" "$GMON2CG" --compare "$base" "$tmp/missing.cg"
# costs past 64 bits: two parts of 10^19 ns each, a call costing more
# than its part (an inclusive time below the self time)
part() {	# part N COST-OF-F CALL-COST TOTAL
	printf 'part: %s\ndesc: Sampling rate: 100 Hz\npositions: line\nevents: ns\n' "$1"
	printf 'ob=(1) prog\nfl=(1) a.c\nfn=(1) f\n1 %s\ncfn=(2) g\ncalls=1 2\n1 %s\nfn=(2)\n2 0\ntotals: %s\n' "$2" "$3" "$4"
}
{ echo '# callgrind format'; part 1 10000000000000000000 0 10000000000000000000
  part 2 10000000000000000000 0 10000000000000000000; } >"$tmp/wrap.cg"
expect 1 'wrap.cg:[0-9]*: the parts. costs add up to more than 64 bits' \
	"$GMON2CG" --compare "$base" "$tmp/wrap.cg"
{ echo '# callgrind format'; part 1 100 200 100; } >"$tmp/bigcall.cg"
expect 1 'bigcall.cg:[0-9]*: the call on line 12 costs 200, more than the part' \
	"$GMON2CG" --compare "$base" "$tmp/bigcall.cg"
{ echo '# callgrind format'; part 1 100 50 100; } >"$tmp/call.cg"
expect 0 '' "$GMON2CG" --compare "$tmp/call.cg" "$tmp/call.cg"
# a file of gigabytes with no newline: refused at its first bytes, or at
# a line's bound (1 MiB) after a good first line, within 200 MB of memory
if command -v gzip >/dev/null && [ "$plain_build" = yes ]; then
	head -c 300M /dev/zero | gzip -1 >"$tmp/zeros.gz"
	{ echo '# callgrind format'; head -c 300M /dev/zero; } | gzip -1 >"$tmp/long.cg.gz"
	expect 1 "zeros.gz:1: not a callgrind file" \
		bash -c 'ulimit -v 200000 && exec "$0" --compare "$1" "$2"' "$GMON2CG" "$base" "$tmp/zeros.gz"
	expect 1 "long.cg.gz:2: a line of more than 1 MiB" \
		bash -c 'ulimit -v 200000 && exec "$0" --compare "$1" "$2"' "$GMON2CG" "$base" "$tmp/long.cg.gz"
else
	skip_check "a file with no newline, within 200 MB" "gzip not found, or not a plain build"
fi
# the reports to a full disk; two files to standard output
expect -x 1 "gmon2cg: stdout: write error: No space left on device" \
	bash -c 'exec "$0" --compare "$1" "$2" >/dev/full' "$GMON2CG" "$base" "$slower"
expect 1 "/dev/full: write error" "$GMON2CG" --compare --junit=/dev/full "$base" "$slower"
expect 1 "/dev/full: write error" "$GMON2CG" --compare -o /dev/full "$base" "$slower"
expect 2 "-o and --junit both to standard output" "$GMON2CG" --compare -o - --junit=- "$base" "$slower"
expect 3 '' "$GMON2CG" --compare -o - "$base" "$slower"
head -1 "$tmp/out" | grep -qx '# callgrind format' && tail -1 "$tmp/out" | grep -q '^totals: ' &&
	grep -q '^2 of 9 functions changed' "$tmp/err"
check "-o -: the callgrind file alone on stdout, the report on stderr"
expect 1 "refusing to write the output over it" "$GMON2CG" --compare -o "$base" "$base" "$slower"

# -- The reports for machines and viewers.
expect 3 '' "$GMON2CG" --compare --junit="$tmp/junit.xml" -o "$tmp/diff.cg" "$base" "$slower"
if [ -n "${PYTHON3:-}" ]; then
	"$PYTHON3" - "$tmp/junit.xml" <<'EOF' 2>&1 | diag
import sys, xml.etree.ElementTree as ET
suite = ET.parse(sys.argv[1]).getroot().find("testsuite")
failed = sorted(c.get("name") for c in suite.iter("testcase") if c.find("failure") is not None)
assert failed == ["hot_a", "tick"], failed
msg = {c.get("name"): c.find("failure").get("message")
       for c in suite.iter("testcase") if c.find("failure") is not None}
assert "; beyond noise at p = " in msg["hot_a"], msg
assert "; these runs find +" in msg["hot_a"], msg
assert suite.get("failures") == "2" and int(suite.get("tests")) == 10, suite.attrib
EOF
	[ "${PIPESTATUS[0]}" -eq 0 ]
	check "the JUnit XML parses; hot_a and tick fail, as the report says, with p and the least change found"
else
	skip_check "the JUnit XML parses" "python3 not found"
fi
grep -q '^events: Old New Slower Faster$' "$tmp/diff.cg" &&
	"$GMON2CG" --compare "$base" "$slower" -o "$tmp/diff2.cg.gz" >/dev/null; [ $? -eq 3 ] &&
	[ "$(gzip -dc "$tmp/diff2.cg.gz" | cmp - "$tmp/diff.cg" && echo same)" = same ]
check "the comparison as a callgrind file, also gzip-compressed"
if command -v kcachegrind >/dev/null && command -v Xvfb >/dev/null; then
	"$BASH" "$srcdir/tests/lib/kcg-check" --event Slower --absolute "$tmp/diff.cg" \
		"$tmp/diff.png" >"$tmp/facts" 2>&1
	[ $? -eq 0 ] && grep -q '^loader_messages=0$' "$tmp/facts"
	check "KCachegrind loads the comparison with no loader message"
else
	skip_check "KCachegrind loads the comparison" "kcachegrind or Xvfb not installed"
fi

finish
