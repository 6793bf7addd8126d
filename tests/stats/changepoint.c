/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Description: stats/changepoint.c's E-Divisive means on synthetic
 * sequences of 17 steps (a base and 16 patches) with 5 samples each, 1%
 * normal noise and 5% of the samples hit by a preemption (3-15% lower), as
 * in-device figures: one planted step found at its step with its size
 * inside the interval, two planted steps both found, a change in the last
 * step alone found, A/A sequences (every step the same) with nothing
 * found, the answer the same on a second call (fixed seed), and the A/A
 * false-alarm rate over many simulated sequences below alpha's 1% with
 * room for chance (200 by default; `changepoint --aa N [--step-sd REL]`
 * prints the rate over N, with step-to-step noise REL if asked).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/changepoint.h"
#include "../tap.h"

#define STEPS 17
#define PER 5
#define N (STEPS * PER)

static uint64_t rng_state;

static double unif(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	return sqrt(-2 * log(unif())) * cos(2 * M_PI * unif());
}

/* A sequence: step k's mean 1000 * scale[k] (times 1 + step_sd * N(0,1)), 1% noise, preemptions. */
static void make(double *x, size_t *start, const double *scale, double step_sd)
{
	size_t k, i;

	for (k = 0; k <= STEPS; k++)
		start[k] = k * PER;
	for (k = 0; k < STEPS; k++) {
		double m = 1000 * (scale ? scale[k] : 1) * (1 + step_sd * gauss());

		for (i = 0; i < PER; i++) {
			x[k * PER + i] = m * (1 + 0.01 * gauss());
			if (unif() < 0.05)
				x[k * PER + i] *= 0.85 + 0.12 * unif();
		}
	}
}

static double aa_rate(unsigned sims, double step_sd, unsigned *alarms)
{
	struct czst_change c[CZST_CP_MAX];
	double x[N];
	size_t start[STEPS + 1];
	unsigned s;

	*alarms = 0;
	for (s = 0; s < sims; s++) {
		make(x, start, NULL, step_sd);
		if (czst_edivisive(x, start, STEPS, NULL, c, CZST_CP_MAX))
			++*alarms;
	}
	return sims ? (double)*alarms / sims : NAN;
}

static void planted(void)
{
	struct czst_change c[CZST_CP_MAX], d[CZST_CP_MAX];
	double x[N], sc[STEPS];
	size_t start[STEPS + 1], n, n2, k;

	for (k = 0; k < STEPS; k++)
		sc[k] = k < 9 ? 1 : 0.9;
	make(x, start, sc, 0);
	n = czst_edivisive(x, start, STEPS, NULL, c, CZST_CP_MAX);
	tap_ok(n == 1 && c[0].step == 9, "one planted step (-10%% at 9): %zu change(s), first at %zu", n,
	       n ? c[0].step : 0);
	tap_ok(n == 1 && c[0].ci_lo < -10 && c[0].ci_hi > -10 && c[0].p < CZST_CP_ALPHA,
	       "its size %.2f%%, 95%% CI %.2f..%.2f, holds -10%%; p %.4f", n ? c[0].pct : NAN,
	       n ? c[0].ci_lo : NAN, n ? c[0].ci_hi : NAN, n ? c[0].p : NAN);
	n2 = czst_edivisive(x, start, STEPS, NULL, d, CZST_CP_MAX);
	tap_ok(n2 == n && !memcmp(c, d, n * sizeof(*c)), "a second call gives the same answer (seed)");
	for (k = 0; k < STEPS; k++)
		sc[k] = k < 5 ? 1 : k < 12 ? 0.9 : 0.97;
	make(x, start, sc, 0);
	n = czst_edivisive(x, start, STEPS, NULL, c, CZST_CP_MAX);
	tap_ok(n == 2 && c[0].step == 5 && c[1].step == 12,
	       "two planted steps (at 5 and 12): %zu change(s) at %zu, %zu", n, n ? c[0].step : 0,
	       n > 1 ? c[1].step : 0);
	tap_ok(n == 2 && c[0].ci_lo < -10 && c[0].ci_hi > -10 && c[1].ci_lo < 7.78 && c[1].ci_hi > 7.78,
	       "their sizes: %+.2f%% (CI %+.2f..%+.2f; -10%%), %+.2f%% (CI %+.2f..%+.2f; +7.78%%)",
	       n ? c[0].pct : NAN, n ? c[0].ci_lo : NAN, n ? c[0].ci_hi : NAN, n > 1 ? c[1].pct : NAN,
	       n > 1 ? c[1].ci_lo : NAN, n > 1 ? c[1].ci_hi : NAN);
	for (k = 0; k < STEPS; k++)
		sc[k] = k < 16 ? 1 : 0.7;
	make(x, start, sc, 0);
	n = czst_edivisive(x, start, STEPS, NULL, c, CZST_CP_MAX);
	tap_ok(n == 1 && c[0].step == 16, "a change in the last step alone: %zu change(s), first at %zu",
	       n, n ? c[0].step : 0);
	make(x, start, NULL, 0);
	n = czst_edivisive(x, start, STEPS, NULL, c, CZST_CP_MAX);
	tap_ok(n == 0, "an A/A sequence: %zu change(s)", n);
	tap_ok(czst_edivisive(x, start, 1, NULL, c, CZST_CP_MAX) == 0, "one step: nothing to split");
}

