/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Replies the CUSE and FUSE front ends give alike, whatever their libfuse
 * callback signatures: ioctls (restricted mode: 32-bit compat refused, the
 * commands and their checks in control.c) and poll (always ready, like
 * /dev/zero, so no notification is ever needed).
 */
#define FUSE_USE_VERSION 314

#include <errno.h>
#include <poll.h>

#include "control.h"
#include "cusezero.h"
#include <fuse_lowlevel.h>
#include "reply.h"

void reply_ioctl(fuse_req_t req, unsigned int cmd, unsigned int flags, const void *in_buf,
		 size_t in_bufsz, size_t out_bufsz)
{
	char out[sizeof(struct cusezero_stats)];
	size_t out_len;
	int ret;

	if (flags & FUSE_IOCTL_COMPAT) {
		fuse_reply_err(req, ENOSYS);
		return;
	}
	ret = ctl_ioctl(fuse_req_ctx(req)->uid, cmd, in_buf, in_bufsz, out,
			out_bufsz < sizeof(out) ? out_bufsz : sizeof(out), &out_len);
	if (ret)
		fuse_reply_err(req, -ret);
	else
		fuse_reply_ioctl(req, 0, out_len ? out : NULL, out_len);
}

void reply_poll(fuse_req_t req, struct fuse_pollhandle *ph)
{
	if (ph)
		fuse_pollhandle_destroy(ph);
	fuse_reply_poll(req, POLLIN | POLLRDNORM | POLLOUT | POLLWRNORM);
}
