#!/bin/bash
# deviations.sh -- the fixtures in fixtures/positions, where gmon2cg is
# right and gprof is not (or cannot read the file): inlined code, static
# functions with one name in two util.c files, GCC clones and cold parts,
# a call in a bucket that starts in the previous function, no -g, and a
# stripped executable with a separate debug file; samples on padding
# that never runs (fixtures/interp), on a function that never ran, and on
# callbacks that ran though no arc says so.
. "${srcdir:-.}/tests/test-lib.sh"

[ -n "$GPROF" ] && [ -n "$PYTHON3" ] || skip "gprof or python3 not found"
export GPROF
compare="$PYTHON3 $srcdir/tests/lib/compare_gprof.py"
model="$PYTHON3 $srcdir/tests/lib/callgrind_model.py"
P=$FIXTURES/positions

# json FILE EXPR: evaluates a Python expression over the profile's model
# (d = callgrind_model's JSON).
json() {
	$model --json "$1" | $PYTHON3 -c "import json, sys; d = json.load(sys.stdin); print($2)"
}
convert() { "$GMON2CG" -o "$tmp/$1.cg" "${@:2}" "$P/$1/prog" "$P/$1/gmon.out"; }

# Inlined code: at its own file and line with fi=, or with --no-inline at
# the line that inlined it; the numbers are gprof's either way.
convert inline && convert inline --no-inline && mv "$tmp/inline.cg" "$tmp/no-inline.cg" && convert inline ||
	not_ok "inline: conversion"
grep -q '^fi=([0-9]*) .*/mathutil.h$' "$tmp/inline.cg" || not_ok "inline: no fi= to mathutil.h"
grep -q '^fi=' "$tmp/no-inline.cg" && not_ok "--no-inline still writes fi="
for f in inline no-inline; do
	$compare --cg "$tmp/$f.cg" "$P/inline/prog" "$P/inline/gmon.out" >"$tmp/log" && ok "$f agrees with gprof" ||
		{ not_ok "$f differs from gprof"; diag <"$tmp/log"; }
done

# Two static helpers in a/util.c and b/util.c stay two functions.
convert statics || not_ok "statics: conversion"
[ "$(json "$tmp/statics.cg" "sum(1 for n, f in d['functions'].items() if n.startswith('helper [') and n.endswith('/util.c]') and f['self'] > 0)")" = 2 ] ||
	not_ok "statics: the two helpers are not two named functions with samples"
[ "$(json "$tmp/statics.cg" "len(d['duplicate_names'])")" = 0 ] || not_ok "statics: KCachegrind would merge functions"

# Clones are functions and a cold part is its parent's; gprof credits them
# all to frame_dummy, the symbol before them.
convert clones || not_ok "clones: conversion"
for clone in lookup.part.0 weigh.isra.0 scale.constprop.0; do
	[ "$(json "$tmp/clones.cg" "d['functions'].get('$clone', {}).get('self', 0) > 0")" = True ] ||
		not_ok "clones: $clone has no samples"
done
[ "$(json "$tmp/clones.cg" "[n for n in d['functions'] if '.cold' in n or n == 'frame_dummy']")" = "[]" ] ||
	not_ok "clones: a cold part or frame_dummy is a function of its own"
LC_ALL=C "$GPROF" -b -p "$P/clones/prog" "$P/clones/gmon.out" | grep -q 'frame_dummy' ||
	not_ok "clones: gprof no longer credits frame_dummy (fixture changed?)"

# The call in refine whose return address lies in a bucket starting in
# checksum: gprof credits checksum, gmon2cg the real caller.
convert bucket || not_ok "bucket: conversion"
[ "$(json "$tmp/bucket.cg" "sorted((a['caller'], a['count']) for a in d['arcs'] if a['callee'] == 'tick')")" = \
  "[('refine', 60), ('sweep', 20)]" ] || not_ok "bucket: calls to tick not from refine and sweep"
[ "$($PYTHON3 "$srcdir/tests/lib/gprof_model.py" --json "$P/bucket/prog" "$P/bucket/gmon.out" |
	$PYTHON3 -c "import json, sys; d = json.load(sys.stdin); print([a['caller'] for a in d['arcs'] if a['callee'] == 'tick' and a['count'] == 60])")" = "['checksum']" ] ||
	not_ok "bucket: gprof no longer misattributes the call (fixture changed?)"