/* The floor of the permutation p, checked against counts by hand, and the sessions needed. */
static void reach(void)
{
	static const size_t two3[] = { 0, 3, 6 }, three3[] = { 0, 3, 6, 9 }, uneven[] = { 0, 10, 12 };
	struct czst_change c[CZST_CP_MAX];
	double x[6] = { 1000, 1001, 999, 700, 701, 699 };

	tap_ok(fabs(czst_cp_floor(two3, 2, 1) - 2.0 / 20) < 1e-12,
	       "2 steps x 3: smallest p 2/C(6,3) = 0.100 (%.4f)", czst_cp_floor(two3, 2, 1));
	tap_ok(fabs(czst_cp_floor(three3, 3, 1) - 2.0 / 84) < 1e-12 &&
	       fabs(czst_cp_floor(three3, 3, 2) - 2.0 / 84) < 1e-12,
	       "3 steps x 3: smallest p 2/C(9,3) = 0.024 at either split (%.4f)", czst_cp_floor(three3, 3, 1));
	tap_ok(fabs(czst_cp_floor(uneven, 2, 1) - 1.0 / 66) < 1e-12,
	       "10 + 2 observations: no mirror split, 1/C(12,2) (%.4f)", czst_cp_floor(uneven, 2, 1));
	tap_ok(czst_cp_needed(2, CZST_CP_ALPHA) == 6 && czst_cp_needed(3, CZST_CP_ALPHA) == 4 &&
	       czst_cp_needed(17, CZST_CP_ALPHA) == 2,
	       "sessions needed: 2 steps %u, 3 steps %u, 17 steps %u", czst_cp_needed(2, CZST_CP_ALPHA),
	       czst_cp_needed(3, CZST_CP_ALPHA), czst_cp_needed(17, CZST_CP_ALPHA));
	tap_ok(czst_edivisive(x, two3, 2, NULL, c, CZST_CP_MAX) == 0,
	       "a -30%% change, 2 steps x 3: not found, as the floor says");
}

int main(int argc, char **argv)
{
	unsigned sims = 200, alarms;
	double step_sd = 0, rate;
	int i;

	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--aa"))
			sims = (unsigned)strtoul(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--step-sd"))
			step_sd = strtod(argv[i + 1], NULL);
	}
	rng_state = 42;
	if (argc > 1) {
		rate = aa_rate(sims, step_sd, &alarms);
		printf("A/A: %u of %u sequences (%d steps x %d samples, step sd %g) flagged: %.2f%%\n",
		       alarms, sims, STEPS, PER, step_sd, 100 * rate);
		return 0;
	}
	planted();
	reach();
	rate = aa_rate(sims, 0, &alarms);
	/* 1% expected: 2 of 200; 8 or more has probability < 0.001 */
	tap_ok(alarms < 8, "A/A false alarms: %u of %u sequences (%.1f%%; alpha %.2f)", alarms, sims,
	       100 * rate, CZST_CP_ALPHA);
	return tap_done();
}
