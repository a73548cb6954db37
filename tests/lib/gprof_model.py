#!/usr/bin/env python3
"""Run GNU gprof and parse its flat profile and call graph.

Test oracle for gmon2cg (standard library only).  Runs
`LC_ALL=C gprof -b -z EXE GMON... [extra args]` (or reads saved gprof
output with --from-text) and parses:

* flat profile: "Each sample counts as X <unit>" (hz = round(1/X)), and per
  function %time, self seconds and calls (gprof's ncalls, self-recursive
  calls removed; blank means 0);
* call graph: header (granularity, "for P% of S seconds"), every primary
  line (index, %time, self, children, called "N" / "N+M" / blank, name,
  " <cycle N>" membership), every "<cycle N as a whole>" entry with its
  member lines, and every parent/child line ("self children count/total
  name [i]", or only "count name [i]" for self-calls and calls inside a
  cycle, or "<spontaneous>").

Columns are taken from the left (numbers) and from the right (the " [N]"
index and optional " <cycle N>"), so names may contain spaces, parentheses,
commas and templates.  Entries are identified by their index; arcs are read
from the child lines of every entry and cross-checked with the parent lines
(the counts must agree).  Self and children seconds are the call graph's
(2 decimals); the flat profile's values are reported as flat_self_s /
flat_calls / flat_pct.

Usage: gprof_model.py EXE GMON... [--json] [--gprof PROG] [-- EXTRA ARGS]
       gprof_model.py --from-text FILE [--json]

JSON: {"hz", "sample_s", "unit", "granularity_bytes", "graph_total_s",
"functions": {NAME: {"index", "pct", "self_s", "children_s", "ncalls",
"self_calls", "cycle", "spontaneous", "flat_pct", "flat_self_s",
"flat_calls"}},
"cycles": {"N": {"index", "pct", "self_s", "children_s", "ncalls",
"self_calls", "members": [NAME...]}},
"arcs": [{"caller", "callee", "count", "total", "self_s", "children_s"}],
"duplicate_names": [...]}.
ncalls/self_calls are 0 when gprof prints a blank "called" field.  For an
arc whose line shows only the count (self-call, or caller and callee in the
same cycle) total/self_s/children_s are null.  When two entries share a
name they are keyed "NAME [index]" (reported in duplicate_names) and their
flat_* fields are null (the flat profile cannot tell them apart).

Importable: run_gprof(exe, gmons, extra=(), gprof="gprof") -> text,
parse(text) -> dict (the JSON above).
"""

import argparse
import json
import os
import re
import subprocess
import sys

__all__ = ["GprofError", "run_gprof", "parse"]


class GprofError(Exception):
    pass


_TAIL = re.compile(r"^(?P<name>.*?)(?: <cycle (?P<cyc>\d+)>)? "
                   r"[\[(](?P<idx>\d+)[\])]$")
_PRIMARY = re.compile(r"^\[(?P<idx>\d+)\]?\s+(?P<pct>\S+)\s+(?P<self>\S+)\s+"
                      r"(?P<child>\S+)\s+"
                      r"(?:(?P<n>\d+)(?:\+(?P<m>\d+))?\s+)?(?P<rest>\S.*)$")
_CYCLE = re.compile(r"^\[(?P<idx>\d+)\]?\s+(?P<pct>\S+)\s+(?P<self>\S+)\s+"
                    r"(?P<child>\S+)\s+(?P<n>\d+)(?:\+(?P<m>\d+))?\s+"
                    r"<cycle (?P<cyc>\d+) as a whole>\s+\[(?P<idx2>\d+)\]$")
_MEMBER = re.compile(r"^\s+(?P<self>\S+)\s+(?P<child>\S+)\s+"
                     r"(?P<n>\d+)(?:\+(?P<m>\d+))?\s+(?P<rest>\S.*)$")
_ARC = re.compile(r"^\s+(?P<self>\S+)\s+(?P<child>\S+)\s+(?P<count>\d+)/"
                  r"(?P<total>\d+)\s+(?P<rest>\S.*)$")
_ARC_COUNT = re.compile(r"^\s+(?P<count>\d+)\s+(?P<rest>\S.*)$")
_SPONT = re.compile(r"^\s+<spontaneous>$")
_FLAT_ROW = re.compile(r"^\s*(?P<pct>\S+)\s+(?P<cum>\S+)\s+(?P<self>\S+)\s+"
                       r"(?:(?P<calls>\d+)\s+(?P<spc>\S+)\s+(?P<tpc>\S+)\s+)?"
                       r"(?P<name>\S.*)$")
