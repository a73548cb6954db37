#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Summarise a GNU gmon.out (64-bit, as glibc writes it on x86-64):

    gmon-info.py FILE...   ->   hist_bins=... samples=... arcs=... callees=...

Used by build.sh to check that a generated program's profile is complete
(every generated function called, no arc lost to glibc's arc-table limit).
Several files are added up (arcs counts distinct (from, self) pairs).
"""

import struct
import sys


def read(path, arcs, callees, acc):
    with open(path, "rb") as fh:
        data = fh.read()
    if data[:4] != b"gmon":
        sys.exit("gmon-info: %s: not a GNU gmon.out" % path)
    pos = 20
    while pos < len(data):
        tag = data[pos]
        pos += 1
        if tag == 0:
            low, high, n, rate = struct.unpack_from("<QQII", data, pos)
            pos += 8 + 8 + 4 + 4 + 15 + 1
            counts = struct.unpack_from("<%dH" % n, data, pos)
            pos += 2 * n
            acc["hist_bins"] = max(acc.get("hist_bins", 0), n)
            acc["samples"] = acc.get("samples", 0) + sum(counts)
            acc["rate"] = rate
        elif tag == 1:
            frm, slf, cnt = struct.unpack_from("<QQI", data, pos)
            pos += 20
            arcs[(frm, slf)] = arcs.get((frm, slf), 0) + cnt
            callees.add(slf)
        elif tag == 2:
            (n,) = struct.unpack_from("<I", data, pos)
            pos += 4 + n * 16
        else:
            sys.exit("gmon-info: %s: unknown tag %d at %d" % (path, tag, pos - 1))


def main():
    arcs, callees, acc = {}, set(), {}
    for path in sys.argv[1:]:
        read(path, arcs, callees, acc)
    acc["arcs"] = len(arcs)
    acc["callees"] = len(callees)
    acc["calls"] = sum(arcs.values())
    print(" ".join("%s=%s" % kv for kv in acc.items()))


if __name__ == "__main__":
    main()
