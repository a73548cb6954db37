#!/usr/bin/env python3
"""zero_calls.py PROFILE: every call line of cost 0 in a callgrind file,
one "CALLER -> CALLEE (calls=N)" a line; exits 1 if there is any."""
import re
import sys

names = {}


def name(kind_value):
    m = re.match(r"^\((\d+)\)(?: (.*))?$", kind_value)
    if not m:
        return kind_value
    if m.group(2) is not None:
        names[m.group(1)] = m.group(2)
    return names.get(m.group(1), "(%s)" % m.group(1))


npos = 1
caller = callee = calls = None
zero = []
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    line = line.rstrip("\n")
    if line.startswith("positions:"):
        npos = len(line.split()) - 1
    elif line.startswith("fn="):
        caller = name(line[3:])
    elif line.startswith("cfn="):
        callee = name(line[4:])
    elif line.startswith("calls="):
        calls = line.split()[0][6:]
    elif calls is not None and line and (line[0].isdigit() or line[0] in "+-*"):
        costs = line.split()[npos:]
        if all(c == "0" for c in costs):
            zero.append("%s -> %s (calls=%s)" % (caller, callee, calls))
        calls = None
for z in zero:
    print(z)
sys.exit(1 if zero else 0)
