/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Start-up and privileges (lifecycle.c): background start, readiness, pidfile, signals. */
#ifndef CUSE_LIFECYCLE_H
#define CUSE_LIFECYCLE_H

#include <sys/types.h>

struct fuse_session;

/*
 * Fork; the parent waits until the child calls lc_ready() (0) or fails
 * (-ECHILD: it has cleaned up after itself), or no child could start
 * (-errno, logged).
 */
int lc_fork_until_ready(pid_t *child);
void lc_ready(void);
/*
 * Open and lock --pidfile before the fork (0 or -errno, logged): a regular
 * file that no running daemon holds; write our pid into it once set up.
 */
int lc_pidfile_open(void);
int lc_pidfile(void);
/* The start failed before lc_ready: remove the pidfile if this start created it. */
void lc_start_failed(void);
/* Our SIGINT/SIGTERM/SIGHUP handlers: fuse_session_exit(se). 0 or -errno. */
int lc_signals(struct fuse_session *se);
int lc_drop_privileges(const char *user);
/* The daemon of `cusezero run`: SIGTERM when parent (run) dies, also after lc_drop_privileges. */
void lc_watch_parent(pid_t parent);
int lc_lookup_user(const char *user, uid_t *uid, gid_t *gid);

#endif
