#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Generate a large synthetic C program for -pg profiling benchmarks.

    gen-program.py --functions N --seed S --out DIR [--per-file 500]
                   [--calls N] [--cxx] [--uncalled U] [--hubs H]
                   [--cycle-share F]

writes DIR/main.c, DIR/bench.h, DIR/mNNN/<module>.c (about --per-file
functions each) and DIR/Makefile (`make -j2` builds DIR/prog with
gcc -pg -g -O2).  The output depends only on the arguments.

--cxx writes C++ instead (.cc files, g++ -pg -g -O2), the same call graph
with what large C++ programs have: long mangled names (every function in
a namespace per file, taking a reference to a nested template type) and
heavy inlining (each arithmetic step is a chain of always-inline helpers
and templates from inl.h, so most line-table rows and many call sites are
in inlined code of another file).

The call graph is a layered DAG rooted in main: every function has one
"primary" parent in the layer above (so every function is reached on every
repetition) and some have extra parents in any earlier layer.  On top of
that: ~3 % of the functions recurse directly (bounded by a depth argument),
~2 % sit in cycles of 2-4 functions (mutual recursion with a depth counter),
a handful of hot leaves are called from the inner loop of ~12 % of the
functions, and ~25 % of the functions are static, many of them with the same
name in different files (helper, lookup, ...) and the files themselves use
a few basenames in many directories (m000/util.c, m001/util.c, ...).

