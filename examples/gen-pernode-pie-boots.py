#!/usr/bin/env python3
# gen-pernode-pie-boots.py - writes pernode-pie-boots.csv: SYNTHETIC numbers (not measured)
# for a 2x2 design (pernode x pie), 4 boots per configuration, 2 runs per boot, 5 samples
# per run, with known effects, so the HTML report and the README have something to show.
import math, random

random.seed(20261202)
# workload, unit, base value, effect of pernode=yes, of pie=yes, interaction: on the ln
# scale of the value as written (for ns/op a positive effect means slower)
W = [
    ("index", "index", 4000.0, 0.015, -0.003, 0.0),
    ("unixbench.pipe", "lps", 1.2e6, 0.0, -0.002, 0.0),
    ("kernel.syscall.null", "ns/op", 95.0, -0.02, 0.03, 0.01),
]
print("workload,unit,value,run,boot,pernode,pie,data")
for pernode in ("no", "yes"):
    for pie in ("no", "yes"):
        for boot in range(1, 5):
            bkey = f"{pernode}-{pie}-b{boot}"
            # a KASLR kernel varies more from boot to boot
            boot_dev = {w[0]: random.gauss(0, 0.004 if pie == "yes" else 0.0015) for w in W}
            for run in range(1, 3):
                rkey = f"{bkey}-r{run}"
                run_dev = {w[0]: random.gauss(0, 0.0015) for w in W}
                for name, unit, base, ep, ei, ex in W:
                    y = math.log(base)
                    y += ep * (pernode == "yes") + ei * (pie == "yes") + ex * (pernode == "yes") * (pie == "yes")
                    y += boot_dev[name] + run_dev[name]
                    for s in range(5):
                        v = math.exp(y + random.gauss(0, 0.003))
                        print(f"{name},{unit},{v:.6g},{rkey},{bkey},{pernode},{pie},synthetic")