_SAMPLE = re.compile(r"^Each sample counts as (?P<x>\S+) (?P<unit>.*?)\.?$")
_GRAN = re.compile(r"^granularity: each sample hit covers (?P<b>\d+) "
                   r"byte\(s\)(?: for (?P<pct>\S+)% of (?P<s>\S+) seconds"
                   r"| (?P<none>no time propagated))")


def _num(s, what, line):
    try:
        return float(s)
    except ValueError:
        raise GprofError("bad %s %r in gprof line: %s" % (what, s, line))


def _tail(rest, line):
    m = _TAIL.match(rest)
    if not m:
        raise GprofError("cannot find ' [index]' at the end of gprof line: "
                         "%s" % line)
    return (m.group("name"), int(m.group("cyc")) if m.group("cyc") else None,
            int(m.group("idx")))


def run_gprof(exe, gmons, extra=(), gprof="gprof"):
    """Runs `LC_ALL=C gprof -b -z EXE GMON... EXTRA`; returns stdout."""
    env = dict(os.environ)
    env["LC_ALL"] = "C"
    cmd = [gprof, "-b", "-z", exe] + list(gmons) + list(extra)
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           env=env)
    except OSError as e:
        raise GprofError("cannot run %s: %s" % (gprof, e.strerror))
    err = p.stderr.decode("utf-8", "replace").strip()
    if p.returncode != 0:
        first = err.splitlines()[0] if err else "(no message)"
        raise GprofError("gprof exited with status %d: %s"
                         % (p.returncode, first))
    return p.stdout.decode("utf-8", "surrogateescape")


def _parse_flat(lines, res):
    flat = []
    in_rows = False
    for line in lines:
        if not line.strip():
            continue
        m = _SAMPLE.match(line.strip())
        if m:
            x = m.group("x")
            res["sample_s"] = _num(x, "sample size", line)
            res["unit"] = m.group("unit")
            s = res["sample_s"]
            res["hz"] = int(round(1.0 / s)) if s not in (0.0,) and \
                s == s and s != float("inf") else 0
            continue
        if line.lstrip().startswith("time ") or line.strip() == "time":
            in_rows = True
            continue
        if line.lstrip().startswith("%") or "no time accumulated" in line:
            continue
        if not in_rows:
            continue
        m = _FLAT_ROW.match(line)
        if not m:
            raise GprofError("cannot parse flat profile line: %s" % line)
        name = m.group("name")
        t = _TAIL.match(name)
        if t:
            name = t.group("name")
        name = re.sub(r" <cycle \d+>$", "", name)
        flat.append({
            "name": name,
            "pct": _num(m.group("pct"), "%time", line),
            "self_s": _num(m.group("self"), "self seconds", line),
            "calls": int(m.group("calls")) if m.group("calls") else 0,
        })
    return flat


