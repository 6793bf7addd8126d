/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The session I/O wrapper (session_io.c, prefix sio_): libfuse's custom I/O
 * (fuse_session_custom_io) around a /dev/fuse or /dev/cuse session, with no
 * dependency beyond libfuse.  It offers:
 *
 *   - --poll-us: read the device without sleeping for a bounded time after
 *     a request, then sleep in poll();
 *   - --reply splice: replies of two pages or more go by vmsplice() into a
 *     per-thread pipe + splice() into the device instead of writev();
 *   - hooks for a transport that needs to see INIT and route replies (the
 *     io_uring transport, fuse_uring.c).
 *
 * One session per process: sio_attach after fuse_session_mount (FUSE) or
 * cuse_lowlevel_setup (CUSE) and before the loop reads INIT; sio_detach
 * after the loop (the session then does plain read/writev until destroyed).
 */
#ifndef CUSE_SESSION_IO_H
#define CUSE_SESSION_IO_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

struct fuse_session;

/* INIT flag: flags2 carries bits 32..63 (include/uapi/linux/fuse.h, 7.36). */
#define SIO_FUSE_INIT_EXT		(1ULL << 30)

/* A reply hook's answer: not mine, let the wrapper send it. */
#define SIO_PASS (-2)

/* What the kernel sent in FUSE_INIT. */
struct sio_init {
	uint64_t unique;
	uint32_t major, minor;
	uint64_t flags;		/* flags | flags2 << 32 */
};

struct sio_hooks {
	void *ctx;
	/* FUSE_INIT arrived (the loop thread, before libfuse handles it). */
	void (*init_request)(void *ctx, const struct sio_init *in);
	/* The INIT reply is about to be written (iov[1]: struct fuse_init_out). */
	void (*init_reply)(void *ctx, struct iovec *iov, int count);
	/* ... and was written (res, errno as writev's): the kernel processed it. */
	void (*init_written)(void *ctx, ssize_t res, int err);
	/* Any other reply: SIO_PASS, or the result it was sent with (writev's). */
	ssize_t (*reply)(void *ctx, int fd, struct iovec *iov, int count);
};

struct sio_params {
	unsigned poll_us;	/* busy-poll the device this long after a request (0: off) */
	bool splice_reply;	/* replies >= 2 pages by vmsplice + splice */
	bool fuse_init;		/* the session starts with FUSE_INIT (not CUSE_INIT) */
	const struct sio_hooks *hooks;	/* may be NULL */
};

/* 0 or -errno (-EBUSY: a session is attached already). */
int sio_attach(struct fuse_session *se, const struct sio_params *p);
void sio_detach(void);
/* Requests read from the device, replies sent by splice. */
void sio_counts(uint64_t *requests, uint64_t *spliced);

#endif
