#!/usr/bin/python3
"""precision.py DIR - the figures of `make bench-precision` from bench/precision.sh's files.

Per run: each workload's median rate (copies 1) and sysab-index, with the run's wall time.
The r^2 column: how much of a workload's run-to-run variance the other workloads' common
factor explains (leave one out).
Index CV = sd of ln(index) over runs (relative); CV*sqrt(wall) is the precision per machine
time that does not depend on how long a run is. Decomposition: y[r][w] = ln(rate) less the
workload's mean over runs; the common factor of run r is its mean over the workloads, the
rest each workload's own. The machine time for a 1% difference at 95% confidence and 80%
power: n runs per configuration with n = 2 (z_0.975 + z_0.8)^2 CV^2 / ln(1.01)^2, times the
wall per run (runs as the unit, as UnixBench users compare them).

With host.ref in the runs (sysab run's host-speed reference, issue 38 item 2): the same CV and
CV*sqrt(wall) of the index adjusted for host speed, ln(index) - beta (ref - mean ref), where
beta for each run is fitted on the other runs (leave one out, so that the adjustment is judged
on runs it was not fitted to, as compare --adjust host applies a slope to new runs); and each
workload's r^2 with the reference.

Paired A/A runs (bench/precision.sh's PAIRED): per paired run, B - A in the mean ln(rate) of
the index members over the two arms' runs (ln sysab-index up to its constant baselines); its
sd times sqrt(wall of one paired run, both arms) is the precision of a difference per machine
time. UnixBench's counterpart: the differences of successive passes (what a user alternating
A and B passes compares), root mean square over the n - 1 successive pairs, times
sqrt(2 x wall per pass). For 1% at 80% power: n = (z_0.975 + z_0.8)^2 sd_d^2 / ln(1.01)^2
pairs, half the machine time per configuration."""
import glob, json, math, os, re, statistics as st, sys

d = sys.argv[1]
Z = 1.959964 + 0.841621
DELTA = math.log(1.01)

def times(path, key=int):
    """{pass: (start, end)} from a .wall file of "PASS START END" lines."""
    t = {}
    if os.path.exists(path):
        for line in open(path):
            i, t0, t1 = line.split()
            t[key(i)] = (float(t0), float(t1))
    return t

def walls(path, key=int):
    return {i: t1 - t0 for i, (t0, t1) in times(path, key).items()}

def need(cv, wall):
    n = max(2, math.ceil(2 * Z * Z * cv * cv / (DELTA * DELTA)))
    return n, n * wall

sw = walls(os.path.join(d, "sysab.wall"))
runs = []
for f in sorted(glob.glob(os.path.join(d, "sysab-*.json")), key=lambda p: int(re.findall(r"(\d+)", p)[-1])):
    j = json.load(open(f))
    i = int(re.findall(r"(\d+)", f)[-1])
    rates = {r["workload"]: r["median_ops_per_s"] for r in j["results"]
             if r.get("copies") == 1 and r.get("status") == "ok" and r.get("median_ops_per_s")}
    idx = [x["value"] for x in j.get("index", []) if x["name"] == "sysab-index" and x["copies"] == 1]
    runs.append((i, rates, idx[0] if idx else None, sw.get(i)))
if len(runs) < 3:
    sys.exit("precision.py: fewer than 3 runs in %s" % d)

ln_idx = [math.log(r[2]) for r in runs if r[2]]
wall = st.mean(r[3] for r in runs)
cv = st.stdev(ln_idx)
print("sysab: %d runs, index %.1f (CV %.2f%%), %.0f s per run: CV*sqrt(wall) %.3f"
      % (len(ln_idx), math.exp(st.mean(ln_idx)), 100 * cv, wall, cv * math.sqrt(wall)))

# decomposition over the workloads every run measured
REF = "host.ref"
common = sorted(set.intersection(*(set(r[1]) for r in runs)) - {REF})
y = {w: [math.log(r[1][w]) for r in runs] for w in common}
dev = {w: [v - st.mean(y[w]) for v in y[w]] for w in common}
factor = [st.mean(dev[w][k] for w in common) for k in range(len(runs))]
print("common run factor: sd %.2f%% (per run: %s)" % (100 * st.stdev(factor),
      ", ".join("%+.1f%%" % (100 * f) for f in factor)))
# per workload: its run-to-run CV, and r^2 with the factor of the other workloads (leave one
# out, so a workload does not explain itself): the share of its variance the runs' common
# factor carries
print("%-24s %8s %10s" % ("workload", "CV", "r^2 common"))
shares = []
for w in common:
    others = [st.mean(dev[v][k] for v in common if v != w) for k in range(len(runs))]
    sx, sy = st.stdev(others), st.stdev(dev[w])
    r = st.correlation(others, dev[w]) if sx > 0 and sy > 0 else 0.0
    shares.append(r * r)
    print("%-24s %7.2f%% %9.0f%%" % (w, 100 * sy, 100 * r * r))
print("median r^2 with the common factor: %.0f%% over %d workloads" % (100 * st.median(shares), len(common)))

n, t = need(cv, wall)
print("1%% at 95%% confidence, 80%% power: %d runs per configuration, %.0f min of machine time each" % (n, t / 60))


def slope(xs, ys):
    mx, my = st.mean(xs), st.mean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx > 0 else 0.0


