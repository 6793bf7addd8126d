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
 * /run/cusezero/NAME), detach a dead FUSE mount there, refuse a path
 * already served, a mount point or a directory that is not empty (unless
 * cz_params.force_mount), take the mount point's lock for the life of the
 * process (inherited by a forked daemon).  canon: the canonical path to
 * mount on.  0, or -errno with one line logged.
 */
int mp_prepare(const char *mnt, bool create, char *canon, size_t len);

/* After unmounting: remove the directory if it is ours (made by us, or the fallback's). */
void mp_done(void);
/* mp_done once nothing is mounted at the path any more (10 s at most). */
void mp_done_unmounted(void);

/*
 * Root only: open (creating it) the lock file NAME in cusezero's directory
 * under /run, which only root can write, so no other user can hold a lock
 * we need.  The fd (O_CLOEXEC, not locked yet), or -errno; path: its path.
 */
int mp_lock_file(const char *name, char *path, size_t len);

#endif
