/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Statistics over layouts and the paired verdicts (verdict.c): what the
 * report says of cells whose runs used different code offsets, and of
 * runs paired by slot.
 */
#ifndef STATS_VERDICT_H
#define STATS_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "results/result.h"

struct czst_lstat {
	bool rotate;         /* placement = rotate: every run held every layout */
	const struct czres_cell *cell;   /* rotate: the cell (its runs pair with another's) */
	size_t runs;         /* rotate: the runs with a value at every layout (the model's) */
	size_t nl;           /* layouts (distinct offsets) */
	unsigned blocks;     /* sessions removed as blocks (0: none) */
	unsigned *off;       /* [nl] sorted */
	double *mean;        /* [nl] per-layout mean */
	size_t *n;           /* [nl] runs per layout */
	double grand, ci_lo, ci_hi;   /* mean over layouts, 95% t interval */
	double wmean;        /* mean over runs */
	double sd_within;    /* pooled within-layout SD, NaN when no layout has 2 runs */
	double share;        /* share of the variance between layouts (0..1), NaN: unknown */
	size_t best, worst;  /* indexes of the best and worst per-layout means */
	double sens_pct;     /* |best - worst| / grand, per cent */
	double sens_p;       /* F test p of no layout effect (one-way ANOVA; rotate: the
			      * two-way layout x run model), NaN: unknown */
	bool sens_sig;       /* sens_p < 0.05 */
};

struct czst_lpair {
	size_t nl;           /* layouts both cells measured */
	size_t better, worse;
	double pct, ci_lo, ci_hi;   /* mean per-layout change (positive: better), per cent;
				     * rotate: the mean per-run change */
	size_t runs;         /* rotate: the pairs of runs */
	int flag;            /* 1 improvement, -1 regression, 0 none */
};

/* false when the cell has no offsets (fixed placement) or no sample. */
bool czst_layout_stat(const struct czres_cell *c, bool higher, struct czst_lstat *ls);
void czst_lstat_free(struct czst_lstat *ls);
/* czst_layout_stat of a rotating cell (false: no per-layout values). */
bool czst_rotate_stat(const struct czres_cell *c, bool higher, struct czst_lstat *ls);
/* best, worst and sens_pct from mean[] and grand, sens_sig from sens_p. */
void czst_layout_spread(struct czst_lstat *ls, bool higher);
/* false when fewer than two layouts are common to both. */
bool czst_layout_pair(const struct czst_lstat *b, const struct czst_lstat *v, bool higher,
		      struct czst_lpair *p);
/*
 * Two rotating cells (loff set): the paired verdict on the per-run values
 * (runs of one slot paired: session by session, in order), pct/ci/flag;
 * and, when both have per-layout values, per layout the paired per-run
 * log ratios' 95% t interval (better/worse, nl = the common layouts).
 * false when fewer than two runs pair up.
 */
bool czst_rotate_pair(const struct czres_cell *b, const struct czres_cell *v, bool higher,
		      struct czst_lpair *p);
/* verdict = paired, fixed placement: the runs of one slot paired (p->flag, pct, runs, interval). */
bool czst_slot_pair(const struct czres_cell *b, const struct czres_cell *v, bool higher,
		    struct czst_lpair *p);

#endif
