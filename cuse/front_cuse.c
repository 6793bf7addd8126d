/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CUSE front end: a character device /dev/NAME served by this process.
 *
 *     cusezero -f --name zero1          (root: opening /dev/cuse needs it)
 *
 * cuse_lowlevel_setup() opens /dev/cuse (we always pass -f: our own
 * lifecycle code decides about the background, see lifecycle.c) and our own
 * loop (loop.c) serves it.  The kernel creates the device when it gets our
 * CUSE_INIT reply; devtmpfs then makes /dev/NAME 0600 root:root, so once the
 * node exists we apply --mode/--owner/--group ourselves (no udev needed) and
 * only then report READY.
 *
 * ioctls use the restricted mode (no CUSE_UNRESTRICTED_IOCTL): every
 * cusezero.h command is a proper _IOC encoding, so the kernel copies the
 * argument in and out for us and a bad pointer is EFAULT in the kernel.
 * Kernel CUSE limits: reads up to 128 KiB per request, pos always 0, no mmap.
 */
#define FUSE_USE_VERSION 314

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "front_cuse.h"
#include "fuse_uring_daemon.h"
#include "lifecycle.h"
#include "log.h"
#include "loop.h"
#include "params.h"
#include "readpath.h"
#include <cuse_lowlevel.h>
#include <fuse_lowlevel.h>
#include "reply.h"

static char fc_node[PATH_MAX];
static struct fuse_session *fc_se;
static volatile bool fc_init_done;
static bool fc_ready;
static bool fc_logged;          /* the one-line error is out already */

static bool fc_modprobe(void)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return false;
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execlp("modprobe", "modprobe", "-q", "cuse", (char *)NULL);
		_exit(127);
	}
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status);
}

bool fc_available(const char **why)
{
	int fd;

	if (access("/dev/cuse", F_OK) && !(fc_modprobe() && !access("/dev/cuse", F_OK))) {
		*why = "no /dev/cuse and `modprobe cuse` failed";
		return false;
	}
	fd = open("/dev/cuse", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		*why = errno == EACCES || errno == EPERM ? "/dev/cuse: permission denied (needs root)"
							  : "/dev/cuse cannot be opened";
		return false;
	}
	close(fd);
	return true;
}

static void fc_init_done_cb(void *userdata)
{
	fc_init_done = true;
}

static void fc_open(fuse_req_t req, struct fuse_file_info *fi)
{
	fuse_reply_open(req, fi);
}

static void fc_read(fuse_req_t req, size_t size, off_t off, struct fuse_file_info *fi)
{
	if (size > CZ_MAX_REQUEST)
		size = CZ_MAX_REQUEST;
	/* The reader may be gone (ENOENT): nothing to do, keep serving. */
	fuse_reply_buf(req, rp_read(size), size);
}

static void fc_write(fuse_req_t req, const char *buf, size_t size, off_t off,
		     struct fuse_file_info *fi)
{
	rp_count_write(size);
	fuse_reply_write(req, size);
}

static void fc_reply_zero(fuse_req_t req, struct fuse_file_info *fi)
{
	fuse_reply_err(req, 0);
}

static void fc_fsync(fuse_req_t req, int datasync, struct fuse_file_info *fi)
{
	fuse_reply_err(req, 0);
}

static void fc_ioctl(fuse_req_t req, int cmd, void *arg, struct fuse_file_info *fi,
		     unsigned int flags, const void *in_buf, size_t in_bufsz, size_t out_bufsz)
{
	reply_ioctl(req, (unsigned int)cmd, flags, in_buf, in_bufsz, out_bufsz);
}

static void fc_poll(fuse_req_t req, struct fuse_file_info *fi, struct fuse_pollhandle *ph)
{
	reply_poll(req, ph);
}

static const struct cuse_lowlevel_ops fc_ops = {
	.init_done = fc_init_done_cb,
	.open = fc_open,
	.read = fc_read,
	.write = fc_write,
	.flush = fc_reply_zero,
	.release = fc_reply_zero,
	.fsync = fc_fsync,
	.ioctl = fc_ioctl,
	.poll = fc_poll,
};

