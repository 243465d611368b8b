#!/usr/bin/python3
"""spending.py [SPENDING ...] - expected boots of an adaptive campaign under other alpha spendings.

An adaptive campaign (`campaign new --until decided`) looks after every block from the second
on, at the level of the group-sequential design of docs/METHOD.md (Lan-DeMets spending of
O'Brien-Fleming type), and stops at the first look that is faster, slower or equivalent at the
margin, or at the cap. This simulation asks what other spending functions would cost and buy,
in the model of the statistics grid's ADAPT rows (tests/unit/test_stats_grid.c: sample sd 3%,
run sd 0.5%, 10 samples per run, cap 20, the true effect equal to the target):

  - each group's boot means are normal with sd sqrt(boot sd^2 + (run sd^2 + sample sd^2 / 10) / runs);
  - look n (n = 2..cap boots per group) takes Welch's t with Satterthwaite df, calls a
    difference when p < the look's nominal level, and equivalence when both one-sided tests
    at that level pass (TOST);
  - the nominal levels come from z boundaries found by Monte Carlo of the Brownian path at
    information fractions n / cap (400,000 paths), not by sysab's numerical integration;
  - "fixed" is the smallest fixed design of 2..n boots per group whose two-sided t test has the
    adaptive design's power (noncentral t), and "fixed*" the same size unrounded (interpolated
    power), so that the ratio is not decided by one boot of rounding.

SPENDING: obf (sysab's), rho1, rho1.5, rho2, rho0.75 (alpha t^rho), hsd-1, hsd1, hsd2
(Hwang-Shih-DeCani with that gamma). Environment: CAP (default 20), REPS (paths at the target,
default 20000; A/A takes half). Fixed seed: the same arguments print the same table."""
import os, sys
import numpy as np
from scipy import stats

ALPHA = 0.05
ROWS = [(0.5, 1, 1.5), (0.5, 3, 1.5), (1, 1, 2.5), (1, 3, 2.5), (2, 1, 5), (2, 3, 5)]  # boot sd %, runs, target %


def obf(t):
    return 2 - 2 * stats.norm.cdf(stats.norm.ppf(1 - ALPHA / 2) / np.sqrt(t))


def rho(r):
    return lambda t: ALPHA * t ** r


def hsd(g):
    return lambda t: ALPHA * (1 - np.exp(-g * t)) / (1 - np.exp(-g))


SPENDINGS = {"obf": obf, "rho0.75": rho(0.75), "rho1": rho(1), "rho1.5": rho(1.5), "rho2": rho(2),
             "hsd-1": hsd(-1), "hsd1": hsd(1), "hsd2": hsd(2)}


def z_bounds(spend, ts, rng, paths=400000):
    """Two-sided z boundaries at information fractions ts that spend spend(t) by each look."""
    inc = np.diff(np.concatenate([[0.0], ts]))
    z = np.cumsum(rng.standard_normal((paths, len(ts))) * np.sqrt(inc), axis=1) / np.sqrt(ts)
    alive = np.ones(paths, bool)
    spent, out = 0.0, []
    for j, t in enumerate(ts):
        share = spend(t) - spent
        if share <= 0:
            out.append(np.inf)
            continue
        left = np.sort(np.abs(z[alive, j]))[::-1]
        m = int(round(share * paths))
        b = left[m] if m < len(left) else 0.0
        out.append(b)
        crossed = alive & (np.abs(z[:, j]) > b)
        spent += crossed.sum() / paths
        alive &= ~crossed
    return np.array(out)


def campaign(sd, margin, theta, levels, cap, reps, rng):
    """Mean boots per group at the stop, and the shares that stopped on a difference."""
    a = rng.standard_normal((reps, cap)) * sd
    b = rng.standard_normal((reps, cap)) * sd + theta
    stop = np.full(reps, cap)
    differ = np.zeros(reps, bool)
    alive = np.ones(reps, bool)
    for j, n in enumerate(range(2, cap + 1)):
        va, vb = a[:, :n].var(1, ddof=1) / n, b[:, :n].var(1, ddof=1) / n
        d, se = b[:, :n].mean(1) - a[:, :n].mean(1), np.sqrt(va + vb)
        df = (va + vb) ** 2 / (va ** 2 / (n - 1) + vb ** 2 / (n - 1))
        diff = 2 * stats.t.sf(np.abs(d / se), df) < levels[j]
        q = stats.t.ppf(1 - levels[j], df)
        eq = (d - q * se > -margin) & (d + q * se < margin)
        now = alive & (diff | eq)
        differ |= now & diff
        stop[now] = n
        alive &= ~now
    return stop.mean(), differ.mean()


def t_power(sd, theta, n):
    df, nc = 2 * n - 2, theta / (sd * np.sqrt(2 / n))
    q = stats.t.ppf(1 - ALPHA / 2, df)
    return stats.nct.sf(q, df, nc) + stats.nct.cdf(-q, df, nc)


def fixed(sd, theta, power):
    """The smallest fixed n with that power, and the unrounded n (power interpolated)."""
    prev = t_power(sd, theta, 2)
    if prev >= power:
        return 2, 2.0
    for n in range(3, 1000):
        p = t_power(sd, theta, n)
        if p >= power:
            return n, n - 1 + (power - prev) / (p - prev)
        prev = p
    return 1000, 1000.0


def main():
    names = sys.argv[1:] or ["obf", "rho1"]
    for name in names:
        if name not in SPENDINGS:
            sys.exit(f"spending.py: unknown spending '{name}'; one of {', '.join(SPENDINGS)}")
    cap, reps = int(os.environ.get("CAP", "20")), int(os.environ.get("REPS", "20000"))
    print(f"cap {cap}, {reps} paths at the target, {reps // 2} under A/A, per row")
    print("| spending | boot sd | runs | target | A/A | power | E[boots] | fixed (fixed*) | ratio (to fixed*) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in names:
        rng = np.random.default_rng(20261208)
        levels = 2 * stats.norm.sf(z_bounds(SPENDINGS[name], np.arange(2, cap + 1) / cap, rng))
        for boot, runs, target in ROWS:
            sd = np.sqrt(boot ** 2 + (0.5 ** 2 + 3.0 ** 2 / 10) / runs)
            e, power = campaign(sd, target, target, levels, cap, reps, rng)
            _, aa = campaign(sd, target, 0.0, levels, cap, reps // 2, rng)
            n, nstar = fixed(sd, target, power)
            print(f"| {name} | {boot}% | {runs} | {target}% | {100 * aa:.1f}% | {100 * power:.1f}% | {e:.2f} | "
                  f"{n} ({nstar:.1f}) | {e / n:.2f} ({e / nstar:.2f}) |", flush=True)


main()
