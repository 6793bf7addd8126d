/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cusezero.h: the ioctl interface of the cusezero device (public, installed).
 *
 * The same ioctls work on the CUSE node /dev/NAME and on the FUSE file
 * MOUNTPOINT/zero (and its sibling control/stats files).  Every command is a
 * proper _IOC encoding with a fixed-size argument, so the kernel copies the
 * argument in and out itself ("restricted" FUSE ioctl mode): a bad user
 * pointer fails with EFAULT in the kernel before the daemon sees anything.
 *
 * Errors (errno):
 *   EINVAL  unknown/unusable routine, offset > 4095, bad point, bad chunk,
 *           align on a routine that cannot be placed, a point without an
 *           offset; nothing is changed
 *   ENOTTY  unknown command
 *   EPERM   a SET_* or RESET command from a uid other than 0, the daemon's
 *           own uid or --owner (statistics and GET_* are open to all)
 *
 * Example:
 *     struct cusezero_routine r = { .name = "rep_stosb" };
 *     ioctl(fd, CUSEZERO_IOC_SET_ROUTINE, &r);
 */
#ifndef CUSEZERO_H
#define CUSEZERO_H

#include <stdint.h>
#include <sys/ioctl.h>

#define CUSEZERO_IOC_MAGIC     'Z'
#define CUSEZERO_NAME_MAX      64      /* routine name incl. NUL */
#define CUSEZERO_STATS_NAME    40      /* per-routine name in stats incl. NUL */
#define CUSEZERO_MAX_ROUTINES  64      /* per-routine counters kept for this many */
#define CUSEZERO_CHUNK_MAX     (1u << 20)
#define CUSEZERO_ALIGN_NONE    (-1)    /* run the routine's original code */
#define CUSEZERO_HIST_BITS     5       /* log-linear histogram: 32 buckets per power of two */
#define CUSEZERO_HIST_GROUP    (1u << CUSEZERO_HIST_BITS)
#define CUSEZERO_HIST_BUCKETS  1024    /* values up to 2^36 ns (68 s) per 4096 bytes */
#define CUSEZERO_HIST_UNIT     4096u   /* hist values are ns per this many bytes */

enum cusezero_point {
	CUSEZERO_POINT_ENTRY = 0,       /* the function's first instruction */
	CUSEZERO_POINT_LOOP = 1,        /* the head of its main loop */
};

struct cusezero_routine {
	char name[CUSEZERO_NAME_MAX];   /* NUL-terminated */
};

struct cusezero_align {
	int32_t offset;                 /* 0..4095, or CUSEZERO_ALIGN_NONE */
	uint32_t point;                 /* enum cusezero_point (loop when offset is NONE) */
};

struct cusezero_counters {
	uint64_t requests;              /* read requests served */
	uint64_t bytes;                 /* bytes returned to readers */
	uint64_t ns;                    /* time inside the routine calls (one clock pair per request) */
	uint64_t errors;                /* routine returned "bytes not cleared" (memset fallback used) */
};

struct cusezero_routine_stats {
	char name[CUSEZERO_STATS_NAME];
	struct cusezero_counters c;
};

struct cusezero_stats {
	uint32_t version;               /* CUSEZERO_STATS_VERSION */
	uint32_t nroutines;             /* valid entries in per_routine[] */
	char routine[CUSEZERO_NAME_MAX];/* current routine */
	int32_t align;                  /* current offset or CUSEZERO_ALIGN_NONE */
	uint32_t point;                 /* current enum cusezero_point */
	uint64_t chunk;                 /* current bytes per routine call */
	uint64_t writes;                /* write requests (discarded) */
	uint64_t write_bytes;
	struct cusezero_counters total;
	struct cusezero_routine_stats per_routine[CUSEZERO_MAX_ROUTINES];
	/*
	 * Version 2.  busy_ns: CPU time (user + system) the serving threads
	 * used, read from the kernel's per-thread CPU clocks when the stats are
	 * taken -- nothing is timed on the read path for it.  It covers the
	 * whole service of each request (receive, routine, reply, the kernel's
	 * copy into the reader done in the daemon's context) and any busy
	 * polling; time blocked waiting for a request is not in it.
	 * total.ns / busy_ns is the routine's share of the device's work.
	 * elapsed_ns: wall-clock time covered by the counters.  Both count
	 * since the start or the last reset, as the other counters do.
	 */
	uint64_t busy_ns;
	uint64_t elapsed_ns;
	/*
	 * Version 3.  hist: the distribution of the routine time of single
	 * requests, as time per 4096 bytes of the request (so requests of any
	 * size land on one scale), counted since the start or the last reset,
	 * all routines together.  Totals over a run are inflated by one
	 * preempted request; a quantile of this distribution is not.  The
	 * buckets are log-linear (cusezero_hist_index below): values below
	 * 2 * CUSEZERO_HIST_GROUP ns are exact, above each power of two is
	 * split into CUSEZERO_HIST_GROUP buckets (at most 1/32 = 3.1% wide);
	 * the last bucket holds everything from its lower bound up.
	 */
	uint64_t hist[CUSEZERO_HIST_BUCKETS];
};
#define CUSEZERO_STATS_VERSION 3

