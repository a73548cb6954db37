#!/usr/bin/env python3
"""The whole-output check: what the user guide promises of every callgrind
file (doc/guide/01-reading-the-output.md).

    check_callgrind.py [--selection] FILE...
    check_callgrind.py --manifest LIST

Prints each violation as one line "FILE:LINE: what" (LINE: where it is,
for a function's calls its first cost line; 0: the file or part as a
whole) and exits 1 if there is any, 0 if none.  FILE may be
gzip-compressed (--gzip) and may hold several parts (--parts); each part
is checked on its own, as KCachegrind loads it.  With --manifest, LIST
has one file a line, "PATH<TAB>selection<TAB>what to name it by": what
tests/test-lib.sh records of every conversion.

Each part is read by callgrind_model (KCachegrind's reading; anything it
refuses is a violation) and must keep these promises:

* costs: every value below 2^63 and at most the summary: line's;
  summary: and totals: are there, equal, and the sum of the self costs;
* calls: for a function in no cycle (the file's call graph, as both
  viewers find cycles), the calls into it from other functions
  (<spontaneous> too) carry its self cost plus its calls out, direct
  recursion left out on both sides.  For a cycle, the calls entering it
  carry its members' self costs plus the calls leaving it (gprof's cycle
  as a whole), and the calls into each member add up to at least its
  self cost plus its calls leaving the cycle (gprof's member line).
  The pseudo functions <spontaneous>, <hidden>, <no symbol> and
  <outside OBJECT> are exempt.  With --selection (gprof's -E -e -F -f
  -N -n -k), where the guide lets a call into a cycle member carry the
  cycle's share, "carry" relaxes to "carry at least", and the cycle as a
  whole is not checked;
* inclusive cost: none below self cost, as KCachegrind computes it with
  Cycle Detection on and off (callgrind_model's result()).
  callgrind_annotate's inclusive cost is self cost plus every call out,
  never below self cost, so it needs no check;
* names: no "(N) name" index defined twice, and no object, file or
  function (KCachegrind's identity: name, file and object) given two
  indexes;
* positions (with "positions: instr ..."): every calls= line naming a
  function gives it the same entry address.  A function's code from its
  entry up to its highest cost or call site at or above the entry holds
  no other function's entry, cost or call site (a cold part, f.cold,
  below f's entry, is f's code too and must lie in no other function's).

Linear in the size of the file but for one sort of the addresses.
"""
import bisect
import gzip
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import callgrind_model  # noqa: E402

LIMIT = 1 << 63
PART_LINE = re.compile(r"^part:", re.M)
EVENTS_LINE = re.compile(r"^events:", re.M)
ADDRESS = re.compile(r"(0x[0-9a-fA-F]+|[0-9]+) ")


def is_pseudo(name):
    return name in ("<spontaneous>", "<hidden>", "<no symbol>") or \
        name.startswith("<outside ")


class Part(object):
    """What the model's parser tells of one part, and its violations."""

    def __init__(self, report, first_line):
        self.report = report
        self.first_line = first_line     # of the part in the file, less 1
        self.index = {}                  # (space, N) -> identity
        self.indexes = {}                # (space, identity) -> N
        self.entry = {}                  # Function -> (address, line)
        self.points = {}                 # Function -> [(address, line)]
        self.max_cost = []               # per event: (value, line)
        self.where = {}                  # Function -> its first cost line

    def say(self, line, text):
        self.report(line + self.first_line if line else 0, text)

    def define(self, space, idx, identity, line):
        was = self.index.get((space, idx))
        if was is not None:
            self.say(line, "%s index (%d) defined again" % (space, idx))
        self.index[(space, idx)] = identity
        other = self.indexes.setdefault((space, identity), idx)
        if other != idx:
            self.say(line, "%s %s given index (%d), already (%d)"
                     % (space, shown(identity), idx, other))

    def call_target(self, callee, rest, line):
        m = ADDRESS.match(rest)
        if not self.has_addr or not m:
            return
        addr = int(m.group(1), 0)
        was = self.entry.setdefault(callee, (addr, line))
        if was[0] != addr:
            self.say(line, "calls of %s at 0x%x, but at 0x%x on line %d"
                     % (shown(callee.name), addr, was[0], was[1] + self.first_line))

    def cost(self, fn, addr, vals, is_call, line):
        for i, v in enumerate(vals):
            if v >= LIMIT:
                self.say(line, "cost %d is not below 2^63" % v)
            while len(self.max_cost) <= i:
                self.max_cost.append((0, 0))
            if v > self.max_cost[i][0]:
                self.max_cost[i] = (v, line)
        self.where.setdefault(fn, line)
        if addr is not None:
            self.points.setdefault(fn, []).append((addr, line))


