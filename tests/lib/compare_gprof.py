#!/usr/bin/env python3
"""Compare a gmon2cg profile with GNU gprof on the same inputs.

    compare_gprof.py --cg PROFILE [--exact-gmon TAGGED]... EXE GMON...

Reads PROFILE as KCachegrind does (callgrind_model), runs gprof on EXE and
the GMON files (gprof_model), and computes the exact per-function sample
counts from the histogram independently (exact_hist).  Checks, for every
function gprof reports:

  * self time: equal to gprof's within max(1 %, one sample) plus gprof's
    print rounding.  Where gprof's 2-byte bin model moved samples between
    neighbours by more than that, the exact count from the histogram is
    used instead, and the line says so.  Self time must always equal the
    exact count (to a millionth of a sample), but for the marker of a
    function too cheap for its calls: at most 1 ns per call line into it
    (or one for a root), so that its calls in carry what it costs;
  * inclusive time (self + children, and a cycle as a whole): equal to
    gprof's within the same tolerance plus the samples gprof's bin model
    moved in total (propagation moves no more than that), and, for the
    functions from which a call moved as below can be reached, the time
    of the moved calls;
  * call counts: every arc gprof prints has the same count in PROFILE, and
    PROFILE has no arc gprof lacks (calls from the pseudo function
    <spontaneous> aside).

The profile is first seen as gprof credits it (gprof_view): gprof knows
only the function symbols exact_hist keeps, so a GCC clone or split part
(.isra, .part, .cold, ...) is credited, samples and arcs, to the kept
symbol below it; of aliases (one address, several names) gprof shows the
one it prefers; and two functions of one name (statics of two files) are
matched to gprof's "NAME [index]" entries by their numbers (gmon2cg
labels such names "NAME [FILE]", or "NAME [0xADDRESS]" with the symbol's
own address; the label is taken off where it is right).  A function at a
kept symbol's address under a name that is none of that address's names
keeps its own name, so a wrong name still fails.  A function stands at
the lowest address of its cost lines and call sites outside its cold
part (which lies apart, below every function); the self cost in a cold
part is moved to the kept symbol below the part, as gprof credits it,
and the inclusive tolerance grows by what was moved (gprof propagates it
to that symbol's callers).

gprof takes weak symbols outside code for functions at their value
(GCC's -flto writes one per source file into .debug_info): it is run on
a copy of EXE without them.  With --keep-clones the copy also has the
clones, split parts and lambdas gprof drops made global, so that gprof
keeps them as gmon2cg does: then nothing is merged, and gprof's
propagation does not spread a dropped clone's children over the callers
of the function below it (the one figure gprof_view cannot undo).

Calls are seen as gprof credits them too, call line by call line
(CallCredit): gprof credits a call to the kept symbol at the arc record's
from_pc, which glibc writes as the start of the hash bucket (2 * the size
of a long) that holds the return address; gmon2cg to the function owning
the call instruction, and a cold part (f.cold) is f's.  So a call from a
cold part is gprof's call from whatever kept symbol precedes the part
(as is one whose bucket starts in the function before its call site).
Each call line of the profile (call site A, callee C) is matched to the
records into C whose bucket can hold its return address (from_pc in
(A - 2 * pointer size, A + 16]); where these all lie in one gprof
function G, and the owner of A by the symbol table (the kept symbol at
or below A, or below the cold part's parent, the function of the part's
name nearest to it, as gmon2cg finds it) is another, the line's count
and cost are moved in the view from its caller to G.  The line's caller
must then be that owner, and its count is checked at gprof's arc from G:
nothing else changes, so every call line whose bucket gprof credits to
its owner is compared as before.  Records in two gprof functions, which
the window cannot tell apart, fail.  (With -a gmon2cg, like gprof,
credits a cold part to the function before it: no parents then.)
gprof propagates a moved call's time along its own arc, gmon2cg along the
owner's: each function from which G or the owner can be reached gets, on
top of its tolerance, the moved calls' time (for each, the larger of its
call line's cost and gprof's share of its arc's self + children), the
most the moves can change what propagation brings it.

Prints one line per check that needed the fallback or failed; exits 1 if
any check failed.
"""
import bisect
import argparse
import os
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import callgrind_model  # noqa: E402
import exact_hist  # noqa: E402
import gprof_model  # noqa: E402

