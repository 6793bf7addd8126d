/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Start-up and privileges.  Without -f the command must return only once the
 * device is READY (CUSE: the node exists with its mode; FUSE: mounted), so we
 * do not use fuse_daemonize() (it returns before CUSE_INIT is processed):
 * the parent waits on a pipe for one byte the child writes from lc_ready(),
 * or for EOF if the child fails (it has printed its one-line error itself).
 */
#define FUSE_USE_VERSION 314

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lifecycle.h"
#include "log.h"
#include "params.h"
#include "util.h"
#include <fuse_lowlevel.h>

/* lc_pidfile_existing: the path is there but is not a regular file */
#define EFTYPE_PIDFILE 1000

static int lc_ready_fd = -1;
static int lc_pidfd = -1;
static bool lc_is_ready;
static struct fuse_session *lc_se;
static pthread_t lc_main_thread;

/*
 * SIGINT/SIGTERM/SIGHUP: clean stop.  libfuse's own handlers are installed
 * only over SIG_DFL, so a daemon started from a script's background job
 * (SIGINT ignored) would not stop on SIGINT: we install ours always.  The
 * main thread's blocking read must see EINTR, so a signal that lands on
 * another thread is forwarded to it.
 */
static void lc_on_signal(int sig)
{
	if (lc_se)
		fuse_session_exit(lc_se);
	if (!pthread_equal(pthread_self(), lc_main_thread))
		pthread_kill(lc_main_thread, sig);
}

int lc_signals(struct fuse_session *se)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	unsigned i;

	lc_se = se;
	lc_main_thread = pthread_self();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = lc_on_signal;  /* no SA_RESTART: interrupts read() on /dev/fuse */
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], &sa, NULL))
			return -errno;
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

/*
 * --pidfile is opened before the fork and before anything is mounted, so a
 * path we cannot write ends the start at once (one line, exit 1) instead of
 * leaving a daemon that nobody can find; the child writes its pid into it
 * once set up (lc_pidfile).  A failed start removes only a pidfile it
 * created: the path may name a device node (/dev/full: opening it for
 * writing "works", the write fails) or another daemon's pidfile.  So an
 * existing path must be a regular file, checked on an O_PATH descriptor
 * before we open it for writing, and no running daemon may hold it: each
 * daemon keeps an flock on its pidfile for its life, which the kernel drops
 * however it dies (a stale pidfile is taken over).
 */
static bool lc_pid_created;
static struct stat lc_pid_st;

static int lc_pidfile_existing(const char *path)
{
	char proc[64];
	struct stat st;
	int fd, wfd;

	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		close(fd);
		return -errno;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return -EFTYPE_PIDFILE;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	wfd = open(proc, O_WRONLY | O_CLOEXEC);
	if (wfd < 0)
		wfd = -errno;
	close(fd);
	return wfd;
}

int lc_pidfile_open(void)
{
	const char *path = cz_params.pidfile;
	int fd, err;

	if (!path)
		return 0;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd >= 0)
		lc_pid_created = true;
	else
		fd = errno == EEXIST ? lc_pidfile_existing(path) : -errno;
	if (fd == -EFTYPE_PIDFILE) {
		cz_log("--pidfile %s: not a regular file (left alone)", path);
		return -EINVAL;
	}
	if (fd < 0) {
		cz_log("--pidfile %s: %s", path, strerror(-fd));
		return fd;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		err = errno;
		close(fd);
		cz_log("--pidfile %s: %s", path, err == EWOULDBLOCK ?
		       "held by a running cusezero (left alone)" : strerror(err));
		return err == EWOULDBLOCK ? -EBUSY : -err;
	}
	if (fstat(fd, &lc_pid_st) || (!lc_pid_created && ftruncate(fd, 0))) {
		err = errno;
		close(fd);
		cz_log("--pidfile %s: %s", path, strerror(err));
		return -err;
	}
	lc_pidfd = fd;
	return 0;
}

/* Our pid into the pidfile; the descriptor stays open: its lock marks the file in use. */
int lc_pidfile(void)
{
	int ret = 0;

	if (lc_pidfd < 0)
		return 0;
	if (dprintf(lc_pidfd, "%d\n", (int)getpid()) < 0)
		ret = -errno;
	if (ret)
		cz_log("--pidfile %s: %s", cz_params.pidfile, strerror(-ret));
	return ret;
}

