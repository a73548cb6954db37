#!/usr/bin/env python3
"""Read a glibc LD_PROFILE file (SONAME.profile) independently of gmon2cg.

Test oracle for gmon2cg (standard library only, plus `nm` for --symbols).
The layout is the one glibc's ld.so maps and updates in place
(elf/dl-profile.c, _dl_start_profile and _dl_mcount); every number is in
the byte order of the profiled process, A is its address size (4 or 8):

  offset          size  field
  0               4     cookie "gmon"
  4               4     version 0x0001ffff (GMON_SHOBJ_VERSION)
  8               12    zero
  20              4     tag 0 (GMON_TAG_TIME_HIST), a 4-byte word
  24              A     low_pc: start of the library's lowest executable
                        PT_LOAD page, a link-time address
  24+A            A     high_pc: end of its highest executable page
  24+2A           4     nbins = (high_pc - low_pc) / 4
  28+2A           4     rate (samples per second, __profile_frequency)
  32+2A           15    dimension "seconds", NUL-padded
  47+2A           1     dimension abbreviation 's'
  48+2A           2*nbins  bins, 16-bit counts
  48+2A+2n        4     tag 1 (GMON_TAG_CG_ARC)
  52+2A+2n        4     narcs: slots taken, including calls that found the
                        table full (each of those adds 1 without a slot)
  56+2A+2n        ...   packed slots {from, self: A bytes; count: 4 bytes}
                        up to the end of the file

The arc pcs are offsets from the run-time low pc, i.e. from low_pc; self is
the callee's entry, from the return address in the caller, and from = 0
stands for a caller outside the library.  Slots past min(narcs, slots in
the file) are unused (ld.so sizes the table generously and never writes
past its limit); slots with a zero count carry nothing and are skipped.
A file with fewer slots than narcs is refused as truncated unless its
table is whole (all the slots ld.so writes for the text size: then the
table was full, and the calls it could not count are lost).

Samples follow the profil(2) relation with ld.so's integer scale:
bin = ((pc - low_pc) // 2) * scale // 65536.

Usage: ldprofile.py FILE [--addr-size 4|8] [--symbols LIB]

The address size is inferred from the file when not given (the one for
which the histogram and arc table fit the file exactly).  Output, one item
a line, addresses in lower-case hex as link-time addresses of the library
(low_pc + offset):
  format ld-profile ADDR_SIZE little|big
  hist LOW HIGH NBINS RATE DIMEN ABBREV
  bin LO HI COUNT          for each non-empty bin, its pcs [LO, HI)
  arc FROM SELF COUNT      FROM is 0x0 for a caller outside the library
  calls_lost L             calls ld.so could not count (table full)
  narcs N slots S          slots taken, slots in the file
With --symbols LIB, also (from `nm -n --defined-only LIB`, or `nm -D` when
LIB has no symbol table) lines
  samples NAME COUNT       per function, a bin split by bytes of overlap
  call CALLER CALLEE COUNT CALLER is "<outside>" for from = 0
"""

import struct
import subprocess
import sys

VERSION = 0x1FFFF
TAG_TIME_HIST = 0
TAG_CG_ARC = 1


class FormatError(Exception):
    pass


def byte_order(data):
    if len(data) < 20 or data[:4] != b"gmon":
        raise FormatError("no gmon cookie")
    if struct.unpack("<I", data[4:8])[0] == VERSION:
        return "<"
    if struct.unpack(">I", data[4:8])[0] == VERSION:
        return ">"
    raise FormatError("version is not 0x1ffff")


def profil_scale(nbins, textsize):
    """ld.so's integer computation of the profil scale."""
    kcountsize = 2 * nbins
    one = 0x10000
    if kcountsize >= textsize:
        return one
    quot = textsize // kcountsize
    if quot >= one:
        return 1
    if quot >= one // 256:
        return one // quot
    return (one * 256) // ((textsize * 256) // kcountsize)


