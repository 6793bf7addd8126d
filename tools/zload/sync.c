/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fio's synchronous engines, one system call per I/O (fio's HOWTO,
 * "ioengine"): sync = lseek(2) + read(2)/write(2), psync = pread(2)/pwrite(2),
 * pvsync = preadv(2)/pwritev(2), pvsync2 = preadv2(2)/pwritev2(2) with
 * RWF_HIPRI when hipri is set.  Depth 1: the call returns with the I/O done.
 * The times: t_prep = t_submit just before the call (no submission step, so
 * no slat, as fio), completion right after it (clat = lat = the call).
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "util.h"
#include "zload.h"

#ifndef RWF_HIPRI
#define RWF_HIPRI 0x00000001
#endif

/* One system call of the job's engine; bytes or -errno. */
static ssize_t zl_sync_io(struct zl_job *j, struct zl_slot *s)
{
	bool w = s->dir == ZL_DIR_WRITE;
	int flags = j->o->hipri ? RWF_HIPRI : 0;
	ssize_t r;

	s->iov.iov_len = s->len;
	switch (j->o->engine) {
	case ZL_ENG_SYNC:
		if (lseek(j->fd, (off_t)s->offset, SEEK_SET) < 0)
			return -errno;
		r = w ? write(j->fd, s->iov.iov_base, s->len) : read(j->fd, s->iov.iov_base, s->len);
		break;
	case ZL_ENG_PVSYNC:
		r = w ? pwritev(j->fd, &s->iov, 1, (off_t)s->offset) :
			preadv(j->fd, &s->iov, 1, (off_t)s->offset);
		break;
	case ZL_ENG_PVSYNC2:
		r = w ? pwritev2(j->fd, &s->iov, 1, (off_t)s->offset, flags) :
			preadv2(j->fd, &s->iov, 1, (off_t)s->offset, flags);
		break;
	default:
		r = w ? pwrite(j->fd, s->iov.iov_base, s->len, (off_t)s->offset) :
			pread(j->fd, s->iov.iov_base, s->len, (off_t)s->offset);
		break;
	}
	return r < 0 ? -errno : r;
}

int zl_run_sync(struct zl_job *j, struct zl_slot *s, uint64_t limit_bytes, uint64_t limit_ios)
{
	struct zl_seq q;
	uint64_t issued = 0, bytes = 0, now;
	ssize_t r;

	memset(&q, 0, sizeof(q));
	while (!__atomic_load_n(&zl_stop, __ATOMIC_RELAXED) &&
	       !__atomic_load_n(&j->stop, __ATOMIC_RELAXED) && issued < limit_ios &&
	       bytes < limit_bytes) {
		zl_throttle(j);
		zl_next_io(j, &q, s);
		if (j->o->verify && s->dir == ZL_DIR_READ)
			memset(s->iov.iov_base, ZL_FILL, s->len);
		s->t_prep = s->t_submit = cz_now_ns();
		r = zl_sync_io(j, s);
		now = cz_now_ns();
		zl_complete(j, s, r > (ssize_t)INT32_MAX ? INT32_MAX : (int)r, now);
		issued++;
		bytes += s->len;
		j->c.submit_calls++;
		j->c.max_inflight = 1;
		zl_map_add(j->c.depth, 1, false);
		zl_map_add(j->c.submit, 1, true);
		zl_map_add(j->c.complete, 1, true);
		if (j->ramp_end && s->t_submit >= j->ramp_end)
			zl_ramp_done(j, cz_now_ns());
		__atomic_store_n(&j->live_ios, j->ramp_ios + j->c.ios, __ATOMIC_RELAXED);
		__atomic_store_n(&j->live_bytes, j->ramp_bytes + j->c.bytes, __ATOMIC_RELAXED);
		zl_time_check(j, now);
		zl_status_poll(j);
	}
	return 0;
}
