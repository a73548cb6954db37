#!/usr/bin/env python3
"""samples_kept.py PROFILE ORACLE LIB: the costs of a converted LD_PROFILE
profile add up to the histogram's samples times the sample period.
ORACLE is tests/lib/ldprofile.py's reading of the LD_PROFILE file.
Exits 0 if they do (to a nanosecond per sampled bin, and per call and
function for the 1 ns markers that calls into functions without samples
carry), 2 if what is missing is exactly the samples in LIB's PLT sections
(a known defect), else 1."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import compare_gprof  # noqa: E402

profile, oracle, lib = sys.argv[1:4]
rate, bins = None, []
for line in open(oracle):
    f = line.split()
    if f[0] == "hist":
        rate = int(f[4])
    elif f[0] == "bin":
        bins.append((int(f[1], 16), int(f[2], 16), int(f[3])))
period = 1e9 / rate
samples = sum(c for _lo, _hi, c in bins)
model, call_lines, _costs = compare_gprof.load_profile(profile)
kept = model.result()["self_sum"]
plt = []
for line in subprocess.run(["objdump", "-h", lib], capture_output=True, text=True,
                           check=True).stdout.splitlines():
    f = line.split()
    if len(f) >= 4 and f[1].startswith(".plt"):
        plt.append((int(f[3], 16), int(f[3], 16) + int(f[2], 16)))
in_plt = sum(c for lo, hi, c in bins if any(lo < e and hi > s for s, e in plt))
# (a marker is at most 1 ns a call site, or 1 ns for a function called
# from outside; both far below one sample)
markers_max = len(call_lines) + len(model.functions)
slack = len(bins) + 1 + markers_max
print("%d samples x %g ns = %d ns, the profile's costs %d ns, %d samples in the PLT"
      % (samples, period, samples * period, kept, in_plt))
if abs(kept - samples * period) <= slack:
    sys.exit(0)
if in_plt and abs(kept + in_plt * period - samples * period) <= slack:
    sys.exit(2)
sys.exit(1)
