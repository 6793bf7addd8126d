/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The daemon's transport glue (fuse_uring_daemon.c, prefix fud_): which
 * transport --transport picks, the session I/O levers (--reply, --poll-us)
 * and the io_uring queues' read-path slots.  Call fud_extra_threads before
 * rp_init, fud_prepare before fuse_session_mount, fud_start after it,
 * fud_unmounting before fuse_session_unmount, fud_stop after it.
 */
#ifndef CUSE_FUSE_URING_DAEMON_H
#define CUSE_FUSE_URING_DAEMON_H

#include <stdbool.h>

struct fuse_session;

bool fud_transport_ok(const char *s);
/* Read-path thread slots the io_uring queues need beyond the loop's threads. */
unsigned fud_extra_threads(unsigned loop_threads);
/* Before fuse_session_mount: --transport uring as root sets enable_uring (the
 * kernel decides whether to offer the ring when it sends INIT, at mount). */
void fud_prepare(void);
/* At exit: put enable_uring back if fud_prepare / fud_start switched it on. */
void fud_restore(void);
/* After the mount; zero_ino: the inode whose READs go to rp_read. */
int fud_start(struct fuse_session *se, unsigned long zero_ino);
/* The CUSE front end: splice replies (unless --reply writev) and --poll-us on /dev/cuse. */
int fud_start_cuse(struct fuse_session *se);
/* Before fuse_session_unmount: the io_uring queue threads (which outlive it)
 * stop writing to the session's fd, which the unmount closes. */
void fud_unmounting(void);
void fud_stop(void);

#endif
