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
int rp_set_routine(const char *name);
int rp_set_align(int offset, enum zero_point point);
int rp_set_chunk(uint64_t chunk);
void rp_get_stats(struct cusezero_stats *st);
void rp_reset_stats(void);

#endif
