/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Start and stop a private cusezero daemon (zab's device variants, zbench
 * align --device new): `cusezero --fuse MNT|--name NAME ... --pidfile F`
 * returns once the device is ready; stopping is SIGTERM, a bounded wait,
 * SIGKILL, and a lazy unmount of whatever is still mounted, so nothing is
 * left behind even when the daemon died.
 */
#ifndef DEVCLIENT_DEVSPAWN_H
#define DEVCLIENT_DEVSPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct cz_dev {
	pid_t pid;           /* the daemon (from its pidfile); 0 when not started */
	unsigned long long start;   /* its start time: a reused pid is not it */
	char *mnt;           /* FUSE mount point to unmount at stop, NULL for a CUSE node */
	bool rmdir_mnt;      /* the mount point is ours: remove it at stop */
	char *path;          /* the device file: MNT/zero or /dev/NAME */
	char *cmdline;       /* the daemon's command line, for messages and JSON */
};

/*
 * args: cusezero's path and its options, without --fuse/--name/--pidfile.
 * fuse_mnt (created if missing) selects the FUSE front end, else cuse_name
 * (CUSE; where the kernel has no CUSE cusezero falls back to FUSE at
 * /run/cusezero/NAME, and so does d->path).  0, or -1 with one line in err
 * naming the command, how it ended and the start of its output.
 */
int cz_dev_start(struct cz_dev *d, char *const *args, size_t nargs, const char *fuse_mnt,
		 const char *cuse_name, const char *pidfile, unsigned timeout_s,
		 char *err, size_t errlen);
/* Is the daemon still there?  (false once it died or was stopped) */
bool cz_dev_alive(const struct cz_dev *d);
/* Stop, unmount, remove the mount point; messages on stderr prefixed "prog: ".  Idempotent. */
void cz_dev_stop(struct cz_dev *d, const char *prog);
bool cz_is_mounted(const char *mnt);
/* The running program's directory (malloc'd) or NULL. */
char *cz_self_dir(void);
/* The daemon to run: given, else $CUSEZERO, else beside this program, else "cusezero" (PATH). */
char *cz_find_cusezero(const char *given);

#endif