PSEUDO = ("<spontaneous>", "<no symbol>", "<hidden>")


def gprof_names(exe, gp, no_statics=False):
    """(starts, names, aliases, dropped): gprof's kept function symbols,
    sorted by address, with their demangled names; every demangled
    function name of each kept address; and {name: owner name} of the
    symbols exact_hist keeps but this gprof does not.  (gprof 2.40 means
    to keep "f.constprop.N" but compares it with ".clone.": a constprop
    clone that gprof does not list is credited to the symbol below it.
    With NO_STATICS, gprof -a, every static function is.)"""
    kept = exact_hist.symbols(exe)
    names = exact_hist.demangle([n for _a, n, _size in kept])
    listed = {k.rsplit(" [", 1)[0] for k in gp["functions"]} | set(gp["functions"])
    statics = set()
    if no_statics:
        for line in exact_hist.nm(exe).splitlines():
            f = line.split(" ", 2)
            if len(f) == 3 and f[1] == "t":
                statics.add(f[2])
    dropped = {}
    for i in range(len(kept) - 1, 0, -1):
        if (".constprop." in names[i] and names[i] not in listed) or kept[i][1] in statics:
            dropped[names[i]] = names[i - 1]
            del kept[i], names[i]
    starts = [a for a, _n, _size in kept]
    at = set(starts)
    raw = []
    for line in exact_hist.nm(exe, "-n").splitlines():
        f = line.split(" ", 2)
        if len(f) == 3 and f[1] in "TtWi" and int(f[0], 16) in at:
            raw.append((int(f[0], 16), f[2]))
    aliases = {}
    for (a, _r), n in zip(raw, exact_hist.demangle([r for _a, r in raw])):
        aliases.setdefault(a, set()).add(n)
    return starts, names, aliases, dropped


def unlabelled(f, addr):
    """F's name without the label gmon2cg gives a name several functions
    share, where the label is right: F's own file, or ADDR in hex."""
    for label in ("0x%x" % addr, f.file):
        if label and f.name.endswith(" [%s]" % label):
            return f.name[:-len(label) - 3]
    return f.name


class CallLines(callgrind_model.Observer):
    """Observer of callgrind_model's parser: every call line of the
    profile as (caller key, callee key, call site address or None, count,
    call cost), and every other cost line with an address as {function
    key: [(address, cost)]}."""

    def __init__(self):
        self.model = None
        self.lines = []
        self.costs = {}
        self.callee = None
        self.seen = {}

    def call_target(self, callee, rest, line):
        self.callee = callee

    def cost(self, fn, addr, vals, is_call, line):
        if not is_call:
            if addr is not None:
                self.costs.setdefault(fn.key, []).append((addr, list(vals)))
            return
        key = (fn.key, self.callee.key)
        # (the parser has just added the line's count to its arc's)
        count = self.model.arcs[key].count - self.seen.get(key, 0)
        self.seen[key] = self.model.arcs[key].count
        self.lines.append((fn.key, self.callee.key, addr, count, list(vals)))


def load_profile(path):
    """(model, call lines, cost lines) of the callgrind file PATH (see
    CallLines)."""
    with open(path, "rb") as fh:
        text = fh.read().decode("utf-8", "surrogateescape")
    calls = CallLines()
    p = callgrind_model._Parser()
    p.m.path, p.observer, calls.model = path, calls, p.m
    model = p.parse(text)
    model._assign_idents()
    return model, calls.lines, calls.costs


