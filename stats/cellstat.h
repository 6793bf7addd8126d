/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verdict on one cell against the base variant (cellstat.c). */
#ifndef STATS_CELLSTAT_H
#define STATS_CELLSTAT_H

#include <stdbool.h>
#include <stddef.h>

#include "results/result.h"
#include "samplestat.h"

struct czst_cstat {
	struct cz_summary s;
	bool ok;             /* has samples and did not fail */
	bool cmp;            /* ok, and the base is ok: pct/flag valid */
	double pct;          /* change vs the base, per cent, negative: worse */
	double lo, hi;       /* pct's 95% interval (positive: better), NaN: none */
	int flag;            /* -1 regression (R), +1 improvement (I), 0 none */
};

/* Cell (b, v) of r against the base variant's. */
void czst_cell_stat(const struct czres_result *r, size_t b, size_t v, struct czst_cstat *cs);
/*
 * Variant v vs the base on benchmark row b, as the table shows it: -1 (R),
 * +1 (I), 0 not flagged, with *pct the change (negative: worse); or
 * CZST_CHANGE_NONE when there is nothing to compare (failed, no samples, v
 * is the base).
 */
#define CZST_CHANGE_NONE (-2)
int czst_change(const struct czres_result *r, size_t b, size_t v, double *pct);
/*
 * The same verdict with the value's own change in per cent (new / base - 1:
 * a time that doubled reads +100) and its 95% interval [*lo, *hi] (NaN
 * when there is none): the interval of the verdict's rule where it has
 * one (layouts, rotate, paired), else the ratio of the two means' (first
 * order, Student t).
 */
int czst_change_ci(const struct czres_result *r, size_t b, size_t v, double *pct, double *lo,
		   double *hi);

#endif
