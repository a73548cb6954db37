#!/usr/bin/env python3
"""annotate_check.py SELF INCLUSIVE: callgrind_annotate's function tables
with --inclusive=no and --inclusive=yes; every function's inclusive cost
must be at least its self cost.  Prints offenders, then a summary line;
exits 1 if there is any, or if the tables are empty."""
import re
import sys

ROW = re.compile(r"^\s*([0-9,]+)\s+\(\s*[0-9.]+%\)\s+(.*\S)\s*$")


def table(path):
    rows, in_table = {}, False
    for line in open(path, encoding="utf-8", errors="replace"):
        if "file:function" in line:
            in_table = True
            continue
        if in_table:
            m = ROW.match(line)
            if m:
                rows[m.group(2)] = rows.get(m.group(2), 0) + int(m.group(1).replace(",", ""))
            elif line.startswith("-----") and rows:
                break
    return rows


own, incl = table(sys.argv[1]), table(sys.argv[2])
bad = ["%s: inclusive %d below self %d" % (f, incl.get(f, 0), c)
       for f, c in sorted(own.items()) if incl.get(f, 0) < c]
for b in bad:
    print(b)
print("%d functions, %d with inclusive below self" % (len(own), len(bad)))
sys.exit(1 if bad or not own else 0)