def parse(data, addr_size):
    bo = byte_order(data)
    A = addr_size
    word = "I" if A == 4 else "Q"
    pos = 20

    def take(fmt):
        nonlocal pos
        size = struct.calcsize(bo + fmt)
        if pos + size > len(data):
            raise FormatError("truncated at offset %d" % pos)
        vals = struct.unpack_from(bo + fmt, data, pos)
        pos += size
        return vals

    if take("I")[0] != TAG_TIME_HIST:
        raise FormatError("no histogram tag at offset 20")
    low, high, nbins, rate = take(word + word + "II")
    dimen = take("15s")[0].split(b"\0")[0].decode("latin-1")
    abbrev = take("c")[0].decode("latin-1")
    if high <= low or nbins * 4 != high - low:
        raise FormatError("histogram range and bin count do not fit")
    bins = take("%dH" % nbins)
    if take("I")[0] != TAG_CG_ARC:
        raise FormatError("no arc tag after the histogram")
    narcs = take("I")[0]
    rec = 2 * A + 4
    if (len(data) - pos) % rec:
        raise FormatError("arc table is not whole records")
    slots = (len(data) - pos) // rec
    # ld.so's table has room for fromlimit = max(50, min(3% of the text
    # size, MAXARCS)) arcs (MINARCS, ARCDENSITY; MAXARCS 65534 in older
    # glibc, 1 << 20 now), and the file has 2 * A times as many slots
    # (fromssize * sizeof (struct here_cg_arc_record) in dl-profile.c).
    # More slots taken than present: the table was full, and then it is
    # all there, or the file was cut short of the slots in use.
    whole = [2 * A * max(50, min((high - low) * 3 // 100, m))
             for m in (65534, 1 << 20)]
    if narcs > slots and slots not in whole:
        raise FormatError("arc table truncated: %d slots taken, %d present"
                          % (narcs, slots))
    arcs = []
    for _ in range(min(narcs, slots)):
        frm, slf, count = take(word + word + "I")
        if count == 0:
            continue
        if frm >= high - low or slf >= high - low:
            raise FormatError("arc outside the histogram range")
        arcs.append((low + frm if frm else 0, low + slf, count))
    return {
        "byte_order": "little" if bo == "<" else "big",
        "addr_size": A, "low": low, "high": high, "nbins": nbins,
        "rate": rate, "dimen": dimen, "abbrev": abbrev, "bins": bins,
        "narcs": narcs, "slots": slots,
        "calls_lost": narcs - len(arcs), "arcs": arcs,
    }


def read(path, addr_size=None):
    with open(path, "rb") as f:
        data = f.read()
    if addr_size:
        return parse(data, addr_size)
    fits = []
    for size in (8, 4):
        try:
            fits.append(parse(data, size))
        except FormatError as e:
            last = e
    if len(fits) != 1:
        raise FormatError(str(last) if not fits else
                          "address size is ambiguous; give --addr-size")
    return fits[0]


def bin_pcs(prof, scale, i):
    """The pcs [lo, hi) that profil counts in bin i."""
    def first_unit(b):
        return -(-b * 65536 // scale)
    return (prof["low"] + 2 * first_unit(i), prof["low"] + 2 * first_unit(i + 1))


def functions(lib):
    """[(address, name)] of the text symbols of LIB, by address."""
    def nm(extra):
        out = subprocess.run(["nm", "-n", "--defined-only"] + extra + [lib],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             universal_newlines=True, check=False).stdout
        syms = []
        for line in out.splitlines():
            f = line.split()
            if len(f) == 3 and f[1] in "TtWi":
                syms.append((int(f[0], 16), f[2].split("@")[0]))
        return syms
    return nm([]) or nm(["-D"])


def owner(syms, pc):
    best = None
    for addr, name in syms:
        if addr > pc:
            break
        best = name
    return best or "<no symbol>"


def main(argv):
    args = argv[1:]
    addr_size, lib = None, None
    if "--addr-size" in args:
        i = args.index("--addr-size")
        addr_size = int(args[i + 1])
        del args[i:i + 2]
    if "--symbols" in args:
        i = args.index("--symbols")
        lib = args[i + 1]
        del args[i:i + 2]
    if len(args) != 1:
        sys.exit("usage: ldprofile.py FILE [--addr-size 4|8] [--symbols LIB]")
    try:
        prof = read(args[0], addr_size)
    except (FormatError, OSError) as e:
        sys.exit("ldprofile.py: %s: %s" % (args[0], e))

    scale = profil_scale(prof["nbins"], prof["high"] - prof["low"])
    print("format ld-profile %d %s" % (prof["addr_size"], prof["byte_order"]))
    print("hist %#x %#x %d %d %s %s" % (prof["low"], prof["high"], prof["nbins"],
                                        prof["rate"], prof["dimen"], prof["abbrev"]))
    for i, count in enumerate(prof["bins"]):
        if count:
            lo, hi = bin_pcs(prof, scale, i)
            print("bin %#x %#x %d" % (lo, hi, count))
    # the reader holds each (from, self) pair once, in address order
    summed = {}
    for frm, slf, count in prof["arcs"]:
        summed[(frm, slf)] = summed.get((frm, slf), 0) + count
    for (frm, slf), count in sorted(summed.items()):
        print("arc %#x %#x %d" % (frm, slf, count))
    print("calls_lost %d" % prof["calls_lost"])
    print("narcs %d slots %d" % (prof["narcs"], prof["slots"]))
    if lib is None:
        return
    syms = functions(lib)
    starts = [a for a, _ in syms]
    samples = {}
    for i, count in enumerate(prof["bins"]):
        if not count:
            continue
        lo, hi = bin_pcs(prof, scale, i)
        # Split the bin over the functions it overlaps, by bytes.
        cuts = sorted({lo, hi} | {a for a in starts if lo < a < hi})
        for a, b in zip(cuts, cuts[1:]):
            name = owner(syms, a)
            samples[name] = samples.get(name, 0) + count * (b - a) / (hi - lo)
    for name in sorted(samples, key=lambda n: (-samples[n], n)):
        print("samples %s %g" % (name, samples[name]))
    for frm, slf, count in prof["arcs"]:
        print("call %s %s %d" % (owner(syms, frm) if frm else "<outside>",
                                 owner(syms, slf), count))


if __name__ == "__main__":
    main(sys.argv)