# Samples in a PLT stub go to its name@plt entry; gprof credits _init.
python_add="$PYTHON3 $srcdir/tests/lib/gmon_rewrite.py"
plt_stub=$(objdump -d "$P/plt/prog" | sed -n 's/^0*\([0-9a-f]*\) <labs@plt>:$/\1/p')
if [ -z "$plt_stub" ]; then
	not_ok "plt: no labs@plt stub (fixture changed?)"
else
	$python_add "add-samples=$plt_stub:50" "$P/plt/prog" "$P/plt/gmon.out" "$tmp/plt.out"
	"$GMON2CG" -o "$tmp/plt.cg" "$P/plt/prog" "$tmp/plt.out" || not_ok "plt: conversion"
	[ "$(json "$tmp/plt.cg" "d['functions'].get('labs@plt', {}).get('self', 0) >= 20 * 10**7")" = True ] ||
		not_ok "plt: labs@plt did not get the samples in its stub"
	LC_ALL=C "$GPROF" -b -p "$P/plt/prog" "$tmp/plt.out" | grep -q ' _init$' ||
		not_ok "plt: gprof no longer credits _init (fixture changed?)"
fi
# The PLT's header (PLT0, which lazily bound calls and, with LD_PROFILE,
# all calls through the PLT pass) has no symbol: it is "<.plt>".  Samples
# there are no sign of a profile of some other program, even when they are
# most of them.
plt0=$(objdump -h "$P/plt/prog" | awk '$2 == ".plt" { print $4 }')
$python_add "add-samples=$plt0:500" "$P/plt/prog" "$P/plt/gmon.out" "$tmp/plt0.out"
"$GMON2CG" -o "$tmp/plt0.cg" "$P/plt/prog" "$tmp/plt0.out" 2>"$tmp/log" &&
	[ "$(json "$tmp/plt0.cg" "d['functions'].get('<.plt>', {}).get('self')")" = 5000000000 ] &&
	ok "plt: the 500 samples in the PLT's header are <.plt>'s" ||
	{ not_ok "plt: samples in the PLT header"; diag <"$tmp/log"; }
$compare --cg "$tmp/plt0.cg" "$P/plt/prog" "$tmp/plt0.out" >"$tmp/log" &&
	ok "plt: with samples in the PLT header, gprof agrees (it credits _init)" ||
	{ not_ok "plt: samples in the PLT header differ from gprof"; diag <"$tmp/log"; }

# No -g: gprof's numbers.
convert nodebug && $compare --cg "$tmp/nodebug.cg" "$P/nodebug/prog" "$P/nodebug/gmon.out" >"$tmp/log" &&
	ok "nodebug agrees with gprof" || { not_ok "nodebug"; diag <"$tmp/log"; }

# A bin over is_digit's padding (past its symbol's size) and peek_char's
# entry: the only instruction that can have been sampled there is
# peek_char's, so is_digit gets none; gprof gives is_digit 5 samples.
I=$FIXTURES/interp
"$GMON2CG" -o "$tmp/interp.cg" "$I/prog" "$I/gmon.out" || not_ok "interp: conversion"
# (is_digit's own cost is only the 1 ns markers of its calls)
[ "$(json "$tmp/interp.cg" "(d['functions']['is_digit']['self'] < 1000, d['functions']['peek_char']['self'])")" = "(True, 50000000)" ] &&
	ok "interp: no samples on is_digit's padding, peek_char has them" ||
	not_ok "interp: is_digit/peek_char self: $(json "$tmp/interp.cg" "(d['functions']['is_digit']['self'], d['functions']['peek_char']['self'])")"
[ "$($PYTHON3 "$srcdir/tests/lib/exact_hist.py" --json "$I/prog" "$I/gmon.out" |
	$PYTHON3 -c "import json, sys; d = json.load(sys.stdin)['functions']; print(d.get('is_digit', 0), d['peek_char'])")" = "0.0 5.0" ] &&
	ok "interp: the exact model counts the same" || not_ok "interp: exact_hist disagrees"
LC_ALL=C "$GPROF" -b -p "$I/prog" "$I/gmon.out" | grep -q '^ *[0-9.]* *[0-9.]* *0\.05 .* is_digit$' ||
	not_ok "interp: gprof no longer credits is_digit (fixture changed?)"

