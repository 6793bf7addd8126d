/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * In-device figures from two readings of a cusezero device's counters
 * (lib/devstats.h).  The daemon keeps the counters (one clock pair per
 * request around the routine work, the serving threads' CPU clocks for the
 * busy time); this file only subtracts and divides.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "devstats.h"
#include "util.h"

int cz_devstats_get(int fd, struct cusezero_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (ioctl(fd, CUSEZERO_IOC_GET_STATS, st))
		return -errno;
	if (st->version != CUSEZERO_STATS_VERSION)
		return -EPROTO;
	return 0;
}

int cz_devstats_delta(const struct cusezero_stats *before, const struct cusezero_stats *after,
		      struct cz_devdelta *d)
{
	const struct cusezero_counters *a = &before->total, *b = &after->total;
	unsigned i;

	memset(d, 0, sizeof(*d));
	if (b->requests < a->requests || b->bytes < a->bytes || b->ns < a->ns ||
	    b->errors < a->errors || after->busy_ns < before->busy_ns ||
	    after->elapsed_ns < before->elapsed_ns)
		return -ESTALE;
	d->requests = b->requests - a->requests;
	d->bytes = b->bytes - a->bytes;
	d->routine_ns = b->ns - a->ns;
	d->errors = b->errors - a->errors;
	d->busy_ns = after->busy_ns - before->busy_ns;
	d->elapsed_ns = after->elapsed_ns - before->elapsed_ns;
	d->chunk = after->chunk;
	for (i = 0; i < CUSEZERO_HIST_BUCKETS; i++) {
		if (after->hist[i] < before->hist[i])
			return -ESTALE;
		d->hist[i] = after->hist[i] - before->hist[i];
	}
	return 0;
}

int cz_devlayouts_get(int fd, struct cz_devlayouts *l)
{
	static __thread struct cusezero_layout one;
	struct cusezero_rotate r;
	unsigned i;

	memset(l, 0, sizeof(*l));
	if (ioctl(fd, CUSEZERO_IOC_GET_ROTATE, &r))
		return -errno;
	if (r.count > CUSEZERO_ROTATE_MAX)
		return -EPROTO;
	for (i = 0; i < r.count; i++) {
		memset(&one, 0, sizeof(one));
		one.index = i;
		if (ioctl(fd, CUSEZERO_IOC_GET_LAYOUT, &one))
			return errno == EINVAL ? -ESTALE : -errno;
		if (one.count != r.count || one.offset != r.offsets[i])
			return -ESTALE;
		l->offset[i] = one.offset;
		l->c[i] = one.c;
		memcpy(l->hist[i], one.hist, sizeof(one.hist));
	}
	l->count = r.count;
	l->point = r.point;
	l->period = r.period;
	return 0;
}

int cz_devlayouts_delta(const struct cz_devlayouts *before, const struct cz_devlayouts *after,
			struct cz_devlayouts *d)
{
	unsigned i, b;

	memset(d, 0, sizeof(*d));
	if (before->count != after->count || before->point != after->point)
		return -ESTALE;
	for (i = 0; i < after->count; i++) {
		const struct cusezero_counters *x = &before->c[i], *y = &after->c[i];

		if (before->offset[i] != after->offset[i] || y->requests < x->requests ||
		    y->bytes < x->bytes || y->ns < x->ns || y->errors < x->errors)
			return -ESTALE;
		d->offset[i] = after->offset[i];
		d->c[i].requests = y->requests - x->requests;
		d->c[i].bytes = y->bytes - x->bytes;
		d->c[i].ns = y->ns - x->ns;
		d->c[i].errors = y->errors - x->errors;
		for (b = 0; b < CUSEZERO_HIST_BUCKETS; b++) {
			if (after->hist[i][b] < before->hist[i][b])
				return -ESTALE;
			d->hist[i][b] = after->hist[i][b] - before->hist[i][b];
		}
	}
	d->count = after->count;
	d->point = after->point;
	d->period = after->period;
	return 0;
}

double cz_hist_quantile(const uint64_t *hist, double q)
{
	double n = 0, target, cum = 0;
	unsigned i;

	for (i = 0; i < CUSEZERO_HIST_BUCKETS; i++)
		n += (double)hist[i];
	if (n == 0)
		return 0;
	target = q * n;
	for (i = 0; i < CUSEZERO_HIST_BUCKETS; i++) {
		if (!hist[i])
			continue;
		/* assume the bucket's requests spread evenly over its width */
		if (cum + (double)hist[i] >= target)
			return (double)cusezero_hist_low(i) + (double)cusezero_hist_width(i) *
			       (target - cum) / (double)hist[i];
		cum += (double)hist[i];
	}
	return (double)cusezero_hist_low(CUSEZERO_HIST_BUCKETS - 1);
}

