#!/usr/bin/env python3
"""Check that the viewers show gprof's whole call graph.

    check_viewers.py PROFILE EXE GMON [--dot FILE]

For every caller -> callee pair gprof's call graph prints with a count
(direct recursion included):

  * callgrind_annotate --tree=both lists the caller among the callee's
    callers and the callee among the caller's callees, with gprof's count;
  * KCachegrind (callgrind_model), with cycle detection on and off, has
    the call with a cost above zero: its call lists show only those;
  * with --dot, the gprof2dot graph FILE has an edge between the two.

And no function's inclusive cost is below its self cost, in
callgrind_annotate --inclusive=yes and in KCachegrind without cycle
detection.  Prints one line per failure; exits 1 if any.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import callgrind_model  # noqa: E402
import gprof_model  # noqa: E402

# "  1,314,000,000 (54.07%)  <  file:function (1,060x) [object]"
TREE_LINE = re.compile(r"^\s*([\d,]+) \(\s*[\d.]+%\)\s+([<>*])\s+(.*?)(?: \(([\d,]+)x\))? \[[^]]*\]$")
FLAT_LINE = re.compile(r"^\s*(-?[\d,]+) \(\s*[\d.]+%\)\s+(.*?) \[[^]]*\]$")


def annotate(path, *opts):
    exe = os.environ.get("CALLGRIND_ANNOTATE") or "callgrind_annotate"
    return subprocess.run([exe, "--threshold=100", "--auto=no", *opts, path],
                          cwd="/", check=True, capture_output=True,
                          text=True).stdout


def function_name(file_and_name):
    return file_and_name.split(":", 1)[1]


def flat_costs(text):
    costs = {}
    for line in text.splitlines():
        m = FLAT_LINE.match(line)
        if m and ":" in m.group(2):
            costs[function_name(m.group(2))] = int(m.group(1).replace(",", ""))
    return costs


def tree_pairs(text):
    """(caller, callee) -> counts seen from each end ("<" and ">" lines)."""
    pairs = {}
    for block in text.split("\n\n"):
        rows = [TREE_LINE.match(line) for line in block.splitlines()]
        rows = [m for m in rows if m]
        centre = [m for m in rows if m.group(2) == "*"]
        if len(centre) != 1:
            continue
        me = function_name(centre[0].group(3))
        for m in rows:
            if m.group(2) == "*" or m.group(4) is None:
                continue
            other = function_name(m.group(3))
            key = (other, me) if m.group(2) == "<" else (me, other)
            pairs.setdefault(key, {})[m.group(2)] = int(m.group(4).replace(",", ""))
    return pairs


def dot_edges(path):
    with open(path) as f:
        text = f.read()
    labels = {m.group(1): m.group(2).split("\\n")[0]
              for m in re.finditer(r'^\s*(\S+) \[.*?label="([^"]*)"', text, re.M)}
    return {(labels.get(a), labels.get(b))
            for a, b in re.findall(r"^\s*(\S+) -> (\S+)", text, re.M)}


def main():
    args = sys.argv[1:]
    dot = None
    if "--dot" in args:
        i = args.index("--dot")
        dot = args[i + 1]
        del args[i:i + 2]
    profile, exe, gmon = args
    gp = gprof_model.parse(gprof_model.run_gprof(
        exe, [gmon], gprof=os.environ.get("GPROF") or "gprof"))
    arcs = [(a["caller"], a["callee"], a["count"]) for a in gp["arcs"]
            if a["count"]]
    failures = []

    tree = tree_pairs(annotate(profile, "--tree=both", "--inclusive=yes"))
    for caller, callee, count in arcs:
        seen = tree.get((caller, callee), {})
        for side, where in (("<", "callers of " + callee), (">", "callees of " + caller)):
            if seen.get(side) != count:
                failures.append("callgrind_annotate: %s -> %s (%d calls) not among the %s (%s)"
                                % (caller, callee, count, where, seen.get(side)))

    incl = flat_costs(annotate(profile, "--inclusive=yes"))
    for name, self_cost in flat_costs(annotate(profile)).items():
        if incl.get(name, 0) < self_cost:
            failures.append("callgrind_annotate --inclusive=yes: %s inclusive %s below self %d"
                            % (name, incl.get(name), self_cost))

    model = callgrind_model.load(profile)
    for cycles in (True, False):
        mode = "KCachegrind, cycle detection %s" % ("on" if cycles else "off")
        res = model.result(cycles=cycles)
        names = {k: f["name"] for k, f in res["functions"].items()}
        listed = {(names[a["caller"]], names[a["callee"]]): a for a in res["arcs"]}
        for caller, callee, count in arcs:
            a = listed.get((caller, callee))
            if not a or a["count"] != count or a["cost"] <= 0:
                failures.append("%s: %s -> %s (%d calls) not listed (%s)"
                                % (mode, caller, callee, count, a))
        if not cycles:
            for f in res["functions"].values():
                if f["incl"] < f["self"]:
                    failures.append("%s: %s inclusive %d below self %d"
                                    % (mode, f["name"], f["incl"], f["self"]))

    if dot:
        edges = dot_edges(dot)
        for caller, callee, count in arcs:
            if (caller, callee) not in edges:
                failures.append("gprof2dot: no edge %s -> %s" % (caller, callee))

    for f in failures:
        print("FAIL " + f)
    print("%s: %d arcs of gprof's call graph checked; %d failed"
          % (os.path.basename(profile), len(arcs), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
