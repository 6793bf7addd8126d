/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A result's cells as the JSON document carries them ("cells": what zab
 * run --export-json writes and results/result.c reads back): each cell's
 * samples and their facts, and for placement random/sweep/rotate its
 * layouts with the figures over them (stats/verdict.c), which a reader
 * of the file needs no statistics to see.
 */
#include <math.h>

#include "report.h"
#include "stats/verdict.h"

/* Per-layout cells and the figures over layouts (placement random/sweep/rotate). */
static void layouts_json(json_t *o, const struct czres_result *r, size_t b, size_t v)
{
	struct czst_lstat ls, lb;
	struct czst_lpair p;
	json_t *arr, *l, *pj;
	size_t j;

	if (!czst_layout_stat(czres_cell(r, b, v), r->b[b].higher, &ls))
		return;
	arr = cz_jset(o, "layouts", cz_jarr());
	for (j = 0; j < ls.nl; j++) {
		l = cz_jpush(arr, cz_jobj());
		cz_jset(l, "offset", cz_jnum(ls.off[j]));
		cz_jset(l, "runs", cz_jnum((double)ls.n[j]));
		cz_jset(l, "mean", cz_jnum(ls.mean[j]));
	}
	l = cz_jset(o, "over_layouts", cz_jobj());
	/* rotate: every run held every layout (the two-way model; runs: those in it) */
	if (ls.rotate) {
		cz_jset(l, "design", cz_jstr("rotate"));
		cz_jset(l, "runs", cz_jnum((double)ls.runs));
	}
	cz_jset(l, "mean", cz_jnum(ls.grand));
	cz_jset(l, "ci_lo", cz_jnum(ls.ci_lo));
	cz_jset(l, "ci_hi", cz_jnum(ls.ci_hi));
	cz_jset(l, "sensitivity_pct", cz_jnum(ls.sens_pct));
	cz_jset(l, "sensitivity_significant", json_boolean(ls.sens_sig));
	cz_jset(l, "layout_p", isnan(ls.sens_p) ? json_null() : cz_jnum(ls.sens_p));
	cz_jset(l, "best_offset", cz_jnum(ls.off[ls.best]));
	cz_jset(l, "worst_offset", cz_jnum(ls.off[ls.worst]));
	cz_jset(l, "layout_share", isnan(ls.share) ? json_null() : cz_jnum(ls.share));
	if (v != r->base && czst_layout_stat(czres_cell(r, b, r->base), r->b[b].higher, &lb)) {
		if (czst_layout_pair(&lb, &ls, r->b[b].higher, &p)) {
			pj = cz_jset(o, "paired_by_layout", cz_jobj());
			/* rotate: the change is over the runs paired by slot */
			if (ls.rotate)
				cz_jset(pj, "paired", cz_jstr("runs"));
			cz_jset(pj, "layouts", cz_jnum((double)p.nl));
			cz_jset(pj, "change_pct", cz_jnum(p.pct));
			cz_jset(pj, "ci_lo_pct", cz_jnum(p.ci_lo));
			cz_jset(pj, "ci_hi_pct", cz_jnum(p.ci_hi));
			cz_jset(pj, "better", cz_jnum((double)p.better));
			cz_jset(pj, "worse", cz_jnum((double)p.worse));
			cz_jset(pj, "verdict", cz_jstr(p.flag > 0 ? "improvement" : p.flag < 0 ?
						     "regression" : "no difference"));
		}
		czst_lstat_free(&lb);
	}
	czst_lstat_free(&ls);
}

/* placement = rotate: the layouts, and per sample each one's value (null: no request). */
static void rotation_json(json_t *o, const struct czres_cell *c)
{
	json_t *x, *row;
	size_t i, j;

	x = cz_jset(o, "layout_offsets", cz_jarr());
	for (j = 0; j < c->nlay; j++)
		cz_jpush(x, cz_jnum(c->loff[j]));
	if (!c->lay)
		return;
	x = cz_jset(o, "sample_layouts", cz_jarr());
	for (i = 0; i < c->n; i++) {
		row = cz_jpush(x, cz_jarr());
		for (j = 0; j < c->nlay; j++) {
			double y = c->lay[i * c->nlay + j];

			cz_jpush(row, isfinite(y) ? cz_jnum(y) : json_null());
		}
	}
}

void czrep_cells_json(json_t *doc, const struct czres_result *r)
{
	json_t *arr = cz_jset(doc, "cells", cz_jarr()), *o, *x;
	size_t b, v, i;

	for (b = 0; b < r->nb; b++)
		for (v = 0; v < r->nv; v++) {
			const struct czres_cell *c = czres_cell(r, b, v);

			o = cz_jpush(arr, cz_jobj());
			cz_jset(o, "benchmark", cz_jstr(r->b[b].name));
			cz_jset(o, "variant", cz_jstr(r->vname[v]));
			x = cz_jset(o, "samples", cz_jarr());
			for (i = 0; i < c->n; i++)
				cz_jpush(x, cz_jnum(c->x[i]));
			if (c->sess) {
				x = cz_jset(o, "sample_sessions", cz_jarr());
				for (i = 0; i < c->n; i++)
					cz_jpush(x, cz_jnum(c->sess[i]));
			}
			if (c->pre) {
				/* NaN (unknown) as null: JSON has no NaN */
				x = cz_jset(o, "sample_preempted", cz_jarr());
				for (i = 0; i < c->n; i++)
					cz_jpush(x, isnan(c->pre[i]) ? json_null() : cz_jnum(c->pre[i]));
			}
			if (c->off) {
				x = cz_jset(o, "sample_offsets", cz_jarr());
				for (i = 0; i < c->n; i++)
					cz_jpush(x, c->off[i] < 0 ? json_null() : cz_jnum(c->off[i]));
			}
			if (c->loff)
				rotation_json(o, c);
			if (c->off || c->loff)
				layouts_json(o, r, b, v);
			cz_jset(o, "failed", json_boolean(c->failed));
			cz_jset(o, "error", cz_jstr(c->error));
		}
}