def _parse_graph(lines, res):
    entries = {}      # index -> dict
    cycles = {}       # cycle number -> dict
    arcs_child = {}   # (parent idx, child idx) -> info
    arcs_parent = {}
    names = {}        # index -> (name, cycle)
    blocks = []
    cur = []
    for line in lines:
        if line.startswith("-----"):
            if cur:
                blocks.append(cur)
            cur = []
            continue
        if not line.strip():
            continue
        m = _GRAN.match(line.strip())
        if m:
            res["granularity_bytes"] = int(m.group("b"))
            res["graph_total_s"] = (0.0 if m.group("none")
                                    else _num(m.group("s"), "seconds", line))
            continue
        if line.startswith("index ") or line.strip() == "Call graph" or \
                line.strip().startswith("Call graph"):
            continue
        cur.append(line)
    if cur:
        blocks.append(cur)

    def note_name(idx, name, cyc, line):
        old = names.get(idx)
        if old is not None and old != (name, cyc):
            raise GprofError("index [%d] names both %r and %r (line: %s)"
                             % (idx, old[0], name, line))
        names[idx] = (name, cyc)

    for block in blocks:
        prim = [i for i, l in enumerate(block) if l.startswith("[")]
        if len(prim) != 1:
            raise GprofError("call graph entry without exactly one primary "
                             "line: %s" % block[0])
        p = prim[0]
        line = block[p]
        m = _CYCLE.match(line)
        if m:
            num = int(m.group("cyc"))
            members = []
            for ml in block[p + 1:]:
                mm = _MEMBER.match(ml)
                if not mm:
                    raise GprofError("cannot parse cycle member line: %s" % ml)
                name, cyc, idx = _tail(mm.group("rest"), ml)
                if cyc != num:
                    raise GprofError("member of cycle %d printed as cycle %s:"
                                     " %s" % (num, cyc, ml))
                note_name(idx, name, cyc, ml)
                members.append(idx)
            cycles[num] = {
                "index": int(m.group("idx2")),
                "pct": _num(m.group("pct"), "%time", line),
                "self_s": _num(m.group("self"), "self", line),
                "children_s": _num(m.group("child"), "children", line),
                "ncalls": int(m.group("n")),
                "self_calls": int(m.group("m") or 0),
                "members": members,
            }
            if block[:p]:
                raise GprofError("unexpected lines before cycle entry: %s"
                                 % block[0])
            continue
        m = _PRIMARY.match(line)
        if not m:
            raise GprofError("cannot parse call graph primary line: %s" % line)
        name, cyc, idx = _tail(m.group("rest"), line)
        note_name(idx, name, cyc, line)
        e = {
            "index": idx,
            "pct": _num(m.group("pct"), "%time", line),
            "self_s": _num(m.group("self"), "self", line),
            "children_s": _num(m.group("child"), "children", line),
            "ncalls": int(m.group("n") or 0),
            "self_calls": int(m.group("m") or 0),
            "cycle": cyc,
            "spontaneous": False,
        }
        if idx in entries:
            raise GprofError("entry [%d] printed twice" % idx)
        entries[idx] = e
        for side, rows in (("parent", block[:p]), ("child", block[p + 1:])):
            for al in rows:
                if _SPONT.match(al):
                    if side != "parent":
                        raise GprofError("<spontaneous> child line: %s" % al)
                    e["spontaneous"] = True
                    continue
                am = _ARC.match(al)
                if am:
                    info = {"count": int(am.group("count")),
                            "total": int(am.group("total")),
                            "self_s": _num(am.group("self"), "self", al),
                            "children_s": _num(am.group("child"), "children",
                                               al)}
                else:
                    am = _ARC_COUNT.match(al)
                    if not am:
                        raise GprofError("cannot parse call graph %s line: %s"
                                         % (side, al))
                    info = {"count": int(am.group("count")), "total": None,
                            "self_s": None, "children_s": None}
                oname, ocyc, oidx = _tail(am.group("rest"), al)
                note_name(oidx, oname, ocyc, al)
                if side == "child":
                    key, table = (idx, oidx), arcs_child
                else:
                    key, table = (oidx, idx), arcs_parent
                if key in table:
                    raise GprofError("arc listed twice in one entry: %s" % al)
                table[key] = info
    return entries, cycles, arcs_child, arcs_parent, names


def parse(text):
    """Parses `gprof -b -z` output; returns the JSON-ready dict."""
    text = text.replace("\f", "")
    lines = text.split("\n")
    sec = {"flat": [], "graph": []}
    where = None
    for line in lines:
        s = line.strip()
        if s == "Flat profile:":
            where = "flat"
            continue
        if s.startswith("Call graph"):
            where = "graph"
            sec["graph"].append(line)
            continue
        if s.startswith("Index by function name"):
            where = None
            continue
        if where:
            sec[where].append(line)
    if not sec["flat"] and not sec["graph"]:
        raise GprofError("no flat profile and no call graph in gprof output")
    res = {"hz": None, "sample_s": None, "unit": None,
           "granularity_bytes": None, "graph_total_s": None}
    flat = _parse_flat(sec["flat"], res)
    entries, cycles, arcs_c, arcs_p, names = _parse_graph(sec["graph"], res)

    for (a, b), info in arcs_p.items():
        other = arcs_c.get((a, b))
        if other is not None and other["count"] != info["count"]:
            raise GprofError("arc [%d]->[%d]: count %d in the parent's entry "
                             "but %d in the child's"
                             % (a, b, other["count"], info["count"]))
    arcs = dict(arcs_p)
    arcs.update(arcs_c)

    by_name = {}
    for idx, (name, cyc) in names.items():
        by_name.setdefault(name, []).append(idx)
    dups = sorted(n for n, ix in by_name.items() if len(ix) > 1)
    key = {}
    for idx, (name, cyc) in names.items():
        key[idx] = "%s [%d]" % (name, idx) if name in dups else name

    funcs = {}
    for idx in sorted(names):
        name, cyc = names[idx]
        e = entries.get(idx)
        d = {"index": idx, "cycle": cyc, "pct": None, "self_s": None,
             "children_s": None, "ncalls": None, "self_calls": None,
             "spontaneous": None, "flat_pct": None, "flat_self_s": None,
             "flat_calls": None}
        if e is not None:
            for k in ("pct", "self_s", "children_s", "ncalls", "self_calls",
                      "spontaneous"):
                d[k] = e[k]
        funcs[key[idx]] = d
    flat_names = {}
    for row in flat:
        flat_names.setdefault(row["name"], []).append(row)
    for name, rows in flat_names.items():
        if name in dups or len(rows) > 1:
            continue
        row = rows[0]
        k = name
        if k not in funcs:
            funcs[k] = {"index": None, "cycle": None, "pct": None,
                        "self_s": None, "children_s": None, "ncalls": None,
                        "self_calls": None, "spontaneous": None}
        funcs[k]["flat_pct"] = row["pct"]
        funcs[k]["flat_self_s"] = row["self_s"]
        funcs[k]["flat_calls"] = row["calls"]
    for name, rows in flat_names.items():
        if len(rows) > 1 and name not in dups:
            dups.append(name)
    dups.sort()

    out_cycles = {}
    for num, c in sorted(cycles.items()):
        c = dict(c)
        c["members"] = [key[i] for i in c["members"]]
        out_cycles[str(num)] = c
    for idx, (name, cyc) in names.items():
        if cyc is not None and str(cyc) in out_cycles and \
                key[idx] not in out_cycles[str(cyc)]["members"]:
            raise GprofError("%s is printed as <cycle %d> but not listed "
                             "under <cycle %d as a whole>" % (name, cyc, cyc))

    out_arcs = []
    for (a, b), info in arcs.items():
        d = {"caller": key[a], "callee": key[b]}
        d.update(info)
        out_arcs.append(d)
    out_arcs.sort(key=lambda d: (d["caller"], d["callee"]))

    res.update({"functions": funcs, "cycles": out_cycles, "arcs": out_arcs,
                "duplicate_names": dups})
    return res


