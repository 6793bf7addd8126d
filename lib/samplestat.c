/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The statistics of zab's tables, hand-written (doc/modules.md, "Libraries":
 * why not GSL): the regularized incomplete beta function gives both the F
 * tail and Student's t quantile; the Mann-Whitney U test is exact for small
 * samples without ties, the normal approximation with tie correction else.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "samplestat.h"

/*
 * The k-th smallest of c[0..n) (0-based), c partly reordered: Hoare's
 * selection with a median-of-three pivot, O(n) on average -- a median over
 * 10^6 samples needs no full sort.
 */
static double select_kth(double *c, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2, i = lo, j = hi;
		double a = c[lo], b = c[mid], d = c[hi], pivot, t;

		pivot = a < b ? (b < d ? b : (a < d ? d : a)) : (a < d ? a : (b < d ? d : b));
		while (i <= j) {
			while (c[i] < pivot)
				i++;
			while (c[j] > pivot)
				j--;
			if (i <= j) {
				t = c[i];
				c[i] = c[j];
				c[j] = t;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return c[k];
	}
	return c[k];
}

double cz_median(const double *x, size_t n)
{
	double *c, m, lo;
	size_t i;

	if (!n)
		return NAN;
	c = malloc(n * sizeof(*c));
	if (!c)
		abort();
	memcpy(c, x, n * sizeof(*c));
	m = select_kth(c, n, n / 2);
	if (n % 2 == 0) {
		/* the other middle value: the largest of what selection left below n / 2 */
		lo = c[0];
		for (i = 1; i < n / 2; i++)
			if (c[i] > lo)
				lo = c[i];
		m = (lo + m) / 2;
	}
	free(c);
	return m;
}

static double ibeta(double a, double b, double x);

/*
 * Student's t 97.5% quantile: the t where the two-sided tail
 * P(|T| > t) = I_{df / (df + t^2)}(df / 2, 1 / 2) (A&S 26.7.1) is 0.05, by
 * bisection to 1e-12 -- exact for every df, where a printed table has a few
 * rows and interpolates between them.
 */
double cz_t975(size_t df)
{
	double lo = 1.9, hi = 13, mid, v = (double)df;
	int i;

	if (!df)
		return NAN;
	for (i = 0; i < 200 && hi - lo > 1e-12; i++) {
		mid = (lo + hi) / 2;
		if (ibeta(v / 2, 0.5, v / (v + mid * mid)) > 0.05)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

void cz_summarize(const double *x, size_t n, struct cz_summary *s)
{
	double sum = 0, ss = 0, half;
	size_t i;

	memset(s, 0, sizeof(*s));
	s->n = n;
	if (!n) {
		s->mean = s->median = s->min = s->max = s->ci_lo = s->ci_hi = NAN;
		return;
	}
	s->min = s->max = x[0];
	for (i = 0; i < n; i++) {
		sum += x[i];
		if (x[i] < s->min)
			s->min = x[i];
		if (x[i] > s->max)
			s->max = x[i];
	}
	s->mean = sum / (double)n;
	for (i = 0; i < n; i++)
		ss += (x[i] - s->mean) * (x[i] - s->mean);
	s->sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
	s->cv = s->mean != 0 ? s->sd / fabs(s->mean) : 0;
	s->median = cz_median(x, n);
	half = n > 1 ? cz_t975(n - 1) * s->sd / sqrt((double)n) : 0;
	s->ci_lo = s->mean - half;
	s->ci_hi = s->mean + half;
}

bool cz_ci_disjoint(const struct cz_summary *a, const struct cz_summary *b)
{
	return a->ci_hi < b->ci_lo || b->ci_hi < a->ci_lo;
}

/* One observation of a Mann-Whitney test: its value and whether it is the first sample's. */
struct mw_obs {
	double v;
	bool in_a;
};

static int cmp_obs(const void *pa, const void *pb)
{
	const struct mw_obs *a = pa, *b = pb;

	return (a->v > b->v) - (a->v < b->v);
}

/* Number of ways to get U statistic u with sizes (m, n): recursive count, memo-free (small m+n only). */
static double u_count(size_t u, size_t m, size_t n)
{
	if (m == 0 || n == 0)
		return u == 0;
	return (u >= n ? u_count(u - n, m - 1, n) : 0) + u_count(u, m, n - 1);
}

double cz_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb)
{
	double u = 0, ties = 0, mu, sigma, z, p;
	size_t i, j, m, N = na + nb;
	struct mw_obs *all;

	if (!na || !nb)
		return NAN;
	/* U of a from its rank sum (midranks for ties): O(N log N), not every pair */
	all = malloc(N * sizeof(*all));
	if (!all)
		abort();
	for (i = 0; i < N; i++)
		all[i] = (struct mw_obs){ i < na ? a[i] : b[i - na], i < na };
	qsort(all, N, sizeof(*all), cmp_obs);
	for (i = 0; i < N; i = j) {
		for (j = i + 1; j < N && all[j].v == all[i].v; j++)
			;
		for (m = i; m < j; m++)
			u += all[m].in_a ? (double)(i + 1 + j) / 2 : 0;
		ties += pow((double)(j - i), 3) - (double)(j - i);
	}
	u -= (double)na * (double)(na + 1) / 2;
	free(all);
	mu = (double)na * (double)nb / 2;
	if (ties == 0 && N <= 20) {
		/* exact two-sided: P(U <= min(u, na*nb - u)) * 2 */
		double total = 0, tail = 0, lo = u < mu ? u : (double)na * (double)nb - u;
		size_t k, max = na * nb;

		for (k = 0; k <= max; k++) {
			double c = u_count(k, na, nb);

			total += c;
			if ((double)k <= lo + 1e-9)
				tail += c;
		}
		p = 2 * tail / total;
		return p > 1 ? 1 : p;
	}
	sigma = sqrt((double)na * (double)nb / 12 *
		     ((double)(N + 1) - ties / ((double)N * (double)(N - 1))));
	if (sigma == 0)
		return 1;
	z = (fabs(u - mu) - 0.5) / sigma;
	if (z < 0)
		z = 0;
	p = erfc(z / sqrt(2));
	return p > 1 ? 1 : p;
}

/*
 * Continued fraction of the regularized incomplete beta function (modified
 * Lentz), valid for x < (a + 1) / (a + b + 2): Abramowitz and Stegun 26.5.8.
 */
static double betacf(double a, double b, double x)
{
	double c = 1, d = 1 - (a + b) * x / (a + 1), h, num, del;
	int m;

	d = fabs(d) < 1e-300 ? 1e300 : 1 / d;
	h = d;
	for (m = 1; m <= 300; m++) {
		num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 + num * d;
		d = fabs(d) < 1e-300 ? 1e300 : 1 / d;
		c = 1 + num / c;
		c = fabs(c) < 1e-300 ? 1e-300 : c;
		h *= d * c;
		num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + num * d;
		d = fabs(d) < 1e-300 ? 1e300 : 1 / d;
		c = 1 + num / c;
		c = fabs(c) < 1e-300 ? 1e-300 : c;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-12)
			break;
	}
	return h;
}

static double ibeta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log(1 - x));
	if (x < (a + 1) / (a + b + 2))
		return front * betacf(a, b, x) / a;
	return 1 - front * betacf(b, a, 1 - x) / b;
}

double cz_f_sf(double f, double d1, double d2)
{
	if (!(f > 0) || !(d1 > 0) || !(d2 > 0))
		return 1;
	/* P(F > f) = I_{d2 / (d2 + d1 f)}(d2 / 2, d1 / 2): A&S 26.6.2 */
	return ibeta(d2 / 2, d1 / 2, d2 / (d2 + d1 * f));
}