def cold_parts(exe):
    """[(start, end, parent's address)] of the cold parts of EXE's
    functions, sorted: each function symbol named "f.cold" or
    "f.cold.N" (the first ".cold" in the name, not at its start) is part
    of the function symbol named f nearest to it, as gmon2cg takes it."""
    syms = []
    for line in exact_hist._run(["readelf", "-sW", exe]).splitlines():
        f = line.split()
        if len(f) >= 8 and f[0].endswith(":") and f[3] == "FUNC" and f[6] != "UND":
            syms.append((int(f[1], 16), int(f[2], 0), f[7].split("@", 1)[0]))
    by_name = {}
    for addr, _size, name in syms:
        by_name.setdefault(name, []).append(addr)
    parts = set()
    for addr, size, name in syms:
        i = name.find(".cold")
        if i <= 0 or name[i + 5:i + 6] not in ("", "."):
            continue
        parents = by_name.get(name[:i])
        if parents:
            parts.add((addr, addr + max(size, 1),
                       min(parents, key=lambda a: abs(a - addr))))
    return sorted(parts)


class CallCredit(object):
    """Which function gprof credits each of the profile's call lines to,
    where that is not the function owning its call site.

    gprof credits a call to the kept symbol at or below the arc record's
    from_pc, which glibc writes as the start of the hash bucket (2 * the
    size of a long) holding the call's return address.  gmon2cg credits it
    to the function owning the call instruction, a cold part's parent for
    a call in a cold part.  A call line at site A is matched to the
    records of its callee whose bucket can hold its return address:
    from_pc in (A - 2 * pointer size, A + 16].  Where all of them are in
    one gprof function G and the owner of A (the kept symbol at or below
    A, or below the cold part's parent) is another, the line is gprof's
    call from G."""

    def __init__(self, exe, gmons, starts, colds):
        psize, bo = exact_hist.elf_layout(exe)
        self.bucket = 2 * psize
        self.starts, self.colds = starts, colds
        self.cold_starts = [c[0] for c in colds]
        self.records = {}   # callee's gprof start -> sorted from_pcs
        for path in gmons:
            recs = []
            exact_hist.read_gmon(path, psize, bo, arcs=recs)
            for from_pc, self_pc, _count in recs:
                self.records.setdefault(self.start(self_pc), set()).add(from_pc)
        self.records = {k: sorted(v) for k, v in self.records.items()}

    def start(self, addr):
        """The address of the kept symbol gprof puts ADDR in."""
        return self.starts[max(bisect.bisect_right(self.starts, addr) - 1, 0)]

    def cold_parent(self, addr):
        """The address of the function whose cold part holds ADDR, or None."""
        i = bisect.bisect_right(self.cold_starts, addr) - 1
        return self.colds[i][2] if i >= 0 and addr < self.colds[i][1] else None

    def owner(self, addr):
        """The address of the kept symbol at or below the function owning
        the code at ADDR (a cold part's parent)."""
        parent = self.cold_parent(addr)
        return self.start(addr if parent is None else parent)

    def gprof_caller(self, site, callee_start):
        """The start of the gprof function that the records a call line
        at SITE into the function at CALLEE_START can be are in: None if
        no record can be its, a set of several if they are in several."""
        froms = self.records.get(callee_start, [])
        lo = bisect.bisect_right(froms, site - self.bucket)
        hi = bisect.bisect_right(froms, site + 16)
        found = {self.start(b) for b in froms[lo:hi]}
        return None if not found else found.pop() if len(found) == 1 else found


def home_address(f, costs, sites, credit):
    """The address F stands at among gprof's symbols: the lowest of its
    cost lines COSTS and call sites SITES outside cold parts (a cold part
    lies apart, below every function), else its cold part's parent's."""
    if not credit:
        return f.addr
    inside = [a for a, _v in costs if credit.cold_parent(a) is None]
    inside += [a for a in sites if credit.cold_parent(a) is None]
    if inside:
        return min(inside)
    parent = credit.cold_parent(f.addr) if f.addr is not None else None
    return f.addr if parent is None else parent


