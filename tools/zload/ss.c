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

#include "jsonout.h"
#include "zload.h"

/* One second's sample of job j (called once a second by main's supervisor). */
void zl_ss_tick(struct zl_job *j, uint64_t now)
{
	const struct zl_opts *o = j->o;
	struct zl_ss *s = &j->ss;
	uint64_t go = __atomic_load_n(&j->t_go, __ATOMIC_ACQUIRE);
	uint64_t ios = __atomic_load_n(&j->live_ios, __ATOMIC_RELAXED);
	uint64_t bytes = __atomic_load_n(&j->live_bytes, __ATOMIC_RELAXED);
	double v, mean = 0, dev = 0, sx = 0, sxy = 0, slope, sec;
	const double *val;
	unsigned i, n;

	if (!o->ss_kind || !go || s->attained || __atomic_load_n(&j->finished, __ATOMIC_ACQUIRE))
		return;
	if (!s->last_t || now < go + (uint64_t)(o->ss_ramp * 1e9)) {
		s->last_t = now;
		s->last_ios = ios;
		s->last_bytes = bytes;
		return;
	}
	sec = (double)(now - s->last_t) / 1e9;
	s->last_t = now;
	n = (unsigned)o->ss_dur;
	if (n < 2)
		n = 2;
	if (n > ZL_SS_MAX)
		n = ZL_SS_MAX;
	s->iops[s->head] = (double)(ios - s->last_ios) / sec;
	s->bw[s->head] = (double)(bytes - s->last_bytes) / sec;
	s->last_ios = ios;
	s->last_bytes = bytes;
	s->head = (s->head + 1) % n;
	if (s->n < n)
		s->n++;
	if (s->n < n)
		return;
	val = o->ss_kind & ZL_SS_BW ? s->bw : s->iops;
	for (i = 0; i < n; i++)
		mean += val[i] / n;
	for (i = 0; i < n; i++) {
		/* x: the sample's age order does not change |slope| for a full window
		 * read from its oldest: index from head. */
		double x = (double)i - (n - 1) / 2.0, y = val[(s->head + i) % n];

		if (fabs(y - mean) > dev)
			dev = fabs(y - mean);
		sx += x * x;
		sxy += x * (y - mean);
	}
	slope = sxy / sx;
	v = o->ss_kind & ZL_SS_SLOPE ? fabs(slope) : dev;
	s->dev = o->ss_kind & ZL_SS_SLOPE ? 0.0 : dev;
	s->slope = o->ss_kind & ZL_SS_SLOPE ? slope : 0.0;
	s->crit = o->ss_pct && mean > 0 ? v * 100.0 / mean : v;
	if (v <= (o->ss_pct ? o->ss_limit / 100.0 * mean : o->ss_limit)) {
		s->attained = true;
		__atomic_store_n(&j->stop, 1, __ATOMIC_RELAXED);
	}
}

/*
 * fio's "steadystate" object: the criterion, whether it was met, the last
 * check's deviation (or slope) and the window's samples, oldest first.
 */
void *zl_ss_json(const struct zl_opts *o, const struct zl_ss *s)
{
	static const char *const kind[] = { "", "iops", "bw", "", "", "iops_slope", "bw_slope" };
	json_t *d = cz_jobj(), *data, *iops, *bw;
	char buf[96];
	double mi = 0, mb = 0;
	unsigned w = o->ss_dur < 2 ? 2 : o->ss_dur > ZL_SS_MAX ? ZL_SS_MAX : (unsigned)o->ss_dur;
	unsigned i, n = s->n, first = n < w ? 0 : s->head;	/* the ring of zl_ss_tick */

	snprintf(buf, sizeof(buf), "%s:%f%s", kind[o->ss_kind & 7], o->ss_limit, o->ss_pct ? "%" : "");
	cz_jset(d, "ss", cz_jstr(buf));
	cz_jset(d, "duration", cz_juint((uint64_t)o->ss_dur));
	cz_jset(d, "attained", cz_juint(s->attained));
	snprintf(buf, sizeof(buf), "%f%s", s->crit, o->ss_pct ? "%" : "");
	cz_jset(d, "criterion", cz_jstr(buf));
	cz_jset(d, "max_deviation", cz_jfixed(s->dev, 6));
	cz_jset(d, "slope", cz_jfixed(s->slope, 6));
	data = cz_jset(d, "data", cz_jobj());
	iops = json_array();
	bw = json_array();
	for (i = 0; i < n; i++) {
		unsigned k = (first + i) % w;

		json_array_append_new(iops, cz_juint((uint64_t)(s->iops[k] + 0.5)));
		json_array_append_new(bw, cz_juint((uint64_t)(s->bw[k] + 0.5)));
		mi += s->iops[k] / n;
		mb += s->bw[k] / n;
	}
	cz_jset(data, "bw_mean", cz_juint((uint64_t)(mb + 0.5)));
	cz_jset(data, "iops_mean", cz_juint((uint64_t)(mi + 0.5)));
	cz_jset(data, "iops", iops);
	cz_jset(data, "bw", bw);
	return d;
}