Every function does a little arithmetic: a third of them (all those that
call a hot leaf, the hot leaves, and a quarter of the rest) in a loop of a
few iterations, the others in 2-3 straight-line steps (GCC -O2 takes about
twice as long to compile a function with a loop, and compile time is most
of the benchmark's time).  The call structure is data-independent, so the
generator knows how many calls one repetition of main's loop makes; it
picks the number of repetitions so that a run makes about --calls calls
(default: 200 million up to 10 000 functions, then fewer, as calls get
slower with the program's size: a run takes 2-5 s with mcount), and
`prog REPS` overrides it (the many-runs benchmark uses `prog 1`).

With --uncalled U, U of the N functions are never called (cold code, in
files cold.c of their own directories): they are in the symbol and line
tables but make no arcs.  glibc's mcount keeps at most 2^20 arcs, so a
program whose every function runs stops at about 650 000 functions; one
of 1 000 000 functions needs about 400 000 uncalled.

With --hubs H, every function but those of the last layer also calls one
or two of H hub functions of that layer (the first hubs far more often:
thousands of callers each, as a logger or an allocator has).
--cycle-share F (default 0.02) is the share of functions in cycles.
bench/build.sh --hubs makes the program of another shape that bench/ also
measures: 200 hubs, 5 % of the functions in cycles, -O1.

Calls are never in tail position (every function stores into a global
after its calls), functions are noinline/noclone, and constants differ per
function, so GCC keeps one symbol per generated function and the profile's
arcs are the generated call sites.
"""

import argparse
import os
import random
import sys

MODULES = ["util", "core", "io", "parse", "hash", "list", "alloc", "cfg"]
VERBS = ["get", "set", "find", "make", "walk", "read", "write", "scan",
         "load", "store", "check", "build", "merge", "split", "sort", "emit"]
NOUNS = ["node", "entry", "item", "table", "buffer", "token", "record",
         "block", "page", "key", "value", "slot", "frame", "state", "ctx"]
# Names that static functions reuse in many files.
STATIC_POOL = ["helper", "lookup", "check", "update", "visit", "compare",
               "init_entry", "free_entry", "hash_key", "validate", "emit",
               "flush", "scan", "parse_token", "next_item", "reset",
               "cleanup", "process", "apply", "merge_two", "grow", "shrink",
               "find_slot", "insert", "remove_one", "copy_out", "fill",
               "step", "advance", "finish"]

REC_DEPTH = 3          # direct recursion: callers pass depth 3 -> 4 frames
HOT_LEAVES = 8


class Fn:
    __slots__ = ("idx", "layer", "name", "static", "file", "kind",
                 "children", "parents", "cycle", "cyc_pos", "hot",
                 "loop", "iters", "consts", "entries", "execs")

    def __init__(self, idx, layer):
        self.idx = idx
        self.layer = layer
        self.name = None
        self.static = False
        self.file = None
        self.kind = "plain"      # plain | rec | cyc | hot
        self.children = []       # callee indices (DAG calls)
        self.parents = []
        self.cycle = None        # list of member indices
        self.cyc_pos = 0
        self.hot = None          # index of the hot leaf called in the loop
        self.loop = False
        self.iters = 0
        self.consts = ()
        self.entries = 0
        self.execs = 0


def layer_sizes(n, rnd):
    """Sizes of the DAG layers: a few roots, growing about 2.4x a layer."""
    roots = max(4, min(16, n // 500))
    sizes = [roots]
    total = roots
    while total < n:
        nxt = max(1, int(sizes[-1] * 2.4))
        if total + nxt > n or (n - total - nxt) < nxt // 3:
            nxt = n - total
        sizes.append(nxt)
        total += nxt
    return sizes


def cycle_calls(length, depth):
    """How many times each member runs when the cycle is entered at
    member 0 with depth `depth` (one frame per depth step)."""
    counts = [0] * length
    for k in range(depth + 1):
        counts[k % length] += 1
    return counts


def build(n, seed, per_file, hubs=0, cycle_share=0.02):
    rnd = random.Random(seed)
    sizes = layer_sizes(n - HOT_LEAVES, rnd)
    fns = []
    layers = []
    for li, sz in enumerate(sizes):
        layer = []
        for _ in range(sz):
            f = Fn(len(fns), li)
            fns.append(f)
            layer.append(f.idx)
        layers.append(layer)
    hot = []
    for _ in range(HOT_LEAVES):
        f = Fn(len(fns), len(sizes))
        f.kind = "hot"
        fns.append(f)
        hot.append(f.idx)

    # Primary parents: spread each layer's nodes evenly over the layer
    # above (contiguous runs, so a subtree stays together in DFS order).
    for li in range(1, len(layers)):
        above, here = layers[li - 1], layers[li]
        for k, c in enumerate(here):
            p = above[k * len(above) // len(here)]
            fns[p].children.append(c)
            fns[c].parents.append(p)

    # Extra parents (fan-in): ~30 % of nodes get one more caller from an
    # earlier layer, ~5 % a second one.
    for li in range(1, len(layers)):
        for c in layers[li]:
            extra = 0
            r = rnd.random()
            if r < 0.05:
                extra = 2
            elif r < 0.35:
                extra = 1
            for _ in range(extra):
                pl = rnd.randrange(max(0, li - 3), li)
                p = rnd.choice(layers[pl])
                if p not in fns[c].parents:
                    fns[p].children.append(c)
                    fns[c].parents.append(p)

    # Hubs: functions of the last layer that most others call too (a
    # logger, an allocator): every function above calls one or two of
    # them, the first hubs far more often than the last.
    hub_ids = layers[-1][::max(1, len(layers[-1]) // hubs)][:hubs] if hubs else []
    for li in range(len(layers) - 1) if hubs else ():
        for c in layers[li]:
            for _ in range(rnd.randint(1, 2)):
                h = hub_ids[int(len(hub_ids) * rnd.random() ** 3)]
                if h not in fns[c].children:
                    fns[c].children.append(h)
                    fns[h].parents.append(c)

    # File assignment: DFS order over primary children, cut into chunks.
    order = []
    seen = bytearray(len(fns))
    stack = list(reversed(layers[0]))
    while stack:
        i = stack.pop()
        if seen[i]:
            continue
        seen[i] = 1
        order.append(i)
        prim = [c for c in fns[i].children if fns[c].parents[0] == i]
        stack.extend(reversed(prim))
    nfiles = max(1, (len(order) + per_file - 1) // per_file)
    files = []
    for k in range(nfiles):
        files.append("m%03d/%s.c" % (k // len(MODULES), MODULES[k % len(MODULES)]))
    chunk = (len(order) + nfiles - 1) // nfiles
    for pos, i in enumerate(order):
        fns[i].file = pos // chunk
    hot_file = len(files)
    files.append("hot.c")
    for h in hot:
        fns[h].file = hot_file

    # Direct recursion and cycles (not in layer 0, not hot leaves).
    cand = [i for li in range(1, len(layers)) for i in layers[li]]
    for i in cand:
        if rnd.random() < 0.03:
            fns[i].kind = "rec"
    for li in range(1, len(layers)):
        layer = [i for i in layers[li] if fns[i].kind == "plain"]
        k = 0
        while k < len(layer):
            if rnd.random() < cycle_share / 3:
                length = rnd.randint(2, 4)
                members = layer[k:k + length]
                if len(members) == length:
                    for pos, m in enumerate(members):
                        fns[m].kind = "cyc"
                        fns[m].cycle = members
                        fns[m].cyc_pos = pos
                    k += length
                    continue
            k += 1

    # Hot leaf calls from inner loops.
    for f in fns:
        if f.kind != "hot" and rnd.random() < 0.12:
            f.hot = rnd.choice(hot)

    # Static or global: static only if every caller is in the same file.
    for f in fns:
        if f.kind == "hot" or f.layer == 0 or f.kind == "cyc":
            continue
        if all(fns[p].file == f.file for p in f.parents) and rnd.random() < 0.25:
            f.static = True

    # Names.
    pool_used = [0] * len(files)
    for f in fns:
        if f.kind == "hot":
            f.name = "hot_%s_%d" % (rnd.choice(NOUNS), f.idx - hot[0])
        elif f.static and pool_used[f.file] < len(STATIC_POOL):
            f.name = STATIC_POOL[pool_used[f.file]]
            pool_used[f.file] += 1
        else:
            mod = MODULES[f.file % len(MODULES)] if f.file < len(files) - 1 else "hot"
            f.name = "%s_%s_%s_%d" % (mod, rnd.choice(VERBS), rnd.choice(NOUNS), f.idx)
            if f.kind == "rec":
                f.name += "_r"
            elif f.kind == "cyc":
                f.name += "_c"

    for f in fns:
        f.loop = f.kind == "hot" or f.hot is not None or rnd.random() < 0.25
        if f.kind == "hot":
            f.iters = rnd.randint(6, 10)
        elif f.loop:
            f.iters = rnd.randint(2, 5)
        else:
            f.iters = rnd.randint(2, 3)
        f.consts = (rnd.getrandbits(32) | 1, rnd.getrandbits(32) | 1,
                    rnd.randint(3, 17), rnd.getrandbits(16))

    # Calls per repetition, layer by layer (edges only go to later layers;
    # cycle and recursion edges stay inside one node or one layer).
    for i in layers[0]:
        fns[i].entries = 1
    for li, layer in enumerate(layers):
        for i in layer:
            f = fns[i]
            if f.kind == "rec":
                f.execs += f.entries * (REC_DEPTH + 1)
            elif f.kind == "cyc":
                depth = cyc_depth(f)
                counts = cycle_calls(len(f.cycle), depth)
                for pos, m in enumerate(f.cycle):
                    rel = (pos - f.cyc_pos) % len(f.cycle)
                    fns[m].execs += f.entries * counts[rel]
            else:
                f.execs += f.entries
        for i in layer:
            f = fns[i]
            for c in f.children:
                fns[c].entries += f.execs
            if f.hot is not None:
                fns[f.hot].entries += f.execs * f.iters
    for h in hot:
        fns[h].execs = fns[h].entries
    return fns, files, layers, hot


def add_uncalled(fns, files, count, seed, per_file):
    """Appends COUNT plain functions that nothing calls, in files of their
    own (global, so that the linker keeps them)."""
    rnd = random.Random(seed + 1)
    first_file = len(files)
    for k in range((count + per_file - 1) // per_file):
        files.append("c%03d/cold.c" % k)
    for k in range(count):
        f = Fn(len(fns), -1)
        f.file = first_file + k // per_file
        f.name = "cold_%s_%s_%d" % (rnd.choice(VERBS), rnd.choice(NOUNS), f.idx)
        f.loop = rnd.random() < 0.25
        f.iters = rnd.randint(2, 5) if f.loop else rnd.randint(2, 3)
        f.consts = (rnd.getrandbits(32) | 1, rnd.getrandbits(32) | 1,
                    rnd.randint(3, 17), rnd.getrandbits(16))
        fns.append(f)


def cyc_depth(f):
    return 2 * len(f.cycle) - 1


# C or C++ (--cxx): how declarations, calls and steps are spelled.
CXX = False
CXX_KEY = "const bench::Key &k"


def namespace(f):
    """The C++ namespace of F's file: bench::ns<file number>."""
    return "bench::ns%d" % f.file


def qualified(f):
    return "%s::%s" % (namespace(f), f.name) if CXX else f.name


def proto(f, name=None):
    params = "unsigned x, int d" if f.kind in ("rec", "cyc") else "unsigned x"
    if CXX:
        params += ", " + CXX_KEY
    return "unsigned %s(%s)" % (name or f.name, params)


def call_expr(f, arg, caller=None):
    name = f.name if caller is not None and caller.file == f.file else qualified(f)
    extra = ", k" if CXX else ""
    if caller is None and CXX:
        extra = ", bench::key"
    if f.kind == "rec":
        return "%s(%s, %d%s)" % (name, arg, REC_DEPTH, extra)
    if f.kind == "cyc":
        return "%s(%s, %d%s)" % (name, arg, cyc_depth(f), extra)
    return "%s(%s%s)" % (name, arg, extra)


def step(acc, c1, sh, add):
    """One arithmetic step; in C++ a chain of inlined helpers."""
    if CXX:
        return "bench::inl::step<%d>(%s, 0x%xu, k) + %s" % (sh, acc, c1, add)
    return "%s * 0x%xu + (%s >> %d) + %s" % (acc, c1, acc, sh, add)


def body(f, fns):
    c1, c2, sh, c3 = f.consts
    out = []
    if f.static:
        out.append("static NOINL " + proto(f))
    else:
        out.append("NOINL " + proto(f))
    out.append("{")
    out.append("\tunsigned acc = x ^ 0x%xu;" % c3)
    if f.loop:
        out.append("\tfor (int i = 0; i < %d; i++) {" % f.iters)
        out.append("\t\tacc = %s;" % step("acc", c1, sh, "(unsigned)i"))
        if f.hot is not None:
            out.append("\t\tacc ^= %s;" % call_expr(fns[f.hot], "acc", f))
        out.append("\t}")
    else:
        for i in range(f.iters):
            out.append("\tacc = %s;" % step("acc", c1, sh + i, "%du" % i))
    ops = ["+=", "^=", "-="]
    for k, c in enumerate(f.children):
        arg = "acc" if k == 0 else "acc + %du" % (k * 7 + 1)
        out.append("\tacc %s %s;" % (ops[k % 3], call_expr(fns[c], arg, f)))
    if f.kind == "rec":
        out.append("\tif (d > 0)")
        out.append("\t\tacc ^= %s;" % call_expr(f, "acc * 0x%xu" % c2, f).replace(", %d" % REC_DEPTH, ", d - 1", 1))
    elif f.kind == "cyc":
        nxt = fns[f.cycle[(f.cyc_pos + 1) % len(f.cycle)]]
        out.append("\tif (d > 0)")
        out.append("\t\tacc ^= %s;" % call_expr(nxt, "acc * 0x%xu" % c2, f).replace(", %d" % cyc_depth(nxt), ", d - 1", 1))
    out.append("\tbench_sink += acc;")
    out.append("\treturn acc * 0x%xu;" % c2)
    out.append("}")
    return "\n".join(out)


HEADER = """\
/* Generated by bench/gen-program.py; do not edit. */
#ifndef BENCH_H
#define BENCH_H
#define NOINL __attribute__((noinline, noclone))
extern unsigned bench_sink;
#endif
"""

CXX_HEADER = """\
// Generated by bench/gen-program.py; do not edit.
#ifndef BENCH_H
#define BENCH_H
#define NOINL __attribute__((noinline, noclone))
extern unsigned bench_sink;
namespace bench {
template <typename T, int N> struct Ring { T v[N]; };
typedef Ring<Ring<unsigned, 2>, 3> Key;
extern const Key key;
}
#include "inl.h"
#endif
"""

# Helpers every step inlines: three levels, one of them a template.
CXX_INLINE = """\
// Generated by bench/gen-program.py; do not edit.
#ifndef BENCH_INL_H
#define BENCH_INL_H
#define ALWAYS __attribute__((always_inline)) inline
namespace bench {
namespace inl {
ALWAYS unsigned rotate(unsigned a, int by)
{
	return (a << (by & 31)) | (a >> ((32 - by) & 31));
}

ALWAYS unsigned mix(unsigned a, unsigned c, const Key &k)
{
	unsigned t = a * c;

	t ^= rotate(t, (int)(k.v[0].v[0] & 7) + 3);
	return t + k.v[1].v[1];
}

template <int SHIFT> ALWAYS unsigned step(unsigned a, unsigned c, const Key &k)
{
	unsigned m = mix(a, c, k);

	return m + (a >> SHIFT) + rotate(m, SHIFT);
}
}
}
#endif
"""


def write_if_changed(path, text):
    try:
        with open(path) as fh:
            if fh.read() == text:
                return
    except FileNotFoundError:
        pass
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w") as fh:
        fh.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--functions", type=int, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    ap.add_argument("--per-file", type=int, default=500)
    ap.add_argument("--calls", type=int, default=None,
                    help="target number of calls in a default run")
    ap.add_argument("--cxx", action="store_true",
                    help="C++ with long names and heavy inlining")
    ap.add_argument("--uncalled", type=int, default=0,
                    help="how many of the functions nothing calls")
    ap.add_argument("--hubs", type=int, default=0,
                    help="how many functions of the last layer every other calls")
    ap.add_argument("--cycle-share", type=float, default=0.02,
                    help="the share of functions in cycles of 2-4 (about)")
    a = ap.parse_args()
    global CXX
    CXX = a.cxx
    if a.functions - a.uncalled < 100 or a.uncalled < 0:
        ap.error("--functions must be at least 100 more than --uncalled")

    fns, files, layers, hot = build(a.functions - a.uncalled, a.seed, a.per_file,
                                    a.hubs, a.cycle_share)
    add_uncalled(fns, files, a.uncalled, a.seed, a.per_file)
    per_rep = sum(f.execs for f in fns)
    calls = a.calls
    if calls is None:
        calls = int(200e6 * min(1.0, (10000 / a.functions) ** 0.6))
    reps = max(1, round(calls / per_rep))

    ext_c = ".cc" if CXX else ".c"
    comment = "// Generated by bench/gen-program.py; do not edit." if CXX else \
        "/* Generated by bench/gen-program.py; do not edit. */"
    srcs = ["main" + ext_c] + [p[:-2] + ext_c for p in files]
    by_file = [[] for _ in files]
    for f in fns:
        by_file[f.file].append(f)
    for k, path in enumerate(srcs[1:]):
        mine = by_file[k]
        ext = {}
        for f in mine:
            callees = f.children + ([f.hot] if f.hot is not None else [])
            if f.kind == "cyc":
                callees = callees + [f.cycle[(f.cyc_pos + 1) % len(f.cycle)]]
            for c in callees:
                g = fns[c]
                if g.file != k:
                    ext[g.idx] = g
        depth = path.count("/")
        lines = [comment, '#include "%sbench.h"' % ("../" * depth), ""]
        for g in sorted(ext.values(), key=lambda g: g.idx):
            if CXX:
                lines.append("namespace %s { %s; }" % (namespace(g).replace("::", " { namespace ").replace("bench {", "bench {", 1), proto(g)) + " }")
            else:
                lines.append("extern %s;" % proto(g))
        if CXX:
            lines.append("namespace %s {" % namespace(mine[0]).replace("::", " { namespace "))
        for f in mine:
            lines.append(("static " if f.static else "") + proto(f) + ";")
        lines.append("")
        for f in mine:
            lines.append(body(f, fns))
            lines.append("")
        if CXX:
            lines.append("}\n}")
        write_if_changed(os.path.join(a.out, path), "\n".join(lines))

    roots = [fns[i] for i in layers[0]]
    m = [comment, "#include <stdio.h>", "#include <stdlib.h>", '#include "bench.h"',
         "", "unsigned bench_sink;"]
    if CXX:
        m.append("const bench::Key bench::key = { { { { 3, 5 } }, { { 7, 11 } }, { { 13, 17 } } } };")
    m.append("")
    for r in roots:
        if CXX:
            m.append("namespace %s { %s; }" % (namespace(r).replace("::", " { namespace "), proto(r)) + " }")
        else:
            m.append("extern %s;" % proto(r))
    m += ["", "int main(int argc, char **argv)", "{",
          "\tlong reps = argc > 1 ? atol(argv[1]) : %dL;" % reps,
          "\tunsigned acc = 1;", "",
          "\tfor (long r = 0; r < reps; r++) {"]
    for k, r in enumerate(roots):
        m.append("\t\tacc += %s;" % call_expr(r, "acc ^ (unsigned)r" if k == 0 else "acc + %du" % k))
    m += ["\t}", '\tprintf("%u\\n", acc ^ bench_sink);', "\treturn 0;", "}", ""]
    write_if_changed(os.path.join(a.out, srcs[0]), "\n".join(m))
    write_if_changed(os.path.join(a.out, "bench.h"), CXX_HEADER if CXX else HEADER)
    if CXX:
        write_if_changed(os.path.join(a.out, "inl.h"), CXX_INLINE)

    cc = "g++" if CXX else "gcc"
    mk = ["# Generated by bench/gen-program.py; do not edit.",
          "CC = " + cc, "CFLAGS = -pg -g -O2", "",
          "SRCS = " + " \\\n\t".join(srcs),
          "OBJS = $(SRCS:%s=.o)" % ext_c, "",
          "prog: $(OBJS)",
          "\t$(CC) $(CFLAGS) -o $@ $(OBJS)", "",
          "%%.o: %%%s bench.h%s" % (ext_c, " inl.h" if CXX else ""),
          "\t$(CC) $(CFLAGS) -c -o $@ $<", "",
          "clean:", "\trm -f prog $(OBJS) gmon.out", "",
          ".PHONY: clean", ""]
    write_if_changed(os.path.join(a.out, "Makefile"), "\n".join(mk))

    nstatic = sum(f.static for f in fns)
    ncyc = len({tuple(f.cycle) for f in fns if f.cycle})
    info = {
        "functions": len(fns), "uncalled": a.uncalled, "seed": a.seed,
        "hubs": a.hubs,
        "cxx": int(CXX), "files": len(files),
        "layers": len(layers), "static": nstatic,
        "recursive": sum(f.kind == "rec" for f in fns), "cycles": ncyc,
        "hot_leaves": len(hot),
        "call_sites": sum(len(f.children) + (f.hot is not None)
                          + (f.kind in ("rec", "cyc")) for f in fns) + len(roots),
        "calls_per_rep": per_rep, "default_reps": reps,
        "calls_default_run": per_rep * reps,
    }
    text = "".join("%s=%s\n" % kv for kv in info.items())
    write_if_changed(os.path.join(a.out, "GEN-INFO"), text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
