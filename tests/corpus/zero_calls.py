#!/usr/bin/env python3
"""zero_calls.py PROFILE: every call line of cost 0 in a callgrind file,
one "CALLER -> CALLEE at LINE" a line; exits 1 if there is any.  The
file is read by the callgrind model (tests/lib/callgrind_model.py)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
import callgrind_model  # noqa: E402


class ZeroCalls(callgrind_model.Observer):
    """Told each calls= line's callee, then its cost line."""

    def __init__(self):
        self.callee = None
        self.zero = []

    def call_target(self, callee, _rest, _line):
        self.callee = callee

    def cost(self, fn, _addr, vals, is_call, line):
        if is_call and all(v == 0 for v in vals):
            self.zero.append("%s -> %s at %d" % (fn.name, self.callee.name, line))


def main():
    seen = ZeroCalls()
    with open(sys.argv[1], encoding="utf-8", errors="surrogateescape") as fh:
        callgrind_model.parse_text(fh.read(), sys.argv[1], seen)
    for z in seen.zero:
        print(z)
    return 1 if seen.zero else 0


if __name__ == "__main__":
    sys.exit(main())
