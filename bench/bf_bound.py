#!/usr/bin/python3
"""bf_bound.py - how close to alpha any sensible two-group test can get at equal variances.

Issue 11 asks every design of the grid to cover 94-97% with an A/A rate at or below 5%
at every ratio of the groups' boot variances. This computes, by linear programming, the
highest A/A rate at a given ratio r0 that any scale-invariant two-sided test can reach
while its A/A rate stays at or below alpha at every ratio from 1e-4 to 1e4.

The setting is that of sysab compare for two groups (docs/METHOD.md, "At every ratio of
boot variances"): d ~ N(0, v1 + v2) under A/A; the two variance estimates carry f1 and f2
df (boots - 1 per group). Scale and sign invariance leave two statistics,
T = |d| / sqrt(s1^2 + s2^2) and theta = s1^2 / (s1^2 + s2^2). A test is a rejection
probability y(theta, T), here constant on cells of a theta x T grid and non-decreasing in
T (a larger |d| is never less significant). The cell probabilities at each ratio come
from a midpoint rule on the quantiles of the two chi-square laws and the normal tail,
with no random numbers. Randomised tests are allowed, so the result bounds every such
test, sysab's included, up to the grids' resolution.

Two classes are solved:
  floor - the critical value of T is never below the t quantile at f1 + f2 df, the
          exact one for equal variances known to be equal (pooled t); an interval
          narrower than that one would claim more df than both groups hold together;
  free  - no floor. The LP then finds tests near alpha at every ratio (Linnik's
          irregular similar tests): they reject freely when the two variances came
          out close to each other and hardly ever otherwise, so their coverage given
          theta is far below 95% on a subset a user can recognise.

Run: bench/bf_bound.py (Debian's python3 with python3-scipy; about 4 CPU minutes;
make bench-stats runs it).
"""
import sys

import numpy as np
from scipy import optimize, stats
from scipy.sparse import coo_matrix, vstack

ALPHA = 0.05
NQ = 240      # quadrature nodes per variance estimate
NTHETA = 48   # theta cells
NT = 90       # T cells above the smallest critical value considered
RATIOS = np.geomspace(1e-4, 1e4, 49)


def cell_probabilities(f1, f2, r, t_edges):
    """P(theta in cell i, T in [t_edges[k], t_edges[k+1])) under A/A at v1/v2 = r."""
    q = (np.arange(NQ) + 0.5) / NQ
    x1 = stats.chi2.ppf(q, f1) / f1
    x2 = stats.chi2.ppf(q, f2) / f2
    share = r / (1 + r)  # of v1 in v1 + v2 = 1
    s1 = (share * x1)[:, None]
    s2 = ((1 - share) * x2)[None, :]
    total = (s1 + s2).ravel()
    theta = (s1 / (s1 + s2)).ravel()
    cell = np.minimum((theta * NTHETA).astype(int), NTHETA - 1)
    tail = 2 * stats.norm.sf(np.outer(np.sqrt(total), t_edges))
    p = np.zeros((NTHETA, len(t_edges) - 1))
    np.add.at(p, cell, tail[:, :-1] - tail[:, 1:])
    return p.ravel() / total.size


def best_level(f1, f2, r0, floor):
    """The highest A/A rate at r0 over tests whose A/A rate is <= ALPHA at every ratio."""
    lowest = stats.t.ppf(1 - ALPHA / 2, f1 + f2) if floor else 0.2
    t_edges = np.concatenate([[lowest], np.geomspace(lowest * 1.02, 80, NT), [np.inf]])
    ncell = len(t_edges) - 1
    ratios = np.union1d(RATIOS, [r0])
    level = np.array([cell_probabilities(f1, f2, r, t_edges) for r in ratios])
    target = cell_probabilities(f1, f2, r0, t_edges)
    # y[i, k] <= y[i, k + 1]: rejection does not decrease with T.
    n = NTHETA * ncell
    rows, cols, vals = [], [], []
    m = 0
    for i in range(NTHETA):
        for k in range(ncell - 1):
            rows += [m, m]
            cols += [i * ncell + k, i * ncell + k + 1]
            vals += [1.0, -1.0]
            m += 1
    mono = coo_matrix((vals, (rows, cols)), shape=(m, n))
    a_ub = vstack([coo_matrix(level), mono]).tocsr()
    b_ub = np.concatenate([np.full(len(ratios), ALPHA), np.zeros(m)])
    res = optimize.linprog(-target, A_ub=a_ub, b_ub=b_ub, bounds=(0, 1), method="highs")
    if res.status != 0:
        sys.exit(f"bf_bound: the LP for {f1:g}, {f2:g} df failed: {res.message}")
    y = res.x.reshape(NTHETA, ncell)
    crit = [t_edges[np.argmax(row > 0.5)] if (row > 0.5).any() else np.inf for row in y]
    return -res.fun, min(crit)


# Boots in A and in B. At equal boot sd the ratio of the variances of the two group
# means (A over B) is B / A.
DESIGNS = [(2, 2), (2, 3), (3, 3), (2, 5), (4, 4), (2, 8)]


def main():
    print("| boots A, B | ratio | best A/A, critical value >= pooled t | best A/A, no floor "
          "(smallest critical value used) |")
    print("|---|---|---|---|")
    for a, b in DESIGNS:
        r0 = b / a
        with_floor, _ = best_level(a - 1, b - 1, r0, True)
        free, smallest = best_level(a - 1, b - 1, r0, False)
        print(f"| {a}, {b} | {r0:g} | {100 * with_floor:.2f}% | {100 * free:.2f}% ({smallest:.2f}) |")


if __name__ == "__main__":
    main()
