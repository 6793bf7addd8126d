/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal interfaces of the cusezero daemon, one prefix per module:
 *   main.c        params, options, logging        (cz_)
 *   readpath.c    THE read path + settings + stats (rp_)
 *   control.c     ioctls, control-file commands    (ctl_)
 *   statsfmt.c    stats as text / JSON             (sf_)  also linked by zeroctl
 *   loop.c        own session loop, --threads      (loop_)
 *   lifecycle.c   background start, readiness, privileges, pidfile (lc_)
 *   front_cuse.c  CUSE front end                   (fc_)
 *   front_fuse.c  FUSE front end                   (ff_)
 *   run.c         `cusezero run -- COMMAND`        (run_)
 */
#ifndef CUSE_DAEMON_H
#define CUSE_DAEMON_H

#define FUSE_USE_VERSION 314

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "zeroing.h"
#include "cusezero.h"
#include "statsfmt.h"

struct fuse_session;

/* Largest read request either front end can deliver: FUSE 1 MiB (max_pages 256). */
#define CZ_MAX_REQUEST (1u << 20)
#define CZ_CUSE_MAX_READ (128u << 10)

struct cz_params {
	const char *name;          /* CUSE device name, FUSE default mountpoint leaf */
	const char *fuse_mnt;      /* FUSE front end when set */
	bool fuse_fallback;        /* FUSE chosen because CUSE is unavailable */
	const char *routine;       /* NULL: zero_default() */
	int align;                 /* CUSEZERO_ALIGN_NONE or 0..4095 */
	enum zero_point point;
	uint64_t chunk;
	unsigned threads;
	unsigned mode;             /* node / zero file mode, default 0666 */
	bool owner_set, group_set;
	uid_t owner;
	gid_t group;
	unsigned major, minor;
	const char *user;          /* drop privileges to this user after set-up */
	const char *pidfile;
	const char *transport;     /* FUSE front end: auto | uring | dev (fuse_uring.h) */
	bool sched_idle;           /* --sched-idle: serving threads run as SCHED_IDLE */
	bool reply_writev;         /* --reply writev: /dev/fuse, /dev/cuse replies by writev */
	unsigned poll_us;          /* --poll-us: busy-poll /dev/fuse, /dev/cuse before sleeping */
	int cpu;                   /* --cpu N: pin the /dev/fuse loop thread(s); -1: not */
	bool foreground, debug, poison;
	/* derived */
	bool dropped;              /* privileges were dropped */
};

extern struct cz_params cz_params;

__attribute__((format(printf, 1, 2))) void cz_log(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void cz_debug(const char *fmt, ...);

/* ---- readpath.c ---- */
int rp_init(const char *routine, int align, enum zero_point point, uint64_t chunk,
	    unsigned nthreads, bool poison);
/* Per-thread state: pre-faulted, page-aligned reply buffer of CZ_MAX_REQUEST. 0/-errno. */
int rp_thread_attach(unsigned idx);
/* Fill the calling thread's reply buffer with size zero bytes (size <= CZ_MAX_REQUEST). */
const void *rp_read(size_t size);
/* The calling thread's reply buffer (CZ_MAX_REQUEST bytes) that rp_read() fills; NULL before
 * rp_thread_attach.  The io_uring transport registers it as the ring payload (no copy). */
void *rp_thread_buffer(void);
void rp_count_write(size_t size);
/* --poison: fill the reply with 0xa5 before the routine runs (set before serving). */
void rp_set_poison(bool on);
int rp_set_routine(const char *name);
int rp_set_align(int offset, enum zero_point point);
int rp_set_chunk(uint64_t chunk);
void rp_get_stats(struct cusezero_stats *st);
void rp_reset_stats(void);

/* ---- control.c ---- */
bool ctl_may_change(uid_t uid);
/* cmd, in/out as the kernel's restricted ioctl delivers them; *out_len = bytes to return. */
int ctl_ioctl(uid_t uid, unsigned int cmd, const void *in, size_t in_size,
	      void *out, size_t out_size, size_t *out_len);
/* One or more whitespace/newline separated "key=value" / "reset" commands. */
int ctl_command(uid_t uid, const char *text, size_t len);
/* Current settings as control-file text ("routine=...\nalign=...\n..."). */
int ctl_format_settings(char *buf, size_t len);

/* ---- loop.c ---- */
/* after_request: called after each request until it returns true (e.g. CUSE readiness). */
int loop_run(struct fuse_session *se, unsigned nthreads, bool (*after_request)(void));
/*
 * Scheduler levers for the calling serving thread (doc/fuse-uring.md,
 * "Scheduler levers"): --sched-idle switches it to SCHED_IDLE; with pin,
 * --cpu pins it.  Failures are logged (who names the thread), not fatal.
 */
void loop_sched_self(const char *who, bool pin);

/* ---- schedguard.c ---- */
/*
 * --sched-idle's starvation guard (a watchdog thread): the calling SCHED_IDLE
 * serving thread serves requests that wait on fd (POLLIN while one waits);
 * served counts them (NULL: count with sg_served).  Work waiting two ticks
 * (10 ms) with none served moves the fd's threads to SCHED_OTHER for a
 * back-off, then back.  Returns a handle for sg_served/sg_leave (-1: not
 * guarded, logged).
 */
int sg_join(int fd, atomic_uint_fast64_t *served);
void sg_served(int h);
void sg_leave(int h);	/* before the thread exits */
unsigned long sg_demotions(void);

/* ---- lifecycle.c ---- */
/* Fork; the parent waits until the child calls lc_ready() (0) or dies (-1). */
int lc_fork_until_ready(pid_t *child);
void lc_ready(void);
/* Write --pidfile (before dropping privileges); idempotent. */
void lc_pidfile(void);
/* Our SIGINT/SIGTERM/SIGHUP handlers: fuse_session_exit(se). 0 or -errno. */
int lc_signals(struct fuse_session *se);
int lc_drop_privileges(const char *user);
int lc_lookup_user(const char *user, uid_t *uid, gid_t *gid);

/* ---- front ends ---- */
bool fc_available(const char **why);
int fc_serve(void);
const char *fc_node_path(void);
int ff_serve(void);
/* Path of the device file the front end serves (for run / messages). */
const char *ff_zero_path(void);
int ff_prepare_mountpoint(const char *mnt, bool create);

/* ---- run.c ---- */
int run_main(char **cmd);

#endif