def gprof_view(model, gp, starts, names, aliases, lines=(), credit=None, costs=None):
    """MODEL with its functions merged as gprof credits them (see above).
    With CREDIT (a CallCredit) and LINES (the profile's call lines), the
    call lines gprof credits to another function than the one owning
    their call site are moved to it: the view's "moved" lists them as
    (gprof's caller, owner, callee, count, cost) in view keys, and its
    "credit_failures" the lines that could not be told.  With COSTS too
    (the profile's other cost lines), the self cost of a function's cold
    part is moved to the function gprof credits it to, the kept symbol
    below the part: the view's "cold_moved" is its total (event 0)."""
    view = callgrind_model.Model()
    view.events = model.events
    view.summary, view.totals, view.path = model.summary, model.totals, model.path
    where = {}      # function key -> key in the view
    vstart = {}     # key in the view -> the address of its gprof symbol
    costs = costs or {}
    sites = {}      # function key -> its call sites
    for caller, _callee, site, _count, _cost in lines:
        if site is not None:
            sites.setdefault(caller, []).append(site)
    for key, f in model.functions.items():
        name, vkey = f.name, key
        home = home_address(f, costs.get(key, ()), sites.get(key, ()), credit)
        if f.name not in PSEUDO and home is not None and starts:
            j = max(bisect.bisect_right(starts, home) - 1, 0)
            own = aliases.get(starts[j], ())
            if home != starts[j] or unlabelled(f, starts[j]) in own:
                name = names[j]
            vkey = "%s@%x" % (name, starts[j])
            vstart[vkey] = starts[j]
        where[key] = vkey
        v = view.functions.get(vkey)
        if v is None:
            v = view.functions[vkey] = callgrind_model.Function(
                vkey, name, f.file, f.object, len(model.events))
        v.self_cost = [a + b for a, b in zip(v.self_cost, f.self_cost)]
    view.cold_moved = 0
    at_start = {a: k for k, a in vstart.items()}
    for key, fcosts in costs.items() if credit else ():
        for addr, vals in fcosts:
            if credit.cold_parent(addr) is None:
                continue
            j = max(bisect.bisect_right(starts, addr) - 1, 0)
            gkey = at_start.get(starts[j], "%s@%x" % (names[j], starts[j]))
            if gkey == where[key]:
                continue
            if gkey not in view.functions:
                view.functions[gkey] = callgrind_model.Function(
                    gkey, names[j], "", "", len(model.events))
            view.functions[gkey].self_cost = [
                a + b for a, b in zip(view.functions[gkey].self_cost, vals)]
            own = view.functions[where[key]]
            own.self_cost = [a - b for a, b in zip(own.self_cost, vals)]
            view.cold_moved += vals[0]

    def add(a, b, count, cost):
        key = (a, b)
        v = view.arcs.get(key)
        if v is None:
            v = view.arcs[key] = callgrind_model.Arc(key[0], key[1], len(model.events))
            view.callings.setdefault(key[0], []).append(key[1])
        v.count += count
        v.cost = [x + y for x, y in zip(v.cost, cost)]
        if v.count == 0:
            del view.arcs[key]
            view.callings[a].remove(b)
    for (a, b), arc in model.arcs.items():
        add(where[a], where[b], arc.count, arc.cost)
    moved, failures = [], []
    for caller, callee, site, count, cost in lines if credit else ():
        if site is None or where[caller] not in vstart or where[callee] not in vstart:
            continue
        owner = credit.owner(site)
        gprofs = credit.gprof_caller(site, vstart[where[callee]])
        if gprofs is None or gprofs == owner:
            continue
        if isinstance(gprofs, set):
            failures.append("call of %s at 0x%x: its record's bucket may be in any of %s"
                            % (model.functions[callee].name, site,
                               ", ".join(names[starts.index(g)] for g in sorted(gprofs))))
            continue
        if vstart[where[caller]] != owner:
            failures.append("call of %s at 0x%x from %s, but that is code of %s"
                            % (model.functions[callee].name, site,
                               model.functions[caller].name, names[starts.index(owner)]))
            continue
        j = starts.index(gprofs)
        gkey = "%s@%x" % (names[j], gprofs)
        if gkey not in view.functions:
            view.functions[gkey] = callgrind_model.Function(
                gkey, names[j], "", "", len(model.events))
        add(where[caller], where[callee], -count, [-c for c in cost])
        add(gkey, where[callee], count, cost)
        moved.append((gkey, where[caller], where[callee], count, cost))
    view._assign_idents()
    name_duplicates(view, gp)
    view.moved, view.credit_failures = moved, failures
    return view


