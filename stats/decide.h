/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Three answers on one comparison (decide.c): changed, same, or undecided,
 * from per-session paired ratios and an equivalence band -- what zab
 * bisect's probes and zab run --until-decided decide with.
 */
#ifndef STATS_DECIDE_H
#define STATS_DECIDE_H

#include <stdbool.h>
#include <stddef.h>

#include "results/result.h"

enum czst_answer { CZST_UNDECIDED, CZST_SAME, CZST_CHANGED };

struct czst_decision {
	enum czst_answer answer;
	size_t sessions;     /* the sessions (paired ratios) it rests on */
	double pct;          /* the change, per cent, positive: better (NaN: none) */
	double lo, hi;       /* its 95% interval (NaN: fewer than 2 sessions) */
};

/*
 * The per-session ratios of cell (b, v) against cell (b, base) of r: for
 * each session holding samples of both, log(mean v / mean base), negated
 * when lower is better (positive: better).  Appended to x[*n..max).
 */
void czst_session_ratios(const struct czres_result *r, size_t b, size_t base, size_t v, double *x,
			 size_t *n, size_t max);
/*
 * The decision over n per-session log ratios with a band of +-band per
 * cent: the mean ratio's 95% Student t interval, as a change in per cent;
 * changed when the interval lies wholly beyond the band (either side),
 * same when it lies wholly inside it, else undecided (and always
 * undecided below 2 sessions).
 */
void czst_decide(const double *x, size_t n, double band, struct czst_decision *d);
/* "changed", "same", "undecided". */
const char *czst_answer_name(enum czst_answer a);

#endif