/* After each request until READY: once CUSE_INIT is answered, fix up the node. */
static bool fc_after_request(void)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	struct stat st;
	int i, ret;

	if (!fc_init_done)
		return false;
	/*
	 * devtmpfs normally has the node before our INIT reply returns; wait up
	 * to 5 s, but stop at once if the kernel refused the device (name or
	 * number in use): it then aborts the connection (POLLERR).
	 */
	for (i = 0; i < 500 && stat(fc_node, &st); i++) {
		struct pollfd pfd = { .fd = fuse_session_fd(fc_se), .events = POLLIN };

		if (poll(&pfd, 1, 0) == 1 && (pfd.revents & (POLLERR | POLLHUP | POLLNVAL)))
			break;
		nanosleep(&ts, NULL);
	}
	if (stat(fc_node, &st) || !S_ISCHR(st.st_mode))
		goto fail;
	if (chmod(fc_node, cz_params.mode & 07777)) {
		cz_log("--mode %o: chmod %s: %s", cz_params.mode, fc_node, strerror(errno));
		fc_logged = true;
		goto fail;
	}
	if ((cz_params.owner_set || cz_params.group_set) &&
	    chown(fc_node, cz_params.owner_set ? cz_params.owner : (uid_t)-1,
		  cz_params.group_set ? cz_params.group : (gid_t)-1)) {
		cz_log("--owner/--group: chown %s: %s", fc_node, strerror(errno));
		fc_logged = true;
		goto fail;
	}
	if (lc_pidfile()) {
		fc_logged = true;
		goto fail;
	}
	if (cz_params.user) {
		ret = lc_drop_privileges(cz_params.user);
		if (ret) {
			cz_log("--user %s: cannot drop privileges: %s", cz_params.user,
			       strerror(-ret));
			fc_logged = true;
			goto fail;
		}
		cz_params.dropped = true;
	}
	fc_ready = true;
	lc_ready();
	return true;
fail:
	fuse_session_exit(fc_se);
	return true;
}

int fc_serve(void)
{
	const char *argv[4];
	char devname[128];
	const char *dev_info[] = { devname };
	struct cuse_info ci;
	struct stat st;
	int argc = 0, mt, ret;

	snprintf(fc_node, sizeof(fc_node), "/dev/%s", cz_params.name);
	snprintf(devname, sizeof(devname), "DEVNAME=%s", cz_params.name);
	if (!lstat(fc_node, &st)) {
		cz_log("--name %s: %s already exists (another cusezero?)", cz_params.name, fc_node);
		return -EEXIST;
	}
	memset(&ci, 0, sizeof(ci));
	ci.dev_major = cz_params.major;
	ci.dev_minor = cz_params.minor;
	ci.dev_info_argc = 1;
	ci.dev_info_argv = dev_info;
	ci.flags = 0;  /* restricted ioctls, see above */

	argv[argc++] = "cusezero";
	argv[argc++] = "-f";
	if (cz_params.debug)
		argv[argc++] = "-d";
	argv[argc] = NULL;
	fc_se = cuse_lowlevel_setup(argc, (char **)argv, &ci, &fc_ops, &mt, NULL);
	if (!fc_se) {
		cz_log("--name %s: cannot set up the CUSE session (see above)", cz_params.name);
		return -EIO;
	}
	if (lc_signals(fc_se)) {
		cz_log("cannot install signal handlers");
		cuse_lowlevel_teardown(fc_se);
		return -EIO;
	}
	ret = fud_start_cuse(fc_se);	/* --reply splice (the default), --poll-us */
	if (ret) {
		cuse_lowlevel_teardown(fc_se);
		return ret;
	}
	ret = loop_run(fc_se, cz_params.threads, fc_after_request);
	fud_stop();
	if (!fc_ready) {
		if (!fc_logged)
			cz_log("--name %s: the kernel did not create %s (name or major:minor in use?)",
			       cz_params.name, fc_node);
		ret = -EIO;
	}
	cuse_lowlevel_teardown(fc_se);
	return ret;
}

const char *fc_node_path(void)
{
	return fc_node;
}