def shown(identity):
    """A function's name, or a (name, file, object) identity."""
    if isinstance(identity, tuple):
        return "%r (%s, %s)" % identity
    return repr(identity)


def check_costs(part, model):
    summary, totals = model.summary, model.totals
    if summary is None or totals is None:
        part.say(0, "no %s line" % ("summary:" if summary is None else "totals:"))
        return
    if summary != totals:
        part.say(0, "summary: %s but totals: %s"
                 % (" ".join(map(str, summary)), " ".join(map(str, totals))))
    for i, event in enumerate(model.events):
        want = summary[i] if i < len(summary) else 0
        if want >= LIMIT:
            part.say(0, "summary: %s %d is not below 2^63" % (event, want))
        got = sum(f.self_cost[i] for f in model.functions.values())
        if got != want:
            part.say(0, "the self costs of %s add up to %d, summary: says %d"
                     % (event, got, want))
        if i < len(part.max_cost) and part.max_cost[i][0] > want:
            part.say(part.max_cost[i][1], "cost %d of %s above the summary: %d"
                     % (part.max_cost[i][0], event, want))


def check_calls(part, model, selection):
    """The calls into a function carry its self cost plus its calls out."""
    funcs, arcs = model.functions, model.arcs
    cycle_of = {}
    cycles = model.find_cycles()
    for n, members in enumerate(cycles):
        for k in members:
            cycle_of[k] = n
    calls_in = dict.fromkeys(funcs, 0)
    calls_out = dict.fromkeys(funcs, 0)     # leaving its cycle, if in one
    for (a, b), arc in arcs.items():
        if a == b:
            continue
        calls_in[b] += arc.cost[0]
        c = cycle_of.get(a)
        if c is None or cycle_of.get(b) != c:
            calls_out[a] += arc.cost[0]
    for k, f in funcs.items():
        if is_pseudo(f.name):
            continue
        own = f.self_cost[0] + calls_out[k]
        if k in cycle_of or selection:
            if calls_in[k] < own:
                part.say(part.where.get(f, 0), "the calls into %s carry %d, below its self cost "
                         "plus calls out%s, %d"
                         % (shown(f.name), calls_in[k],
                            " of its cycle" if k in cycle_of else "", own))
        elif calls_in[k] != own:
            part.say(part.where.get(f, 0), "the calls into %s carry %d, not its self cost plus "
                     "calls out, %d" % (shown(f.name), calls_in[k], own))
    if selection:
        return
    entering = [0] * len(cycles)
    for (a, b), arc in arcs.items():
        c = cycle_of.get(b)
        if c is not None and cycle_of.get(a) != c:
            entering[c] += arc.cost[0]
    for n, members in enumerate(cycles):
        own = sum(funcs[k].self_cost[0] + calls_out[k] for k in members)
        if entering[n] != own:
            part.say(min(part.where.get(funcs[k], 0) for k in members), "the calls entering the cycle of %s carry %d, not "
                     "its self cost plus calls leaving it, %d"
                     % (", ".join(sorted(funcs[k].name for k in members)),
                        entering[n], own))


def check_inclusive(part, model):
    by_ident = dict((f.ident, f) for f in model.functions.values())
    for cycles in (True, False):
        for name, f in model.result(cycles=cycles)["functions"].items():
            if f["incl"] < f["self"]:
                part.say(part.where.get(by_ident[name], 0), "KCachegrind (Cycle Detection %s): %s inclusive "
                         "%d below its self cost %d"
                         % ("on" if cycles else "off", shown(name), f["incl"],
                            f["self"]))


