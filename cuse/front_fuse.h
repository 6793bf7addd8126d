/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The FUSE front end (front_fuse.c): MOUNTPOINT/{zero,control,stats,stats.json}. */
#ifndef CUSE_FRONT_FUSE_H
#define CUSE_FRONT_FUSE_H

#include <stdbool.h>

/* Check (and with create, make) the mount point; detach a stale mount. 0 / -errno. */
int ff_prepare_mountpoint(const char *mnt, bool create);
int ff_serve(void);
/* A start that ends before ff_serve: give back what ff_prepare_mountpoint took. */
void ff_release_mountpoint(void);
/* Path of the device file the front end serves (for run / messages). */
const char *ff_zero_path(void);

#endif
