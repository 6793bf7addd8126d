/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The daemon's transports: the glue between the daemon (cz_params.transport,
 * --reply, --poll-us, the shared read path rp_read) and the generic session
 * I/O wrapper (session_io.c, always built) and io_uring transport
 * (fuse_uring.c, with liburing).  Built without liburing, it only knows "dev".
 *
 *   --transport auto   io_uring when the kernel offers it (enable_uring = Y),
 *                      else /dev/fuse, with a one-line note under -d (the
 *                      default)
 *   --transport uring  io_uring or fail; as root, sets enable_uring = Y
 *                      (not with --user: see fud_start)
 *   --transport dev    /dev/fuse only
 *
 * Each CPU queue thread owns a read-path slot (rp_thread_attach) after the
 * --threads loop workers' slots, so every READ of the zero file that arrives
 * by ring is cleared by the selected routine in rp_read() and counted in the
 * stats like any other.  The slot's reply buffer is registered as the ring
 * entry's payload, so the kernel copies the reply straight from where the
 * routine cleared it (one entry per queue; a copy only if that failed).
 * --sched-idle applies to the queue threads too (fud_thread_init).
 */
#define FUSE_USE_VERSION 314

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include <fuse_lowlevel.h>
#include <linux/fuse.h>

#include "fuse_uring_daemon.h"
#include "log.h"
#include "loop.h"
#include "mountpoint.h"
#include "params.h"
#include "readpath.h"
#include "schedguard.h"
#include "session_io.h"
#ifdef HAVE_LIBURING
#include "fuse_uring.h"
#endif

static struct {
	struct cz_uring *u;	/* the io_uring transport, or */
	bool sio;		/* the session I/O wrapper alone */
	unsigned long zero_ino;
	unsigned first_slot;
	bool cuse;		/* attached to the CUSE session (splice, --poll-us) */
	bool switched_on;	/* we set enable_uring = Y: put it back at exit */
	int users_fd;		/* fud_join: our shared lock on "uring-users" */
} fud = { .users_fd = -1 };

bool fud_transport_ok(const char *s)
{
	return !strcmp(s, "auto") || !strcmp(s, "uring") || !strcmp(s, "dev");
}

/*
 * /dev/fuse without the ring, or /dev/cuse: the I/O wrapper is still worth
 * attaching for its splice replies (--reply splice, the default) and
 * --poll-us; with --reply writev and no --poll-us, libfuse's own read and
 * writev are used and nothing is attached.
 */
static int fud_attach_classic(struct fuse_session *se, bool fuse)
{
	struct sio_params p = {
		.poll_us = cz_params.poll_us,
		.splice_reply = !cz_params.reply_writev,
		.fuse_init = fuse,
	};
	int ret;

	if (cz_params.reply_writev && !cz_params.poll_us)
		return 0;
	ret = sio_attach(se, &p);
	if (ret < 0)	/* libfuse's read/writev then: slower, not wrong */
		cz_log("splice replies and --poll-us off: %s", strerror(-ret));
	else
		fud.sio = true;
	return 0;
}

int fud_start_cuse(struct fuse_session *se)
{
	fud.cuse = true;
	return fud_attach_classic(se, false);
}

static void fud_stop_debug(const char *desc, uint64_t nring, uint64_t ndev, uint64_t nsplice)
{
	if (fud.cuse)
		cz_debug("/dev/cuse: %llu requests, %llu replies by splice",
			 (unsigned long long)ndev, (unsigned long long)nsplice);
	else
		cz_debug("transport %s: %llu requests by io_uring, %llu by /dev/fuse, "
			 "%llu replies by splice", desc, (unsigned long long)nring,
			 (unsigned long long)ndev, (unsigned long long)nsplice);
}

void fud_unmounting(void)
{
#ifdef HAVE_LIBURING
	cz_uring_unmounting(fud.u);
#endif
}

void fud_stop(void)
{
	uint64_t nring = 0, ndev, nsplice;

#ifdef HAVE_LIBURING
	if (fud.u) {
		cz_uring_counts(fud.u, &nring, &ndev, &nsplice);
		fud_stop_debug(cz_uring_describe(fud.u), nring, ndev, nsplice);
		cz_uring_detach(fud.u);
		fud.u = NULL;
		return;
	}
#endif
	if (!fud.sio)
		return;
	sio_counts(&ndev, &nsplice);
	fud_stop_debug(cz_params.poll_us ? "/dev/fuse, busy-poll" : "/dev/fuse", nring, ndev,
		       nsplice);
	sio_detach();
	fud.sio = false;
}

