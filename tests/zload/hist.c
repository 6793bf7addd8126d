/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Description: zload's log-linear latency histogram puts every value in a
 * bucket that contains it, buckets are at most 1/64 of their value wide, and
 * percentiles of known data come out within that error.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tap.h"
#include "tools/zload/hist.h"

static uint64_t bucket_high(unsigned idx)
{
	return idx + 1 < ZL_HIST_BUCKETS ? zl_hist_bucket_low(idx + 1) : UINT64_MAX;
}

/* Every v lands in a bucket [low, high) that contains it; indexes never decrease. */
static int check_value(uint64_t v, unsigned *prev_idx)
{
	unsigned idx = zl_hist_index(v);
	uint64_t lo, hi;

	if (idx >= ZL_HIST_BUCKETS) {
		tap_diag("value %" PRIu64 ": index %u >= %u buckets", v, idx, ZL_HIST_BUCKETS);
		return 0;
	}
	lo = zl_hist_bucket_low(idx);
	hi = bucket_high(idx);
	if (v < lo || (v >= hi && hi != UINT64_MAX)) {
		tap_diag("value %" PRIu64 ": bucket %u is [%" PRIu64 ", %" PRIu64 ")", v, idx, lo, hi);
		return 0;
	}
	if (v >= 128 && (hi - lo) * 64 > lo) {
		tap_diag("value %" PRIu64 ": bucket %u width %" PRIu64 " > low/64", v, idx, hi - lo);
		return 0;
	}
	if (prev_idx) {
		if (idx < *prev_idx) {
			tap_diag("value %" PRIu64 ": index %u after %u", v, idx, *prev_idx);
			return 0;
		}
		*prev_idx = idx;
	}
	return 1;
}

static int near(uint64_t got, uint64_t want)
{
	uint64_t d = got > want ? got - want : want - got;

	return d * 64 <= want + 64;
}

int main(void)
{
	struct zl_hist *h = calloc(1, sizeof(*h)), *h2 = calloc(1, sizeof(*h2));
	unsigned prev = 0, i;
	int good = 1;
	uint64_t v, p;

	if (!h || !h2)
		return 1;

	for (v = 0; v < 1000000 && good; v++)
		good = check_value(v, &prev);
	tap_ok(good, "values 0..999999: each in its bucket, widths <= 1/64, monotone");

	good = 1;
	for (i = 0; i < 64 && good; i++) {
		v = 1ULL << i;
		good = check_value(v, NULL) && check_value(v - 1, NULL) && check_value(v + 1, NULL) &&
		       check_value(v + v / 2, NULL);
	}
	good = good && check_value(UINT64_MAX, NULL);
	tap_ok(good, "powers of two +-1 and UINT64_MAX (index %u of %u)",
	       zl_hist_index(UINT64_MAX), ZL_HIST_BUCKETS);

	srandom(4);
	good = 1;
	for (i = 0; i < 1000000 && good; i++) {
		v = ((uint64_t)random() << 33) ^ ((uint64_t)random() << 11) ^ (uint64_t)random();
		good = check_value(v >> (i % 64), NULL);
	}
	tap_ok(good, "1e6 pseudo-random values of every magnitude");

	for (v = 1; v <= 100000; v++)
		zl_hist_add(h, v * 10);
	tap_ok(h->n == 100000 && h->max == 1000000, "n %" PRIu64 " max %" PRIu64, h->n, h->max);
	p = zl_hist_percentile(h, 50);
	tap_ok(near(p, 500000), "p50 of 10..1000000 step 10 = %" PRIu64 " (want 500000 +-1.6%%)", p);
	p = zl_hist_percentile(h, 90);
	tap_ok(near(p, 900000), "p90 = %" PRIu64 " (want 900000)", p);
	p = zl_hist_percentile(h, 99);
	tap_ok(near(p, 990000), "p99 = %" PRIu64 " (want 990000)", p);
	p = zl_hist_percentile(h, 99.9);
	tap_ok(near(p, 999000), "p99.9 = %" PRIu64 " (want 999000)", p);
	p = zl_hist_percentile(h, 100);
	tap_ok(p <= h->max && near(p, 1000000), "p100 = %" PRIu64 " <= max", p);
	tap_ok(h->sum == 10ULL * 100000 * 100001 / 2, "sum %" PRIu64, h->sum);

	/* Small exact values are exact. */
	zl_hist_add(h2, 7);
	zl_hist_add(h2, 7);
	zl_hist_add(h2, 100);
	p = zl_hist_percentile(h2, 50);
	tap_ok(p == 7, "p50 of {7, 7, 100} = %" PRIu64 " (exact below 128)", p);
	p = zl_hist_percentile(h2, 99);
	tap_ok(p == 100, "p99 of {7, 7, 100} = %" PRIu64, p);

	zl_hist_merge(h2, h);
	tap_ok(h2->n == 100003 && h2->max == 1000000 && h2->sum == h->sum + 114,
	       "merge: n %" PRIu64 " max %" PRIu64, h2->n, h2->max);
	memset(h, 0, sizeof(*h));
	tap_ok(zl_hist_percentile(h, 50) == 0, "empty histogram: percentile 0");

	free(h);
	free(h2);
	return tap_done();
}
