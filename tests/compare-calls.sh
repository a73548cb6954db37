#!/bin/bash
# compare-calls.sh -- gmon2cg --compare on call counts that vary between
# runs of one build (a program that seeds a hash from the clock), on
# small hand-made profiles: ten runs a side whose counts of "hashed"
# overlap compare clean, "hashed" said to vary; a count that stays the
# same in every run ("steady") and moves by one is a change however
# "hashed" varies; ranges of "hashed" that part in ten runs a side are a
# change, in three a side not yet (and the report says how many runs
# would tell); one run a side keeps the exact rule, and says that a
# program whose counts vary needs several runs; a function missing from
# some runs of a side had 0 calls in them.
. "${srcdir:-.}/tests/test-lib.sh"

# gen STEADY HASHED: one run's profile; both functions have 100 samples,
# main calls them STEADY and HASHED times (HASHED "-": no such function).
gen() {
	awk -v steady="$1" -v hashed="$2" 'BEGIN {
		print "# callgrind format"; print "version: 1"
		print "desc: Sampling rate: 100 Hz"; print "positions: line"; print "events: ns"
		print "ob=(1) prog"; print "fl=(1) /src/calls.c"
		p = 10000000
		printf "fn=(1) main\n1 %d\n", p
		printf "cfn=(2) steady\ncalls=%d 10\n2 %d\n", steady, 100 * p
		if (hashed != "-") printf "cfn=(3) hashed\ncalls=%d 20\n3 %d\n", hashed, 100 * p
		printf "fn=(2) steady\n10 %d\n", 100 * p
		if (hashed != "-") printf "fn=(3) hashed\n20 %d\n", 100 * p
		printf "totals: %d\n", (hashed != "-" ? 201 : 101) * p }'
}
# side NAME STEADY BASE SPREAD STEP: ten runs $tmp/NAME.1..10.cg, hashed
# called BASE + (i * STEP mod SPREAD) times in run i; their names,
# comma-separated, in $side.
side() {
	local i f=''
	for i in 1 2 3 4 5 6 7 8 9 10; do
		gen "$2" $(($3 + i * $5 % $4)) >"$tmp/$1.$i.cg"
		f+=${f:+,}$tmp/$1.$i.cg
	done
	side=$f
}
side old 1000 540 31 3; old=$side
side same 1000 541 29 7; same=$side
side more 1001 541 29 7; more=$side
side twice 1000 1100 29 7; twice=$side
check "ten runs a side of each build written"

# One build: hashed 543 to 570 calls a run, 546 to 569 on the other side.
expect 0 '' "$GMON2CG" --compare --junit="$tmp/same.xml" "$old" "$same"
grep -q '^~ hashed  /src/calls.c  \[calls vary between runs\]$' "$tmp/out" &&
	! grep -q '^[!*] [^ ]*  /src' "$tmp/out" &&
	grep -q '^0 of 3 functions changed; 0 past a gate; 1 with calls that vary between runs\.$' "$tmp/out"
check "ten runs a side of one build: calls that vary are said to, not a change"
tr -s '\n ' ' ' <"$tmp/out" | grep -q 'calls per run 543 to 570 old, 546 to 569 new (10 and 10 runs): the sides overlap: no change'
check "... with each side's range of calls per run"
grep -q '<system-out>calls per run 543 to 570 old, 546 to 569 new (10 and 10 runs): the sides overlap: no change</system-out>' "$tmp/same.xml" &&
	grep -q 'failures="0"' "$tmp/same.xml"
check "... and so in the JUnit report, no failure"

# steady called once more in every run: exact, whatever hashed does.
expect 3 '' "$GMON2CG" --compare "$old" "$more"
grep -q '^! steady  /src/calls.c  \[fails calls:1\]$' "$tmp/out" &&
	grep -q '^~ hashed  ' "$tmp/out"
check "a count the same in every run that moves by one is a change beside one that varies"

# hashed called twice as often: the ranges part, beyond chance in ten
# runs a side (2 / C(20, 10)), not in three (2 / C(6, 3) = 0.1).
expect 3 '' "$GMON2CG" --compare --junit="$tmp/twice.xml" "$old" "$twice"
grep -q '^! hashed  /src/calls.c  \[fails calls:1\]$' "$tmp/out" &&
	grep -q 'message="calls 556.5 -&gt; 1115.3 (+558.8) crosses --fail-on=calls:1; calls per run 543 to 570 old, 1105 to 1128 new (10 and 10 runs): the sides part, beyond chance' "$tmp/twice.xml"
check "ranges of calls that part in ten runs a side: a change"
three() { echo "$tmp/$1.1.cg,$tmp/$1.2.cg,$tmp/$1.3.cg"; }
expect 0 '' "$GMON2CG" --compare "$(three old)" "$(three twice)"
grep -q '^~ hashed  ' "$tmp/out" &&
	tr -s '\n ' ' ' <"$tmp/out" | grep -q 'the sides part, but runs of one build would as often as p = 0.1 (1 after the correction); [0-9]* runs a side can tell'
check "... in three runs a side not yet: the report says how many would tell"

# One run a side cannot show a count that varies: any change is one.
expect 3 '' "$GMON2CG" --compare "$tmp/old.1.cg" "$tmp/same.1.cg"
grep -q '^! hashed  /src/calls.c  \[fails calls:1\]$' "$tmp/out" &&
	tr -s '\n ' ' ' <"$tmp/out" | grep -q 'With one run a side, calls that vary between runs of one build (a hash seeded by the clock) look changed: such a program needs [0-9]* runs a side\.'
check "one run a side: the exact rule, and a word on programs whose calls vary"
expect 0 '' "$GMON2CG" --compare "$tmp/old.1.cg" "$tmp/old.1.cg"
! grep -q 'With one run a side' "$tmp/out"
check "... only when a count changed"

# A function in half the runs of a side: its runs without it count 0.
some='' all=''
for i in 1 2 3 4 5 6 7 8 9 10; do
	gen 1000 550 >"$tmp/all.$i.cg" && all+=${all:+,}$tmp/all.$i.cg
	if [ "$i" -le 5 ]; then cp "$tmp/all.$i.cg" "$tmp/some.$i.cg"; else gen 1000 - >"$tmp/some.$i.cg"; fi
	some+=${some:+,}$tmp/some.$i.cg
done
expect 0 '' "$GMON2CG" --compare "$some" "$all"
tr -s '\n ' ' ' <"$tmp/out" | grep -q '^.*~ hashed /src/calls.c \[calls vary between runs\] calls per run 0 to 550 old, 550 to 550 new (10 and 10 runs): the sides overlap: no change'
check "a function in half the runs of a side: 0 to 550 calls a run, no change"

finish
