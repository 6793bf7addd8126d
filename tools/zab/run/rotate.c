/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * placement = rotate, the device side: the daemon of a device variant
 * places its routine at every offset of the set at once and rotates its
 * serving threads over the copies per request (include/cusezero.h,
 * SET_ROTATE), so each run covers every layout under one machine state.
 *
 * Per session, right after a daemon starts: one SET_ROTATE (the set, the
 * point, the device's default period, a seed from the experiment's seed
 * and the session -- the same for every variant of the session, so A and
 * B visit the layouts in the same order), read back by GET_ROTATE.  Per
 * measured run: the copies' counters before and after (GET_LAYOUT), and
 * per layout the median request of the run, ns per CUSEZERO_HIST_UNIT
 * bytes.  The statistics over these are stats/' (stats/verdict.c;
 * doc/layouts.md).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "devstats.h"
#include "run.h"

uint32_t zab_rotate_seed(uint64_t seed, unsigned session)
{
	uint64_t z = seed ^ (0x726f74617465ull + (uint64_t)session * 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (uint32_t)(z ^ (z >> 31));
}

/* What GET_ROTATE reports differs from what was set: NULL, or how (malloc'd). */
static char *rotate_readback(int fd, const char *path, const struct cusezero_rotate *set,
			     struct cusezero_rotate *got)
{
	uint32_t i;

	memset(got, 0, sizeof(*got));
	if (ioctl(fd, CUSEZERO_IOC_GET_ROTATE, got))
		return cz_xasprintf("%s: GET_ROTATE: %s", path, strerror(errno));
	if (got->count != set->count || got->point != set->point)
		return cz_xasprintf("%s: GET_ROTATE reports %u offsets (point %u) after %u were set",
				    path, got->count, got->point, set->count);
	for (i = 0; i < got->count; i++)
		if (got->offsets[i] != set->offsets[i])
			return cz_xasprintf("%s: GET_ROTATE reports offset %u at index %u, set %u",
					    path, got->offsets[i], i, set->offsets[i]);
	return NULL;
}

char *zab_rotate_start(int fd, const char *path, const struct zab_placement *p, uint32_t seed,
		       struct cusezero_rotate *got)
{
	struct cusezero_rotate r;
	size_t i;

	if (p->nset > CUSEZERO_ROTATE_MAX)      /* refused when the experiment was checked */
		return cz_xasprintf("placement %s: %zu offsets, at most %d rotate", p->spec,
				    p->nset, CUSEZERO_ROTATE_MAX);
	memset(&r, 0, sizeof(r));
	r.count = (uint32_t)p->nset;
	r.point = p->entry ? CUSEZERO_POINT_ENTRY : CUSEZERO_POINT_LOOP;
	r.period = 0;                           /* the device's default */
	r.seed = seed;
	for (i = 0; i < p->nset; i++)
		r.offsets[i] = (uint16_t)p->set[i];
	if (ioctl(fd, CUSEZERO_IOC_SET_ROTATE, &r))
		return cz_xasprintf("%s: SET_ROTATE %s (%zu offsets, %s): %s", path, p->spec,
				    p->nset, p->entry ? "entry" : "loop", strerror(errno));
	return rotate_readback(fd, path, &r, got);
}

struct zab_rotrun *zab_rotrun_new(void)
{
	struct zab_rotrun *rr = calloc(1, sizeof(*rr));

	if (!rr)
		abort();
	rr->before = cz_xmalloc(sizeof(*rr->before));
	rr->after = cz_xmalloc(sizeof(*rr->after));
	rr->d = cz_xmalloc(sizeof(*rr->d));
	return rr;
}

void zab_rotrun_free(struct zab_rotrun *rr)
{
	if (!rr)
		return;
	free(rr->before);
	free(rr->after);
	free(rr->d);
	free(rr);
}

void zab_rotrun_begin(struct zab_rotrun *rr, int fd)
{
	rr->err = cz_devlayouts_get(fd, rr->before);
}

int zab_rotrun_end(struct zab_rotrun *rr, int fd)
{
	unsigned i;
	int ret = rr->err;

	if (!ret)
		ret = cz_devlayouts_get(fd, rr->after);
	if (!ret)
		ret = cz_devlayouts_delta(rr->before, rr->after, rr->d);
	if (!ret && !rr->d->count)
		ret = -ENOTTY;          /* not rotating (any more) */
	if (ret)
		return ret;
	rr->count = rr->d->count;
	rr->used = 0;
	for (i = 0; i < rr->count; i++) {
		rr->off[i] = (unsigned)rr->d->offset[i];
		rr->med[i] = cz_hist_quantile(rr->d->hist[i], 0.5);
		if (rr->med[i] > 0)
			rr->used++;
		else
			rr->med[i] = NAN;       /* no request at this layout in this run */
	}
	return 0;
}

double zab_rotrun_mean(const struct zab_rotrun *rr)
{
	double sum = 0;
	unsigned i;

	for (i = 0; i < rr->count; i++)
		if (!isnan(rr->med[i]))
			sum += rr->med[i];
	return rr->used ? sum / rr->used : NAN;
}
