/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The session I/O wrapper: see session_io.h.  Built with libfuse alone, so
 * --poll-us, --reply splice and the INIT flags work without liburing.
 */
#define FUSE_USE_VERSION 314

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include <fuse_lowlevel.h>
#include <linux/fuse.h>

#include "session_io.h"
#include "util.h"

static struct {
	atomic_bool attached;
	struct fuse_session *se;
	struct sio_params p;
	struct sio_hooks hooks;
	atomic_bool init_pending;	/* FUSE: until the INIT reply is written */
	uint64_t init_unique;		/* 0 until FUSE_INIT was read */
	atomic_uint_fast64_t nreq;
	atomic_uint_fast64_t nsplice;
} sio;

/*
 * --poll-us: read without sleeping until the deadline, then sleep in poll().
 * A signal that stops the daemon may land while we spin (it only sets
 * libfuse's exit flag), so the spin checks that flag, and the sleep wakes
 * every 200 ms to let the caller's loop look at it (and at loop.c's own
 * stop flag): -1/EAGAIN, which libfuse and loop.c treat as "try again".
 * Coming back after such a wake-up, the thread sleeps again without spinning:
 * the spin budget follows a request, not an idle device.
 */
static __thread bool tl_poll_idle;

static ssize_t sio_read_polled(int fd, void *buf, size_t len)
{
	uint64_t deadline = cz_now_ns() + (uint64_t)sio.p.poll_us * 1000;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	ssize_t res;
	int n;

	for (;;) {
		if (tl_poll_idle)
			break;
		res = read(fd, buf, len);
		if (res >= 0 || errno != EAGAIN)
			return res;
		if (fuse_session_exited(sio.se))
			return -1;	/* errno is EAGAIN */
		if (cz_now_ns() >= deadline)
			break;
	}
	for (;;) {
		n = poll(&pfd, 1, 200);
		if (n < 0)
			return -1;	/* EINTR: the caller's loop checks for exit */
		if (n == 0) {
			tl_poll_idle = true;
			errno = EAGAIN;
			return -1;
		}
		res = read(fd, buf, len);
		if (res >= 0 || errno != EAGAIN) {
			tl_poll_idle = false;
			return res;
		}
	}
}

/* FUSE_INIT: remember what the kernel offers (read on the loop thread, before any reply). */
static void sio_see_init(const void *buf, ssize_t res)
{
	const struct fuse_in_header *in = buf;
	const struct fuse_init_in *ii = (const void *)(in + 1);
	struct sio_init si;

	if (in->opcode != FUSE_INIT ||
	    (size_t)res < sizeof(*in) + offsetof(struct fuse_init_in, unused))
		return;
	si.unique = in->unique;
	si.major = ii->major;
	si.minor = ii->minor;
	si.flags = ii->flags;
	if (si.flags & SIO_FUSE_INIT_EXT)
		si.flags |= (uint64_t)ii->flags2 << 32;
	sio.init_unique = si.unique;
	if (sio.hooks.init_request)
		sio.hooks.init_request(sio.hooks.ctx, &si);
}

static ssize_t sio_io_read(int fd, void *buf, size_t len, void *userdata)
{
	ssize_t res;

	(void)userdata;
	if (!atomic_load(&sio.attached))
		return read(fd, buf, len);
	if (sio.p.poll_us)
		res = sio_read_polled(fd, buf, len);
	else
		res = read(fd, buf, len);
	if (res < (ssize_t)sizeof(struct fuse_in_header))
		return res;
	atomic_fetch_add_explicit(&sio.nreq, 1, memory_order_relaxed);
	if (atomic_load_explicit(&sio.init_pending, memory_order_relaxed) && !sio.init_unique)
		sio_see_init(buf, res);
	return res;
}

/*
 * --reply splice: vmsplice() the reply's pages into this thread's pipe, then
 * splice() the pipe into the device.  The kernel then reads the daemon's
 * pages from the pipe buffers (vmsplice pins them up to 16 at a time)
 * instead of pinning them one page at a time in fuse_copy_fill().  The copy
 * into the reader's pages stays.  Returns -2 when the reply does not fit the
 * pipe (the caller writes it instead).
 */
static __thread int tl_pipe[2] = { -1, -1 };
static __thread size_t tl_pipe_slots;

static void sio_pipe_drop(void)
{
	if (tl_pipe[0] >= 0) {
		close(tl_pipe[0]);
		close(tl_pipe[1]);
	}
	tl_pipe[0] = tl_pipe[1] = -1;
	tl_pipe_slots = 0;
}

static bool sio_pipe_open(void)
{
	int sz;

	if (tl_pipe[0] >= 0)
		return true;
	if (pipe2(tl_pipe, O_CLOEXEC) < 0) {
		tl_pipe[0] = tl_pipe[1] = -1;
		return false;
	}
	/* 2 MiB holds a 1 MiB reply at any alignment; without privilege pipe-max-size caps it */
	sz = fcntl(tl_pipe[1], F_SETPIPE_SZ, 2 << 20);
	if (sz < 0)
		sz = fcntl(tl_pipe[1], F_SETPIPE_SZ, 1 << 20);
	if (sz < 0)
		sz = fcntl(tl_pipe[1], F_GETPIPE_SZ);
	tl_pipe_slots = sz > 0 ? (size_t)sz / 4096 : 0;
	return true;
}