# Code that never ran takes no samples where code that may have run shares
# its bin: unused() in fixtures/positions/neverran is built with -pg and
# has no call in gmon.out, so it never ran; it starts in the bin of
# spin()'s loop branch and ret, which holds all 214 samples.  They are
# spin()'s, as gprof says; a split over the bin's three instructions gave
# unused() a third.  Without the arcs nothing tells, and it does.
N=$P/neverran
"$GMON2CG" -o "$tmp/neverran.cg" "$N/prog" "$N/gmon.out" || not_ok "neverran: conversion"
[ "$(json "$tmp/neverran.cg" "('unused' in d['functions'], d['functions']['spin']['self'])")" = "(False, 2140000000)" ] &&
	ok "neverran: no samples on unused(), which never ran; spin() has them all" ||
	not_ok "neverran: $(json "$tmp/neverran.cg" "[(n, f['self']) for n, f in d['functions'].items()]")"
$compare --cg "$tmp/neverran.cg" "$N/prog" "$N/gmon.out" >"$tmp/log" &&
	ok "neverran agrees with gprof and the exact model" || { not_ok "neverran differs"; diag <"$tmp/log"; }
"$GMON2CG" --stats -o /dev/null "$N/prog" "$N/gmon.out" 2>"$tmp/stats"
grep -qx 'gmon2cg: stats: samples kept off functions that never ran (no call recorded, no sample of their own) in bins they share: 71.333' "$tmp/stats" &&
	ok "neverran: --stats says how many samples were kept off unused()" ||
	{ not_ok "neverran: --stats"; diag <"$tmp/stats"; }
$PYTHON3 - "$N/gmon.out" "$tmp/hist-only.out" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
nbins = struct.unpack_from("<I", data, 37)[0]
assert data[20] == 0
open(sys.argv[2], "wb").write(data[:61 + 2 * nbins])
PY
"$GMON2CG" -o "$tmp/hist-only.cg" "$N/prog" "$tmp/hist-only.out" || not_ok "neverran, no arcs: conversion"
[ "$(json "$tmp/hist-only.cg" "(d['functions']['unused']['self'], d['functions']['spin']['self'])")" = "(713333333, 1426666667)" ] &&
	ok "neverran without arcs: unused() takes its third" ||
	not_ok "neverran without arcs: $(json "$tmp/hist-only.cg" "[(n, f['self']) for n, f in d['functions'].items()]")"
"$GMON2CG" --stats -o /dev/null "$N/prog" "$tmp/hist-only.out" 2>&1 | grep -q 'never ran' &&
	not_ok "neverran without arcs: --stats speaks of functions that never ran"
# An arc out of unused() is evidence that it ran, as an arc into it is:
# add a call from the bucket at 0x1250, in unused(), of seed().
$PYTHON3 - "$N/gmon.out" "$tmp/arc-out.out" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
open(sys.argv[2], "wb").write(data + b"\x01" + struct.pack("<QQI", 0x1250, 0x1260, 1))
PY
"$GMON2CG" -o "$tmp/arc-out.cg" "$N/prog" "$tmp/arc-out.out" || not_ok "neverran, an arc out of unused(): conversion"
[ "$(json "$tmp/arc-out.cg" "(d['functions']['unused']['self'], d['functions']['spin']['self'])")" = "(713333333, 1426666667)" ] &&
	ok "neverran with an arc out of unused(): it ran, and takes its third" ||
	not_ok "neverran with an arc out of unused(): $(json "$tmp/arc-out.cg" "[(n, f['self']) for n, f in d['functions'].items()]")"

# Functions called only from outside the profiled code ran, though no arc
# tells: by_value() (qsort's comparator), worker() (a thread's start
# routine) and farewell() (an atexit handler) in
# fixtures/positions/callbacks have no arc (mcount drops a call from
# libc) but samples in bins of their own.  Each starts in the bin of the
# branch of a spin loop before it and takes its third of that bin (28, 26
# and 29 samples), as the exact model does; gprof's bin model happens to
# put those bins in the spin loops.  The rule that kept samples off
# functions that never ran gave them nothing there.
C=$P/callbacks
"$GMON2CG" --stats -o "$tmp/callbacks.cg" "$C/prog" "$C/gmon.out" 2>"$tmp/stats" || not_ok "callbacks: conversion"
[ "$(json "$tmp/callbacks.cg" "[d['functions'][f]['self'] for f in ('by_value', 'worker', 'farewell')]")" = "[785833333, 196666667, 256666667]" ] &&
	ok "callbacks: by_value(), worker() and farewell() take their third of the bins they share" ||
	not_ok "callbacks: $(json "$tmp/callbacks.cg" "[(n, f['self']) for n, f in d['functions'].items()]")"