def _fmt(v, f="%.2f"):
    return "" if v is None else (f % v)


def _table(r):
    out = ["hz: %s (each sample %s %s)  call graph total: %s s"
           % (r["hz"], r["sample_s"], r["unit"], r["graph_total_s"])]
    if r["duplicate_names"]:
        out.append("note: names shared by several entries (keyed 'name "
                   "[index]'): %s" % ", ".join(r["duplicate_names"]))
    out.append("")
    out.append("%6s %9s %9s %9s %9s %10s %8s %6s  %s"
               % ("index", "self_s", "child_s", "ncalls", "selfcall",
                  "flat_self", "flatcall", "cycle", "name"))
    fs = sorted(r["functions"].items(),
                key=lambda kv: (kv[1]["index"] is None,
                                kv[1]["index"] or 0, kv[0]))
    for k, f in fs:
        out.append("%6s %9s %9s %9s %9s %10s %8s %6s  %s"
                   % (_fmt(f["index"], "%d"), _fmt(f["self_s"]),
                      _fmt(f["children_s"]), _fmt(f["ncalls"], "%d"),
                      _fmt(f["self_calls"], "%d"), _fmt(f["flat_self_s"]),
                      _fmt(f["flat_calls"], "%d"), _fmt(f["cycle"], "%d"), k))
    for n, c in r["cycles"].items():
        out.append("")
        out.append("<cycle %s as a whole> [%d]: self %.2f children %.2f "
                   "called %d+%d members: %s"
                   % (n, c["index"], c["self_s"], c["children_s"],
                      c["ncalls"], c["self_calls"], ", ".join(c["members"])))
    out.append("")
    out.append("arcs (caller -> callee: count[/total] self children):")
    for a in r["arcs"]:
        if a["total"] is None:
            out.append("  %s -> %s: %d" % (a["caller"], a["callee"],
                                           a["count"]))
        else:
            out.append("  %s -> %s: %d/%d %.2f %.2f"
                       % (a["caller"], a["callee"], a["count"], a["total"],
                          a["self_s"], a["children_s"]))
    return "\n".join(out) + "\n"


def main(argv=None):
    if argv is None:
        argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    ap = argparse.ArgumentParser(
        description="Run `LC_ALL=C gprof -b -z EXE GMON...` and parse its "
                    "flat profile and call graph. Extra gprof arguments go "
                    "after `--`.")
    ap.add_argument("files", nargs="*", metavar="EXE GMON",
                    help="executable followed by one or more gmon files")
    ap.add_argument("--json", action="store_true", help="print JSON")
    ap.add_argument("--gprof", default="gprof", help="gprof program")
    ap.add_argument("--from-text", metavar="FILE",
                    help="parse saved `gprof -b -z` output instead")
    a = ap.parse_args(argv)
    try:
        if a.from_text:
            if a.files or extra:
                ap.error("--from-text takes no EXE/GMON/extra arguments")
            with open(a.from_text, "rb") as fh:
                text = fh.read().decode("utf-8", "surrogateescape")
        else:
            if len(a.files) < 2:
                ap.error("need EXE and at least one GMON file")
            text = run_gprof(a.files[0], a.files[1:], extra, a.gprof)
        r = parse(text)
    except (GprofError, OSError) as e:
        sys.stderr.write("gprof_model: %s\n" % e)
        return 1
    if a.json:
        sys.stdout.write(json.dumps(r, indent=1, sort_keys=True) + "\n")
    else:
        sys.stdout.write(_table(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
