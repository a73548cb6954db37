#!/bin/bash
# readme-examples.sh -- every example of the README and the user guide
# (doc/guide/*.md) written as a prompt line ("    $ gmon2cg ...") followed
# by what it prints: run from the top of a checkout, the command must print exactly those lines (stdout and stderr
# together), warnings included, and succeed.
. "${srcdir:-.}/tests/test-lib.sh"

# The examples, one file per example under $tmp/ex: the documentation
# file it is in on the first line, its command on the second
# (continuation lines joined), then the lines it prints.
mkdir -p "$tmp/ex"
awk -v dir="$tmp/ex" -v top="$srcdir/" '
	function flush() { if (file != "") close(file); file = ""; blanks = 0 }
	FNR == 1 { flush() }
	/^    \$ / { flush(); file = sprintf("%s/%03d", dir, ++n)
		   doc = FILENAME; if (index(doc, top) == 1) doc = substr(doc, length(top) + 1)
		   print doc > file
		   cmd = substr($0, 7)
		   while (cmd ~ /\\$/ && (getline line) > 0) {
			   sub(/\\$/, "", cmd); sub(/^ +/, " ", line); cmd = cmd line
		   }
		   print cmd > file; next }
	# (a blank line inside the output block is part of it)
	file != "" && /^    / { for (; blanks > 0; blanks--) print "" > file
				print substr($0, 5) > file; next }
	file != "" && /^$/ { blanks++; next }
	{ flush(); blanks = 0 }' "${user_docs[@]}"
examples=("$tmp"/ex/*)
[ -f "${examples[0]}" ]; check "the documentation has examples with their output"

# A checkout of our own: the fixtures, and gmon2cg on PATH.
mkdir -p "$tmp/checkout" "$tmp/bin"
ln -s "$FIXTURES" "$tmp/checkout/fixtures"
ln -s "$GMON2CG" "$tmp/bin/gmon2cg"
for example in "${examples[@]}"; do
	doc=$(sed -n 1p "$example") cmd=$(sed -n 2p "$example")
	tail -n +3 "$example" >"$tmp/expected"
	(cd "$tmp/checkout" && PATH=$tmp/bin:$PATH bash -c "$cmd") >"$tmp/out" 2>&1 &&
		cmp -s "$tmp/expected" "$tmp/out"
	check "$doc: \$ $cmd"
	diff "$tmp/expected" "$tmp/out" | diag
done
finish