def name_duplicates(view, gp):
    """Gives the view's functions that share a name gprof's "NAME [index]"
    keys: each gprof entry the function whose self cost, calls and
    neighbours differ least from it."""
    hz = gp["hz"]
    groups = {}
    for f in view.functions.values():
        groups.setdefault(f.name, []).append(f)
    for name, fs in groups.items():
        entries = [k for k in gp["functions"] if k.startswith(name + " [")
                   and k[len(name) + 2:-1].isdigit()]
        if not entries:
            continue

        def base(n):
            # (only gprof's " [index]": "f [clone .isra.0]" is a name)
            b, _, i = n.rpartition(" [")
            return b if b and i[:-1].isdigit() and i.endswith("]") else n

        def ours(f):
            return sorted((view.functions[a].name, view.functions[b].name, arc.count)
                          for (a, b), arc in view.arcs.items() if f.key in (a, b))

        def theirs(e):
            return sorted((base(a["caller"]), base(a["callee"]), a["count"])
                          for a in gp["arcs"] if e in (a["caller"], a["callee"]))

        def distance(f, e):
            g = gp["functions"][e]
            mine, other = ours(f), theirs(e)
            return (len(set(mine) ^ set(other)), abs(f.self_cost[0] * hz / 1e9
                                                     - (g["self_s"] or 0) * hz))

        pairs = sorted((distance(f, e), i, e) for i, f in enumerate(fs) for e in entries)
        done_f, done_e = set(), set()
        for _d, i, e in pairs:
            if i not in done_f and e not in done_e:
                fs[i].ident = e
                done_f.add(i)
                done_e.add(e)


def outside_code_weak_symbols(exe):
    """The weak symbols of EXE that gprof takes for functions though they
    are in no code section, at an address inside one.  GCC's -flto writes
    one per source file ("cache.c.4ebc3396") into .debug_info, its value
    an offset in that section; gprof reads the value as an address and
    cuts the function found there in two.  gmon2cg takes no symbol
    outside code (doc/guide/03-deviations.md)."""
    code, other = [], set()
    for line in exact_hist._run(["readelf", "-SW", exe]).splitlines():
        f = line.replace("[ ", "[").split()
        if len(f) > 7 and f[0].startswith("[") and f[0][1:-1].isdigit():
            flags = f[7] if not f[7].isdigit() else ""
            if "X" in flags and "A" in flags:
                code.append((int(f[3], 16), int(f[3], 16) + int(f[5], 16)))
            elif f[0][1:-1] != "0":
                other.add(f[0][1:-1])
    names = []
    for line in exact_hist._run(["readelf", "-sW", exe]).splitlines():
        f = line.split()
        if len(f) >= 8 and f[0].endswith(":") and f[4] == "WEAK" and f[6] in other:
            addr = int(f[1], 16)
            if any(lo <= addr < hi for lo, hi in code):
                names.append(f[7])
    return names


def dropped_clones(exe):
    """The local function symbols of EXE that gprof drops and gmon2cg
    keeps as functions: GCC's clones and split parts (f.part.0, f.isra.0,
    f.lto_priv.0, and f.constprop.0 where gprof's name scanner misreads
    it) and clang's lambdas (f::$_0), but not the cold parts (f.cold),
    which gmon2cg too counts as part of f."""
    names = []
    for line in exact_hist._run(["readelf", "-sW", exe]).splitlines():
        f = line.split()
        if (len(f) >= 8 and f[0].endswith(":") and f[3] == "FUNC" and f[4] == "LOCAL"
                and f[6] != "UND" and ("." in f[7] or "$" in f[7])
                and ".cold" not in f[7]):
            names.append(f[7])
    return names


def gprof_copy(exe, strip, globalize, tmpdir):
    """A copy of EXE in TMPDIR without the symbols STRIP and with the
    symbols GLOBALIZE made global."""
    copy = os.path.join(tmpdir, os.path.basename(exe))
    subprocess.run(["objcopy"] + ["--strip-symbol=" + n for n in strip]
                   + ["--globalize-symbol=" + n for n in globalize] + [exe, copy],
                   check=True)
    return copy


