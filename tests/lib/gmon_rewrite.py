#!/usr/bin/env python3
"""Rewrite a real GNU tagged gmon.out into the other shapes gmon2cg reads.

    gmon_rewrite.py MODE EXE IN OUT

MODE is one of
  bsd-old     the old BSD layout (no rate; address-sized arc counts)
  bsd44       the 4.4BSD layout (with version word and rate)
  split-hist  the histogram as two disjoint records, split at its middle bin
              (both with bins of exactly 4 bytes, so the range grows a little)
  overlap     the histogram plus a second record overlapping its upper half
  arcs-only   the arcs without any histogram
  no-samples  the histogram with every bin 0, and the arcs (a run shorter
              than one tick)
  add-bb      the file plus a basic-block record: one block at each
              arc's callee address, executed as often as the arc's count
  add-samples=ADDR:N
              the file with N more samples in the bin that holds ADDR
              (hexadecimal), as glibc's profil(2) mapping puts them there
  all-bins[=N]
              a histogram alone, of the most bins gmon2cg takes (one per 2
              bytes of EXE's loaded span, as gmon2cg measures it), or of
              the first N of them, from EXE's lowest address on, each with
              one sample: the worst case for memory (IN gives the rate and
              dimension)

The address width and byte order come from EXE's ELF header.  The input
must hold one histogram record, as glibc writes it.  Used to make fixtures
of every variant from one real profile, so that all of them can be checked
against gprof and against each other.
"""
import struct
import sys

BSD44_VERSION = 0x00051879


def elf_layout(exe):
    with open(exe, "rb") as f:
        ident = f.read(6)
    if ident[:4] != b"\x7fELF":
        sys.exit("%s: not an ELF file" % exe)
    return (4 if ident[4] == 1 else 8), ("<" if ident[5] == 1 else ">")


def read_tagged(path, psize, bo):
    a = "I" if psize == 4 else "Q"
    data = open(path, "rb").read()
    if data[:4] != b"gmon":
        sys.exit("%s: not a tagged gmon.out" % path)
    pos, hists, arcs = 20, [], []
    while pos < len(data):
        tag = data[pos]
        pos += 1
        if tag == 0:
            low, high, nbins, rate = struct.unpack_from(bo + a + a + "II", data, pos)
            dimen = data[pos + 2 * psize + 8:pos + 2 * psize + 24]
            pos += 2 * psize + 24
            bins = list(struct.unpack_from(bo + "%dH" % nbins, data, pos))
            pos += 2 * nbins
            hists.append((low, high, rate, dimen, bins))
        elif tag == 1:
            arcs.append(struct.unpack_from(bo + a + a + "I", data, pos))
            pos += 2 * psize + 4
        else:
            sys.exit("%s: unexpected record tag %d" % (path, tag))
    if len(hists) != 1:
        sys.exit("%s: expected one histogram record, found %d" % (path, len(hists)))
    return data[:20], hists[0], arcs


def loaded_span(exe, psize, bo):
    """The lowest address of EXE's allocated sections, and their span plus
    the 64 KiB of headers gmon2cg allows for (src/object.c, loaded_span)."""
    data = open(exe, "rb").read()
    a = "I" if psize == 4 else "Q"
    shoff = struct.unpack_from(bo + a, data, 24 + 2 * psize)[0]
    shentsize, shnum = struct.unpack_from(bo + "HH", data, 24 + 3 * psize + 10)
    lo, hi = None, 0
    for i in range(shnum):
        sh = shoff + i * shentsize
        flags = struct.unpack_from(bo + a, data, sh + 8)[0]
        addr, _, size = struct.unpack_from(bo + a + a + a, data, sh + 8 + psize)
        if flags & 2:  # SHF_ALLOC
            lo = addr if lo is None else min(lo, addr)
            hi = max(hi, addr + size)
    return lo, hi - lo + 65536


def tagged_hist(bo, a, low, high, rate, dimen, bins):
    return (b"\0" + struct.pack(bo + a + a + "II", low, high, len(bins), rate) + dimen
            + struct.pack(bo + "%dH" % len(bins), *bins))


