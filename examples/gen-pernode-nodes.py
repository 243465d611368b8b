#!/usr/bin/env python3
# gen-pernode-nodes.py - writes pernode-nodes.csv: SYNTHETIC numbers (not measured) for
# the per-node question (docs/PERNODE.md): 2 kernels x 4 NUMA nodes, 6 boots per kernel,
# on every boot one run on each node (`sysab run --nodes all`), 8 samples per run.
# Known truth, on the ln scale of ops/s (the file gives ns/op, as sysab shows this workload):
#   - a boot random effect, sd 1.5% (KASLR layout; shared by every node of the boot),
#   - a node penalty growing with distance from node 0: 0, -1%, -2%, -3% on the shared
#     kernel (exception handlers live on node 0, so remote nodes fetch them remotely),
#   - a kernel x node interaction: per-node copies (kernel=pernode) take 3/4 of the penalty
#     away on the remote nodes and do nothing on node 0,
#   - run sd 0.3%, sample sd 0.5%.
import math, random

random.seed(20261206)
BASE = 2.0e6  # kernel.trap.break ops/s on node 0 (500 ns/op)
PENALTY = [0.0, -0.01, -0.02, -0.03]
KEPT = {"shared": 1.0, "pernode": 0.25}  # share of the penalty each kernel keeps
BOOTS, SAMPLES = 6, 8
print("workload,unit,value,run,boot,kernel,node,data")
for kernel in ("shared", "pernode"):
    for boot in range(1, BOOTS + 1):
        bkey = f"{kernel}-b{boot}"
        boot_dev = random.gauss(0, 0.015)
        for node in range(4):
            rkey = f"{bkey}-n{node}"
            y = math.log(BASE) + boot_dev + KEPT[kernel] * PENALTY[node] + random.gauss(0, 0.003)
            for _ in range(SAMPLES):
                ns = 1e9 / math.exp(y + random.gauss(0, 0.005))  # written as sysab shows it
                print(f"kernel.trap.break,ns/op,{ns:.7g},{rkey},{bkey},{kernel},{node},synthetic")
