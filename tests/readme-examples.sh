#!/bin/bash
# readme-examples.sh -- every README example written as a prompt line
# ("    $ gmon2cg ...") followed by what it prints: run from the top of a
# checkout, the command must print exactly those lines (stdout and stderr
# together), warnings included, and succeed.
. "${srcdir:-.}/tests/test-lib.sh"

# The examples, one file per example under $tmp/ex: its command on the
# first line (continuation lines joined), then the lines it prints.
mkdir -p "$tmp/ex"
awk -v dir="$tmp/ex" '
	function flush() { if (file != "") close(file); file = ""; blanks = 0 }
	/^    \$ / { flush(); file = sprintf("%s/%03d", dir, ++n)
		   cmd = substr($0, 7)
		   while (cmd ~ /\\$/ && (getline line) > 0) {
			   sub(/\\$/, "", cmd); sub(/^ +/, " ", line); cmd = cmd line
		   }
		   print cmd > file; next }
	# (a blank line inside the output block is part of it)
	file != "" && /^    / { for (; blanks > 0; blanks--) print "" > file
				print substr($0, 5) > file; next }
	file != "" && /^$/ { blanks++; next }
	{ flush(); blanks = 0 }' "$srcdir/README"
examples=("$tmp"/ex/*)
[ -f "${examples[0]}" ]; check "the README has examples with their output"

# A checkout of our own: the fixtures, and gmon2cg on PATH.
mkdir -p "$tmp/checkout" "$tmp/bin"
ln -s "$FIXTURES" "$tmp/checkout/fixtures"
ln -s "$GMON2CG" "$tmp/bin/gmon2cg"
for example in "${examples[@]}"; do
	cmd=$(head -n 1 "$example")
	tail -n +2 "$example" >"$tmp/expected"
	(cd "$tmp/checkout" && PATH=$tmp/bin:$PATH bash -c "$cmd") >"$tmp/out" 2>&1 &&
		cmp -s "$tmp/expected" "$tmp/out"
	check "README: \$ $cmd"
	diff "$tmp/expected" "$tmp/out" | diag
done
finish