double cz_hist_preempted(const uint64_t *hist)
{
	double med = cz_hist_quantile(hist, 0.5), n = 0, above = 0;
	unsigned i;

	for (i = 0; i < CUSEZERO_HIST_BUCKETS; i++) {
		n += (double)hist[i];
		/* whole buckets only: a bucket is counted when it starts above the bar */
		if ((double)cusezero_hist_low(i) > CZ_PREEMPT_FACTOR * med)
			above += (double)hist[i];
	}
	return n ? above / n : -1;
}

double cz_devdelta_median_rate(const struct cz_devdelta *d)
{
	double m = cz_hist_quantile(d->hist, 0.5);

	return m > 0 ? CUSEZERO_HIST_UNIT / (m / 1e9) : 0;
}

double cz_devdelta_median_ns_per_chunk(const struct cz_devdelta *d)
{
	return cz_hist_quantile(d->hist, 0.5) * (double)d->chunk / CUSEZERO_HIST_UNIT;
}

double cz_devdelta_rate(const struct cz_devdelta *d)
{
	return d->routine_ns ? (double)d->bytes / ((double)d->routine_ns / 1e9) : 0;
}

double cz_devdelta_ns_per_chunk(const struct cz_devdelta *d)
{
	return d->bytes ? (double)d->routine_ns * (double)d->chunk / (double)d->bytes : 0;
}

double cz_devdelta_share(const struct cz_devdelta *d)
{
	return d->busy_ns ? (double)d->routine_ns / (double)d->busy_ns : -1;
}

bool cz_devshare_begin(struct cz_devshare *s, const char *path)
{
	memset(s, 0, sizeof(*s));
	s->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (s->fd < 0)
		return false;
	if (cz_devstats_get(s->fd, &s->before)) {
		close(s->fd);
		s->fd = -1;
		return false;
	}
	s->t_before = cz_now_ns();	/* after the daemon read its clock */
	s->on = true;
	return true;
}

void cz_devshare_end(struct cz_devshare *s, const char *prog, FILE *f)
{
	struct cusezero_stats *after;
	struct cz_devdelta d;
	uint64_t wall;
	int ret;

	if (!s->on)
		return;
	s->on = false;
	after = malloc(sizeof(*after));
	wall = cz_now_ns();	/* before the daemon reads its clock */
	ret = after ? cz_devstats_get(s->fd, after) : -ENOMEM;
	if (!ret)
		ret = cz_devstats_delta(&s->before, after, &d);
	/*
	 * A reset during the run restarts the counters, and when they held
	 * little before the run nothing goes down: 651 requests "for" a run of
	 * 20000.  The counters' elapsed_ns (the daemon's CLOCK_MONOTONIC, as
	 * cz_now_ns) must have grown by at least the time between the two
	 * readings, which this side brackets from inside.
	 */
	if (!ret && d.elapsed_ns < wall - s->t_before)
		ret = -ESTALE;
	close(s->fd);
	free(after);
	if (ret) {
		fprintf(f, "%s: cusezero device: no share: %s\n", prog,
			ret == -ESTALE ? "its counters were reset during the run" : strerror(-ret));
		return;
	}
	if (!d.requests) {
		fprintf(f, "%s: cusezero device: no read request reached the daemon\n", prog);
		return;
	}
	fprintf(f, "%s: cusezero device: %" PRIu64 " requests, %" PRIu64 " bytes; routine %.2f GB/s "
		"(2^30 B per s of routine time), %.0f ns per %" PRIu64 " B chunk", prog, d.requests,
		d.bytes, cz_devdelta_rate(&d) / (1024.0 * 1024.0 * 1024.0), cz_devdelta_ns_per_chunk(&d),
		d.chunk);
	if (cz_devdelta_share(&d) >= 0)
		fprintf(f, "; routine %.1f%% of the daemon's busy time (%.2f of %.2f us per request)",
			cz_devdelta_share(&d) * 100, (double)d.routine_ns / 1e3 / (double)d.requests,
			(double)d.busy_ns / 1e3 / (double)d.requests);
	fputc('\n', f);
}
