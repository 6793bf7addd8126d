/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A cusezero device's statistics over one run: read the counters by ioctl
 * (CUSEZERO_IOC_GET_STATS) before and after, and derive the in-device
 * figures from the difference.  Shared by zab, zbench align --device,
 * pread_z100k and zload (--device-share) and zeroctl.
 *
 * Derived figures (doc/measurement.md, "In-device measurement"):
 *   routine rate   bytes cleared per second of time inside the routine
 *   ns per chunk   routine time per chunk-sized piece (routine_ns x chunk / bytes)
 *   share          routine time / the serving threads' CPU time (busy_ns)
 */
#ifndef DEVCLIENT_DEVSTATS_H
#define DEVCLIENT_DEVSTATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cusezero.h"
#include "czlimits.h"	/* CZ_PREEMPT_FACTOR */

struct cz_devdelta {
	uint64_t requests, bytes, routine_ns, errors;
	uint64_t busy_ns, elapsed_ns;
	uint64_t chunk;          /* the device's chunk at the end of the run */
	uint64_t hist[CUSEZERO_HIST_BUCKETS];   /* requests by routine ns per 4 KiB */
};

/*
 * The per-request distribution (struct cusezero_stats.hist, or a delta of
 * two): the value at quantile q (0..1) in ns per CUSEZERO_HIST_UNIT bytes,
 * interpolated linearly inside its bucket; 0 when the histogram is empty.
 */
double cz_hist_quantile(const uint64_t *hist, double q);
/*
 * Share (0..1) of the requests that look preempted: routine time above
 * CZ_PREEMPT_FACTOR times the median.  An undisturbed request varies by a
 * few per cent; a request that lost its CPU to another task pays at least
 * a context switch pair and that task's slice, so it lands far above.
 * -1 when the histogram is empty.
 */
double cz_hist_preempted(const uint64_t *hist);

/* GET_STATS on fd: 0, or -errno (-ENOTTY/-ENOSYS: not a cusezero device). */
int cz_devstats_get(int fd, struct cusezero_stats *st);
/* after - before; -ESTALE if the counters were reset in between. */
int cz_devstats_delta(const struct cusezero_stats *before, const struct cusezero_stats *after,
		      struct cz_devdelta *d);
/* Bytes per second of routine time; 0 when nothing was timed. */
double cz_devdelta_rate(const struct cz_devdelta *d);
/* ns of routine time per chunk of bytes; 0 when nothing was cleared. */
double cz_devdelta_ns_per_chunk(const struct cz_devdelta *d);
/* routine_ns / busy_ns, or -1 when the daemon reported no busy time. */
double cz_devdelta_share(const struct cz_devdelta *d);
/*
 * The robust figures (doc/measurement.md, "In-device measurement"): the same
 * two, from the median request instead of the totals; 0 when no request.
 */
double cz_devdelta_median_rate(const struct cz_devdelta *d);
double cz_devdelta_median_ns_per_chunk(const struct cz_devdelta *d);

/*
 * The copies of a rotating device (cusezero.h, SET_ROTATE): GET_ROTATE,
 * then GET_LAYOUT for each.  A struct of 520 KiB: allocate it.
 */
struct cz_devlayouts {
	unsigned count;                         /* 0: the device is not rotating */
	uint32_t point, period;
	int offset[CUSEZERO_ROTATE_MAX];
	struct cusezero_counters c[CUSEZERO_ROTATE_MAX];
	uint64_t hist[CUSEZERO_ROTATE_MAX][CUSEZERO_HIST_BUCKETS];
};
/* 0, -errno of the ioctl, or -ESTALE when the rotation changed while being read. */
int cz_devlayouts_get(int fd, struct cz_devlayouts *l);
/* after - before into d; -ESTALE if the rotation differs or a counter went back (a reset). */
int cz_devlayouts_delta(const struct cz_devlayouts *before, const struct cz_devlayouts *after,
			struct cz_devlayouts *d);

/*
 * --device-share of pread_z100k and zload: begin() opens path and takes
 * the first reading (returns false, silently, when path is not a cusezero
 * device: the option is then off); end() takes the second and prints one
 * line "PROG: cusezero device: ..." to f.
 */
struct cz_devshare {
	int fd;
	bool on;
	uint64_t t_before;      /* cz_now_ns() just after the first reading */
	struct cusezero_stats before;
};

bool cz_devshare_begin(struct cz_devshare *s, const char *path);
void cz_devshare_end(struct cz_devshare *s, const char *prog, FILE *f);

#endif
