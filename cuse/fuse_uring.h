/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * FUSE over io_uring for a libfuse 3.14 low-level session (needs liburing).
 *
 * libfuse learned the transport only in 3.18; this module adds it from the
 * outside.  Through the hooks of the session I/O wrapper (session_io.h) it
 * (1) sees the kernel's INIT request and patches FUSE_OVER_IO_URING into the
 * INIT reply, (2) once that reply is written, start one thread per possible
 * CPU, each pinned to its CPU with its own SQE128 ring, registering entries
 * on queue qid = CPU, and serving requests that arrive as CQEs, answering
 * with COMMIT_AND_FETCH.  Because the kernel queues a request on the queue of
 * the CPU the reader runs on, the reader and the thread that serves it share
 * a CPU: no cross-CPU wake-up (tens of us in this VM).
 *
 * READ requests are handed to the caller's read callback with the ring
 * entry's payload buffer as destination (the routine clears straight into
 * the buffer the kernel copies from); every other request is rebuilt into
 * the classic /dev/fuse layout and run through fuse_session_process_buf(),
 * its reply being routed into the ring entry.  Handlers must therefore reply
 * before returning (no deferred replies) for requests that come by ring.
 * The classic loop keeps running on /dev/fuse for what never goes by ring
 * (INIT, FORGET, INTERRUPT, anything before every queue is registered).
 *
 * The classic path's levers (--poll-us, --reply splice) belong to the
 * wrapper; cz_uring_params forwards them.
 *
 * Usage: fuse_session_new + fuse_session_mount, then cz_uring_attach(), run
 * the session loop (single- or multi-threaded), cz_uring_unmounting(),
 * fuse_session_unmount, then cz_uring_detach() (joins the ring threads: they
 * end when the kernel tears the queues down at unmount; all of them before
 * any ring is unmapped, since a late thread's new ring may get a freed one's
 * address).  A queue thread that reaches registration once the unmount began
 * ends without submitting: its commands would name the closed /dev/fuse fd.
 */
#ifndef CUSE_FUSE_URING_H
#define CUSE_FUSE_URING_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct fuse_session;
struct fuse_in_header;
struct fuse_read_in;
struct cz_uring;

enum cz_transport {
	CZ_TRANSPORT_AUTO,	/* io_uring if the kernel offers it, else /dev/fuse */
	CZ_TRANSPORT_URING,	/* io_uring or fail */
	CZ_TRANSPORT_DEV,	/* classic /dev/fuse only */
};

/*
 * READ fast path, called on a ring thread.  Fill dst (size bytes, the ring
 * entry's payload buffer) and return true with *res = bytes or -errno; return
 * false to let libfuse's read handler answer instead (e.g. another inode).
 */
typedef bool (*cz_uring_read_fn)(void *ctx, const struct fuse_in_header *in,
				 const struct fuse_read_in *arg, void *dst,
				 size_t size, ssize_t *res);

struct cz_uring_params {
	enum cz_transport transport;
	unsigned entries;	/* ring entries per CPU queue (default 2) */
	unsigned poll_us;	/* classic path: busy-poll /dev/fuse this long (0 = off) */
	bool splice_reply;	/* classic path: replies >= 2 pages by vmsplice + splice */
	bool no_pin;		/* do not pin queue threads to their CPU */
	cz_uring_read_fn read;	/* may be NULL: every READ goes through libfuse */
	void *read_ctx;
	/*
	 * Called on each queue thread before it registers (0 or -errno).  It
	 * may offer the buffer its read callback fills (*payload, *payload_len):
	 * if big enough, the queue registers it as its entry's payload so READ
	 * needs no copy (the queue then has one entry: they would share it).
	 */
	int (*thread_init)(void *ctx, unsigned qid, void **payload, size_t *payload_len);
	/*
	 * Optional, on each queue thread: once its entries are registered (the
	 * ring's fd polls readable while a request waits; served counts the
	 * requests it answers), and when it is about to exit.
	 */
	void (*thread_ready)(void *ctx, unsigned qid, int ring_fd, atomic_uint_fast64_t *served);
	void (*thread_exit)(void *ctx, unsigned qid);
};

/* Parse "auto", "uring", "dev": 0 or -EINVAL. */
int cz_transport_parse(const char *s, enum cz_transport *out);
const char *cz_transport_name(enum cz_transport t);

/*
 * Is the transport usable here?  0, or -errno with *why set: -ENOSYS (kernel
 * without CONFIG_FUSE_IO_URING), -EPERM (module parameter enable_uring = N).
 */
int cz_uring_probe(const char **why);

/* Write Y / N to /sys/module/fuse/parameters/enable_uring (root only). 0 / -errno. */
int cz_uring_enable_param(void);
int cz_uring_disable_param(void);

/*
 * Wrap the mounted session's I/O; must run before the session loop reads
 * the INIT request.  One session per process.  0 or -errno.
 */
int cz_uring_attach(struct fuse_session *se, const struct cz_uring_params *p,
		    struct cz_uring **out);

/*
 * Wait up to timeout_ms for the transport to settle after INIT: returns 1 if
 * every queue is registered (ring active), 0 if running classic (fallback or
 * dev), -ETIMEDOUT, or -errno of a failed ring setup.
 */
int cz_uring_wait_ready(struct cz_uring *u, int timeout_ms);

/* One line on what the transport is doing ("io_uring: 2 queues x 2 entries"). */
const char *cz_uring_describe(struct cz_uring *u);

/* Requests served by ring / by /dev/fuse, and replies sent by splice, so far. */
void cz_uring_counts(struct cz_uring *u, uint64_t *ring, uint64_t *dev, uint64_t *spliced);

/* Before fuse_session_unmount (which closes the session's fd): the ring
 * threads stop writing to that fd. */
void cz_uring_unmounting(struct cz_uring *u);

/* Stop and join the queue threads (after unmount), free everything. */
void cz_uring_detach(struct cz_uring *u);

/* Number of queues (= possible CPUs) the kernel will make, or -errno. */
int cz_uring_nr_queues(void);

#endif