/* Only the file we created, and only if the path still leads to it. */
void lc_start_failed(void)
{
	struct stat st;

	if (lc_is_ready || lc_pidfd < 0)
		return;
	if (lc_pid_created && !stat(cz_params.pidfile, &st) && st.st_dev == lc_pid_st.st_dev &&
	    st.st_ino == lc_pid_st.st_ino)
		unlink(cz_params.pidfile);
	else if (ftruncate(lc_pidfd, 0))
		cz_debug("--pidfile %s: %s", cz_params.pidfile, strerror(errno));
	close(lc_pidfd);
	lc_pidfd = -1;
}

int lc_fork_until_ready(pid_t *child)
{
	int pfd[2], status;
	pid_t pid;
	char c;
	ssize_t n;

	/* The caller exits 1 on an error: it must not do so without a word. */
	if (pipe2(pfd, O_CLOEXEC)) {
		cz_log("cannot start the daemon: pipe: %s", strerror(errno));
		return -errno;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int err = errno;

		cz_log("cannot start the daemon: fork: %s", strerror(err));
		close(pfd[0]);
		close(pfd[1]);
		return -err;
	}
	if (pid == 0) {
		close(pfd[0]);
		lc_ready_fd = pfd[1];
		*child = 0;
		return 0;
	}
	close(pfd[1]);
	do
		n = read(pfd[0], &c, 1);
	while (n < 0 && errno == EINTR);
	close(pfd[0]);
	*child = pid;
	if (n == 1)
		return 0;
	/* The child printed why (its stderr is ours until ready), unless a signal took it. */
	if (waitpid(pid, &status, 0) == pid && WIFSIGNALED(status))
		cz_log("the daemon died during start-up: %s", strsignal(WTERMSIG(status)));
	return -ECHILD;
}

void lc_ready(void)
{
	lc_is_ready = true;
	if (lc_ready_fd >= 0) {
		char c = 'R';
		int fd;

		/* A background daemon keeps nothing of the caller's terminal. */
		if (!cz_params.foreground) {
			setsid();
			fd = open("/dev/null", O_RDWR);
			if (fd >= 0) {
				dup2(fd, 0);
				dup2(fd, 1);
				if (!cz_params.debug)
					dup2(fd, 2);
				if (fd > 2)
					close(fd);
			}
		}
		if (write(lc_ready_fd, &c, 1) != 1)
			cz_log("cannot signal readiness: %s", strerror(errno));
		close(lc_ready_fd);
		lc_ready_fd = -1;
	}
}

/* A user name, else a number 0..4294967294 ((uid_t)-1 means "no change" to the kernel). */
int lc_lookup_user(const char *user, uid_t *uid, gid_t *gid)
{
	struct passwd *pw = getpwnam(user);
	uint64_t v;

	if (pw) {
		*uid = pw->pw_uid;
		*gid = pw->pw_gid;
		return 0;
	}
	if (cz_parse_u64(user, 0, UINT32_MAX - 1, &v))
		return -ENOENT;
	*uid = (uid_t)v;
	*gid = (gid_t)v;
	return 0;
}

/*
 * `cusezero run`'s daemon stops (SIGTERM: a clean unmount) when run dies,
 * SIGKILL included, instead of serving a mount nobody will stop.  The
 * kernel clears the setting when our credentials change: lc_drop_privileges
 * arms it again.
 */
static pid_t lc_parent;

void lc_watch_parent(pid_t parent)
{
	lc_parent = parent;
	if (prctl(PR_SET_PDEATHSIG, SIGTERM))
		cz_log("cannot watch for the end of `cusezero run`: %s", strerror(errno));
	if (getppid() != parent)	/* it died before prctl */
		kill(getpid(), SIGTERM);
}

int lc_drop_privileges(const char *user)
{
	uid_t uid;
	gid_t gid;

	if (lc_lookup_user(user, &uid, &gid))
		return -ENOENT;
	if (setgroups(0, NULL) && errno != EPERM)
		return -errno;
	if (setresgid(gid, gid, gid) || setresuid(uid, uid, uid))
		return -errno;
	if (uid != 0 && setuid(0) == 0)   /* must not be able to regain root */
		return -EPERM;
	if (lc_parent)
		lc_watch_parent(lc_parent);
	return 0;
}