def check_positions(part):
    """No function's code holds another's entry, cost or call site."""
    spans = {}      # object -> [(start, end, Function, line of end)]
    for f, (entry, _) in part.entry.items():
        if is_pseudo(f.name):
            continue        # (<no symbol>: at no function's address)
        end, end_line = entry, 0
        for addr, line in part.points.get(f, ()):
            if addr >= end:
                end, end_line = addr, line
        spans.setdefault(f.object, []).append((entry, end, f, end_line))
    starts = {}
    for obj, s in spans.items():
        s.sort(key=lambda x: (x[0], x[1]))
        for prev, cur in zip(s, s[1:]):
            if cur[0] <= prev[1]:
                part.say(prev[3], "%s has code at 0x%x, past the entry of %s "
                         "at 0x%x" % (shown(prev[2].name), prev[1],
                                      shown(cur[2].name), cur[0]))
        starts[obj] = [x[0] for x in s]
    for f, points in part.points.items():
        if is_pseudo(f.name) or f.object not in spans:
            continue
        s, st = spans[f.object], starts[f.object]
        for addr, line in points:
            i = bisect.bisect_right(st, addr) - 1
            if i >= 0 and s[i][2] is not f and addr <= s[i][1]:
                part.say(line, "%s has a cost or call at 0x%x, in the code "
                         "of %s (0x%x to 0x%x)"
                         % (shown(f.name), addr, shown(s[i][2].name),
                            s[i][0], s[i][1]))


def split_parts(text):
    """[(first line - 1, text)]: a new part starts at a part: line that
    follows an events: line."""
    cuts = [0]
    events = [m.start() for m in EVENTS_LINE.finditer(text)]
    for m in PART_LINE.finditer(text):
        if bisect.bisect_left(events, m.start()) > \
                bisect.bisect_left(events, cuts[-1]):
            cuts.append(m.start())
    cuts.append(len(text))
    return [(text.count("\n", 0, a), text[a:b]) for a, b in zip(cuts, cuts[1:])]


def check_file(path, selection, name, out):
    found = []

    def report(line, text):
        found.append("%s:%d: %s" % (name, line, text))
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as e:
        report(0, "cannot read it: %s" % e.strerror)
        data = None
    if data is not None:
        if data[:2] == b"\x1f\x8b":
            try:
                data = gzip.decompress(data)
            except (OSError, EOFError) as e:
                report(0, "not a whole gzip file: %s" % e)
                data = b""
        text = data.decode("utf-8", "surrogateescape")
        if not text.startswith("# callgrind format\n"):
            report(1, "does not start with '# callgrind format'")
        for first, chunk in split_parts(text):
            part = Part(report, first)
            part.has_addr = re.search(r"^positions:.*\binstr\b", chunk,
                                      re.M) is not None
            try:
                model = callgrind_model.parse_text(chunk, path, part)
            except callgrind_model.CallgrindError as e:
                part.say(e.lineno or 0, e.msg)
                continue
            model._assign_idents()
            check_costs(part, model)
            check_calls(part, model, selection)
            check_inclusive(part, model)
            if part.has_addr:
                check_positions(part)
    for line in found:
        out.write(line + "\n")
    return not found


def main(argv):
    selection = False
    files = []
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--selection":
            selection = True
        elif a == "--manifest" and args:
            with open(args.pop(0)) as fh:
                for row in fh:
                    path, sel, name = row.rstrip("\n").split("\t", 2)
                    files.append((path, sel == "selection", name))
        elif a.startswith("--") and a != "--":
            sys.stderr.write(__doc__)
            return 2
        else:
            files.append((a, None, a))
    if not files:
        sys.stderr.write(__doc__)
        return 2
    bad = 0
    for path, sel, name in files:
        if not check_file(path, selection if sel is None else sel, name,
                          sys.stdout):
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
