/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab's result classes, one table: what each is called, its unit and
 * direction, its JSON "source", and how a run's value is taken from the
 * daemon's counters (NULL: the benchmark's own number).  Adding a class is
 * an enum value in results/result.h, a row here and its tests.
 */
#include "devstats.h"
#include "model.h"

/*
 * The in-device classes are the median request of each run, not the totals:
 * one request preempted inside its routine adds a whole time slice to the
 * totals (doc/DESIGN.md).
 */
static double rate_of_median(double ns, uint64_t chunk)
{
	(void)chunk;
	return ns > 0 ? CUSEZERO_HIST_UNIT / (ns / 1e9) : 0;
}

static double ns_of_median(double ns, uint64_t chunk)
{
	return ns * (double)chunk / CUSEZERO_HIST_UNIT;
}

const struct zab_rkind_info zab_rkinds[CZRES_RK_COUNT] = {
	[CZRES_RK_CMD] = { "", NULL, -1, CZRES_RK_SOURCE_CMD, NULL },
	/* bytes cleared per second of time inside the routine */
	[CZRES_RK_DEV_RATE] = { " in-device", "bytes/sec", 1,
			      CZRES_RK_SOURCE_DEV_RATE, cz_devdelta_median_rate,
			      rate_of_median },
	/* routine time per chunk-sized piece */
	[CZRES_RK_DEV_NS] = { " in-device per chunk", "ns", 0, CZRES_RK_SOURCE_DEV_NS,
			    cz_devdelta_median_ns_per_chunk, ns_of_median },
};
