/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Statistics over layouts: a cell whose runs used different code offsets
 * (placement random, sweep or rotate), and the A/B verdicts paired by
 * layout, by run or by slot (doc/layouts.md has the design and formulas).
 *
 * Two levels: layouts, and runs within a layout.  A variant's figure is the
 * mean of its per-layout means, with a Student-t interval from their spread,
 * which contains the between-layout variance (one-way random-effects model).
 * Layout sensitivity is best vs worst per-layout mean, the share of the
 * variance the layout explains (the intraclass correlation of the ANOVA
 * estimates) and the ANOVA's F test of "layout does not matter".  The A/B
 * verdict is paired by layout: the per-layout changes, their mean and its
 * t interval.
 *
 * placement = rotate: every run holds every layout (the daemon rotates
 * over them per request), so the runs are blocks of a two-way layout x run
 * model; the figure is the mean of the per-run values and the A/B verdict
 * pairs the runs of a slot (czst_rotate_stat, czst_rotate_pair).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "czlimits.h"
#include "samplestat.h"
#include "verdict.h"

static int cmp_uint(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/* The offsets a cell's samples used, sorted, without duplicates. */
static size_t cell_offsets(const struct czres_cell *c, unsigned *out)
{
	size_t i, n = 0, k;

	for (i = 0; i < c->n; i++)
		if (c->off[i] >= 0)
			out[n++] = (unsigned)c->off[i];
	qsort(out, n, sizeof(*out), cmp_uint);
	for (i = k = 0; i < n; i++)
		if (!k || out[k - 1] != out[i])
			out[k++] = out[i];
	return k;
}

/*
 * One-way random-effects ANOVA: the share of the variance between layouts.
 * Session blocks removed beforehand cost the within-layout sum its
 * blocks - 1 degrees of freedom.
 */
static void layout_anova(const struct czres_cell *c, struct czst_lstat *ls)
{
	double ssb = 0, ssw = 0, sumn2 = 0, n0, msb, msw, s2l;
	size_t i, j, N = 0, dfb = ls->blocks ? ls->blocks - 1 : 0;

	for (j = 0; j < ls->nl; j++) {
		N += ls->n[j];
		sumn2 += (double)ls->n[j] * (double)ls->n[j];
		ssb += (double)ls->n[j] * (ls->mean[j] - ls->wmean) * (ls->mean[j] - ls->wmean);
	}
	for (i = 0; i < c->n; i++)
		for (j = 0; j < ls->nl; j++)
			if (c->off[i] == (int)ls->off[j])
				ssw += (c->x[i] - ls->mean[j]) * (c->x[i] - ls->mean[j]);
	ls->share = NAN;
	ls->sd_within = NAN;
	ls->sens_p = NAN;
	if (N <= ls->nl + dfb || ls->nl < 2)
		return;         /* no layout measured twice, or one layout: not separable */
	msb = ssb / (double)(ls->nl - 1);
	msw = ssw / (double)(N - ls->nl - dfb);
	n0 = ((double)N - sumn2 / (double)N) / (double)(ls->nl - 1);
	s2l = (msb - msw) / n0;
	if (s2l < 0)
		s2l = 0;
	ls->sd_within = sqrt(msw);
	ls->share = s2l + msw > 0 ? s2l / (s2l + msw) : 0;
	/* does layout matter at all?  The ANOVA F test of s2_L = 0 */
	ls->sens_p = msw > 0 ? cz_f_sf(msb / msw, (double)(ls->nl - 1), (double)(N - ls->nl - dfb)) :
		     msb > 0 ? 0 : 1;
}

/*
 * Best vs worst per-layout mean.  Whether it is more than noise is the
 * ANOVA's F test (layout_anova), not the two extremes' intervals: the
 * extremes of many layouts are selected, and are often single runs.
 */
void czst_layout_spread(struct czst_lstat *ls, bool higher)
{
	size_t j, best = 0, worst = 0;

	for (j = 1; j < ls->nl; j++) {
		if ((ls->mean[j] > ls->mean[best]) == higher && ls->mean[j] != ls->mean[best])
			best = j;
		if ((ls->mean[j] < ls->mean[worst]) == higher && ls->mean[j] != ls->mean[worst])
			worst = j;
	}
	ls->best = best;
	ls->worst = worst;
	ls->sens_pct = ls->grand ? fabs(ls->mean[best] - ls->mean[worst]) / ls->grand * 100 : 0;
	ls->sens_sig = !isnan(ls->sens_p) && ls->sens_p < 0.05;
}

/*
 * Sessions are blocks: each runs on its own CPU with fresh daemons, and a
 * CPU's speed moves every run of its session alike (on a 2-vCPU VM one
 * vCPU ran rep_stosb at 34 ns per chunk, the other at 54).  A layout drawn
 * in one session only would carry that as a layout effect, so each sample
 * is scaled by its session's mean relative to the cell's (an additive
 * model on the log scale).  NULL: one session, or sessions not known.
 */
static double *session_adjusted(const struct czres_cell *c, unsigned *blocks)
{
	unsigned smax = 0, k, nsess = 0;
	double *sum, *x, g = 0;
	size_t i, *n;

	for (i = 0; c->sess && i < c->n; i++)
		smax = c->sess[i] > smax ? c->sess[i] : smax;
	if (!smax)
		return NULL;
	sum = calloc(smax + 1, sizeof(*sum));
	n = calloc(smax + 1, sizeof(*n));
	x = cz_xmalloc(c->n * sizeof(*x));
	if (!sum || !n)
		abort();
	for (i = 0; i < c->n; i++) {
		sum[c->sess[i]] += c->x[i];
		n[c->sess[i]]++;
		g += c->x[i];
	}
	g /= (double)c->n;
	for (k = 0; k <= smax; k++)
		nsess += n[k] > 0;
	for (i = 0; i < c->n; i++) {
		double m = sum[c->sess[i]] / (double)n[c->sess[i]];

		x[i] = m ? c->x[i] * g / m : c->x[i];
	}
	free(sum);
	free(n);
	if (nsess < 2) {
		free(x);
		return NULL;
	}
	*blocks = nsess;
	return x;
}

bool czst_layout_stat(const struct czres_cell *cell, bool higher, struct czst_lstat *ls)
{
	struct czres_cell adj = *cell, *c = &adj;
	struct cz_summary s;
	size_t i, j, N = 0;
	double *x;

	memset(ls, 0, sizeof(*ls));
	if (cell->loff && !cell->failed && cell->n)
		return czst_rotate_stat(cell, higher, ls);
	if (!cell->off || cell->failed || !cell->n)
		return false;
	x = session_adjusted(cell, &ls->blocks);
	if (x)
		adj.x = x;
	ls->off = cz_xmalloc(c->n * sizeof(*ls->off));
	ls->nl = cell_offsets(c, ls->off);
	if (!ls->nl) {
		czst_lstat_free(ls);
		free(x);
		return false;
	}
	ls->mean = calloc(ls->nl, sizeof(*ls->mean));
	ls->n = calloc(ls->nl, sizeof(*ls->n));
	if (!ls->mean || !ls->n)
		abort();
	for (i = 0; i < c->n; i++)
		for (j = 0; j < ls->nl; j++)
			if (c->off[i] == (int)ls->off[j]) {
				ls->mean[j] += c->x[i];
				ls->n[j]++;
				ls->wmean += c->x[i];
				N++;
			}
	ls->wmean /= (double)N;
	for (j = 0; j < ls->nl; j++)
		ls->mean[j] /= (double)ls->n[j];
	/* the mean over layouts and its interval: the layouts are the sample */
	cz_summarize(ls->mean, ls->nl, &s);
	ls->grand = s.mean;
	ls->ci_lo = s.ci_lo;
	ls->ci_hi = s.ci_hi;
	layout_anova(c, ls);
	czst_layout_spread(ls, higher);
	free(x);
	return true;
}

void czst_lstat_free(struct czst_lstat *ls)
{
	free(ls->off);
	free(ls->mean);
	free(ls->n);
	memset(ls, 0, sizeof(*ls));
}

/*
 * Base b vs variant v, paired by layout: per common layout the change in
 * per cent (positive: v better), their mean and 95% t interval.  A layout
 * counts as better or worse when its change exceeds twice the standard
 * error of a per-layout difference from the pooled within-layout spread
 * (or, with no layout measured twice, by its sign).
 */
bool czst_layout_pair(const struct czst_lstat *b, const struct czst_lstat *v, bool higher,
		      struct czst_lpair *p)
{
	double d[ZERO_PLACE_MAX_OFFSET + 1], sw;
	struct cz_summary s;
	size_t i, j, k = 0;

	memset(p, 0, sizeof(*p));
	if (b->rotate || v->rotate)     /* rotate: runs paired, not layouts */
		return b->rotate && v->rotate && czst_rotate_pair(b->cell, v->cell, higher, p);
	sw = !isnan(b->sd_within) && !isnan(v->sd_within) ?
	     sqrt((b->sd_within * b->sd_within + v->sd_within * v->sd_within) / 2) : NAN;
	for (i = 0; i < b->nl; i++)
		for (j = 0; j < v->nl; j++) {
			double diff, se;

			if (b->off[i] != v->off[j] || !b->mean[i])
				continue;
			diff = (v->mean[j] - b->mean[i]) * (higher ? 1 : -1);
			d[k++] = diff / b->mean[i] * 100;
			se = isnan(sw) ? 0 : sw * sqrt(1.0 / (double)b->n[i] + 1.0 / (double)v->n[j]);
			p->better += diff > 2 * se;
			p->worse += diff < -2 * se;
		}
	p->nl = k;
	if (k < 2)
		return false;   /* no interval from one layout */
	cz_summarize(d, k, &s);
	p->pct = s.mean;
	p->ci_lo = s.ci_lo;
	p->ci_hi = s.ci_hi;
	p->flag = s.ci_lo > 0 ? 1 : s.ci_hi < 0 ? -1 : 0;
	return true;
}

/* ---- placement = rotate: every layout in every run ------------------------------------ */

/*
 * The two-way layout x run model without replication (doc/layouts.md,
 * "Rotation"): y[i][j] the log of run i's value at layout j, over the runs
 * that have a value at every layout.  Runs are blocks: whatever the machine
 * did during a run (a slow mode, the CPU's speed) moves all its layouts
 * alike and goes to SS_run, not to the layout's effect or the error.
 *   SS_layout = n sum_j (c_j - g)^2      df K - 1
 *   SS_run    = K sum_i (r_i - g)^2      df n - 1
 *   SS_error  = SS_total - SS_layout - SS_run   df (K - 1)(n - 1)
 *   F = MS_layout / MS_error; s2_L = max(0, (MS_layout - MS_error) / n)
 */
static void rotate_anova(const double *y, size_t n, size_t K, struct czst_lstat *ls)
{
	double g = 0, ssl = 0, ssr = 0, sst = 0, sse, msl, mse, s2l, m;
	size_t i, j;

	ls->share = NAN;
	ls->sd_within = NAN;
	ls->sens_p = NAN;
	if (n < 2 || K < 2)
		return;
	for (i = 0; i < n * K; i++)
		g += y[i];
	g /= (double)(n * K);
	for (i = 0; i < n * K; i++)
		sst += (y[i] - g) * (y[i] - g);
	for (j = 0; j < K; j++) {
		for (i = 0, m = 0; i < n; i++)
			m += y[i * K + j];
		m /= (double)n;
		ssl += (double)n * (m - g) * (m - g);
	}
	for (i = 0; i < n; i++) {
		for (j = 0, m = 0; j < K; j++)
			m += y[i * K + j];
		m /= (double)K;
		ssr += (double)K * (m - g) * (m - g);
	}
	sse = sst - ssl - ssr;
	if (sse < 0)
		sse = 0;        /* rounding */
	msl = ssl / (double)(K - 1);
	mse = sse / (double)((K - 1) * (n - 1));
	s2l = (msl - mse) / (double)n;
	if (s2l < 0)
		s2l = 0;
	ls->sd_within = sqrt(mse);
	ls->share = s2l + mse > 0 ? s2l / (s2l + mse) : 0;
	ls->sens_p = mse > 0 ? cz_f_sf(msl / mse, (double)(K - 1), (double)((K - 1) * (n - 1))) :
		     msl > 0 ? 0 : 1;
}

static bool usable(double x)
{
	return isfinite(x) && x > 0;
}

/*
 * The layouts with a value in some run, and the runs with a value at every
 * one of those (a layout that served no request in a run leaves that run
 * out of the model; its figure is over the layouts it has).
 */
static void rotate_keep(const struct czres_cell *c, bool *klay, bool *krun, size_t *K, size_t *n)
{
	size_t i, j;

	*K = *n = 0;
	for (j = 0; j < c->nlay; j++) {
		klay[j] = false;
		for (i = 0; i < c->n && !klay[j]; i++)
			klay[j] = usable(c->lay[i * c->nlay + j]);
		*K += klay[j];
	}
	for (i = 0; i < c->n; i++) {
		krun[i] = *K > 0;
		for (j = 0; j < c->nlay; j++)
			if (klay[j] && !usable(c->lay[i * c->nlay + j]))
				krun[i] = false;
		*n += krun[i];
	}
}

bool czst_rotate_stat(const struct czres_cell *c, bool higher, struct czst_lstat *ls)
{
	bool klay[ZERO_PLACE_MAX_OFFSET + 1], *krun;
	size_t i, j, k, K, n, r;
	struct cz_summary s;
	double *y, g = 0;

	memset(ls, 0, sizeof(*ls));
	if (!c->lay || !c->nlay || c->nlay > ZERO_PLACE_MAX_OFFSET + 1)
		return false;
	krun = cz_xmalloc(c->n * sizeof(*krun));
	rotate_keep(c, klay, krun, &K, &n);
	if (!n) {
		free(krun);
		return false;
	}
	ls->rotate = true;
	ls->cell = c;
	ls->runs = n;
	ls->nl = K;
	ls->off = cz_xmalloc(K * sizeof(*ls->off));
	ls->mean = calloc(K, sizeof(*ls->mean));
	ls->n = calloc(K, sizeof(*ls->n));
	y = cz_xmalloc(n * K * sizeof(*y));
	if (!ls->mean || !ls->n)
		abort();
	for (i = r = 0; i < c->n; i++) {
		if (!krun[i])
			continue;
		for (j = k = 0; j < c->nlay; j++) {
			if (!klay[j])
				continue;
			ls->mean[k] += c->lay[i * c->nlay + j];
			y[r * K + k++] = log(c->lay[i * c->nlay + j]);
		}
		r++;
	}
	for (j = k = 0; j < c->nlay; j++)
		if (klay[j]) {
			ls->off[k] = c->loff[j];
			ls->n[k] = n;
			ls->mean[k] /= (double)n;
			g += ls->mean[k++];
		}
	rotate_anova(y, n, K, ls);
	/* sensitivity relative to the mean over layouts; the figure: the runs' mean */
	ls->grand = g / (double)K;
	czst_layout_spread(ls, higher);
	cz_summarize(c->x, c->n, &s);
	ls->grand = ls->wmean = s.mean;
	ls->ci_lo = s.ci_lo;
	ls->ci_hi = s.ci_hi;
	free(y);
	free(krun);
	return true;
}

/*
 * Runs of one slot: the k-th run of session s of one cell with the k-th of
 * session s of the other (both ran in the same round, adjacent in time);
 * by position when sessions are not known.  Returns the pairs.
 */
static size_t pair_runs(const struct czres_cell *a, const struct czres_cell *b, size_t *ia, size_t *ib)
{
	size_t i, j, n = 0;
	unsigned s, smax = 0;

	if (!a->sess || !b->sess) {
		for (n = 0; n < a->n && n < b->n; n++)
			ia[n] = ib[n] = n;
		return n;
	}
	for (i = 0; i < a->n; i++)
		smax = a->sess[i] > smax ? a->sess[i] : smax;
	for (s = 1; s <= smax; s++)
		for (i = j = 0;; i++, j++) {
			while (i < a->n && a->sess[i] != s)
				i++;
			while (j < b->n && b->sess[j] != s)
				j++;
			if (i >= a->n || j >= b->n)
				break;
			ia[n] = i;
			ib[n++] = j;
		}
	return n;
}

/*
 * A log ratio (sign x log(B/A), positive better) as the per cent change of
 * the other modes' rule (report.c): B/A - 1 when higher is better,
 * 1 - B/A when lower is (so a B taking 6 times A's ns reads -500%, at any
 * placement mode).
 */
static double ratio_pct(double d, double sign)
{
	return (sign > 0 ? exp(d) - 1 : 1 - exp(-d)) * 100;
}

/* The paired log ratios' mean and 95% t interval, as per cent changes. */
static void ratio_interval(const double *d, size_t k, double sign, double *pct, double *lo,
			   double *hi)
{
	struct cz_summary s;

	cz_summarize(d, k, &s);
	*pct = ratio_pct(s.mean, sign);
	*lo = ratio_pct(s.ci_lo, sign);
	*hi = ratio_pct(s.ci_hi, sign);
}

/* Per common layout: is v better or worse than b (paired per-run log ratios' interval)? */
static void rotate_layouts(const struct czres_cell *b, const struct czres_cell *v, const size_t *ib,
			   const size_t *iv, size_t np, double sign, double *d, struct czst_lpair *p)
{
	double pct, lo, hi, x, y;
	size_t j, jj, i, k;

	for (j = 0; b->lay && v->lay && j < b->nlay; j++)
		for (jj = 0; jj < v->nlay; jj++) {
			if (b->loff[j] != v->loff[jj])
				continue;
			for (i = k = 0; i < np; i++) {
				x = b->lay[ib[i] * b->nlay + j];
				y = v->lay[iv[i] * v->nlay + jj];
				if (usable(x) && usable(y))
					d[k++] = sign * log(y / x);
			}
			if (k < 2)
				continue;
			p->nl++;
			ratio_interval(d, k, sign, &pct, &lo, &hi);
			p->better += lo > 0;
			p->worse += hi < 0;
		}
}

/*
 * The runs of one slot paired: the change is the mean per-run log ratio, the
 * flag its 95% t interval; rotate adds the per-layout counts.
 */
static bool slot_pair(const struct czres_cell *b, const struct czres_cell *v, bool higher, bool rotate,
		      struct czst_lpair *p)
{
	size_t m = b->n > v->n ? b->n : v->n, *ib, *iv, np, i, k;
	double sign = higher ? 1 : -1, *d;

	memset(p, 0, sizeof(*p));
	if (b->failed || v->failed || !b->n || !v->n)
		return false;
	ib = cz_xmalloc(m * sizeof(*ib));
	iv = cz_xmalloc(m * sizeof(*iv));
	d = cz_xmalloc(m * sizeof(*d));
	np = pair_runs(b, v, ib, iv);
	for (i = k = 0; i < np; i++)
		if (usable(b->x[ib[i]]) && usable(v->x[iv[i]]))
			d[k++] = sign * log(v->x[iv[i]] / b->x[ib[i]]);
	p->runs = k;
	if (k >= 2) {
		ratio_interval(d, k, sign, &p->pct, &p->ci_lo, &p->ci_hi);
		p->flag = p->ci_lo > 0 ? 1 : p->ci_hi < 0 ? -1 : 0;
		if (rotate)
			rotate_layouts(b, v, ib, iv, np, sign, d, p);
	}
	free(ib);
	free(iv);
	free(d);
	return k >= 2;
}

bool czst_rotate_pair(const struct czres_cell *b, const struct czres_cell *v, bool higher,
		      struct czst_lpair *p)
{
	memset(p, 0, sizeof(*p));
	return b->loff && v->loff && slot_pair(b, v, higher, true, p);
}

bool czst_slot_pair(const struct czres_cell *b, const struct czres_cell *v, bool higher,
		    struct czst_lpair *p)
{
	return slot_pair(b, v, higher, false, p);
}
