/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The in-process measurement of an alignment sweep: a routine's placed copy
 * timed over a buffer, the per-repeat visiting order, the points' storage.
 * Shared by the sweep (align.c) and the two-routine comparison
 * (aligncmp.c), so neither depends on the other.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "align.h"
#include "util.h"

static size_t clear_chunked(zero_fn fn, char *p, size_t size, size_t chunk)
{
	size_t off, left = 0;

	for (off = 0; off < size; off += chunk)
		left |= fn(p + off, size - off < chunk ? size - off : chunk);
	return left;
}

/* xorshift64*: a reproducible shuffle independent of libc's rand(). */
static uint64_t next_random(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

void zb_align_order(const struct align_params *ap, unsigned rep, uint64_t *rng, size_t *order)
{
	size_t i, j, tmp, n = ap->noffsets;

	for (i = 0; i < n; i++)
		order[i] = ap->round_robin ? (i + rep) % n : i;
	if (ap->round_robin)
		return;
	for (i = n - 1; i > 0; i--) {
		j = (size_t)(next_random(rng) % (i + 1));
		tmp = order[i];
		order[i] = order[j];
		order[j] = tmp;
	}
}

/* In process, one sample: place, verify, check it clears, warm, time.  0 or -errno. */
int zb_align_measure(const struct align_params *ap, struct align_point *pt, char *buf)
{
	struct zero_placed pl;
	uintptr_t addr;
	uint64_t t0, dt;
	size_t i, left = 0;
	double *pass;
	int ret;

	pass = malloc(ap->loops * sizeof(*pass));
	if (!pass)
		return -ENOMEM;
	ret = zero_place(ap->r, ap->point, pt->offset, &pl);
	if (ret) {
		free(pass);
		fprintf(stderr, "zbench align: cannot place %s at offset %u: %s%s%s\n", ap->r->name,
			pt->offset, zero_place_strerror(ret), ret == -ENOTSUP && ap->r->no_reloc_why ? ": " : "",
			ret == -ENOTSUP && ap->r->no_reloc_why ? ap->r->no_reloc_why : "");
		return ret;
	}
	addr = ap->point == ZERO_POINT_LOOP ? pl.loop : pl.entry;
	pt->addr = addr;
	if ((addr & ZERO_PLACE_MAX_OFFSET) != pt->offset) {
		fprintf(stderr, "zbench align: placement check: %s point at %#" PRIxPTR
			" = offset %" PRIuPTR ", wanted %u\n", ap->r->name, addr,
			addr & ZERO_PLACE_MAX_OFFSET, pt->offset);
		ret = -EFAULT;
		goto out;
	}
	/* The untimed warm-up pass also proves the placed copy clears every byte. */
	memset(buf, 0xff, ap->size);
	left = clear_chunked(pl.fn, buf, ap->size, ap->chunk);
	for (i = 0; i < ap->size && !left; i++) {
		if (buf[i]) {
			fprintf(stderr, "zbench align: %s at offset %u: byte %zu = %#x after clearing\n",
				ap->r->name, pt->offset, i, (unsigned char)buf[i]);
			ret = -EIO;
			goto out;
		}
	}
	/*
	 * One clock pair per pass and the median pass, as the daemon's median
	 * request: a pass preempted by other work on a busy machine would
	 * otherwise add its whole wait to the sample.
	 */
	for (i = 0; i < ap->loops; i++) {
		t0 = zb_clock(false);
		left |= clear_chunked(pl.fn, buf, ap->size, ap->chunk);
		pass[i] = (double)(zb_clock(false) - t0);
	}
	dt = (uint64_t)cz_median(pass, ap->loops);
	if (left) {
		fprintf(stderr, "zbench align: %s at offset %u left bytes not cleared\n",
			ap->r->name, pt->offset);
		ret = -EIO;
		goto out;
	}
	pt->gbps[pt->n++] = (double)ap->size / ((double)(dt ? dt : 1) / 1e9) / ZB_GB;
out:
	free(pass);
	zero_unplace(&pl);
	return ret;
}

struct align_point *zb_align_points_new(const struct align_params *ap)
{
	struct align_point *pts = calloc(ap->noffsets, sizeof(*pts));
	size_t i;

	for (i = 0; pts && i < ap->noffsets; i++) {
		pts[i].offset = ap->offsets[i];
		pts[i].reported = -1;
		pts[i].gbps = calloc(ap->repeats, sizeof(double));
		pts[i].dev_gbps = calloc(ap->repeats, sizeof(double));
		pts[i].dev_ns = calloc(ap->repeats, sizeof(double));
		if (!pts[i].gbps || !pts[i].dev_gbps || !pts[i].dev_ns) {
			fprintf(stderr, "zbench align: out of memory\n");
			exit(1);
		}
	}
	if (!pts) {
		fprintf(stderr, "zbench align: out of memory\n");
		exit(1);
	}
	return pts;
}

void zb_align_points_free(struct align_point *pts, size_t n)
{
	size_t i;

	for (i = 0; pts && i < n; i++) {
		free(pts[i].gbps);
		free(pts[i].dev_gbps);
		free(pts[i].dev_ns);
	}
	free(pts);
}

int zb_align_sweep(const struct align_params *ap, struct align_dev *dev, zb_align_point_fn *fn,
		   void *ctx)
{
	size_t *visit = calloc(ap->noffsets, sizeof(*visit)), i;
	uint64_t rng = ap->seed ? ap->seed : 0x9e3779b97f4a7c15ULL;
	struct zb_buf buf = { 0 };
	char msg[512];
	unsigned rep;
	int ret = -1;

	if (!visit)
		return -1;
	if (!dev && zb_buf_alloc(&buf, ap->size, ZB_HUGE_NONE, true, msg, sizeof(msg))) {
		fprintf(stderr, "zbench align: %s\n", msg);
		goto out;
	}
	for (rep = 0; rep < ap->repeats; rep++) {
		zb_align_order(ap, rep, &rng, visit);
		for (i = 0; i < ap->noffsets; i++) {
			if (zb_align_stop || fn(ap, dev, rep, i, visit[i], dev ? NULL : buf.p, ctx))
				goto out;
		}
	}
	ret = 0;
out:
	zb_buf_free(&buf);
	free(visit);
	return ret;
}
