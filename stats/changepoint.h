/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Change points over a sequence of steps (a patch series, kernel releases,
 * a git range), each step holding its samples: E-Divisive means
 * (Matteson & James, "A Nonparametric Approach for Multiple Change Point
 * Analysis of Multivariate Data", JASA 109(505), 2014) with its
 * permutation test, the split points restricted to step boundaries
 * (changepoint.c; doc/kernel-changes.md has the method and its A/A rate).
 */
#ifndef STATS_CHANGEPOINT_H
#define STATS_CHANGEPOINT_H

#include <stddef.h>
#include <stdint.h>

/* The defaults: alpha 0.01 over 999 permutations, seed 1 (reproducible). */
#define CZST_CP_ALPHA 0.01
#define CZST_CP_PERMS 999u
#define CZST_CP_SEED 1u
#define CZST_CP_MAX 64

struct czst_cp_opts {
	double alpha;        /* significance level of each permutation test */
	unsigned perms;      /* permutations per test (R) */
	uint64_t seed;       /* the permutations' generator: one seed, one answer */
};

struct czst_change {
	size_t step;         /* the first step of the new segment (1..nsteps-1) */
	double p;            /* permutation p-value, (1 + #{Q* >= Q}) / (R + 1) */
	/* the segment after vs the one before (between neighbouring change points): */
	double before, after;          /* the segments' sample means */
	double pct, ci_lo, ci_hi;      /* (after - before) / |before|, per cent, 95% Welch interval */
};

/*
 * The change points of x[0..start[nsteps]), step k's samples being
 * x[start[k]..start[k+1]) (start has nsteps + 1 entries, nondecreasing):
 * found one at a time, each the split of a segment between step boundaries
 * that maximises the E-statistic Q (exponent 1), kept while its
 * permutation p (samples permuted within each segment) is below alpha.
 * out[0..return) in step order (at most max); o NULL: the defaults.
 */
size_t czst_edivisive(const double *x, const size_t *start, size_t nsteps,
		      const struct czst_cp_opts *o, struct czst_change *out, size_t max);

/*
 * What the permutation test can reach.  A split before step t (1..nsteps-1)
 * puts L observations before it and n - L after; its exact permutation p
 * is at least that of a perfect separation (every value before the split
 * apart from every value after): the arrangements as extreme are the
 * observed one and its mirror (when a step boundary falls at n - L), of
 * C(n, L), so
 *     floor = (1 + mirror) / C(n, L).
 * The test samples its permutations, so it lands below alpha for a clear
 * change only when the floor is well below alpha: CZST_CP_REACH x alpha
 * (at alpha / 2, 999 permutations find a perfect separation below alpha
 * with probability 0.93; at the floor alpha itself, 0.33: binomial over
 * 999 draws, at most 8 of them as extreme).
 */
#define CZST_CP_REACH 0.5
double czst_cp_floor(const size_t *start, size_t nsteps, size_t t);
/* The fewest observations per step (all steps alike) for which every split of nsteps can reach alpha. */
unsigned czst_cp_needed(size_t nsteps, double alpha);

#endif
