#!/usr/bin/python3
"""likeforlike.py DIR - sysab against UnixBench like for like, from bench/likeforlike.sh's files.

Per pair: UnixBench's per-test results and index (its log's index table), sysab's per-test
values in UnixBench's units and its index over the same tests (10 x value / UnixBench's
baseline, geometric mean: sysab-index on UnixBench's scale). Printed: the index ratio sysab /
UnixBench (median over pairs); each side's index CV (sd of ln) and CV*sqrt(wall per pass/run);
the ratio of the two with a 95% range (percentile bootstrap over pairs, fixed seed, so the
same files print the same range); and per test the value ratio and CV*sqrt(its own sampling
time) of both (UnixBench: the test's share of the pass; sysab: the workload's samples), with
their ratio."""
import glob, json, math, os, random, re, statistics as st, sys

d = sys.argv[1]
# UnixBench's index table lines (its names) -> test, and sysab's workload and unit factor
TESTS = [("Dhrystone 2 using register variables", "dhry2reg", "cpu.int", 1),
         ("Double-Precision Whetstone", "whetstone-double", "cpu.float", 0.1),
         ("Execl Throughput", "execl", "unixbench.execl", 1),
         ("File Copy 1024 bufsize 2000 maxblocks", "fstime", "unixbench.fstime", 1),
         ("File Copy 256 bufsize 500 maxblocks", "fsbuffer", "unixbench.fsbuffer", 1),
         ("File Copy 4096 bufsize 8000 maxblocks", "fsdisk", "unixbench.fsdisk", 1),
         ("Pipe Throughput", "pipe", "unixbench.pipe", 1),
         ("Pipe-based Context Switching", "context1", "unixbench.context1", 1),
         ("Process Creation", "spawn", "unixbench.spawn", 1),
         ("Shell Scripts (1 concurrent)", "shell1", "unixbench.shell1", 60),
         ("Shell Scripts (8 concurrent)", "shell8", "unixbench.shell8", 60),
         ("System Call Overhead", "syscall", "unixbench.syscall", 1)]
# UnixBench's run time of each test (its Run: 10 s, 30 s for the file copies, execl and
# spawn, 60 s for the shells), for each test's own sampling time
UB_SECS = {"dhry2reg": 10, "whetstone-double": 10, "execl": 30, "fstime": 30, "fsbuffer": 30, "fsdisk": 30,
           "pipe": 10, "context1": 10, "spawn": 30, "shell1": 60, "shell8": 60, "syscall": 10}

def walls(side):
    t = {}
    p = os.path.join(d, side + ".wall")
    for line in open(p) if os.path.exists(p) else []:
        f = line.split()
        t[int(f[0])] = (float(f[2]) - float(f[1]), " ".join(f[3:6]))
    return t

def ub_log(path):
    """{test: (baseline, result)} and the printed index of one UnixBench log, or None."""
    text = open(path).read()
    m = re.search(r"System Benchmarks (?:Index Values|Partial Index).*?\n(.*?)System Benchmarks Index Score[^0-9]*([0-9.]+)", text, re.S)
    if not m:
        return None
    vals = {}
    for name, test, _, _ in TESTS:
        r = re.search(re.escape(name) + r"\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)", m.group(1))
        if r:
            vals[test] = (float(r.group(1)), float(r.group(2)))
    return vals, float(m.group(2))

def sysab_json(path):
    """{test: (value in UnixBench's units, sampling seconds)} of one sysab run."""
    j = json.load(open(path))
    out = {}
    for _, test, wl, units in TESTS:
        for r in j["results"]:
            if r["workload"] == wl and r.get("copies") == 1 and r.get("status") == "ok" and r.get("median_ops_per_s"):
                secs = r["samples"] * r["batch_ops"] / r["median_ops_per_s"]
                out[test] = (r["median_ops_per_s"] * units, secs)
    return out

def index(vals, base):
    return math.exp(st.mean(math.log(10 * v / base[t]) for t, v in vals.items()))

