/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fio's steady state (fio's HOWTO, "Steady state"): ss=iops|bw|iops_slope|
 * bw_slope:LIMIT[%], ss_dur, ss_ramp.  After ss_ramp, one IOPS (or
 * bandwidth) sample per second; once ss_dur seconds of samples are there,
 * the job stops when every sample is within LIMIT of their mean (iops, bw)
 * or when the least-squares slope of the samples is within LIMIT per second
 * (the _slope forms); LIMIT% is a percentage of the mean.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zload.h"

/* One second's sample of job j (called once a second by main's supervisor). */
void zl_ss_tick(struct zl_job *j, uint64_t now)
{
	const struct zl_opts *o = j->o;
	struct zl_ss *s = &j->ss;
	uint64_t go = __atomic_load_n(&j->t_go, __ATOMIC_ACQUIRE);
	uint64_t ios = __atomic_load_n(&j->live_ios, __ATOMIC_RELAXED);
	uint64_t bytes = __atomic_load_n(&j->live_bytes, __ATOMIC_RELAXED);
	double v, mean = 0, dev = 0, sx = 0, sxy = 0, slope;
	unsigned i, n;

	if (!o->ss_kind || !go || s->attained || __atomic_load_n(&j->finished, __ATOMIC_ACQUIRE))
		return;
	if (!s->last_t || now < go + (uint64_t)(o->ss_ramp * 1e9)) {
		s->last_t = now;
		s->last_ios = ios;
		s->last_bytes = bytes;
		return;
	}
	v = (o->ss_kind & ZL_SS_BW ? (double)(bytes - s->last_bytes) : (double)(ios - s->last_ios)) /
	    ((double)(now - s->last_t) / 1e9);
	s->last_t = now;
	s->last_ios = ios;
	s->last_bytes = bytes;
	n = (unsigned)o->ss_dur;
	if (n < 2)
		n = 2;
	if (n > ZL_SS_MAX)
		n = ZL_SS_MAX;
	s->v[s->head] = v;
	s->head = (s->head + 1) % n;
	if (s->n < n)
		s->n++;
	if (s->n < n)
		return;
	for (i = 0; i < n; i++)
		mean += s->v[i] / n;
	for (i = 0; i < n; i++) {
		/* x: the sample's age order does not change |slope| for a full window
		 * read from its oldest: index from head. */
		double x = (double)i - (n - 1) / 2.0, y = s->v[(s->head + i) % n];

		if (fabs(y - mean) > dev)
			dev = fabs(y - mean);
		sx += x * x;
		sxy += x * (y - mean);
	}
	slope = sxy / sx;
	v = o->ss_kind & ZL_SS_SLOPE ? fabs(slope) : dev;
	if (v <= (o->ss_pct ? o->ss_limit / 100.0 * mean : o->ss_limit)) {
		s->attained = true;
		__atomic_store_n(&j->stop, 1, __ATOMIC_RELAXED);
	}
}
