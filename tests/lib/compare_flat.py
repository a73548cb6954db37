#!/usr/bin/env python3
"""Compare gmon2cg's --summary with gprof's flat profile (gprof -b -p).

    compare_flat.py OURS GPROF [BASE_OURS BASE_GPROF]

OURS is what `gmon2cg --summary=N` printed on stderr (N at least every
function), GPROF what `gprof -b -p` printed, both with the same selection
options.  Checks: the same rows (names printed whole, calls equal), the
same unit per call, and self seconds, %time and total seconds per call
equal within print rounding and one sample.

gmon2cg credits samples to the instructions they fall on; gprof's 2-byte
bin model moves some between neighbouring functions.  Given BASE_OURS and
BASE_GPROF, the same two outputs without options, a row's self seconds
and %time may differ from gprof's by what they differ there, the total
per call by all the seconds gprof's model moved there (and the unit per
call with it), and the row order must be gprof's only where it was
without options (otherwise: by self time).

Prints one line per difference; exits 1 if there is any.
"""
import re
import sys

ROW = re.compile(r"^\s*(?P<pct>[\d.]+)\s+(?P<cum>[\d.]+)\s+(?P<self>[\d.]+)\s+"
                 r"(?:(?P<calls>\d+)\s+(?P<spc>[\d.]+)\s+(?P<tpc>[\d.]+)\s+)?"
                 r"(?P<name>\S.*)$")
UNIT = re.compile(r"calls\s+(?P<unit>\w+)/call")
PER_SECOND = {"s": 1, "ms": 1e3, "us": 1e6, "ns": 1e9}
SAMPLE_S = 0.0101  # one sample at 100 Hz, and print rounding


def read(path):
    """(unit, [(name, pct, self_s, calls, total_s)]) in printed order."""
    unit, rows = None, []
    for line in open(path).read().splitlines():
        m = UNIT.search(line)
        if m and unit is None:
            unit = m.group("unit")
            continue
        m = ROW.match(line)
        if not m or unit is None:
            continue
        calls = int(m.group("calls") or 0)
        total = float(m.group("tpc")) * calls / PER_SECOND[unit] if calls else None
        rows.append((m.group("name").rstrip(), float(m.group("pct")),
                     float(m.group("self")), calls, total))
    return unit, rows


def by_name(rows):
    return {r[0]: r for r in rows}


def main(argv):
    ours_unit, ours = read(argv[1])
    gprof_unit, gprof = read(argv[2])
    base = None
    if len(argv) > 4:
        base = (by_name(read(argv[3])[1]), by_name(read(argv[4])[1]),
                [r[0] for r in read(argv[3])[1]], [r[0] for r in read(argv[4])[1]])
    diffs = []
    if not ours or not gprof:
        diffs.append("no rows: %d ours, %d gprof's" % (len(ours), len(gprof)))
    o, g = by_name(ours), by_name(gprof)
    for name in sorted(set(o) ^ set(g)):
        diffs.append("%s: %s" % (name, "not in gprof's flat profile" if name in o
                                 else "missing (gprof lists it)"))
    total_s = max(sum(r[2] for r in gprof), SAMPLE_S)
    moved = 0.0
    if base:
        moved = sum(abs(r[2] - base[1][n][2]) for n, r in base[0].items() if n in base[1])
    # The unit is the one in which the largest total per call is below
    # 1000: the same unless gprof's model moved samples.
    if ours_unit != gprof_unit and moved == 0:
        diffs.append("unit per call %s, gprof %s" % (ours_unit, gprof_unit))
    for name in sorted(set(o) & set(g)):
        _n, o_pct, o_self, o_calls, o_total = o[name]
        _n, g_pct, g_self, g_calls, g_total = g[name]
        d_self = d_pct = 0.0
        if base and name in base[0] and name in base[1]:
            d_self = abs(base[0][name][2] - base[1][name][2])
            d_pct = abs(base[0][name][1] - base[1][name][1])
        if o_calls != g_calls:
            diffs.append("%s: %d calls, gprof %d" % (name, o_calls, g_calls))
        if abs(o_self - g_self) > d_self + SAMPLE_S:
            diffs.append("%s: self %.2f s, gprof %.2f s" % (name, o_self, g_self))
        # (gprof's shares of a bin add up to 100.16 % of it: 0.2 % more)
        if abs(o_pct - g_pct) > d_pct + 0.002 * g_pct + 0.011 + 100 * SAMPLE_S / total_s:
            diffs.append("%s: %.2f %%, gprof %.2f %%" % (name, o_pct, g_pct))
        if (o_total is None) != (g_total is None):
            diffs.append("%s: total per call printed in one only" % name)
        elif o_total is not None:
            rounding = 0.005 * o_calls / min(PER_SECOND[gprof_unit], PER_SECOND[ours_unit])
            if abs(o_total - g_total) > moved + 0.01 * g_total + rounding + SAMPLE_S:
                diffs.append("%s: total %.4f s (per call x calls), gprof %.4f s"
                             % (name, o_total, g_total))
    order = [r[0] for r in ours]
    if base and base[2] != base[3]:
        if any(a[2] < b[2] for a, b in zip(ours, ours[1:])):
            diffs.append("rows not by self time: %s" % order)
    elif order != [r[0] for r in gprof]:
        diffs.append("row order %s, gprof %s" % (order, [r[0] for r in gprof]))
    for line in diffs:
        print(line)
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