uw, sw = walls("ub"), walls("sy")
pairs = []
for i in sorted(set(uw) & set(sw)):
    lp, jp = os.path.join(d, "ub-%d.log" % i), os.path.join(d, "sysab-%d.json" % i)
    if not (os.path.exists(lp) and os.path.exists(jp)):
        continue
    u = ub_log(lp)
    s = sysab_json(jp)
    if not u or set(s) != set(u[0]):
        print("pair %d: incomplete (UnixBench %s, sysab %s): left out" % (i, sorted(u[0]) if u else "no index",
              sorted(s)))
        continue
    base = {t: b for t, (b, _) in u[0].items()}
    pairs.append({"i": i, "ub": {t: r for t, (_, r) in u[0].items()}, "ub_index": u[1], "sy": {t: v for t, (v, _) in s.items()},
                  "sy_secs": {t: x for t, (_, x) in s.items()}, "sy_index": index({t: v for t, (v, _) in s.items()}, base),
                  "ub_wall": uw[i][0], "sy_wall": sw[i][0], "load": (uw[i][1], sw[i][1])})
if len(pairs) < 3:
    sys.exit("likeforlike.py: fewer than 3 complete pairs in %s" % d)
tests = [t for _, t, _, _ in TESTS if t in pairs[0]["ub"]]
n = len(pairs)
print("%d pairs; load (1, 5, 15 min) before each side: %s" % (n, "; ".join("%s | %s" % p["load"] for p in pairs)))
print("%-4s %10s %10s %7s %7s %7s" % ("pair", "UnixBench", "sysab", "ratio", "ub s", "sysab s"))
for p in pairs:
    print("%-4d %10.1f %10.1f %7.3f %7.0f %7.0f" % (p["i"], p["ub_index"], p["sy_index"], p["sy_index"] / p["ub_index"],
          p["ub_wall"], p["sy_wall"]))

def cvw(ps):
    lu = [math.log(p["ub_index"]) for p in ps]
    ls = [math.log(p["sy_index"]) for p in ps]
    cu, cs = st.stdev(lu), st.stdev(ls)
    wu, ws = st.mean(p["ub_wall"] for p in ps), st.mean(p["sy_wall"] for p in ps)
    return cu, cs, wu, ws, (cs * math.sqrt(ws)) / (cu * math.sqrt(wu)) if cu > 0 else float("inf")

def boot(ps, f, k=2000):
    rnd = random.Random(51)
    xs = sorted(f([rnd.choice(ps) for _ in ps]) for _ in range(k))
    xs = [x for x in xs if math.isfinite(x)]
    return xs[int(0.025 * len(xs))], xs[int(0.975 * len(xs)) - 1]

cu, cs, wu, ws, r = cvw(pairs)
lo, hi = boot(pairs, lambda ps: cvw(ps)[4])
ir = [p["sy_index"] / p["ub_index"] for p in pairs]
print("index ratio sysab / UnixBench: median %.3f (range %.3f-%.3f)" % (st.median(ir), min(ir), max(ir)))
print("UnixBench: index CV %.2f%%, %.0f s per pass: CV*sqrt(wall) %.3f" % (100 * cu, wu, cu * math.sqrt(wu)))
print("sysab:     index CV %.2f%%, %.0f s per run:  CV*sqrt(wall) %.3f" % (100 * cs, ws, cs * math.sqrt(ws)))
print("ratio CV*sqrt(wall) sysab / UnixBench: %.2f (95%% range %.2f-%.2f, bootstrap over %d pairs; target 0.33)"
      % (r, lo, hi, n))
print("%-17s %7s %8s %8s %10s %10s %6s" % ("test", "ratio", "ub CV", "sy CV", "ub CV*rt", "sy CV*rt", "ratio"))
for t in tests:
    vr = [p["sy"][t] / p["ub"][t] for p in pairs]
    uc = st.stdev(math.log(p["ub"][t]) for p in pairs)
    sc = st.stdev(math.log(p["sy"][t]) for p in pairs)
    us = uc * math.sqrt(UB_SECS[t])
    ss = sc * math.sqrt(st.mean(p["sy_secs"][t] for p in pairs))
    print("%-17s %7.3f %7.2f%% %7.2f%% %10.3f %10.3f %6.2f" % (t, st.median(vr), 100 * uc, 100 * sc, us, ss,
          ss / us if us > 0 else float("inf")))