/* The _IOC size field has 14 bits: the whole struct must stay below 16 KiB. */
_Static_assert(sizeof(struct cusezero_stats) < (1u << 14), "stats too large for an ioctl");

/* Bucket of a value in ns per 4096 bytes. */
static inline unsigned cusezero_hist_index(uint64_t v)
{
	unsigned msb, shift, idx;

	if (v < 2 * CUSEZERO_HIST_GROUP)
		return (unsigned)v;
	msb = 63 - (unsigned)__builtin_clzll(v);
	shift = msb - CUSEZERO_HIST_BITS;
	idx = (shift + 1) * CUSEZERO_HIST_GROUP + (unsigned)((v >> shift) - CUSEZERO_HIST_GROUP);
	return idx < CUSEZERO_HIST_BUCKETS ? idx : CUSEZERO_HIST_BUCKETS - 1;
}

/* Lowest value of bucket idx; the bucket spans [low, low + width). */
static inline uint64_t cusezero_hist_low(unsigned idx)
{
	if (idx < 2 * CUSEZERO_HIST_GROUP)
		return idx;
	return (uint64_t)(idx % CUSEZERO_HIST_GROUP + CUSEZERO_HIST_GROUP) <<
	       (idx / CUSEZERO_HIST_GROUP - 1);
}

static inline uint64_t cusezero_hist_width(unsigned idx)
{
	return idx < 2 * CUSEZERO_HIST_GROUP ? 1 : 1ull << (idx / CUSEZERO_HIST_GROUP - 1);
}

#define CUSEZERO_IOC_GET_ROUTINE _IOR(CUSEZERO_IOC_MAGIC, 1, struct cusezero_routine)
#define CUSEZERO_IOC_SET_ROUTINE _IOW(CUSEZERO_IOC_MAGIC, 2, struct cusezero_routine)
#define CUSEZERO_IOC_GET_ALIGN   _IOR(CUSEZERO_IOC_MAGIC, 3, struct cusezero_align)
#define CUSEZERO_IOC_SET_ALIGN   _IOW(CUSEZERO_IOC_MAGIC, 4, struct cusezero_align)
#define CUSEZERO_IOC_GET_CHUNK   _IOR(CUSEZERO_IOC_MAGIC, 5, uint64_t)
#define CUSEZERO_IOC_SET_CHUNK   _IOW(CUSEZERO_IOC_MAGIC, 6, uint64_t)
#define CUSEZERO_IOC_GET_STATS   _IOR(CUSEZERO_IOC_MAGIC, 7, struct cusezero_stats)
#define CUSEZERO_IOC_RESET_STATS _IO(CUSEZERO_IOC_MAGIC, 8)

/*
 * Several settings in one call, all or nothing (what zeroctl sends): the
 * fields named in set are applied together; any invalid one is EINVAL and
 * changes nothing.  A point other than loop while the offset is (or stays)
 * CUSEZERO_ALIGN_NONE is EINVAL: a point means nothing without an offset.
 */
#define CUSEZERO_SET_ROUTINE    (1u << 0)
#define CUSEZERO_SET_OFFSET     (1u << 1)
#define CUSEZERO_SET_POINT      (1u << 2)
#define CUSEZERO_SET_CHUNK      (1u << 3)

