/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The FUSE front end's mount point (mountpoint.c, prefix mp_): one daemon
 * per mount point, and recovery from a dead one.
 */
#ifndef CUSE_MOUNTPOINT_H
#define CUSE_MOUNTPOINT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Before mounting: make the directory (create: the fallback's
 * /run/cusezero/NAME), detach a dead FUSE mount there, take the mount
 * point's lock for the life of the process (inherited by a forked daemon)
 * and refuse a path already served.  canon: the canonical path to mount on.
 * 0, or -errno with one line logged.
 */
int mp_prepare(const char *mnt, bool create, char *canon, size_t len);

/* After unmounting: remove the directory if it is ours (made by us, or the fallback's). */
void mp_done(void);

#endif