$compare --cg "$tmp/callbacks.cg" "$C/prog" "$C/gmon.out" >"$tmp/log" &&
	ok "callbacks agrees with the exact model (gprof's bin model moves the shared bins)" || { not_ok "callbacks differs"; diag <"$tmp/log"; }
! grep -q 'never ran' "$tmp/stats"; check "callbacks: --stats keeps no samples off them"

# Stripped, with prog.debug beside it: gprof reads only the debug file.
convert stripped && $compare --cg "$tmp/stripped.cg" "$P/stripped/prog.debug" "$P/stripped/gmon.out" >"$tmp/log" &&
	ok "stripped agrees with gprof on its debug file" || { not_ok "stripped"; diag <"$tmp/log"; }
# A sized local symbol inside another function's sized range: mid2's 16
# bytes lie inside hot_leaf (fixtures/positions/nested).  mid2 takes its
# own bytes and hot_leaf the rest, after them too; gprof, which reads no
# sizes, credits all of hot_leaf past mid2's start to mid2.  The samples
# in no function were refused as "most samples fall outside every
# function" where they were the most.
N=$P/nested
total=$(sed -n 's/^histogram: \([0-9]*\) samples.*/\1/p' "$N/BUILD-INFO")
"$GMON2CG" --stats -o "$tmp/nested.cg" "$N/prog" "$N/gmon.out" 2>"$tmp/stats" || not_ok "nested: conversion"
grep -q "in functions $total.000, in no function 0.000," "$tmp/stats" &&
	[ "$(json "$tmp/nested.cg" "int(d['functions']['hot_leaf']['self'] + d['functions'].get('mid2', {'self': 0})['self'])")" = "$((total * 10000000))" ] &&
	[ "$(json "$tmp/nested.cg" "int(d['functions'].get('mid2', {'self': 0})['self'] <= 2 * 10000000)")" = 1 ] &&
	ok "nested: hot_leaf keeps its code after mid2 ($total samples in functions, mid2 at most its 16 bytes' 2)" ||
	{ not_ok "nested: $(json "$tmp/nested.cg" "[(n, f['self']) for n, f in d['functions'].items()]")"; diag <"$tmp/stats"; }
"$GPROF" -b -p "$N/prog" "$N/gmon.out" | awk '$NF == "mid2" && $3 > 0.1 { found = 1 } END { exit !found }' &&
	ok "nested: gprof credits hot_leaf's code after mid2 to mid2 (its deviation)" ||
	not_ok "nested: gprof no longer credits hot_leaf's code after mid2 to mid2: update the guide"
# C++ exception code (fixtures/positions/throw): Events's constructor has
# its C1 and C2 symbols at one address, and its cold part is named after
# C2, the name merged away; the cold part, which calls describe once, is
# part of the constructor all the same.  gprof drops the cold part's name
# and credits its call to the function before it, _init.
T=$P/throw
"$GMON2CG" -z -o "$tmp/throw.cg" "$T/prog" "$T/gmon.out" || not_ok "throw: conversion"
[ "$(json "$tmp/throw.cg" "([(a['caller'], a['count']) for a in d['arcs'] if a['callee'].startswith('describe')], [n for n in d['functions'] if '.cold' in n])")" = \
	"([('Events::Events(Node const&)', 1)], [])" ] &&
	ok "throw: the cold part named after C2 is Events::Events's, and its call of describe" ||
	not_ok "throw: $(json "$tmp/throw.cg" "([(a['caller'], a['count']) for a in d['arcs'] if a['callee'].startswith('describe')], [n for n in d['functions'] if '.cold' in n])")"
"$GPROF" -b -q "$T/prog" "$T/gmon.out" | grep -Eq '^ +[0-9.]+ +[0-9.]+ +1/1 +_init ' &&
	ok "throw: gprof credits that call to _init (its deviation)" ||
	not_ok "throw: gprof no longer credits the cold part's call to _init: update the guide"
finish