struct cusezero_config {
	uint32_t set;                   /* CUSEZERO_SET_*; other bits: EINVAL */
	int32_t offset;                 /* 0..4095 or CUSEZERO_ALIGN_NONE */
	uint32_t point;                 /* enum cusezero_point */
	uint32_t reserved;              /* 0 */
	uint64_t chunk;                 /* bytes per routine call */
	char routine[CUSEZERO_NAME_MAX];/* NUL-terminated */
};

#define CUSEZERO_IOC_SET_CONFIG  _IOW(CUSEZERO_IOC_MAGIC, 16, struct cusezero_config)

/*
 * Rotation: the routine placed at several offsets at once, each serving
 * thread moving from one placed copy to the next every `period` requests,
 * in an order shuffled afresh for every cycle over the copies (seeded).
 * A run of a benchmark then covers every layout, interleaved at a fine
 * grain, so whatever the machine does meanwhile (frequency, a neighbour on
 * the host, the other tasks) falls on all layouts alike: the per-layout
 * figures of one run can be compared with each other, and the run's figure
 * is one over layouts (the design of Stabilizer, Curtsinger and Berger,
 * ASPLOS 2013, which re-randomises a program's layout while it runs).
 *
 * SET_ROTATE with count >= 1 places the current routine at every offset
 * (EINVAL, nothing changed: count > CUSEZERO_ROTATE_MAX, an offset > 4095
 * or given twice, a bad point, a routine that cannot be placed at one of
 * them, period > CUSEZERO_ROTATE_PERIOD_MAX).  count 0 turns rotation off
 * (the routine's original code, as SET_ALIGN with CUSEZERO_ALIGN_NONE).
 * SET_ALIGN and a SET_CONFIG with an offset end rotation; SET_ROUTINE and
 * SET_CHUNK keep it (the new routine placed at the same offsets).  While
 * rotating, GET_ALIGN and the stats report offset CUSEZERO_ALIGN_ROTATE.
 *
 * GET_LAYOUT fills one copy's counters: in index, out everything else;
 * EINVAL for an index >= the number of copies (0 when not rotating).  The
 * counters start at 0 at every change of settings and at RESET_STATS; a
 * request in flight while the rotation changes may be counted under the
 * new numbering.
 */
#define CUSEZERO_ALIGN_ROTATE      (-2)   /* GET_ALIGN, stats: rotating (GET_ROTATE) */
#define CUSEZERO_ROTATE_MAX        64     /* a 64-byte line at 1-byte steps */
#define CUSEZERO_ROTATE_PERIOD_MAX 1000000
#define CUSEZERO_ROTATE_PERIOD     8      /* requests per turn when period is 0 */

struct cusezero_rotate {
	uint32_t count;                 /* offsets in use; 0: rotation off */
	uint32_t point;                 /* enum cusezero_point, placed at each offset */
	uint32_t period;                /* requests per turn (0: CUSEZERO_ROTATE_PERIOD) */
	uint32_t seed;                  /* order of the turns; GET_ROTATE: the one in use */
	uint16_t offsets[CUSEZERO_ROTATE_MAX];  /* 0..4095, distinct */
};

struct cusezero_layout {
	uint32_t index;                 /* in: 0 .. count - 1 */
	uint32_t count;                 /* out: copies in the rotation */
	int32_t offset;                 /* out: the copy's offset */
	uint32_t point;                 /* out: enum cusezero_point */
	struct cusezero_counters c;     /* out: requests this copy served, as in stats.total */
	uint64_t hist[CUSEZERO_HIST_BUCKETS];   /* out: as stats.hist, this copy only */
};

#define CUSEZERO_IOC_SET_ROTATE  _IOW(CUSEZERO_IOC_MAGIC, 17, struct cusezero_rotate)
#define CUSEZERO_IOC_GET_ROTATE  _IOR(CUSEZERO_IOC_MAGIC, 18, struct cusezero_rotate)
#define CUSEZERO_IOC_GET_LAYOUT  _IOWR(CUSEZERO_IOC_MAGIC, 19, struct cusezero_layout)

_Static_assert(sizeof(struct cusezero_layout) < (1u << 14), "layout too large for an ioctl");

#endif
