/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Descriptive statistics for benchmark samples (doc/sources.md, "Statistics of A/B tables"):
 * mean, sample standard deviation, median, CV, Student-t 95% confidence
 * interval, and the Mann-Whitney U test.  Inputs are not modified.
 */
#ifndef LIB_SAMPLESTAT_H
#define LIB_SAMPLESTAT_H

#include <stdbool.h>
#include <stddef.h>

struct cz_summary {
	size_t n;
	double mean, sd, cv;       /* sd: sample (n-1); cv = sd / mean */
	double median, min, max;
	double ci_lo, ci_hi;       /* 95% CI of the mean (Student t), = mean when n < 2 */
};

void cz_summarize(const double *x, size_t n, struct cz_summary *s);
double cz_median(const double *x, size_t n);
/* The 97.5% quantile of Student's t with df degrees of freedom (exact; NAN for df 0). */
double cz_t975(size_t df);
/* True when the two 95% confidence intervals do not overlap (the Fastpath rule). */
bool cz_ci_disjoint(const struct cz_summary *a, const struct cz_summary *b);
/* P(F > f) for Snedecor's F with (d1, d2) degrees of freedom (a one-way ANOVA's p-value). */
double cz_f_sf(double f, double d1, double d2);
/* Two-sided Mann-Whitney U p-value (exact for small samples, normal approx. with tie correction otherwise). */
double cz_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb);

#endif