refruns = [k for k, r in enumerate(runs) if REF in r[1] and r[2]]
if len(refruns) == len(runs) and len(runs) >= 4:
    ref = [math.log(runs[k][1][REF]) for k in refruns]
    li = [math.log(runs[k][2]) for k in refruns]
    adj = []
    for k in range(len(li)):  # leave one out: beta from the other runs
        xs = [ref[j] for j in range(len(li)) if j != k]
        ys = [li[j] for j in range(len(li)) if j != k]
        b = slope(xs, ys)
        adj.append(li[k] - b * (ref[k] - st.mean(xs)))
    b_all = slope(ref, li)
    cva = st.stdev(adj)
    r = st.correlation(ref, li) if st.stdev(ref) > 0 and st.stdev(li) > 0 else 0.0
    print("host.ref: sd %.2f%% over runs, r^2 with ln(index) %.0f%%, beta %.2f (all runs)"
          % (100 * st.stdev(ref), 100 * r * r, b_all))
    print("sysab adjusted for host speed (leave one out): CV %.2f%%, CV*sqrt(wall) %.3f (%.3f unadjusted: x%.2f)"
          % (100 * cva, cva * math.sqrt(wall), cv * math.sqrt(wall), cv / cva if cva > 0 else float("inf")))
    n, t = need(cva, wall)
    print("adjusted, 1%% at 80%% power: %d runs per configuration, %.0f min of machine time each" % (n, t / 60))
    print("%-24s %10s" % ("workload", "r^2 host.ref"))
    for w in common:
        x = dev[w]
        rr = st.correlation(ref, x) if st.stdev(ref) > 0 and st.stdev(x) > 0 else 0.0
        print("%-24s %9.0f%%" % (w, 100 * rr * rr))
else:
    print("host.ref: not in every run (sysab run --no-host-ref, or an older sysab): no adjusted figures")

MEMBERS = ("unixbench.syscall", "unixbench.pipe", "unixbench.context1", "unixbench.fstime")
pw = walls(os.path.join(d, "paired.wall"), key=str)
pdiff, pwall = [], []
for key in sorted(pw, key=lambda k: tuple(int(p) for p in k.split("."))):
    arms = {}
    for f in glob.glob(os.path.join(d, "paired-%s-*.json" % key)):
        j = json.load(open(f))
        arm = (j["run"].get("labels") or {}).get("arm")
        rates = {r["workload"]: r["median_ops_per_s"] for r in j["results"]
                 if r.get("copies") == 1 and r.get("status") == "ok" and r.get("median_ops_per_s")}
        if arm and all(m in rates for m in MEMBERS):
            arms[arm] = st.mean(math.log(rates[m]) for m in MEMBERS)
    if "A" in arms and "B" in arms:
        pdiff.append(arms["B"] - arms["A"])
        pwall.append(pw[key])
sd_pair = None
if len(pdiff) >= 3:
    sd_pair, wp = st.stdev(pdiff), st.mean(pwall)
    print("paired A/A: %d paired runs (index members, one copy), B - A mean %+.2f%%, sd %.2f%%, %.0f s per paired "
          "run: sd*sqrt(wall) %.3f" % (len(pdiff), 100 * st.mean(pdiff), 100 * sd_pair, wp, sd_pair * math.sqrt(wp)))
    n = max(2, math.ceil(Z * Z * sd_pair * sd_pair / (DELTA * DELTA)))
    print("paired, 1%% at 80%% power: %d paired runs, %.0f min of machine time for both, %.0f min per configuration"
          % (n, n * wp / 60, n * wp / 120))
elif pw:
    print("paired A/A: fewer than 3 complete paired runs: no paired figures")

ubw = walls(os.path.join(d, "ub.wall"))
if ubw:
    ubl = {}
    ubw_start = {i: t[0] for i, t in times(os.path.join(d, "ub.wall")).items()}
    for i in sorted(ubw):
        m = re.findall(r"System Benchmarks Index Score\s+([0-9.]+)", open(os.path.join(d, "ub-%d.log" % i)).read())
        if m:
            ubl[i] = math.log(float(m[-1]))
    ub = [ubl[i] for i in sorted(ubl)]
    if len(ub) >= 3:
        ucv, uw = st.stdev(ub), st.mean(ubw[i] for i in ubl)
        print("UnixBench: %d passes, index CV %.2f%%, %.0f s per pass: CV*sqrt(wall) %.3f" % (len(ub), 100 * ucv, uw,
              ucv * math.sqrt(uw)))
        print("ratio sysab / UnixBench (CV*sqrt(wall)): %.2f" % (cv * math.sqrt(wall) / (ucv * math.sqrt(uw))))
        n, t = need(ucv, uw)
        print("UnixBench, 1%% at 80%% power: %d passes per configuration, %.0f min each" % (n, t / 60))
        if refruns and len(refruns) == len(runs) and len(runs) >= 4:
            print("ratio sysab adjusted for host speed / UnixBench: %.2f" % (cva * math.sqrt(wall) / (ucv * math.sqrt(uw))))
        # successive passes, in the order they ran
        order = sorted(ubl, key=lambda i: ubw_start[i])
        sd_d = math.sqrt(st.mean((ubl[b] - ubl[a]) ** 2 for a, b in zip(order, order[1:])))
        gap = st.mean(ubw_start[b] - ubw_start[a] for a, b in zip(order, order[1:]))
        print("UnixBench successive passes: %d differences, rms %.2f%%, sd*sqrt(2 x wall) %.3f (passes started %.0f s "
              "apart, not back to back)" % (len(order) - 1, 100 * sd_d, sd_d * math.sqrt(2 * uw), gap))
        n = max(2, math.ceil(Z * Z * sd_d * sd_d / (DELTA * DELTA)))
        print("UnixBench alternating A and B passes, 1%% at 80%% power: %d pairs, %.0f min per configuration"
              % (n, n * uw / 60))
        if sd_pair is not None:
            print("ratio paired sysab / UnixBench successive passes (sd*sqrt(wall) of a difference): %.2f"
                  % (sd_pair * math.sqrt(st.mean(pwall)) / (sd_d * math.sqrt(2 * uw))))