#ifdef HAVE_LIBURING

static enum cz_transport fud_transport(void)
{
	enum cz_transport t = CZ_TRANSPORT_AUTO;

	if (cz_params.transport)
		cz_transport_parse(cz_params.transport, &t);	/* validated by main */
	return t;
}

unsigned fud_extra_threads(unsigned loop_threads)
{
	int n;

	if (fud_transport() == CZ_TRANSPORT_DEV)
		return 0;
	n = cz_uring_nr_queues();
	if (n <= 0 || loop_threads + (unsigned)n > 64)
		return 0;	/* fud_start then finds no slots: /dev/fuse */
	fud.first_slot = loop_threads;
	return (unsigned)n;
}

static int fud_thread_init(void *ctx, unsigned qid, void **payload, size_t *payload_len)
{
	int ret;

	(void)ctx;
	/* Already pinned to CPU qid by the transport; --cpu is for the loop only. */
	loop_sched_self("io_uring queue", false);
	ret = rp_thread_attach(fud.first_slot + qid);
	if (ret)
		return ret;
	/* rp_read() fills this buffer: the kernel copies the reply straight from it. */
	*payload = rp_thread_buffer();
	*payload_len = CZ_MAX_REQUEST;
	return 0;
}

/* --sched-idle: the starvation guard watches each queue's ring (schedguard.c). */
static __thread int fud_guard = -1;

static void fud_thread_ready(void *ctx, unsigned qid, int ring_fd, atomic_uint_fast64_t *served)
{
	(void)ctx;
	(void)qid;
	if (cz_params.sched_idle)
		fud_guard = sg_join(ring_fd, served);
}

static void fud_thread_exit(void *ctx, unsigned qid)
{
	(void)ctx;
	(void)qid;
	sg_leave(fud_guard);
	fud_guard = -1;
}

static bool fud_read(void *ctx, const struct fuse_in_header *in, const struct fuse_read_in *arg,
		     void *dst, size_t size, ssize_t *res)
{
	const void *src;

	(void)ctx;
	(void)arg;
	if (in->nodeid != fud.zero_ino)
		return false;
	if (size > CZ_MAX_REQUEST)
		size = CZ_MAX_REQUEST;
	src = rp_read(size);
	if (src != dst)
		memcpy(dst, src, size);
	*res = (ssize_t)size;
	return true;
}

/*
 * --transport uring as root switches the host-wide enable_uring on when it
 * is off, and puts it back at exit (fud_restore, on every way out that
 * returns: SIGTERM, SIGINT, a failed start; not after SIGKILL).  Other
 * FUSE servers mounting meanwhile see it on.
 */
static int fud_enable_uring(void)
{
	int ret = cz_uring_enable_param();

	if (!ret)
		fud.switched_on = true;
	return ret;
}

/*
 * The switch is the host's, and several uring daemons may need it: the
 * first to stop must not turn it off under the others.  Each one holds a
 * shared lock on the lock file "uring-users" for its life (the kernel drops
 * it however the daemon dies, so the count needs no repair after SIGKILL);
 * the lock of the file "uring" serialises joining and leaving, and its one
 * byte says whether a cusezero switched it on ('1').  Found on with no
 * cusezero user left, it is the administrator's (or a killed daemon's
 * leftover): not ours to turn off.  The last user to leave (its lock on
 * "uring-users" turns exclusive) turns off what a cusezero turned on.
 * Without the lock files (not root) each daemon undoes only its own switch.
 */
static int fud_join(void)
{
	char path[PATH_MAX], flag = '0';
	const char *why;
	int mfd, ufd;

	mfd = mp_lock_file("uring", path, sizeof(path));
	if (mfd < 0)
		return mfd;
	ufd = mp_lock_file("uring-users", path, sizeof(path));
	if (ufd < 0 || flock(mfd, LOCK_EX)) {
		if (ufd >= 0)
			close(ufd);
		close(mfd);
		return -EIO;
	}
	if (flock(ufd, LOCK_EX | LOCK_NB) && pread(mfd, &flag, 1, 0) != 1)
		flag = '0';
	if (cz_uring_probe(&why) == -EPERM && cz_uring_enable_param() == 0)
		flag = '1';
	if (pwrite(mfd, &flag, 1, 0) != 1 || flock(ufd, LOCK_SH))
		cz_debug("--transport uring: the users' lock files: %s", strerror(errno));
	fud.users_fd = ufd;
	close(mfd);
	return 0;
}