def moved_without_options(exe, gmons, exact):
    """The samples gprof's bin model moves between functions: gprof's self
    times without options against EXACT, the counts from the histogram."""
    base = gprof_model.parse(gprof_model.run_gprof(
        exe, gmons, gprof=os.environ.get("GPROF") or "gprof"))
    return sum(abs(g["self_s"] * base["hz"] - exact.get(name, 0.0))
               for name, g in base["functions"].items() if g["self_s"] is not None)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cg", required=True, help="gmon2cg output")
    ap.add_argument("--exact-gmon", action="append",
                    help="tagged gmon.out(s) with the same samples, for the exact "
                         "counts when GMON is in a layout exact_hist does not read")
    ap.add_argument("--gprof-args", default="",
                    help="selection options for gprof, as given to gmon2cg "
                         "(e.g. '-E f'); then self times are gprof's call-graph "
                         "shares and only the functions gprof shows are compared")
    ap.add_argument("--keep-clones", action="store_true",
                    help="run gprof on a copy in which the clones, split parts and "
                         "lambdas it drops are global symbols, which it keeps: its "
                         "figures are then those of the functions gmon2cg writes, and "
                         "its propagation does not spread a dropped clone's children "
                         "over the callers of the function it credits them to")
    ap.add_argument("exe")
    ap.add_argument("gmon", nargs="+")
    args = ap.parse_args()

    notes = []
    label = os.path.basename(os.path.dirname(os.path.abspath(args.exe))) or args.exe
    misread = outside_code_weak_symbols(args.exe)
    gprof_args = shlex.split(args.gprof_args)
    # (with -a every static function is left out, the clones too)
    no_statics = bool({"-a", "--no-static"} & set(gprof_args))
    clones = dropped_clones(args.exe) if args.keep_clones and not no_statics else []
    tmpdir = tempfile.TemporaryDirectory()

    def some(names):
        return "%d: %s" % (len(names), ", ".join(n if len(n) < 48 else n[:45] + "..."
                                                  for n in sorted(names)[:3])
                           + (", ..." if len(names) > 3 else ""))
    if misread:
        notes.append("gprof is run on a copy without the weak symbols outside code that it "
                     "takes for functions (%s)" % some(misread))
    if clones:
        notes.append("gprof is run on a copy in which the clones it drops are global (%s)"
                     % some(clones))
    if misread or clones:
        args.exe = gprof_copy(args.exe, misread, clones, tmpdir.name)
    gp = gprof_model.parse(gprof_model.run_gprof(args.exe, args.gmon, extra=gprof_args,
                                                 gprof=os.environ.get("GPROF") or "gprof"))
    starts, names, aliases, dropped = gprof_names(args.exe, gp, no_statics)
    model, lines, costs = load_profile(args.cg)
    credit = CallCredit(args.exe, args.exact_gmon or args.gmon, starts,
                        [] if no_statics else cold_parts(args.exe))
    view = gprof_view(model, gp, starts, names, aliases, lines, credit, costs)
    cg = view.result(cycles=True)
    # (statics are folded by address: two of them may share a name)
    ex = exact_hist.compute(args.exe, args.exact_gmon or args.gmon, no_statics)
    for name, owner in () if no_statics else dropped.items():
        # (in address order from the top, so a run of them adds up)
        ex["functions"][owner] = ex["functions"].get(owner, 0) + \
            ex["functions"].pop(name, 0)
    hz = gp["hz"]
    ns_per_sample = 1e9 / hz
    failures = []

    def samples(ns):
        return ns / ns_per_sample

    def tolerance(gprof_s):
        return max(0.01 * abs(gprof_s) * hz, 1.0) + 0.5  # in samples

    funcs = cg["functions"]
    failures.extend(view.credit_failures)
    # The calls gprof credits elsewhere move time too: gprof propagates
    # each along its own arc, gmon2cg along the one from the call's owner.
    # Each carries at most its share of its callee's time (the larger of
    # the call line's cost and gprof's figure for it), and only to the
    # functions from which its two callers can be reached.
    shifted, parents, affected = 0.0, {}, set()
    ident = {k: f.ident for k, f in view.functions.items()}
    for a in gp["arcs"]:
        parents.setdefault(a["callee"], set()).add(a["caller"])
    for a in cg["arcs"]:
        parents.setdefault(a["callee"], set()).add(a["caller"])
    for gkey, okey, ckey, count, cost in view.moved:
        g, o, c = ident[gkey], ident[okey], ident[ckey]
        parents.setdefault(c, set()).add(o)
        share = 0.0
        for a in gp["arcs"]:
            if a["caller"] == g and a["callee"] == c and a["self_s"] is not None:
                share = (a["self_s"] + a["children_s"]) * hz * count / a["count"]
        shifted += max(samples(cost[0]), share)
        affected |= {g, o}
    todo = list(affected)
    while todo:
        for p in parents.get(todo.pop(), ()):
            if p not in affected:
                affected.add(p)
                todo.append(p)
    if view.moved:
        notes.append("%d calls on %d call lines are gprof's from other functions than "
                     "the ones owning their call sites (cold parts, bucket starts): "
                     "compared as gprof credits them; the inclusive times of the %d functions that reach "
                     "their callers within %.2f samples more"
                     % (sum(m[3] for m in view.moved), len(view.moved), len(affected),
                        shifted))
    # A cycle some of whose members a selection leaves out of the graph is
    # no cycle in the profile: its members shown are checked as gprof's
    # member lines, self + the calls leaving gprof's cycle.
    partial = {}
    for num, c in gp["cycles"].items():
        if any(m not in funcs for m in c["members"]) and any(m in funcs for m in c["members"]):
            for m in c["members"]:
                partial[m] = set(c["members"])
    # gprof's entries: with selections some functions are left out of its
    # graph (self_s None) and must not be in the profile either.
    shown = {name for name, g in gp["functions"].items() if g["self_s"] is not None}
    for name in sorted(set(funcs) - shown):
        if name not in PSEUDO:
            failures.append("%s: in the profile but not in gprof's call graph" % name)
    # Samples gprof's bin model moved, over all functions, and those of
    # cold parts, which gprof credits to the function below the part (its
    # propagation then carries them to that function's callers).
    moved = sum(abs(g["self_s"] * hz - ex["functions"].get(name, 0.0))
                for name, g in gp["functions"].items() if name in shown)
    moved += samples(view.cold_moved)
    if view.cold_moved:
        notes.append("%.2f samples in cold parts are gprof's in the function below each part"
                     % samples(view.cold_moved))
    scaled_moved = 0
    if any(a.startswith(("-E", "-F", "-N", "-n", "--time", "--no-time"))
           for a in gprof_args):
        # gprof -E/-F/-N/-n scale self times; the exact counts do not
        # apply, and what the bin model moved (measured without the
        # options: each share is at most 1) bounds every difference.
        moved = scaled_moved = moved_without_options(args.exe, args.gmon, ex["functions"])
        ex = {"functions": {}}

    for name, g in sorted(gp["functions"].items()):
        if name not in shown:
            continue
        ours = funcs.get(name)
        g_self = g["self_s"] * hz
        g_incl = (g["self_s"] + g["children_s"]) * hz
        if ours is None:
            # Not written: no calls and no samples.  Time gprof gives it
            # must be time its bin model moved here (checked below).
            if g["ncalls"] or g["self_calls"]:
                failures.append("%s: called in gprof's call graph but not in the profile" % name)
                continue
            ours = {"self": 0, "incl": 0}
        o_self = samples(ours["self"])
        exact = ex["functions"].get(name)
        # (a call line per site, each with a count of at least 1)
        markers = samples(1 + sum(a["count"] for a in cg["arcs"] if a["callee"] == name))
        if exact is not None and not -1e-6 * max(1, exact) <= o_self - exact <= \
                1e-6 * max(1, exact) + markers:
            failures.append("%s: self %.6f samples, but the histogram gives exactly %.6f"
                            % (name, o_self, exact))
        if abs(o_self - g_self) > tolerance(g["self_s"]) + scaled_moved:
            if exact is not None and abs(o_self - exact) <= 1e-6 * max(1, exact) + markers:
                notes.append("%s: self %.3f samples vs gprof %.2f: gprof's 2-byte bin "
                             "model moved samples; the exact count is %.3f"
                             % (name, o_self, g_self, exact))
            else:
                failures.append("%s: self %.3f samples, gprof %.2f" % (name, o_self, g_self))
        if name in partial:
            o_incl = samples(ours["self"] + sum(a["cost"] for a in cg["arcs"]
                                                if a["caller"] == name
                                                and a["callee"] not in partial[name]))
        else:
            o_incl = samples(ours["incl"])
        extra = moved + (shifted if name in affected else 0)
        if abs(o_incl - g_incl) > tolerance(g_incl / hz) + extra:
            failures.append("%s: inclusive %.3f samples, gprof %.2f (tolerance %.2f)"
                            % (name, o_incl, g_incl, tolerance(g_incl / hz) + extra))

    # Cycles as a whole, matched by their member sets.
    our_cycles = {frozenset(c["members"]): c for c in cg.get("cycle_costs", [])}
    for num, c in sorted(gp["cycles"].items()):
        mine = our_cycles.get(frozenset(c["members"]))
        if c["members"][0] in partial:
            notes.append("cycle %s: partly left out of the graph, checked by member" % num)
            continue
        if mine is None:
            failures.append("cycle %s %s: not a cycle in the profile" % (num, sorted(c["members"])))
            continue
        g_incl = (c["self_s"] + c["children_s"]) * hz
        members = sum((gp["functions"][m]["self_s"] + gp["functions"][m]["children_s"]) * hz
                      for m in c["members"] if gp["functions"][m]["self_s"] is not None)
        if gprof_args and abs(members - g_incl) > 0.5 * (len(c["members"]) + 1):
            # gprof's cycle line takes its self time at the cycle's
            # inherited share, 0 when only -F/-n give members time.
            notes.append("cycle %s: gprof's cycle line %.2f, its members %.2f: "
                         "checked against the members" % (num, g_incl, members))
            g_incl = members
        o_incl = samples(mine["incoming"])
        extra = moved + (shifted if affected & set(c["members"]) else 0)
        if abs(o_incl - g_incl) > tolerance(g_incl / hz) + extra:
            failures.append("cycle %s: inclusive %.3f samples, gprof %.2f" % (num, o_incl, g_incl))
        if not gprof_args and mine["called"] != c["ncalls"]:
            failures.append("cycle %s: called %d from outside, gprof %d"
                            % (num, mine["called"], c["ncalls"]))
    whole = [c for c in gp["cycles"].values() if c["members"][0] not in partial]
    if len(our_cycles) != len(whole):
        failures.append("%d cycles in the profile, %d in gprof" % (len(our_cycles), len(whole)))

    ours_arcs = {}
    for a in cg["arcs"]:
        if a["caller"] in PSEUDO:
            continue
        key = (a["caller"], a["callee"])
        ours_arcs[key] = ours_arcs.get(key, 0) + a["count"]
    gprof_arcs = {}
    for a in gp["arcs"]:
        if a["caller"] not in shown or a["callee"] not in shown:
            continue  # an arc of a function gprof leaves out of its graph
        key = (a["caller"], a["callee"])
        gprof_arcs[key] = gprof_arcs.get(key, 0) + a["count"]
    # gprof lists a self-recursive arc only in the "called" column.
    for name, g in gp["functions"].items():
        if name in shown and g["self_calls"]:
            gprof_arcs.setdefault((name, name), g["self_calls"])
    for key in sorted(set(ours_arcs) | set(gprof_arcs)):
        if ours_arcs.get(key) != gprof_arcs.get(key):
            failures.append("arc %s -> %s: %s calls, gprof %s"
                            % (key[0], key[1], ours_arcs.get(key), gprof_arcs.get(key)))

    for line in notes:
        print("note: " + line)
    for line in failures:
        print("FAIL: " + line)
    print("%s: %d functions, %d cycles, %d arcs compared with gprof; %d failed"
          % (label,
             len(gp["functions"]), len(gp["cycles"]), len(gprof_arcs), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