/* Move the reply's bytes into the pipe: 0, -2 (nothing moved) or -1/errno. */
static int sio_vmsplice_all(const struct iovec *iov, int count, size_t total)
{
	size_t done = 0;
	ssize_t n;
	int i;

	while (done < total) {
		struct iovec rest[8];
		size_t skip = done;
		int j = 0;

		for (i = 0; i < count && j < 8; i++) {
			if (skip >= iov[i].iov_len) {
				skip -= iov[i].iov_len;
				continue;
			}
			rest[j].iov_base = (char *)iov[i].iov_base + skip;
			rest[j].iov_len = iov[i].iov_len - skip;
			skip = 0;
			j++;
		}
		n = vmsplice(tl_pipe[1], rest, (unsigned long)j, 0);
		if (n <= 0) {
			if (done == 0)
				return -2;	/* nothing in the pipe: write it instead */
			sio_pipe_drop();	/* half a reply in the pipe: cannot be used */
			errno = n < 0 ? errno : EIO;
			return -1;
		}
		done += (size_t)n;
	}
	return 0;
}

static ssize_t sio_splice_reply(int fd, const struct iovec *iov, int count)
{
	size_t total = 0, slots = 0;
	ssize_t n;
	int i, ret;

	for (i = 0; i < count; i++) {
		uintptr_t a = (uintptr_t)iov[i].iov_base;

		total += iov[i].iov_len;
		if (iov[i].iov_len)
			slots += ((a + iov[i].iov_len + 4095) >> 12) - (a >> 12);
	}
	if (total < 8192 || !sio_pipe_open() || slots > tl_pipe_slots)
		return -2;
	ret = sio_vmsplice_all(iov, count, total);
	if (ret)
		return ret;
	n = splice(tl_pipe[0], NULL, fd, NULL, total, 0);
	if (n != (ssize_t)total) {
		int err = n < 0 ? errno : EIO;

		sio_pipe_drop();	/* whatever is left in it belongs to this reply */
		errno = err;
		return -1;
	}
	return n;
}

/* The INIT reply: the hooks may patch it, and learn it was written. */
static ssize_t sio_init_reply(int fd, struct iovec *iov, int count)
{
	ssize_t res;
	int err;

	if (sio.hooks.init_reply)
		sio.hooks.init_reply(sio.hooks.ctx, iov, count);
	res = writev(fd, iov, count);
	err = res < 0 ? errno : 0;
	atomic_store(&sio.init_pending, false);
	if (sio.hooks.init_written)
		sio.hooks.init_written(sio.hooks.ctx, res, err);
	errno = err;
	return res;
}

static ssize_t sio_io_writev(int fd, struct iovec *iov, int count, void *userdata)
{
	const struct fuse_out_header *oh = iov[0].iov_base;
	ssize_t res;

	(void)userdata;
	if (!atomic_load(&sio.attached))
		return writev(fd, iov, count);
	if (sio.hooks.reply) {
		res = sio.hooks.reply(sio.hooks.ctx, fd, iov, count);
		if (res != SIO_PASS)
			return res;
	}
	if (atomic_load_explicit(&sio.init_pending, memory_order_relaxed)) {
		if (sio.init_unique && oh->unique == sio.init_unique)
			return sio_init_reply(fd, iov, count);
	} else if (sio.p.splice_reply) {
		res = sio_splice_reply(fd, iov, count);
		if (res >= 0)
			atomic_fetch_add_explicit(&sio.nsplice, 1, memory_order_relaxed);
		if (res != -2)
			return res;
	}
	return writev(fd, iov, count);
}

static const struct fuse_custom_io sio_io = {
	.writev = sio_io_writev,
	.read = sio_io_read,
};

int sio_attach(struct fuse_session *se, const struct sio_params *p)
{
	int fd = fuse_session_fd(se);

	if (atomic_load(&sio.attached))
		return -EBUSY;
	sio.se = se;
	sio.p = *p;
	memset(&sio.hooks, 0, sizeof(sio.hooks));
	if (p->hooks)
		sio.hooks = *p->hooks;
	sio.p.hooks = NULL;
	sio.init_unique = 0;
	atomic_store(&sio.nreq, 0);
	atomic_store(&sio.nsplice, 0);
	/* Only FUSE starts with FUSE_INIT; splice replies wait for its reply. */
	atomic_store(&sio.init_pending, p->fuse_init);
	if (p->poll_us && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) < 0)
		return -errno;
	atomic_store(&sio.attached, true);
	/* libfuse dup()s nothing: the session keeps and later closes the same fd. */
	if (fuse_session_custom_io(se, &sio_io, fd) != 0) {
		atomic_store(&sio.attached, false);
		return -EINVAL;
	}
	return 0;
}

void sio_detach(void)
{
	atomic_store(&sio.attached, false);
}

void sio_counts(uint64_t *requests, uint64_t *spliced)
{
	*requests = atomic_load(&sio.nreq);
	*spliced = atomic_load(&sio.nsplice);
}
