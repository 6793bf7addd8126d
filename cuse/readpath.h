/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * THE read path shared by both front ends and the io_uring transport
 * (readpath.c): settings, per-thread reply buffers, statistics.
 */
#ifndef CUSE_READPATH_H
#define CUSE_READPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "zeroing.h"
#include "cusezero.h"

/* Largest read request either front end can deliver: FUSE 1 MiB (max_pages 256). */
#define CZ_MAX_REQUEST (1u << 20)

int rp_init(const char *routine, int align, enum zero_point point, uint64_t chunk,
	    unsigned nthreads, bool poison);
/* Per-thread state: pre-faulted, page-aligned reply buffer of CZ_MAX_REQUEST. 0/-errno. */
int rp_thread_attach(unsigned idx);
/* Fill the calling thread's reply buffer with size zero bytes (size <= CZ_MAX_REQUEST). */
const void *rp_read(size_t size);
/* The calling thread's reply buffer (CZ_MAX_REQUEST bytes) that rp_read() fills; NULL before
 * rp_thread_attach.  The io_uring transport registers it as the ring payload (no copy). */
void *rp_thread_buffer(void);
void rp_count_write(size_t size);
/* --poison: fill the reply with 0xa5 before the routine runs (set before serving). */
void rp_set_poison(bool on);
#ifdef CZ_READPATH_TEST
zero_fn rp_test_swap_fn(zero_fn fn);	/* tests only: see readpath.c */
#endif
/*
 * A change of settings, applied as a whole or not at all (rp_apply): the
 * fields not set keep their value; an offset of CUSEZERO_ALIGN_NONE without
 * a point resets the point to loop.  -EINVAL (nothing changed): unknown or
 * unusable routine, offset not 0..4095, a routine that cannot be placed at
 * the offset, chunk not 1 B..1 MiB, or a point other than loop without an
 * offset (a point means nothing then).
 */
/* A rotation (cusezero.h, SET_ROTATE): n copies at off[], period requests per turn. */
struct rp_rotspec {
	unsigned n;             /* 0: none */
	unsigned period;        /* 0: CUSEZERO_ROTATE_PERIOD */
	uint32_t seed;
	uint16_t off[CUSEZERO_ROTATE_MAX];
};

/*
 * rot_set: rotate as rot says (n 0: rotation and placement off; the point
 * must be set with n > 0).  Without rot_set a rotation carries over to the
 * new routine or chunk, and align_set ends it.
 */
struct rp_change {
	const char *routine;	/* NULL: keep */
	bool align_set, point_set, chunk_set, rot_set;
	int align;		/* CUSEZERO_ALIGN_NONE or 0..4095 */
	enum zero_point point;
	uint64_t chunk;
	struct rp_rotspec rot;
};
int rp_apply(const struct rp_change *c);
/* One setting at a time (rp_apply with one field; rp_set_align(CUSEZERO_ALIGN_NONE, any)
 * turns placement off, the point going back to loop). */
int rp_set_routine(const char *name);
int rp_set_align(int offset, enum zero_point point);
int rp_set_chunk(uint64_t chunk);
void rp_get_stats(struct cusezero_stats *st);
/* The rotation in use (count 0: none). */
void rp_get_rotate(struct cusezero_rotate *r);
/* One copy's counters since the last change or reset; -EINVAL past the last copy. */
int rp_get_layout(struct cusezero_layout *l);
struct cz_devlayouts;
/* Every copy's counters at once (count 0: not rotating); what GET_LAYOUT reads one by one. */
void rp_get_layouts(struct cz_devlayouts *l);
void rp_reset_stats(void);

#endif
