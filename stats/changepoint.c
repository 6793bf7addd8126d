/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * E-Divisive means (Matteson & James, JASA 2014), as Apache Otava (formerly
 * Hunter) and MongoDB run it on their performance histories, with two
 * choices of ours: a split falls only between steps (the samples of one
 * step stay together), and the second segment of a split runs to the end
 * of its segment (kappa = the segment's end, as Otava).
 *
 * For a segment cut into X (n1 samples) and Y (n2), with exponent 1:
 *   E = 2/(n1 n2) sum|x-y| - sum_{i<j}|x_i-x_j| / C(n1,2) - sum_{i<j}|y_i-y_j| / C(n2,2)
 *   Q = n1 n2 / (n1 + n2) * E
 * The best split of every segment is the one with the largest Q; the
 * largest over all segments is tested by permuting the samples within each
 * segment R times: p = (1 + #{max Q* >= Q}) / (R + 1).  Below alpha it is
 * a change point and the search goes on; else it stops.  The test stops
 * early once #{Q* >= Q} has passed alpha (R + 1), where it can no longer
 * end below alpha: the decision is the full test's.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "changepoint.h"
#include "samplestat.h"

#define CZST_CP_NEEDED_STEPS 4096

struct cp_work {
	const size_t *start;
	size_t nsteps;
	double *y;           /* the samples, permuted within segments by the test */
	double *wl, *wr;     /* scratch: within-sums left of / right of each index */
	size_t bound[CZST_CP_MAX + 2];   /* segment boundaries (steps), sorted */
	size_t nb;
	uint64_t rng;
};

static uint64_t cp_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double pairs(size_t n)
{
	return n < 2 ? 0 : (double)n * (double)(n - 1) / 2;
}

/* The best split of segment [s0, s1) (steps): its Q, the step at *tau (0: none). */
static double cp_best(struct cp_work *w, size_t s0, size_t s1, size_t *tau)
{
	size_t a = w->start[s0], b = w->start[s1], i, p, t;
	const double *y = w->y;
	double best = -HUGE_VAL, total;

	*tau = 0;
	if (b - a < 2)
		return best;
	w->wl[a] = 0;
	for (i = a; i < b; i++) {
		double s = 0;

		for (p = a; p < i; p++)
			s += fabs(y[p] - y[i]);
		w->wl[i + 1] = w->wl[i] + s;
	}
	w->wr[b] = 0;
	for (i = b; i > a; i--) {
		double s = 0;

		for (p = i; p < b; p++)
			s += fabs(y[i - 1] - y[p]);
		w->wr[i - 1] = w->wr[i] + s;
	}
	total = w->wl[b];
	for (t = s0 + 1; t < s1; t++) {
		size_t m = w->start[t];
		double n1 = (double)(m - a), n2 = (double)(b - m), e, q;

		if (m == a || m == b)
			continue;
		e = 2 * (total - w->wl[m] - w->wr[m]) / (n1 * n2);
		if (pairs(m - a) > 0)
			e -= w->wl[m] / pairs(m - a);
		if (pairs(b - m) > 0)
			e -= w->wr[m] / pairs(b - m);
		q = n1 * n2 / (n1 + n2) * e;
		if (q > best) {
			best = q;
			*tau = t;
		}
	}
	return best;
}

/* The largest best split over every segment: its Q, the step at *tau (0: none). */
static double cp_max(struct cp_work *w, size_t *tau)
{
	double best = -HUGE_VAL, q;
	size_t k, t;

	*tau = 0;
	for (k = 0; k + 1 < w->nb; k++) {
		q = cp_best(w, w->bound[k], w->bound[k + 1], &t);
		if (t && q > best) {
			best = q;
			*tau = t;
		}
	}
	return best;
}

static void cp_shuffle(struct cp_work *w)
{
	size_t k, a, n, i, j;
	double t;

	for (k = 0; k + 1 < w->nb; k++) {
		a = w->start[w->bound[k]];
		n = w->start[w->bound[k + 1]] - a;
		for (i = n; i > 1; i--) {
			j = (size_t)(cp_next(&w->rng) % i);
			t = w->y[a + i - 1];
			w->y[a + i - 1] = w->y[a + j];
			w->y[a + j] = t;
		}
	}
}

/* The permutation p of an observed q; stops once it cannot end below alpha (then >= alpha). */
static double cp_test(struct cp_work *w, const double *x, double q, const struct czst_cp_opts *o)
{
	size_t r, ge = 0, tau, n = w->start[w->nsteps];
	double limit = o->alpha * (o->perms + 1.0);

	memcpy(w->y, x, n * sizeof(*x));
	for (r = 0; r < o->perms; r++) {
		cp_shuffle(w);
		if (cp_max(w, &tau) >= q * (1 - 1e-12))
			ge++;
		if (ge + 1.0 >= limit)
			return (ge + 1.0) / (r + 2.0) > o->alpha ? (ge + 1.0) / (r + 2.0) : o->alpha;
	}
	return (ge + 1.0) / (o->perms + 1.0);
}

static void cp_add_bound(struct cp_work *w, size_t t)
{
	size_t k = w->nb;

	while (k && w->bound[k - 1] > t) {
		w->bound[k] = w->bound[k - 1];
		k--;
	}
	w->bound[k] = t;
	w->nb++;
}

static void cp_mean_var(const double *x, size_t n, double *m, double *v)
{
	double s = 0, d = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += x[i];
	*m = n ? s / (double)n : NAN;
	for (i = 0; i < n; i++)
		d += (x[i] - *m) * (x[i] - *m);
	*v = n > 1 ? d / (double)(n - 1) : NAN;
}

/* Size of the change at boundary k of w->bound: the segments either side, Welch's interval. */
static void cp_size(const struct cp_work *w, const double *x, size_t k, struct czst_change *c)
{
	size_t a = w->start[w->bound[k - 1]], m = w->start[w->bound[k]], b = w->start[w->bound[k + 1]];
	double n1 = (double)(m - a), n2 = (double)(b - m), v1, v2, se, df, t;

	cp_mean_var(x + a, m - a, &c->before, &v1);
	cp_mean_var(x + m, b - m, &c->after, &v2);
	c->pct = c->before != 0 ? 100 * (c->after - c->before) / fabs(c->before) : NAN;
	c->ci_lo = c->ci_hi = NAN;
	if (n1 < 2 || n2 < 2 || c->before == 0)
		return;
	se = sqrt(v1 / n1 + v2 / n2);
	if (se == 0) {
		c->ci_lo = c->ci_hi = c->pct;
		return;
	}
	df = pow(v1 / n1 + v2 / n2, 2) / (pow(v1 / n1, 2) / (n1 - 1) + pow(v2 / n2, 2) / (n2 - 1));
	t = cz_t975(df < 1 ? 1 : (size_t)df);
	c->ci_lo = 100 * (c->after - c->before - t * se) / fabs(c->before);
	c->ci_hi = 100 * (c->after - c->before + t * se) / fabs(c->before);
}

size_t czst_edivisive(const double *x, const size_t *start, size_t nsteps,
		      const struct czst_cp_opts *o, struct czst_change *out, size_t max)
{
	static const struct czst_cp_opts dflt = { CZST_CP_ALPHA, CZST_CP_PERMS, CZST_CP_SEED };
	struct cp_work w = { .start = start, .nsteps = nsteps };
	double pv[CZST_CP_MAX], q;
	size_t ts[CZST_CP_MAX];
	size_t n = nsteps ? start[nsteps] : 0, found = 0, tau, k, j;

	if (!o)
		o = &dflt;
	if (max > CZST_CP_MAX)
		max = CZST_CP_MAX;
	if (nsteps < 2 || n < 3 || !max)
		return 0;
	w.y = malloc(n * sizeof(*w.y));
	w.wl = malloc((n + 1) * sizeof(*w.wl));
	w.wr = malloc((n + 1) * sizeof(*w.wr));
	if (!w.y || !w.wl || !w.wr)
		abort();
	w.rng = o->seed;
	w.bound[0] = 0;
	w.bound[1] = nsteps;
	w.nb = 2;
	while (found < max) {
		memcpy(w.y, x, n * sizeof(*x));
		q = cp_max(&w, &tau);
		if (!tau || !(q > 0))
			break;
		pv[found] = cp_test(&w, x, q, o);
		if (!(pv[found] < o->alpha))
			break;
		cp_add_bound(&w, tau);
		ts[found++] = tau;
	}
	/* in step order, each sized against its neighbouring segments */
	for (k = 1; k + 1 < w.nb; k++) {
		for (j = 0; j < found && ts[j] != w.bound[k]; j++)
			;
		out[k - 1].step = w.bound[k];
		out[k - 1].p = pv[j];
		cp_size(&w, x, k, &out[k - 1]);
	}
	free(w.y);
	free(w.wl);
	free(w.wr);
	return found;
}

double czst_cp_floor(const size_t *start, size_t nsteps, size_t t)
{
	size_t n = start[nsteps] - start[0], L = start[t] - start[0], k;
	double logc, mirror = 0;

	if (!L || L >= n)
		return 1;
	for (k = 1; k < nsteps; k++)
		if (start[k] - start[0] == n - L)
			mirror = 1;
	logc = lgamma((double)n + 1) - lgamma((double)L + 1) - lgamma((double)(n - L) + 1);
	return fmin(1, (1 + mirror) * exp(-logc));
}

unsigned czst_cp_needed(size_t nsteps, double alpha)
{
	size_t start[CZST_CP_NEEDED_STEPS + 1], k, t;
	unsigned m;
	bool ok;

	if (nsteps < 2 || nsteps > CZST_CP_NEEDED_STEPS)
		return 0;
	for (m = 1; m < 100000; m++) {
		for (k = 0; k <= nsteps; k++)
			start[k] = k * m;
		for (ok = true, t = 1; t < nsteps && ok; t++)
			ok = czst_cp_floor(start, nsteps, t) <= CZST_CP_REACH * alpha;
		if (ok)
			return m;
	}
	return 0;
}
