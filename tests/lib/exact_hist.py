#!/usr/bin/env python3
"""Exact per-function sample counts from a GNU gmon.out histogram.

Test oracle for gmon2cg (standard library only), independent of gprof's
2-byte bin model.  Reads a GNU tagged gmon.out (version 1; version 0 files
are accepted as long as they hold no basic-block records) in the byte order
and address size of the executable (ELF e_ident[EI_CLASS] and
e_ident[EI_DATA]).

For every histogram record (low_pc, high_pc, nbins, rate) the glibc profil
mapping is inverted: with textsize = high_pc - low_pc,
  scale = (int)(((float)(nbins * 2) / textsize) * 65536)
computed in IEEE single precision (65536 if nbins * 2 >= textsize), and a
pc is counted in bin ((pc - low_pc) // 2) * scale // 65536, so bin i covers
the pcs [low_pc + 2*ceil(i*65536/scale), low_pc + 2*ceil((i+1)*65536/scale)).

Functions come from `nm -n --defined-only EXE`: symbols of class T, t and W,
where t (static) symbols follow gprof's intended name rule (no '$', not
starting with __gnu_compiled / ___gnu_compiled, every '.' followed by
digits, optionally after "clone." or "constprop.").  At equal addresses one
symbol is kept with gprof's preference (global over static, function
(ELF STT_FUNC, from `readelf -sW`) over other, then the underscore rule of
symtab_finalize).  Each function covers [its address, the next kept
symbol's address); the last one ends at the end of .text (`objdump -h`).
Its body is [its address, address + size) where `nm -S` gives a size
(the largest of the names kept at that address) that ends before the
next symbol; the rest is padding, which never runs.  A sampled pc is the
start of an instruction: a bin's count is split evenly over the
instruction starts (addresses `objdump -d` prints) that lie in the bin
and in some function's body.  Where no instruction starts there, the
bodies overlapping the bin share the count by their bytes in it; a bin
overlapping no body gives its count to "<no symbol>".  Code that never ran
takes no share where code that may have run is in the bin: where the
gmon.out has call arcs, the code of a function symbol (any T, t or W
symbol, up to the next one) that no arc's callee address lies in, that
no arc's call-site bucket (from_pc and the 2 * pointer size bytes after
it) overlaps, that holds no part of a body that is the only body in a
bin with samples, and whose first call that is not to another function
is objdump's call of an mcount entry (the family below, .mcount,
__fentry__, __gnu_mcount_nc, or their PLT entries) never ran, as mcount
records every call of such a function from the profiled code.
The mcount family (mcount, _mcount, __mcount, __mcount_internal,
_gprof_mcount, __mcleanup) is removed from the results and from the
total, as gprof does, and so are its PLT entries (objdump's NAME@plt, up
to the next label), which gprof credits to _init.  Names are demangled like gprof's
bfd_demangle (c++filt on the name without its '@...' suffix).

Usage: exact_hist.py EXE GMON... [--json] [--all]

Output: a table of functions with samples (3 decimals) and the total.
--json: {"hz", "total", "functions": {NAME: samples}, "raw_total",
"excluded", "records": [{"low_pc", "high_pc", "nbins", "rate", "scale",
"samples"}], "duplicate_names"}.  Without --all, functions with 0 samples
are left out of the table (JSON always lists every kept function).
Functions sharing a (demangled) name are summed under that name and
listed in duplicate_names.

Importable: compute(exe, gmons) -> the JSON dict.
"""

import argparse
import bisect
import json
import os
import re
import struct
import subprocess
import sys

__all__ = ["HistError", "compute"]

MCOUNT_FAMILY = frozenset(["mcount", "_mcount", "__mcount",
                           "__mcount_internal", "_gprof_mcount",
                           "__mcleanup"])
NO_SYMBOL = "<no symbol>"
MCOUNT_ENTRIES = MCOUNT_FAMILY | {".mcount", "__fentry__", "__gnu_mcount_nc"}
_INSN = re.compile(r"^ *([0-9a-f]+):\t")
_LABEL = re.compile(r"^([0-9a-f]+) <([^>]+)>:$")
# call mnemonics objdump prints on our targets, and a named target
_CALLS = frozenset(["call", "callq", "calll", "bl", "blx", "blr", "bla",
                    "bctrl", "blrl", "jal", "jalr", "jalx", "bal", "bsr",
                    "jsr", "brasl", "bras", "basr"])
