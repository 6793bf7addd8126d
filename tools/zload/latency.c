/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fio's latency target (fio's HOWTO: latency_target, latency_window,
 * latency_percentile): the job looks for the highest queue depth whose
 * I/Os meet the target.  It starts at depth 1.  An I/O whose total latency
 * (lat) exceeds the target is a miss.  Each latency_window, if at least
 * latency_percentile % of the window's I/Os met the target, the depth goes
 * up (doubled until a window misses, then halfway to the lowest depth that
 * missed, at most iodepth); otherwise down halfway to the last good depth.
 * With latency_percentile=100 a single miss steps down at once, and a miss
 * at depth 1 fails the job ("latency of N nsec exceeds specified max").
 * Once a step leaves the depth as it was, the statistics restart for one
 * last window at that depth, then the job ends.  The depth found is the
 * JSON's latency_depth.  This file decides; io.c applies the result.
 */
#include "zload.h"

void zl_lt_init(struct zl_job *j, uint64_t now)
{
	struct zl_lt *lt = &j->lt;

	j->qd_now = j->o->qd;
	if (!j->o->lat_target_ns)
		return;
	j->qd_now = 1;
	lt->low = 1;
	lt->high = j->o->qd;
	lt->end_run = false;
	lt->ts = now;
	lt->ios = lt->failed = 0;
}

static void zl_lt_cycle(struct zl_lt *lt, uint64_t now)
{
	lt->ts = now;
	lt->ios = lt->failed = 0;
}

/* A window (or, at 100%, one I/O) missed: half way down to the last good depth. */
static int zl_lt_down(struct zl_job *j, uint64_t now)
{
	struct zl_lt *lt = &j->lt;

	if (j->qd_now == 1)
		return ZL_LT_FATAL;
	lt->high = j->qd_now;
	if (j->qd_now == lt->low)
		lt->low--;
	j->qd_now = (j->qd_now + lt->low) / 2;
	zl_lt_cycle(lt, now);
	return ZL_LT_NONE;
}

/* A window met the target: up, or the last window at this depth. */
static int zl_lt_up(struct zl_job *j, uint64_t now)
{
	struct zl_lt *lt = &j->lt;
	unsigned qd = j->qd_now;
	int ret = ZL_LT_NONE;

	lt->low = qd;
	if (lt->high != j->o->qd)
		j->qd_now = (qd + lt->high) / 2;
	else
		j->qd_now = qd * 2;
	if (j->qd_now > j->o->qd)
		j->qd_now = j->o->qd;
	if (j->qd_now == qd) {
		ret = lt->end_run ? ZL_LT_DONE : ZL_LT_RESET;
		lt->end_run = true;
	}
	zl_lt_cycle(lt, now);
	return ret;
}

int zl_lt_complete(struct zl_job *j, uint64_t lat_ns, uint64_t now)
{
	const struct zl_opts *o = j->o;
	struct zl_lt *lt = &j->lt;
	double ok;

	if (!o->lat_target_ns)
		return ZL_LT_NONE;
	lt->ios++;
	if (lat_ns > o->lat_target_ns) {
		if (o->lat_pct >= 100.0)
			return zl_lt_down(j, now);
		lt->failed++;
	}
	if (now - lt->ts < o->lat_window_us * 1000)
		return ZL_LT_NONE;
	ok = (double)(lt->ios - lt->failed) * 100.0 / (double)lt->ios;
	if (ok >= o->lat_pct)
		return zl_lt_up(j, now);
	zl_lt_down(j, now);	/* at depth 1: stays there, as fio */
	return ZL_LT_NONE;
}
