/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Replies both front ends give alike (reply.c); include after <fuse_lowlevel.h>. */
#ifndef CUSE_REPLY_H
#define CUSE_REPLY_H

#include <stddef.h>

/* An ioctl of the device (control.c's commands; 32-bit compat: ENOSYS). */
void reply_ioctl(fuse_req_t req, unsigned int cmd, unsigned int flags, const void *in_buf,
		 size_t in_bufsz, size_t out_bufsz);
/* poll: always readable and writable. */
void reply_poll(fuse_req_t req, struct fuse_pollhandle *ph);

#endif