_TARGET = re.compile(r"<([^<>+]+)(?:\+0x[0-9a-f]+)?>\s*$")
_STATIC_OK = re.compile(r"^[^.]*(?:\.(?:clone\.|constprop\.)?[0-9]+)*$")


class HistError(Exception):
    pass


def f32(x):
    """Round a Python float to IEEE single precision."""
    return struct.unpack("f", struct.pack("f", x))[0]


def profil_scale(nbins, textsize):
    """glibc: s_scale = ((float)kcountsize / textsize) * SCALE_1_TO_1."""
    kcountsize = nbins * 2
    if kcountsize >= textsize:
        return 65536
    q = f32(f32(float(kcountsize)) / f32(float(textsize)))
    return int(f32(q * 65536.0))


def bin_bounds(low_pc, scale, i):
    """pc range [lo, hi) that profil counts in bin i."""
    lo = low_pc + 2 * (-(-(i * 65536) // scale))
    hi = low_pc + 2 * (-(-((i + 1) * 65536) // scale))
    return lo, hi


def _run(cmd):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           env={"LC_ALL": "C", "PATH": _path()})
    except OSError as e:
        raise HistError("cannot run %s: %s" % (cmd[0], e.strerror))
    if p.returncode != 0:
        err = p.stderr.decode("utf-8", "replace").strip().splitlines()
        raise HistError("%s failed: %s" % (" ".join(cmd),
                                           err[0] if err else p.returncode))
    return p.stdout.decode("utf-8", "surrogateescape")


def nm(exe, *opts):
    """nm's defined symbols of EXE, with OPTS.  64-bit PowerPC's ELFv1
    code entries (".main", from the function descriptors in .opd) are
    synthetic symbols: gprof reads them, and so does gmon2cg."""
    synthetic = ["--synthetic"] if ".opd " in _run(["objdump", "-h", exe]) else []
    return _run(["nm", *opts, "--defined-only", *synthetic, exe])


def _path():
    return os.environ.get("PATH", "/usr/bin:/bin")


def elf_layout(exe):
    """Returns (pointer size, struct byte-order char) from the ELF header."""
    try:
        with open(exe, "rb") as fh:
            ident = fh.read(16)
    except OSError as e:
        raise HistError("cannot read %s: %s" % (exe, e.strerror))
    if len(ident) < 16 or ident[:4] != b"\x7fELF":
        raise HistError("%s is not an ELF file" % exe)
    if ident[4] not in (1, 2):
        raise HistError("%s: bad ELF class %d" % (exe, ident[4]))
    if ident[5] not in (1, 2):
        raise HistError("%s: bad ELF data encoding %d" % (exe, ident[5]))
    return (4 if ident[4] == 1 else 8), ("<" if ident[5] == 1 else ">")


def read_gmon(path, psize, bo, callees=None, callers=None, arcs=None):
    """Returns the list of histogram records of a GNU tagged gmon.out, and
    appends the callee address of each arc that counted calls to CALLEES,
    its from_pc to CALLERS and (from_pc, self_pc, count) to ARCS."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as e:
        raise HistError("cannot read %s: %s" % (path, e.strerror))
    if len(data) < 20 or data[:4] != b"gmon":
        raise HistError("%s: not a GNU tagged gmon.out (no 'gmon' cookie; "
                        "BSD formats are not supported)" % path)
    version = struct.unpack(bo + "I", data[4:8])[0]
    if version not in (0, 1):
        raise HistError("%s: unsupported gmon.out version %d"
                        % (path, version))
    vma = bo + ("I" if psize == 4 else "Q")
    pos = 20
    recs = []
    n = len(data)

    def need(k, what):
        if pos + k > n:
            raise HistError("%s: truncated %s record at offset %d"
                            % (path, what, pos - 1))

    while pos < n:
        tag = data[pos]
        pos += 1
        if tag == 0:
            need(2 * psize + 24, "histogram")
            low, high = struct.unpack(vma + vma[1], data[pos:pos + 2 * psize])
            pos += 2 * psize
            nbins, rate = struct.unpack(bo + "II", data[pos:pos + 8])
            pos += 8
            dimen = data[pos:pos + 15].split(b"\0")[0].decode("latin-1")
            abbrev = data[pos + 15:pos + 16].decode("latin-1")
            pos += 16
            need(2 * nbins, "histogram")
            bins = struct.unpack(bo + "%dH" % nbins, data[pos:pos + 2 * nbins])
            pos += 2 * nbins
            if high < low:
                raise HistError("%s: histogram high_pc < low_pc" % path)
            recs.append({"low_pc": low, "high_pc": high, "nbins": nbins,
                         "rate": rate, "dimen": dimen, "abbrev": abbrev,
                         "bins": bins})
        elif tag == 1:
            need(2 * psize + 4, "call-graph arc")
            _from, self_pc, count = struct.unpack(vma + vma[1] + "I",
                                                  data[pos:pos + 2 * psize + 4])
            if count and callees is not None:
                callees.append(self_pc)
            if count and callers is not None:
                callers.append(_from)
            if count and arcs is not None:
                arcs.append((_from, self_pc, count))
            pos += 2 * psize + 4
        elif tag == 2:
            if version == 0:
                raise HistError("%s: version 0 basic-block records are not "
                                "supported" % path)
            need(4, "basic-block")
            cnt = struct.unpack(bo + "I", data[pos:pos + 4])[0]
            pos += 4
            need(cnt * 2 * psize, "basic-block")
            pos += cnt * 2 * psize
        else:
            raise HistError("%s: bad record tag %d at offset %d"
                            % (path, tag, pos - 1))
    return recs


def _static_name_ok(name):
    if not name or "$" in name:
        return False
    if name.startswith("__gnu_compiled") or name.startswith("___gnu_compiled"):
        return False
    return bool(_STATIC_OK.match(name))


def demangle(names):
    """bfd_demangle-like: demangle without the '@' suffix, via c++filt -i
    (no verbose: "std::istream", not "std::basic_istream<char, ...>", as
    gprof, nm -C and gmon2cg write it)."""
    parts = []
    for nm in names:
        at = nm.find("@")
        base, suffix = (nm, "") if at < 0 else (nm[:at], nm[at:])
        k = 0
        while k < len(base) and base[k] in ".$":
            k += 1
        parts.append((base[:k], base[k:], suffix))
    todo = [p[1] for p in parts if p[1]]
    out = {}
    if todo:
        try:
            p = subprocess.run(["c++filt", "-i"], input="\n".join(todo) + "\n",
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True)
        except OSError as e:
            raise HistError("cannot run c++filt: %s" % e.strerror)
        res = p.stdout.split("\n")
        if p.returncode != 0 or len(res) < len(todo):
            raise HistError("c++filt failed")
        out = dict(zip(todo, res))
    return [pre + out.get(base, base) + suf for pre, base, suf in parts]


def symbols(exe):
    """Kept function symbols: list of (addr, raw name, size), sorted,
    deduped (size 0: none given)."""
    funcs = set()
    # each name's place in the symbol table: among equally good names at
    # one address gprof keeps the first (its sort keeps their order)
    places = {}
    for line in _run(["readelf", "-sW", exe]).splitlines():
        f = line.split()
        if len(f) >= 8 and f[0].endswith(":"):
            try:
                key = (int(f[1], 16), f[7].split("@")[0])
            except ValueError:
                continue
            places.setdefault(key, len(places))
            if f[3] == "FUNC":
                funcs.add(key)
    syms = []
    sizes = {}
    dropped = []
    for order, line in enumerate(nm(exe, "-n", "-S").splitlines()):
        f = line.split(" ", 3)
        if len(f) == 4 and len(f[2]) == 1:
            size, f = int(f[1], 16), [f[0], f[2], f[3]]
        else:
            size, f = 0, line.split(" ", 2)
        if len(f) != 3 or len(f[1]) != 1:
            continue
        cls, name = f[1], f[2]
        if cls not in ("T", "t", "W"):
            continue
        try:
            addr = int(f[0], 16)
        except ValueError:
            continue
        if not name:
            continue
        is_static = cls == "t"
        if is_static and not _static_name_ok(name):
            # a clone gprof does not keep (f.part.0): its code is the
            # body of the kept symbol below it, whose time gprof credits
            dropped.append((addr, size))
            continue
        is_func = (addr, name.split("@")[0]) in funcs
        sizes[addr] = max(sizes.get(addr, 0), size)
        place = places.get((addr, name.split("@")[0]), len(places) + order)
        syms.append((addr, not is_func, is_static, place, name, is_func))
    syms.sort()
    kept = []
    for addr, _nf, is_static, _o, name, is_func in syms:
        if kept and kept[-1][0] == addr:
            k_static, k_func, k_name = kept[-1][1], kept[-1][2], kept[-1][3]
            n1 = name[1] if len(name) > 1 else ""
            kn0 = k_name[0]
            kn1 = k_name[1] if len(k_name) > 1 else ""
            if (not is_static and k_static) or (
                    is_static == k_static and (
                        (is_func and not k_func) or (
                            is_func == k_func and (
                                (name[0] != "_" and kn0 == "_") or
                                (n1 != "_" and kn1 == "_"))))):
                kept[-1] = (addr, is_static, is_func, name)
            continue
        kept.append((addr, is_static, is_func, name))
    if not kept:
        raise HistError("%s: no function symbols" % exe)
    starts = [a for a, _s, _f, _n in kept]
    for addr, size in dropped:
        i = bisect.bisect_right(starts, addr) - 1
        if i >= 0 and size and sizes.get(starts[i], 0):
            sizes[starts[i]] = max(sizes[starts[i]], addr + size - starts[i])
    return [(a, n, sizes.get(a, 0)) for a, _s, _f, n in kept]


def text_end(exe):
    for line in _run(["objdump", "-h", exe]).splitlines():
        f = line.split()
        if len(f) >= 4 and f[1] == ".text":
            return int(f[3], 16) + int(f[2], 16)
    raise HistError("%s: no .text section in objdump -h output" % exe)


def function_symbols(exe):
    """Sorted distinct addresses and the names of every T, t and W symbol."""
    addrs, names = set(), set()
    for line in nm(exe, "-n").splitlines():
        f = line.split(" ", 2)
        if len(f) == 3 and f[1] in ("T", "t", "W"):
            try:
                addrs.add(int(f[0], 16))
            except ValueError:
                continue
            names.add(f[2].split("@")[0])
    return sorted(addrs), names


def instructions(exe, func_names):
    """Sorted addresses of the instructions `objdump -d` prints;
    {address: whether it is a call of an mcount entry} for each call not
    to another function (objdump names no function symbol as its target,
    or an mcount entry); and the sorted [start, end) of the mcount
    family's PLT entries (objdump's NAME@plt, each to the next label)."""
    starts, calls, labels, plt = [], {}, [], set()
    for line in _run(["objdump", "-d", "--no-show-raw-insn",
                      exe]).splitlines():
        m = _INSN.match(line)
        if not m:
            label = _LABEL.match(line)
            if label:
                labels.append(int(label.group(1), 16))
                if label.group(2).endswith("@plt") and \
                        label.group(2)[:-4] in MCOUNT_FAMILY:
                    plt.add(labels[-1])
            continue
        addr = int(m.group(1), 16)
        starts.append(addr)
        words = line[m.end():].split()
        if not words or words[0] not in _CALLS:
            continue
        target = _TARGET.search(line)
        if not target:
            calls[addr] = False
        elif target.group(1).endswith("@plt"):      # a function of its own
            if target.group(1)[:-4] in MCOUNT_ENTRIES:
                calls[addr] = True
        else:
            name = target.group(1).split("@")[0]
            if name in MCOUNT_ENTRIES or name not in func_names:
                calls[addr] = name in MCOUNT_ENTRIES
    labels = sorted(set(labels))
    mcount_plt = [(a, labels[k + 1] if k + 1 < len(labels) else a + 1)
                  for k, a in enumerate(labels) if a in plt]
    return sorted(set(starts)), calls, mcount_plt


def split_mcount_plt(pieces, mcount_plt):
    """PIECES [(function, first byte, end, never ran)] cut at the mcount
    family's PLT entries MCOUNT_PLT, the parts inside them with function
    None: gprof, which reads no PLT symbol, credits them to the symbol
    before (_init), but they are mcount's and left out with it."""
    out = []
    for j, a, e, n in pieces:
        for lo, hi in mcount_plt:
            if lo < e and a < hi:
                if a < lo:
                    out.append((j, a, lo, n))
                out.append((None, max(a, lo), min(e, hi), n))
                a = min(e, hi)
        if a < e:
            out.append((j, a, e, n))
    return out


def never_ran_ranges(syms, names, calls, callees, buckets, sampled):
    """[(start, end)] of the function symbols' code that never ran (see
    the module's doc): no address of CALLEES, no bucket [a, e) of BUCKETS
    and no address of SAMPLED is in it; empty without arcs."""
    if not callees:
        return []
    def holding(pc):
        return syms[max(bisect.bisect_right(syms, pc) - 1, 0)]
    ran = {holding(pc) for pc in list(callees) + list(sampled)}
    for a, e in buckets:
        ran.update(syms[bisect.bisect_right(syms, a) - 1 if a >= syms[0] else 0:
                        bisect.bisect_left(syms, e)])
    call_addrs = sorted(calls)
    out = []
    for k, start in enumerate(syms):
        end = syms[k + 1] if k + 1 < len(syms) else float("inf")
        i = bisect.bisect_left(call_addrs, start)
        if (start not in ran and i < len(call_addrs)
                and call_addrs[i] < end and calls[call_addrs[i]]):
            out.append((start, end))
    return out


def split_never_ran(overlaps, all_syms, never, never_starts):
    """OVERLAPS [(function, first byte, end)] cut where function symbols
    start, each piece with whether it is code that never ran."""
    pieces = []
    for j, a, e in overlaps:
        k = bisect.bisect_right(all_syms, a)
        cuts = [a] + all_syms[k:bisect.bisect_left(all_syms, e)] + [e]
        for x, y in zip(cuts, cuts[1:]):
            i = bisect.bisect_right(never_starts, x) - 1
            pieces.append((j, x, y, i >= 0 and x < never[i][1]))
    return pieces


def bin_overlaps(lo, hi, starts, bodies):
    """[(function, first byte, end)] of the bodies in the bin [LO, HI)."""
    overlaps = []
    j = max(bisect.bisect_right(starts, lo) - 1, 0)
    while j < len(starts) and starts[j] < hi:
        a, e = max(lo, starts[j]), min(hi, bodies[j])
        if e > a:
            overlaps.append((j, a, e))
        j += 1
    return overlaps


def own_samples(recs, starts, bodies):
    """An address of each body that is the only body in a bin with samples."""
    out = set()
    for r in recs:
        scale = profil_scale(r["nbins"], r["high_pc"] - r["low_pc"])
        for i, c in enumerate(r["bins"]):
            if c:
                overlaps = bin_overlaps(*bin_bounds(r["low_pc"], scale, i),
                                        starts, bodies)
                if len(overlaps) == 1:
                    out.add(overlaps[0][1])
    return out


def static_symbols(exe):
    """{(address, raw name)} of the static (t) symbols."""
    out = set()
    for line in nm(exe).splitlines():
        f = line.split(" ", 2)
        if len(f) == 3 and f[1] == "t":
            out.add((int(f[0], 16), f[2]))
    return out


def compute(exe, gmons, no_statics=False):
    psize, bo = elf_layout(exe)
    recs, callees, callers = [], [], []
    for g in gmons:
        recs.extend(read_gmon(g, psize, bo, callees, callers))
    if not recs:
        raise HistError("no histogram record in %s" % ", ".join(gmons))
    syms = symbols(exe)
    tend = text_end(exe)
    names = demangle([n for _a, n, _s in syms])
    starts = [a for a, _n, _s in syms]
    ends = starts[1:] + [max(tend, starts[-1])]
    bodies = [a + s if 0 < s < e - a else e
              for (a, _n, s), e in zip(syms, ends)]
    all_syms, func_names = function_symbols(exe)
    insns, calls, mcount_plt = instructions(exe, func_names)
    never = never_ran_ranges(all_syms, func_names, calls, callees,
                             [(pc, pc + 2 * psize) for pc in callers],
                             own_samples(recs, starts, bodies) if callees else ())
    never_starts = [a for a, _e in never]

    credit = [0.0] * len(syms)
    nosym = plt_excluded = 0.0
    raw_total = 0
    out_recs = []
    for r in recs:
        low, high, nbins = r["low_pc"], r["high_pc"], r["nbins"]
        scale = profil_scale(nbins, high - low)
        rsum = 0
        for i, c in enumerate(r["bins"]):
            if not c:
                continue
            rsum += c
            overlaps = bin_overlaps(*bin_bounds(low, scale, i), starts, bodies)
            if not overlaps:
                nosym += c
                continue
            pieces = split_mcount_plt(
                split_never_ran(overlaps, all_syms, never, never_starts), mcount_plt)
            if any(not n for _j, _a, _e, n in pieces):
                pieces = [p for p in pieces if not p[3]]
            pcs = [(j, bisect.bisect_left(insns, e) - bisect.bisect_left(insns, a))
                   for j, a, e, _n in pieces]
            npcs = sum(k for _j, k in pcs)
            shares = pcs if npcs else [(j, e - a) for j, a, e, _n in pieces]
            whole = npcs or sum(k for _j, k in shares)
            for j, k in shares:
                if j is None:
                    plt_excluded += c * k / whole
                else:
                    credit[j] += c * k / whole
        raw_total += rsum
        out_recs.append({"low_pc": low, "high_pc": high, "nbins": nbins,
                         "rate": r["rate"], "scale": scale, "samples": rsum})

    if no_statics:
        # gprof -a: a static's samples go to the function before it
        statics = static_symbols(exe)
        for j in range(len(syms) - 1, 0, -1):
            if (syms[j][0], syms[j][1]) in statics:
                credit[j - 1] += credit[j]
                credit[j] = None
    funcs = {}
    excluded = plt_excluded
    seen = {}
    for j, (addr, raw, _size) in enumerate(syms):
        if credit[j] is None:
            continue
        if raw in MCOUNT_FAMILY:
            excluded += credit[j]
            continue
        nm = names[j]
        seen[nm] = seen.get(nm, 0) + 1
        funcs[nm] = funcs.get(nm, 0.0) + credit[j]
    if nosym > 0:
        funcs[NO_SYMBOL] = funcs.get(NO_SYMBOL, 0.0) + nosym
    total = raw_total - excluded
    return {
        "hz": recs[0]["rate"],
        "total": round(total, 9),
        "raw_total": raw_total,
        "excluded": round(excluded, 9),
        "functions": dict((k, round(v, 9)) for k, v in funcs.items()),
        "records": out_recs,
        "duplicate_names": sorted(k for k, v in seen.items() if v > 1),
    }


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Exact per-function histogram samples from a GNU "
                    "gmon.out, using glibc's profil bin mapping.")
    ap.add_argument("exe", help="the profiled executable (with symbols)")
    ap.add_argument("gmon", nargs="+", help="gmon.out file(s)")
    ap.add_argument("--json", action="store_true", help="print JSON")
    ap.add_argument("--all", action="store_true",
                    help="also list functions with 0 samples in the table")
    a = ap.parse_args(argv)
    try:
        r = compute(a.exe, a.gmon)
    except HistError as e:
        sys.stderr.write("exact_hist: %s\n" % e)
        return 1
    if a.json:
        sys.stdout.write(json.dumps(r, indent=1, sort_keys=True) + "\n")
        return 0
    out = ["hz: %d  total: %.3f samples  (raw %d, mcount family %.3f)"
           % (r["hz"], r["total"], r["raw_total"], r["excluded"])]
    if r["duplicate_names"]:
        out.append("note: summed same-named functions: %s"
                   % ", ".join(r["duplicate_names"]))
    for k, v in sorted(r["functions"].items(), key=lambda kv: (-kv[1],
                                                                kv[0])):
        if v or a.all:
            out.append("%14.3f  %s" % (v, k))
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