def main():
    modes = ("bsd-old", "bsd44", "split-hist", "overlap", "arcs-only",
             "no-samples", "add-bb", "all-bins")
    if len(sys.argv) == 5 and sys.argv[1].startswith("add-samples="):
        spec = sys.argv[1].split("=", 1)[1]
        sys.argv[1:2] = ["add-samples"]
        add_addr, add_count = int(spec.split(":")[0], 16), int(spec.split(":")[1])
        modes = modes + ("add-samples",)
    if len(sys.argv) == 5 and sys.argv[1].startswith("all-bins="):
        max_bins = int(sys.argv[1].split("=", 1)[1])
        sys.argv[1] = "all-bins"
    else:
        max_bins = None
    if len(sys.argv) != 5 or sys.argv[1] not in modes:
        sys.exit("usage: gmon_rewrite.py {%s} EXE IN OUT" % "|".join(modes))
    mode, exe, src, dst = sys.argv[1:]
    psize, bo = elf_layout(exe)
    a = "I" if psize == 4 else "Q"
    header, (low, high, rate, dimen, bins), arcs = read_tagged(src, psize, bo)
    arc_bytes = b"".join(b"\1" + struct.pack(bo + a + a + "I", *arc) for arc in arcs)
    if mode in ("bsd-old", "bsd44"):
        size = 2 * psize + (24 if mode == "bsd44" else 4)
        out = struct.pack(bo + a + a + "I", low, high, size + 2 * len(bins))
        if mode == "bsd44":
            out += struct.pack(bo + "II", BSD44_VERSION, rate) + bytes(12)
        out += struct.pack(bo + "%dH" % len(bins), *bins)
        out += b"".join(struct.pack(bo + a + a + a, *arc) for arc in arcs)
    elif mode == "split-hist":
        # glibc's bins are a little under 4 bytes wide, and gprof refuses
        # records whose bin widths differ; make both exactly 4 bytes.
        k = len(bins) // 2
        mid, end = low + 4 * k, low + 4 * len(bins)
        out = (header + tagged_hist(bo, a, low, mid, rate, dimen, bins[:k])
               + tagged_hist(bo, a, mid, end, rate, dimen, bins[k:]) + arc_bytes)
    elif mode == "overlap":
        k = len(bins) // 2
        out = (header + tagged_hist(bo, a, low, high, rate, dimen, bins)
               + tagged_hist(bo, a, low + 4 * k, high + 4 * k, rate, dimen, bins)
               + arc_bytes)
    elif mode == "no-samples":
        out = header + tagged_hist(bo, a, low, high, rate, dimen, [0] * len(bins)) + arc_bytes
    elif mode == "add-samples":
        # glibc: s_scale = (int)((float)kcountsize / textsize * 65536)
        f32 = lambda v: struct.unpack("f", struct.pack("f", v))[0]
        kcount, text = 2 * len(bins), high - low
        scale = 65536 if kcount >= text else int(f32(f32(f32(kcount) / f32(text)) * 65536))
        index = (add_addr - low) // 2 * scale // 65536
        bins[index] = min(bins[index] + add_count, 65535)
        out = header + tagged_hist(bo, a, low, high, rate, dimen, bins) + arc_bytes
    elif mode == "add-bb":
        blocks = {}
        for frm, slf, count in arcs:
            blocks[slf] = blocks.get(slf, 0) + count
        out = (header + tagged_hist(bo, a, low, high, rate, dimen, bins) + arc_bytes
               + b"\2" + struct.pack(bo + "I", len(blocks))
               + b"".join(struct.pack(bo + a + a, addr, n) for addr, n in sorted(blocks.items())))
    elif mode == "all-bins":
        start, span = loaded_span(exe, psize, bo)
        nbins = span // 2 if max_bins is None else min(max_bins, span // 2)
        out = header + tagged_hist(bo, a, start, start + 2 * nbins, rate, dimen, [1] * nbins)
    else:
        out = header + arc_bytes
    open(dst, "wb").write(out)


if __name__ == "__main__":
    main()
