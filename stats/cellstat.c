/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The verdict on one cell against the base variant: its summary (mean,
 * 95% CI, CV, n) and its change in per cent, oriented so that negative is
 * worse, with the flag of the rule that applies -- the 95% CIs of base
 * and variant do not overlap (the rule of the Fastpath tables kernel
 * reviewers read), or, where the runs allow it, the paired verdicts over
 * layouts, rotating layouts or slots (verdict.c).  The report prints it
 * (report/report.c), zab's views and pages compare with it.
 */
#include <math.h>
#include <string.h>

#include "cellstat.h"
#include "samplestat.h"
#include "verdict.h"


/*
 * Placement varied per run: the change is the mean per-layout change and
 * the flag its paired 95% interval (doc/layouts.md), not the runs pooled.
 */
static void layout_verdict(const struct czres_result *r, size_t b, size_t v, struct czst_cstat *cs)
{
	struct czst_lstat lb, lv;
	struct czst_lpair p;
	bool hi = r->b[b].higher;

	if (czst_layout_stat(czres_cell(r, b, r->base), hi, &lb) &&
	    czst_layout_stat(czres_cell(r, b, v), hi, &lv) && czst_layout_pair(&lb, &lv, hi, &p)) {
		cs->pct = p.pct;
		cs->lo = p.ci_lo;
		cs->hi = p.ci_hi;
		cs->flag = p.flag;
	}
	czst_lstat_free(&lb);
	czst_lstat_free(&lv);
}

/*
 * The paired rules: A and B of one slot ran in the same round, so the
 * change is the mean per-slot log ratio and the flag its 95% interval.
 * placement = rotate (czst_rotate_pair): every run held every layout, the
 * runs are what is paired (doc/layouts.md).  verdict = paired at a fixed
 * placement (czst_slot_pair): A and B ran adjacent in time and share the
 * machine's state then -- a slow mode lasting seconds moves both
 * (doc/measurement.md).
 */
static void pair_verdict(const struct czres_result *r, size_t b, size_t v, struct czst_cstat *cs,
			 bool (*pair)(const struct czres_cell *, const struct czres_cell *, bool,
				      struct czst_lpair *))
{
	struct czst_lpair p;

	if (pair(czres_cell(r, b, r->base), czres_cell(r, b, v), r->b[b].higher, &p)) {
		cs->pct = p.pct;
		cs->lo = p.ci_lo;
		cs->hi = p.ci_hi;
		cs->flag = p.flag;
	}
}

/*
 * The ratio of the means' 95% interval, first order (the delta method):
 * se(v/b) = (v/b) sqrt((se_v/v)^2 + (se_b/b)^2), Student t with the
 * smaller sample's degrees of freedom; in pct's orientation.
 */
static void ratio_ci(const struct cz_summary *bs, const struct cz_summary *vs, bool higher,
		     struct czst_cstat *cs)
{
	double q, se, t, lo, hi;

	if (bs->n < 2 || vs->n < 2 || bs->mean == 0 || vs->mean == 0)
		return;
	q = vs->mean / bs->mean;
	se = fabs(q) * sqrt(pow(vs->sd / vs->mean, 2) / (double)vs->n +
			    pow(bs->sd / bs->mean, 2) / (double)bs->n);
	t = cz_t975((bs->n < vs->n ? bs->n : vs->n) - 1);
	lo = (q - t * se - 1) * 100;
	hi = (q + t * se - 1) * 100;
	cs->lo = higher ? lo : -hi;
	cs->hi = higher ? hi : -lo;
}

void czst_cell_stat(const struct czres_result *r, size_t b, size_t v, struct czst_cstat *cs)
{
	const struct czres_cell *c = czres_cell(r, b, v), *base = czres_cell(r, b, r->base);
	struct cz_summary bs;

	memset(cs, 0, sizeof(*cs));
	cs->lo = cs->hi = NAN;
	cz_summarize(c->x, c->n, &cs->s);
	cs->ok = !c->failed && c->n > 0;
	if (!cs->ok || base->failed || !base->n || v == r->base)
		return;
	cz_summarize(base->x, base->n, &bs);
	if (bs.mean == 0)
		return;
	cs->cmp = true;
	cs->pct = (cs->s.mean / bs.mean - 1) * 100 * (r->b[b].higher ? 1 : -1);
	ratio_ci(&bs, &cs->s, r->b[b].higher, cs);
	if (c->off && base->off) {
		layout_verdict(r, b, v, cs);
		return;
	}
	if (c->loff && base->loff) {
		pair_verdict(r, b, v, cs, czst_rotate_pair);
		return;
	}
	if (r->paired) {
		pair_verdict(r, b, v, cs, czst_slot_pair);
		return;
	}
	/* no confidence interval from a single sample: never flagged */
	if (bs.n >= 2 && cs->s.n >= 2 && cz_ci_disjoint(&bs, &cs->s))
		cs->flag = cs->pct < 0 ? -1 : 1;
}

int czst_change(const struct czres_result *r, size_t b, size_t v, double *pct)
{
	struct czst_cstat cs;

	czst_cell_stat(r, b, v, &cs);
	if (!cs.cmp)
		return CZST_CHANGE_NONE;
	*pct = cs.pct;
	return cs.flag;
}

int czst_change_ci(const struct czres_result *r, size_t b, size_t v, double *pct, double *lo,
		  double *hi)
{
	double sign = r->b[b].higher ? 1 : -1;
	struct czst_cstat cs;

	czst_cell_stat(r, b, v, &cs);
	if (!cs.cmp)
		return CZST_CHANGE_NONE;
	*pct = sign * cs.pct;
	*lo = sign > 0 ? cs.lo : -cs.hi;
	*hi = sign > 0 ? cs.hi : -cs.lo;
	return cs.flag;
}
