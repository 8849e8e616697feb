#!/usr/bin/env python3
"""fit.py: the fitting procedure of tests/calibration/README.md ("Fitting").

Reads the per-row lines `CALIBRATION_RATIOS=1 CK_RUN_SUITE=calibration
build/tests/run` prints (ratio, id, kind, split, engine, memory type, GPU
count, measured, estimated) and prints, for every kind x engine x memory
type x single/multi-GPU group, the median of measured / estimated over the
FIT rows only (holdout rows are never read). A constant in planner/engines.c
marked FITTED is its current value times that median.

  CALIBRATION_RATIOS=1 CK_RUN_SUITE=calibration build/tests/run \\
      | python3 tests/calibration/fit.py
"""
import statistics
import sys

groups = {}
for line in sys.stdin:
    f = line.rstrip("\n").split("\t")
    if len(f) != 9 or f[0] != "ratio":
        continue
    _, rid, kind, split, engine, mem, n, meas, est = f
    if split != "fit" or float(est) <= 0:
        continue
    key = (kind, engine, mem, "n=1" if int(n) == 1 else "n>1")
    groups.setdefault(key, []).append(float(meas) / float(est))
    groups.setdefault((kind, engine, "all", "all"), []).append(float(meas) / float(est))

print("%-17s %-13s %-5s %-4s %5s %8s" % ("kind", "engine", "mem", "gpus", "rows", "median"))
for key in sorted(groups):
    r = groups[key]
    print("%-17s %-13s %-5s %-4s %5d %8.3f" % (key + (len(r), statistics.median(r))))
