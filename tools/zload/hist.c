/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Completion-latency histogram: log-linear buckets, no sample array. */
#include <math.h>

#include "hist.h"

unsigned zl_hist_index(uint64_t v)
{
	unsigned msb, shift;

	if (v < 2 * ZL_HIST_GROUP)
		return (unsigned)v;
	msb = 63 - (unsigned)__builtin_clzll(v);
	shift = msb - ZL_HIST_BITS;
	return (shift + 1) * ZL_HIST_GROUP + (unsigned)((v >> shift) - ZL_HIST_GROUP);
}

uint64_t zl_hist_bucket_low(unsigned idx)
{
	unsigned shift;

	if (idx < 2 * ZL_HIST_GROUP)
		return idx;
	shift = idx / ZL_HIST_GROUP - 1;
	return (uint64_t)(idx % ZL_HIST_GROUP + ZL_HIST_GROUP) << shift;
}

static uint64_t zl_hist_bucket_width(unsigned idx)
{
	if (idx < 2 * ZL_HIST_GROUP)
		return 1;
	return 1ULL << (idx / ZL_HIST_GROUP - 1);
}

void zl_hist_add(struct zl_hist *h, uint64_t v)
{
	h->count[zl_hist_index(v)]++;
	if (!h->n || v < h->min)
		h->min = v;
	h->n++;
	h->sum += v;
	h->sumsq += (double)v * (double)v;
	if (v > h->max)
		h->max = v;
}

void zl_hist_merge(struct zl_hist *dst, const struct zl_hist *src)
{
	unsigned i;

	for (i = 0; i < ZL_HIST_BUCKETS; i++)
		dst->count[i] += src->count[i];
	if (src->n && (!dst->n || src->min < dst->min))
		dst->min = src->min;
	dst->n += src->n;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
	if (src->max > dst->max)
		dst->max = src->max;
}

uint64_t zl_hist_percentile(const struct zl_hist *h, double pct)
{
	uint64_t rank, seen = 0, v;
	unsigned i;

	if (!h->n)
		return 0;
	rank = (uint64_t)ceil(pct / 100.0 * (double)h->n);
	if (rank < 1)
		rank = 1;
	for (i = 0; i < ZL_HIST_BUCKETS; i++) {
		seen += h->count[i];
		if (seen >= rank)
			break;
	}
	if (i == ZL_HIST_BUCKETS)
		return h->max;
	v = zl_hist_bucket_low(i) + zl_hist_bucket_width(i) / 2;
	return v > h->max ? h->max : v;
}

/* zl_stat: a stream's min / max / mean / standard deviation. */
void zl_stat_add(struct zl_stat *s, double v)
{
	if (!s->n || v < s->min)
		s->min = v;
	if (!s->n || v > s->max)
		s->max = v;
	s->n++;
	s->sum += v;
	s->sumsq += v * v;
}

void zl_stat_merge(struct zl_stat *dst, const struct zl_stat *src)
{
	if (!src->n)
		return;
	if (!dst->n || src->min < dst->min)
		dst->min = src->min;
	if (!dst->n || src->max > dst->max)
		dst->max = src->max;
	dst->n += src->n;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
}

double zl_stat_mean(const struct zl_stat *s)
{
	return s->n ? s->sum / (double)s->n : 0.0;
}

/* Sample standard deviation (n - 1), as fio's. */
double zl_stat_stddev(const struct zl_stat *s)
{
	double mean = zl_stat_mean(s), var;

	if (s->n < 2)
		return 0.0;
	var = (s->sumsq - (double)s->n * mean * mean) / (double)(s->n - 1);
	return var > 0 ? sqrt(var) : 0.0;
}
