/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zbench align, shared by its two measurements: in process (align.c: the
 * routine placed in zbench itself) and in a device (aligndev.c: the routine
 * placed inside a running cusezero daemon through its ioctls, read through
 * the device).  One sweep, one table/CSV/JSON/plot, one verdict.
 */
#ifndef TOOLS_ZBENCH_ALIGN_H
#define TOOLS_ZBENCH_ALIGN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "zbench.h"
#include "samplestat.h"

#define ALIGN_MAX_OFFSETS (ZERO_PLACE_MAX_OFFSET + 1)

/* One offset of a sweep: its samples and what is known about its placement. */
struct align_point {
	unsigned offset;
	uintptr_t addr;         /* in process: the placed point's address (last placement) */
	int reported;           /* device: the offset the daemon reported (GET_ALIGN), -1 before */
	double *gbps;           /* [repeats] in process: the routine; device: end to end (reads) */
	double *dev_gbps;       /* [repeats] device: bytes cleared per second of routine time */
	double *dev_ns;         /* [repeats] device: routine ns per chunk */
	unsigned n;             /* samples taken so far */
	struct cz_summary s, ds, dns;
};

struct align_params {
	const struct zero_routine *r;
	enum zero_point point;
	unsigned offsets[ALIGN_MAX_OFFSETS];
	size_t noffsets;
	uint64_t size, chunk;
	unsigned loops, repeats;
	bool round_robin, csv, json;
	uint64_t seed;
	const char *plot, *size_str, *chunk_str;
	int cpu;                /* -1: not given */
	int cmp[2];             /* --compare A,B offsets, -1: not given */
	const struct zero_routine *cmp_r[2];   /* --compare A,B routines (aligncmp.c), or NULL */
	/* device mode */
	const char *device;     /* NULL: in process; "new": a private daemon; else a device file */
	const char *reader;     /* NULL: zbench preads itself; else a command printing bytes/sec */
	const char *cusezero;   /* --cusezero (device new) */
};

struct align_dev;

/* In process, one sample of ap->r at pt->offset into pt (align.c).  0 or -errno. */
int zb_align_measure(const struct align_params *ap, struct align_point *pt, char *buf);
/* The offsets' visiting order of repeat rep (random from *rng, or round-robin). */
void zb_align_order(const struct align_params *ap, unsigned rep, uint64_t *rng, size_t *order);
/*
 * One point of a sweep: measure at offset index idx of repeat rep (i: its
 * place in this repeat's order), with buf the in-process buffer (NULL in a
 * device).  0 or -1 (message printed).
 */
typedef int zb_align_point_fn(const struct align_params *ap, struct align_dev *dev, unsigned rep,
			      size_t i, size_t idx, char *buf, void *ctx);
/* Every repeat visits every offset once, in its own order, calling fn.  0 or -1. */
int zb_align_sweep(const struct align_params *ap, struct align_dev *dev, zb_align_point_fn *fn,
		   void *ctx);
struct align_point *zb_align_points_new(const struct align_params *ap);
void zb_align_points_free(struct align_point *pts, size_t n);
/* --compare A,B of two routines: sweep both, interleaved; report.  Exit status. */
int zb_aligncmp_run(const struct align_params *ap, struct align_dev *dev);

/* Set by SIGINT/SIGTERM during a device sweep: stop after the current read. */
extern volatile sig_atomic_t zb_align_stop;


/* Open (or start) the device, select the routine and chunk, co-locate.  0 or -1 after one line. */
int zb_aligndev_open(const struct align_params *ap, struct align_dev **out);
/* One sample at pt->offset: place, verify, read, take the counters' difference.  0 or -1. */
int zb_aligndev_measure(struct align_dev *d, const struct align_params *ap, struct align_point *pt);
/* Switch the device to routine r (unplaced first: its offset may not suit r).  0 or -1. */
int zb_aligndev_select(struct align_dev *d, const struct zero_routine *r);
/* Restore an existing device's settings / stop our daemon; leaves nothing mounted. */
void zb_aligndev_close(struct align_dev *d);
/* "# ..." lines describing the device and its placement (table and CSV notes). */
void zb_aligndev_describe(const struct align_dev *d, const struct align_params *ap, FILE *f);
/* The "device" member of the JSON output (an object). */
json_t *zb_aligndev_json(const struct align_dev *d);

#endif
