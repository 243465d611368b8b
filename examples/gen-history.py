#!/usr/bin/env python3
# gen-history.py - writes a SYNTHETIC kernel series (not measured) for `sysab history`: 100 boots,
# one per kernel 6.1-rc1 .. 6.20, 2 runs x 10 samples each, in shuffled file order. Between-boot
# sd 1%, per-boot sample sd drawn from 0.5%, 1%, 2%; one boot at -7% (a spike: not a change) at
# position 30 and a 3% slowdown from position 60 on (6.13-rc1). Usage:
#   python3 examples/gen-history.py [--aa] [SEED] > series.csv
#   sysab --db h.db import csv series.csv && sysab --db h.db history -w kernel.syscall.null --by kernel
# --aa writes the same series without the slowdown (and with the spike). --boots N (a multiple
# of 5) writes N kernels 6.1-rc1 .. 6.(N/5) with the slowdown from 60% of the way (bench/history.sh).
# --spread writes a series without the spike or slowdown whose between-boot sd doubles (1% to 2%)
# from 40% of the way on (6.9-rc1 of 100): a change of spread, not of the mean.
import math, random, sys

argv = sys.argv[1:]
nboots = 100
if "--boots" in argv:
    i = argv.index("--boots")
    nboots = int(argv[i + 1])
    del argv[i:i + 2]
args = [a for a in argv if a not in ("--aa", "--spread")]
spread = "--spread" in argv
aa = "--aa" in argv or spread
random.seed(int(args[0]) if args else 36)
kernels = [f"6.{m}-rc{r}" if r <= 4 else f"6.{m}" for m in range(1, nboots // 5 + 1) for r in range(1, 6)]
rows = []
for i, k in enumerate(kernels):
    y = math.log(1.0e7) + random.gauss(0, 0.02 if spread and i >= nboots * 40 // 100 else 0.01)
    if i == 30 and not spread:
        y += math.log(0.93)
    if i >= nboots * 60 // 100 and not aa:
        y += math.log(0.97)
    sd = random.choice((0.005, 0.01, 0.02))
    for run in range(2):
        ry = y + random.gauss(0, 0.0025)
        for s in range(10):
            rows.append((f"b{i:03d}-r{run}", f"b{i:03d}", k, math.exp(ry + random.gauss(0, sd))))
order = list(range(len(kernels)))
random.shuffle(order)
print("workload,unit,value,run,boot,kernel")
for i in order:
    for run, boot, k, v in rows[i * 20:(i + 1) * 20]:
        print(f"kernel.syscall.null,ops/s,{v:.6g},{run},{boot},{k}")