static void fud_leave(void)
{
	char path[PATH_MAX], flag = '0';
	int mfd = mp_lock_file("uring", path, sizeof(path));

	if (mfd >= 0 && !flock(mfd, LOCK_EX) && !flock(fud.users_fd, LOCK_EX | LOCK_NB) &&
	    pread(mfd, &flag, 1, 0) == 1 && flag == '1') {
		if (cz_uring_disable_param())
			cz_log("--transport uring: could not put enable_uring back to N");
		else
			cz_debug("--transport uring: enable_uring put back to N (its last user)");
		flag = '0';
		if (pwrite(mfd, &flag, 1, 0) != 1)
			cz_debug("--transport uring: %s: %s", path, strerror(errno));
	}
	close(fud.users_fd);
	fud.users_fd = -1;
	if (mfd >= 0)
		close(mfd);
}

void fud_restore(void)
{
	if (fud.users_fd >= 0)
		fud_leave();
	if (!fud.switched_on)
		return;
	if (cz_uring_disable_param())
		cz_log("--transport uring: could not put enable_uring back to N");
	else
		cz_debug("--transport uring: enable_uring put back to N");
	fud.switched_on = false;
}

void fud_prepare(void)
{
	const char *why;

	if (fud_transport() != CZ_TRANSPORT_URING || cz_params.user || !fud.first_slot)
		return;
	if (fud_join() == 0)
		return;
	if (cz_uring_probe(&why) == -EPERM)
		fud_enable_uring();	/* fud_start reports a failure */
}

int fud_start(struct fuse_session *se, unsigned long zero_ino)
{
	struct cz_uring_params p = {
		.transport = fud_transport(),
		.entries = 1,
		.read = fud_read,
		.thread_init = fud_thread_init,
		.thread_ready = fud_thread_ready,
		.thread_exit = fud_thread_exit,
		.splice_reply = !cz_params.reply_writev,
		.poll_us = cz_params.poll_us,
	};
	const char *why;
	int ret;

	fud.zero_ino = zero_ino;
	if (p.transport == CZ_TRANSPORT_DEV)
		return fud_attach_classic(se, true);
	/*
	 * Without the privilege to unmount, the kernel does not end the queues'
	 * entries; the ring's own teardown then runs after we exit, and
	 * fusermount3's auto_unmount, checking at that moment, finds the
	 * connection alive and leaves the mount behind (seen here, ~1 in 3).
	 */
	if (cz_params.user) {
		if (p.transport == CZ_TRANSPORT_URING) {
			cz_log("--transport uring: not with --user (the queues need our unmount)");
			return -EINVAL;
		}
		cz_debug("io_uring transport off with --user; using /dev/fuse");
		return fud_attach_classic(se, true);
	}
	if (!fud.first_slot) {
		if (p.transport == CZ_TRANSPORT_URING) {
			cz_log("--transport uring: no read-path slots for %d CPU queues",
			       cz_uring_nr_queues());
			return -ENOSPC;
		}
		return fud_attach_classic(se, true);
	}
	ret = cz_uring_probe(&why);
	/* Joined users share the switch: fud_join turned it on if it could. */
	if (ret == -EPERM && p.transport == CZ_TRANSPORT_URING && fud.users_fd < 0 &&
	    fud_enable_uring() == 0)
		ret = cz_uring_probe(&why);
	if (ret < 0) {
		if (p.transport == CZ_TRANSPORT_URING) {
			cz_log("--transport uring: %s", why);
			return ret;
		}
		/* Debug only: tests count the lines a default start prints. */
		cz_debug("io_uring transport off (%s); using /dev/fuse", why);
		return fud_attach_classic(se, true);
	}
	ret = cz_uring_attach(se, &p, &fud.u);
	if (ret < 0) {
		cz_log("io_uring transport: %s", strerror(-ret));
		if (p.transport == CZ_TRANSPORT_URING)
			return ret;
		return fud_attach_classic(se, true);
	}
	return 0;
}

#else /* !HAVE_LIBURING */

unsigned fud_extra_threads(unsigned loop_threads)
{
	(void)loop_threads;
	return 0;
}

void fud_prepare(void)
{
}

void fud_restore(void)
{
}

int fud_start(struct fuse_session *se, unsigned long zero_ino)
{
	fud.zero_ino = zero_ino;
	if (cz_params.transport && !strcmp(cz_params.transport, "uring")) {
		cz_log("--transport uring: built without liburing");
		return -ENOSYS;
	}
	return fud_attach_classic(se, true);
}

#endif
