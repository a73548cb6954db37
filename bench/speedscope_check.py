#!/usr/bin/env python3
"""How gmon2cg's speedscope file of a big program compares with its
callgrind file.

Usage: speedscope_check.py JSON CALLGRIND

JSON is gmon2cg --format=speedscope's output, CALLGRIND gmon2cg's callgrind
file of the same program and profile.  Functions are matched by name (the
callgrind file's "NAME [FILE]" labels of namesakes summed under NAME).
Prints the file's samples, frames and deepest stack; how many functions'
self time differs by more than a microsecond (it must not: self time is
exact); and how many functions outside cycles have a total off by more
than one sample or 1 % (callgrind_model's inclusive cost of a function
that recurses is no figure to compare with and is left out; the cuts below SPEEDSCOPE_CUT_SHARE leave out of a
function's total its time below a cut), with the largest of them.  Exits
1 if a self time differs.
"""
import collections
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "tests", "lib"))
import callgrind_model  # noqa: E402


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        ss = json.load(f)
    prof, frames = ss["profiles"][0], ss["shared"]["frames"]
    self_ns, total_ns = collections.Counter(), collections.Counter()
    for stack, weight in zip(prof["samples"], prof["weights"]):
        self_ns[frames[stack[-1]]["name"]] += weight
        for name in {frames[i]["name"] for i in stack}:
            total_ns[name] += weight
    model = callgrind_model.load(sys.argv[2]).result(cycles=True)["functions"]
    want_self, want_total, namesakes = collections.Counter(), {}, set()
    for label, fn in model.items():
        name = label.split(" [", 1)[0]
        if name.startswith("<"):
            continue
        want_self[name] += fn["self"]
        if name != label or name in want_total:
            namesakes.add(name)
        if not fn["cycle"]:
            want_total[name] = fn["incl"]
    sample_ns = 1e9 / 100
    with open(sys.argv[2], encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("desc: Sampling rate: "):
                sample_ns = 1e9 / int(line.split()[3])
            elif line.startswith("events:"):
                break
    grand = sum(prof["weights"])
    bad_self = [n for n in set(want_self) | set(self_ns)
                if not n.startswith("<") and abs(self_ns[n] - want_self[n]) > 1000]
    off = sorted(((want - total_ns[n]) / 1e9, n) for n, want in want_total.items()
                 if n not in namesakes and want <= 2 * grand and
                 abs(want - total_ns[n]) > max(sample_ns, 0.01 * want))
    print(f"{len(prof['samples'])} samples, {len(frames)} frames, "
          f"deepest stack {max(map(len, prof['samples']), default=0)}")
    print(f"self time off by more than 1 us: {len(bad_self)} of {len(want_self)} functions"
          + (f" (e.g. {bad_self[0]})" if bad_self else ""))
    print(f"total off by more than one sample or 1 %: {len(off)} of "
          f"{len(want_total) - len(namesakes & set(want_total))} functions outside cycles")
    for missing, name in off[-5:][::-1]:
        print(f"    {name}: {missing:.3f} s short")
    return 1 if bad_self else 0


if __name__ == "__main__":
    sys.exit(main())
