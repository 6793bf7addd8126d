/* SPDX-License-Identifier: GPL-2.0-or-later */
/* zload's completion-latency histogram (no liburing dependency: unit-tested alone). */
#ifndef TOOLS_ZLOAD_HIST_H
#define TOOLS_ZLOAD_HIST_H

#include <stdint.h>

/*
 * Log-linear histogram (HdrHistogram / fio style): values below 2 * 64 are
 * exact, above that each power of two is split into 64 buckets, so a bucket
 * is at most 1/64 (1.6%) of its value wide.  Values are nanoseconds.
 */
#define ZL_HIST_BITS	6
#define ZL_HIST_GROUP	(1u << ZL_HIST_BITS)
#define ZL_HIST_BUCKETS	((64 - ZL_HIST_BITS + 1) * ZL_HIST_GROUP)

struct zl_hist {
	uint64_t count[ZL_HIST_BUCKETS];
	uint64_t n, min, max, sum;
	double sumsq;			/* for the standard deviation */
};

void zl_hist_add(struct zl_hist *h, uint64_t v);
void zl_hist_merge(struct zl_hist *dst, const struct zl_hist *src);
/* Value at percentile pct (0 < pct <= 100): a bucket's midpoint, never above max. */
uint64_t zl_hist_percentile(const struct zl_hist *h, double pct);
unsigned zl_hist_index(uint64_t v);
uint64_t zl_hist_bucket_low(unsigned idx);

/* min / max / mean / standard deviation of a stream (fio's io_stat). */
struct zl_stat {
	uint64_t n;
	double min, max, sum, sumsq;
};

void zl_stat_add(struct zl_stat *s, double v);
void zl_stat_merge(struct zl_stat *dst, const struct zl_stat *src);
double zl_stat_mean(const struct zl_stat *s);
double zl_stat_stddev(const struct zl_stat *s);

#endif
