/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The daemon's own session loop on /dev/fuse or /dev/cuse (loop.c). */
#ifndef CUSE_LOOP_H
#define CUSE_LOOP_H

#include <stdbool.h>

struct fuse_session;

/*
 * Every serving thread's buffers, allocated before anything is served (so a
 * start under a memory limit fails instead of a worker failing later):
 * 0 or -errno after one log line.  loop_run calls it if the caller did not.
 */
int loop_prepare(struct fuse_session *se, unsigned nthreads);
/* after_request: called after each request until it returns true (e.g. CUSE readiness). */
int loop_run(struct fuse_session *se, unsigned nthreads, bool (*after_request)(void));
/*
 * Scheduler levers for the calling serving thread (doc/fuse-uring.md,
 * "Scheduler levers"): --sched-idle switches it to SCHED_IDLE; with pin,
 * --cpu pins it.  Failures are logged (who names the thread), not fatal.
 */
void loop_sched_self(const char *who, bool pin);

#endif
