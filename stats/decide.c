/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Changed, same or undecided: the three answers of Chromium Pinpoint's
 * comparisons, with an equivalence band in place of its two p-value
 * thresholds.  The unit is the session: each session runs every variant
 * in daemons of its own, so the samples of one session share its offset
 * and are no independent replicates (doc/changepoints.md); the session's
 * mean of B over its mean of A is one paired observation, and more
 * sessions -- not more repeats -- narrow the interval.
 *
 *   changed    the 95% interval of the mean log ratio lies wholly beyond
 *              +-band (a change larger than the band, either way)
 *   same       it lies wholly inside +-band (equivalence, as a two
 *              one-sided test at 2.5% each side)
 *   undecided  it straddles an edge of the band: more sessions may tell
 */
#include <math.h>
#include <string.h>

#include "decide.h"
#include "samplestat.h"

/* The mean of the samples of cell c in session s (1-based), NaN when none. */
static double session_mean(const struct czres_cell *c, unsigned s)
{
	double sum = 0;
	size_t i, n = 0;

	for (i = 0; i < c->n; i++)
		if (c->sess[i] == s && isfinite(c->x[i])) {
			sum += c->x[i];
			n++;
		}
	return n ? sum / (double)n : NAN;
}

void czst_session_ratios(const struct czres_result *r, size_t b, size_t base, size_t v, double *x,
			 size_t *n, size_t max)
{
	const struct czres_cell *a = czres_cell(r, b, base), *c = czres_cell(r, b, v);
	unsigned s, top = 0;
	size_t i;

	if (a->failed || c->failed || !a->sess || !c->sess)
		return;
	for (i = 0; i < c->n; i++)
		if (c->sess[i] > top)
			top = c->sess[i];
	for (s = 1; s <= top && *n < max; s++) {
		double ma = session_mean(a, s), mc = session_mean(c, s);

		if (!(ma > 0) || !(mc > 0))
			continue;
		x[(*n)++] = r->b[b].higher ? log(mc / ma) : log(ma / mc);
	}
}

void czst_decide(const double *x, size_t n, double band, struct czst_decision *d)
{
	struct cz_summary s;
	double t, lim = log1p(band / 100);

	memset(d, 0, sizeof(*d));
	d->answer = CZST_UNDECIDED;
	d->sessions = n;
	d->pct = d->lo = d->hi = NAN;
	if (!n)
		return;
	cz_summarize(x, n, &s);
	d->pct = expm1(s.mean) * 100;
	if (n < 2)
		return;
	t = cz_t975(n - 1) * s.sd / sqrt((double)n);
	d->lo = expm1(s.mean - t) * 100;
	d->hi = expm1(s.mean + t) * 100;
	if (s.mean - t > lim || s.mean + t < -lim)
		d->answer = CZST_CHANGED;
	else if (s.mean - t >= -lim && s.mean + t <= lim)
		d->answer = CZST_SAME;
}

const char *czst_answer_name(enum czst_answer a)
{
	return a == CZST_CHANGED ? "changed" : a == CZST_SAME ? "same" : "undecided";
}
