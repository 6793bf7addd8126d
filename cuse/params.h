/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The daemon's settings as given on the command line (main.c parses and
 * validates them, nothing changes them afterwards except the two derived
 * fields).  A leaf module: it includes no other module of the daemon, so
 * the modules that read a setting depend on this file only, never on main.c.
 */
#ifndef CUSE_PARAMS_H
#define CUSE_PARAMS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "zeroing.h"

struct cz_params {
	const char *name;          /* CUSE device name, FUSE default mountpoint leaf */
	const char *fuse_mnt;      /* FUSE front end when set */
	bool fuse_fallback;        /* FUSE chosen because CUSE is unavailable */
	bool force_mount;          /* --force-mount: over a mount point or a non-empty directory */
	const char *routine;       /* NULL: zero_default() */
	int align;                 /* CUSEZERO_ALIGN_NONE or 0..4095 */
	enum zero_point point;
	const char *rotate;        /* --rotate SET: rotate over these offsets; NULL: not */
	unsigned rotate_period;    /* --rotate-period N (0: the device default) */
	uint64_t chunk;
	unsigned threads;
	unsigned mode;             /* node / zero file mode, default 0666 */
	bool owner_set, group_set;
	uid_t owner;
	gid_t group;
	unsigned major, minor;
	const char *user;          /* drop privileges to this user after set-up */
	const char *pidfile;
	const char *transport;     /* FUSE front end: auto | uring | dev */
	bool sched_idle;           /* --sched-idle: serving threads run as SCHED_IDLE */
	bool reply_writev;         /* --reply writev: /dev/fuse, /dev/cuse replies by writev */
	unsigned poll_us;          /* --poll-us: busy-poll /dev/fuse, /dev/cuse before sleeping */
	int cpu;                   /* --cpu N: pin the /dev/fuse loop thread(s); -1: not */
	bool colocate;             /* run --colocate: COMMAND pinned to cpu too */
	bool foreground, debug, poison;
	/* derived */
	bool dropped;              /* privileges were dropped */
};

/* Defaults until main.c has parsed the options. */
extern struct cz_params cz_params;

#endif
