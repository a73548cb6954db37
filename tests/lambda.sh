#!/bin/bash
# lambda.sh -- clang's lambdas are functions: fixtures/clang/lambda
# (clang++ -O2 -pg) names the lambda, the std::sort template instantiated
# with one and call_once's thunk with '$' ("$_2"), which gprof takes for
# assembler labels and drops, crediting their samples and calls to the
# function before them.  A local symbol typed as a function with a size
# is a function whatever its name.
. "${srcdir:-.}/tests/test-lib.sh"

[ -n "$PYTHON3" ] || skip "python3 not found"
model="$PYTHON3 $srcdir/tests/lib/callgrind_model.py"
L=$FIXTURES/clang/lambda
lambda='compute_hints(int)::$_2::operator()(int, int) const'

# json FILE EXPR: a Python expression over the profile's model (d).
json() {
	$model --json "$1" | $PYTHON3 -c "import json, sys; d = json.load(sys.stdin); print($2)"
}

expect -x -n "converts without a warning" 0 "" \
	"$GMON2CG" -o "$tmp/lambda.cg" "$L/prog" "$L/gmon.out"
# (when it refuses, what is wrong is shown by the checks below)
[ -s "$tmp/lambda.cg" ] || "$GMON2CG" --force -o "$tmp/lambda.cg" "$L/prog" "$L/gmon.out" 2>/dev/null
[ "$(json "$tmp/lambda.cg" "[n for n in d['functions'] if n.startswith('<')]")" = "['<spontaneous>']" ]
check "every sample is in a function"
[ "$(json "$tmp/lambda.cg" "d['functions'].get('$lambda', {}).get('self', 0) > 0")" = True ]
check "the lambda called in a loop has samples"
[ "$(json "$tmp/lambda.cg" "sorted((a['caller'], a['count']) for a in d['arcs'] if a['callee'] == '$lambda')")" = \
  "[('compute_hints(int)', 5600000)]" ]
check "the lambda is called 5 600 000 times by compute_hints"
[ "$(json "$tmp/lambda.cg" "sorted((a['caller'], a['count']) for a in d['arcs'] if a['callee'].startswith('void std::__introsort_loop<') and a['callee'].endswith('sort_rounds(int)::\$_1>)') and a['caller'] != a['callee'])")" = \
  "[('sort_rounds(int)', 300)]" ]
check "std::sort's loop instantiated with the comparator lambda is called 300 times by sort_rounds"
[ "$(json "$tmp/lambda.cg" "sum(1 for a in d['arcs'] if a['caller'] == a['callee'] and not a['callee'].startswith('void std::__introsort_loop<'))")" = 0 ]
check "no function calls itself but the recursive sort loop"

# The names are c++filt's (call_once's thunk tail-calls fill_table, so it
# has neither samples nor calls and is not in the output).
if command -v c++filt >/dev/null; then
	nm "$L/prog" | awk '$2 == "t" && $3 ~ /[$]/ { print $3 }' | c++filt | sort >"$tmp/demangled"
	json "$tmp/lambda.cg" "'\\n'.join(sorted(n for n in d['functions'] if '\$' in n))" >"$tmp/named"
	[ "$(wc -l <"$tmp/named")" = 2 ] && [ -z "$(comm -13 "$tmp/demangled" "$tmp/named")" ]
	check "the lambda and the sort loop are named as c++filt names them"
else
	skip_check "names as c++filt's" "c++filt not found"
fi
if [ -n "$CALLGRIND_ANNOTATE" ]; then
	"$CALLGRIND_ANNOTATE" --inclusive=no "$tmp/lambda.cg" >"$tmp/annotate" 2>&1 &&
		grep -qF "$lambda" "$tmp/annotate"
	check "callgrind_annotate lists the lambda"
else
	skip_check "callgrind_annotate lists the lambda" "callgrind_annotate not found"
fi

# gprof drops them: the lambda's calls are the next symbol's (sort_rounds).
if [ -n "$GPROF" ]; then
	"$GPROF" -b -p "$L/prog" "$L/gmon.out" >"$tmp/gprof"
	! grep -qF '$_' "$tmp/gprof" && grep -q '5600001 .* sort_rounds(int)$' "$tmp/gprof"
	check "gprof still drops the lambdas (fixture changed?)"
else
	skip_check "gprof drops the lambdas" "gprof not found"
fi
finish
