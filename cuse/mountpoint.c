/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The FUSE front end's mount point: what may be mounted on, one daemon per
 * mount point, recovery from a dead one.
 *
 * What may be mounted on: an empty directory where nothing is mounted yet.
 * Mounting hides what the path showed (`--fuse /proc` as root would hide
 * procfs from the whole host), so a directory that is not empty, a mount
 * point (/proc, /tmp, a bind) and "/" are refused, the first two unless
 * --force-mount.
 *
 * Nothing that may reach the file system mounted at the path runs in this
 * process: a stopped daemon (SIGSTOP) never answers, and a request waits
 * in the kernel until SIGKILL.  realpath(), stat(), readdir() and statfs()
 * of the path run in a child given MP_PROBE_MS (mp_bounded); /proc/self/
 * mountinfo and umount2() need no daemon.  A probe is blamed on a FUSE
 * daemon only when the mount table shows a FUSE mount on the path (at it or
 * at a folder above it): elsewhere a late answer is a busy machine's, and is
 * waited for up to MP_SLOW_MS.
 *
 * One daemon per mount point: an exclusive flock(LOCK_NB) held for the life
 * of the daemon (the descriptor survives the background fork; O_CLOEXEC
 * keeps it from fusermount3 and `cusezero run`'s COMMAND), which the kernel
 * drops when its owner dies, SIGKILL included.  As root the lock is a file
 * in a directory only root can write, MP_LOCK_DIR, named after the mount
 * point's device and inode (every spelling of the path is the same
 * directory): a lock on the directory itself could be taken by any user who
 * can read it, and would keep root from mounting.  The file is removed
 * when its daemon stops, except after --user (no longer root then: it stays
 * for the next start on that directory).  Without root (the mount goes
 * through fusermount3) there is no such directory to share: the lock is on
 * the directory itself.  Two starts before either has mounted contend
 * for that lock: exactly one gets it.  Once a daemon has mounted, the path
 * leads into its file system instead, and a later start finds a live FUSE
 * mount there and refuses.
 *
 * A dead mount (its daemon was killed): the kernel keeps the mount and
 * answers ENOTCONN for anything that needs the daemon.  stat() may still
 * succeed from the attribute cache (the front end caches for a day), so the
 * test is statfs(), which always asks the daemon (fs/fuse/inode.c,
 * fuse_statfs): a FUSE mount at the path (/proc/self/mountinfo, whose mount
 * points escape space, tab, newline and backslash as \040 \011 \012 \134)
 * whose statfs fails with ENOTCONN is dead and is detached (umount2
 * MNT_DETACH; fusermount3 -u -z without privilege).  A live FUSE mount
 * (another cusezero, another file system, a bind of one) and one that does
 * not answer in time are refused and left alone.  The steps from the probe
 * to the lock run under one more lock (mp_serialize).  Limit: a FUSE mount
 * of another user without allow_other answers statfs for root without
 * asking its daemon, so root never sees it dead: it is refused with the
 * fusermount3 command to run.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "mountpoint.h"
#include "params.h"

#define MP_PROBE_MS 3000
/*
 * A probe that has not answered in MP_PROBE_MS while no FUSE mount lies on
 * the path is a slow machine, not a stopped daemon (a local file system
 * answers once the probe gets the CPU): it is given up to MP_SLOW_MS.
 */
#define MP_SLOW_MS 120000
#define MP_SLOW_WHY "no answer in 120 s, and no FUSE mount on its path " \
	"(a hung file system, or a machine too busy to run the probe)"
#define MP_REAP_MS 500
/* Not a valid --name ('@'), so never the fallback's /run/cusezero/NAME. */
#define MP_RUN_DIR "/run/cusezero"
#define MP_LOCK_DIR MP_RUN_DIR "/@locks"

static int mp_lock_fd = -1;
static char mp_path[PATH_MAX];
static char mp_key[PATH_MAX];	/* MP_LOCK_DIR's file we hold, removed at the end */
static bool mp_ours;		/* remove the directory when done */

struct mp_mount {
	char type[64], src[256], opts[512];
};

/* What the child of mp_inspect found at the path. */
struct mp_dir {
	dev_t dev;
	ino_t ino;
	bool empty;
};

/* Undo mountinfo's octal escapes in place. */
static void mp_unescape(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
}

/* One mountinfo line's fields after " - ": type, source, super options. */
static void mp_mount_fields(char *rest, struct mp_mount *m)
{
	char *save, *tok;

	tok = strtok_r(rest, " \n", &save);
	snprintf(m->type, sizeof(m->type), "%s", tok ? tok : "");
	tok = tok ? strtok_r(NULL, " \n", &save) : NULL;
	snprintf(m->src, sizeof(m->src), "%s", tok ? tok : "");
	tok = tok ? strtok_r(NULL, " \n", &save) : NULL;
	snprintf(m->opts, sizeof(m->opts), "%s", tok ? tok : "");
}

/*
 * Each mountinfo line: fn(mount point (unescaped), the fields after " - ",
 * arg) until it returns true.  True when one did.
 */
static bool mp_mounts_each(bool (*fn)(const char *mp, char *rest, void *arg), void *arg)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL, *save, *tok, *dash;
	size_t cap = 0;
	bool stop = false;
	int i;

	if (!f)
		return false;
	while (!stop && getline(&line, &cap, f) > 0) {
		dash = strstr(line, " - ");
		if (!dash)
			continue;
		*dash = '\0';
		tok = strtok_r(line, " ", &save);
		for (i = 1; tok && i < 5; i++)	/* field 5: the mount point */
			tok = strtok_r(NULL, " ", &save);
		if (!tok)
			continue;
		mp_unescape(tok);
		stop = fn(tok, dash + 3, arg);
	}
	free(line);
	fclose(f);
	return stop;
}

struct mp_at {
	const char *path;
	struct mp_mount *m;
	bool found;
};

static bool mp_at_line(const char *mp, char *rest, void *arg)
{
	struct mp_at *a = arg;

	if (!strcmp(mp, a->path)) {
		mp_mount_fields(rest, a->m);
		a->found = true;
	}
	return false;	/* on: the last line naming it is the topmost */
}

/*
 * The topmost mount at path (the last mountinfo line naming it): true with
 * its type ("fuse.cusezero"), source and super options, false if nothing is
 * mounted there.
 */
static bool mp_mount_at(const char *path, struct mp_mount *m)
{
	struct mp_at a = { path, m, false };

	mp_mounts_each(mp_at_line, &a);
	return a.found;
}

/* Read len bytes from fd (or up to EOF) before the deadline: the count, or -ETIMEDOUT. */
static ssize_t mp_read_until(int fd, void *buf, size_t len, int64_t deadline)
{
	struct pollfd pf = { .fd = fd, .events = POLLIN };
	struct timespec now;
	size_t got = 0;
	int64_t left;
	ssize_t n;

	while (got < len) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		left = deadline - ((int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000);
		if (left <= 0)
			return -ETIMEDOUT;
		n = poll(&pf, 1, (int)left);
		if (n < 0 && errno != EINTR)
			return -errno;
		if (n <= 0)
			continue;
		n = read(fd, (char *)buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

typedef int (*mp_fn)(const char *path, void *out, size_t len);

/* Does mount point mp hold path (path itself or a folder above it)? */
static bool mp_under(const char *mp, const char *path)
{
	size_t n = strlen(mp);

	if (!strcmp(mp, "/"))
		return true;
	return !strncmp(path, mp, n) && (path[n] == '\0' || path[n] == '/');
}

/* A FUSE mount (fuse, fuse.*, fuseblk) at mount point mp holding the path arg? */
static bool mp_fuse_line(const char *mp, char *rest, void *arg)
{
	return !strncmp(rest, "fuse", 4) && mp_under(mp, arg);
}

/*
 * Is there a FUSE mount (fuse, fuse.*, fuseblk) on path's way, as the mount
 * table shows it?  path is taken as written (made absolute with the working
 * directory, "." and ".." folded): a symlink on the way is not followed,
 * since following it would ask the file system that may not answer.
 */
static bool mp_fuse_on_path(const char *path)
{
	char abs[PATH_MAX], norm[PATH_MAX], *save, *c;
	size_t n = 0;

	if (path[0] == '/')
		snprintf(abs, sizeof(abs), "%s", path);
	else if (!getcwd(norm, sizeof(norm)) ||
		 (size_t)snprintf(abs, sizeof(abs), "%s/%s", norm, path) >= sizeof(abs))
		return true;	/* cannot tell: as before, blame the mount */
	norm[0] = '\0';
	for (c = strtok_r(abs, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		if (!strcmp(c, "."))
			continue;
		if (!strcmp(c, "..")) {
			char *s = strrchr(norm, '/');

			n = s ? (size_t)(s - norm) : 0;
			norm[n] = '\0';
			continue;
		}
		n += (size_t)snprintf(norm + n, sizeof(norm) - n, "/%s", c);
		if (n >= sizeof(norm))
			return true;
	}
	if (!norm[0])
		snprintf(norm, sizeof(norm), "/");
	if (access("/proc/self/mountinfo", R_OK))
		return true;	/* cannot tell: as before, blame the mount */
	return mp_mounts_each(mp_fuse_line, norm);
}

/* A killed probe: reaped if it exits within MP_REAP_MS. */
static void mp_reap(pid_t pid)
{
	int i, status;

	for (i = 0; i < MP_REAP_MS / 10; i++) {
		if (waitpid(pid, &status, WNOHANG) != 0)
			return;
		usleep(10000);
	}
}

/*
 * fn(path, out, len) in a child given MP_PROBE_MS (MP_SLOW_MS when no FUSE
 * mount lies on path); out comes back through a pipe.  0, fn's -errno,
 * -ETIMEDOUT (a FUSE mount on the path did not answer) or -EAGAIN (nothing
 * FUSE on the path, and no answer in MP_SLOW_MS); the child is then
 * SIGKILLed (FUSE request waits are killable).
 */
static int mp_bounded(mp_fn fn, const char *path, void *out, size_t len)
{
	struct timespec now;
	int64_t start, waited;
	int pfd[2], ret, status;
	bool slow = false;
	ssize_t got;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		close(pfd[0]);
		close(pfd[1]);
		return ret;
	}
	if (pid == 0) {
		close(pfd[0]);
		ret = fn(path, out, len);
		if (!ret && write(pfd[1], out, len) != (ssize_t)len)
			ret = -EIO;
		_exit(ret < 0 ? (-ret & 0xff) : 0);
	}
	close(pfd[1]);
	clock_gettime(CLOCK_MONOTONIC, &now);
	start = (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
	got = mp_read_until(pfd[0], out, len, start + MP_PROBE_MS);
	/* Late, and no FUSE mount to blame: a busy machine.  Wait on, a second at a time. */
	for (waited = MP_PROBE_MS; got == -ETIMEDOUT && waited < MP_SLOW_MS; waited += 1000) {
		if (mp_fuse_on_path(path))
			break;
		got = mp_read_until(pfd[0], out, len, start + waited + 1000);
	}
	close(pfd[0]);
	if (got == -ETIMEDOUT && waited >= MP_SLOW_MS)
		slow = true;
	if (got == -ETIMEDOUT) {
		/*
		 * SIGKILL ends a request the daemon has not taken yet; one it has
		 * taken -- with FUSE over io_uring every request is handed to the
		 * daemon's ring at once -- is waited for uninterruptibly
		 * (fs/fuse/dev.c, request_wait_answer), so the child may not die
		 * until the daemon answers.  Reap it if it goes within
		 * MP_REAP_MS, else leave it (it is reparented when we exit).
		 */
		kill(pid, SIGKILL);
		mp_reap(pid);
		return slow ? -EAGAIN : -ETIMEDOUT;
	}
	/* It wrote all or closed the pipe: it is exiting. */
	if (waitpid(pid, &status, 0) != pid)
		return -ECHILD;
	if (!WIFEXITED(status))
		return -EIO;
	if (WEXITSTATUS(status))
		return -WEXITSTATUS(status);
	return got == (ssize_t)len ? 0 : -EIO;
}

static int mp_statfs(const char *path, void *out, size_t len)
{
	(void)len;
	return statfs(path, out) ? -errno : 0;
}

/* The directory's identity and whether it is empty (in mp_bounded's child). */
static int mp_inspect(const char *path, void *out, size_t len)
{
	struct mp_dir *d = out;
	struct dirent *e;
	struct stat st;
	DIR *dir;

	(void)len;
	if (stat(path, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	dir = opendir(path);
	if (!dir)
		return -errno;
	d->dev = st.st_dev;
	d->ino = st.st_ino;
	d->empty = true;
	while ((e = readdir(dir)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			d->empty = false;
	closedir(dir);
	return 0;
}

static int mp_run(const char *const argv[])
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* super options "user_id=N,...": may we ask this FUSE mount's daemon at all? */
static bool mp_may_ask(const struct mp_mount *m, char *uid, size_t len)
{
	const char *u = strstr(m->opts, "user_id=");

	snprintf(uid, len, "%.*s", u ? (int)strcspn(u + 8, ",") : 1, u ? u + 8 : "?");
	if (strstr(m->opts, "allow_other") || !u)
		return true;
	return strtoul(u + 8, NULL, 10) == (unsigned long)geteuid();
}

/* A FUSE mount that is not (known to be) dead: say why it stays. */
static int mp_refuse_fuse(const char *mnt, const char *canon, const struct mp_mount *m,
			  int probe)
{
	char uid[16];

	if (probe == -ETIMEDOUT)
		cz_log("--fuse %s: a FUSE mount (%s) whose daemon does not answer (stopped?), "
		       "left alone", mnt, m->type);
	else if (probe == 0 && !mp_may_ask(m, uid, sizeof(uid)))
		cz_log("--fuse %s: a FUSE mount of uid %s without allow_other, which we cannot "
		       "ask whether its daemon runs; if it is gone, run: fusermount3 -u -z %s",
		       mnt, uid, canon);
	else if (!strcmp(m->type, "fuse.cusezero"))
		cz_log("--fuse %s: another cusezero serves it (stop that one first)", mnt);
	else
		cz_log("--fuse %s: already a FUSE mount point (%s %s), left alone", mnt, m->type,
		       m->src);
	return -EBUSY;
}

/*
 * What is mounted at canon: nothing (0), or what --force-mount allows;
 * dead FUSE mounts are detached (they stack: look again); anything else is
 * refused (-EBUSY, logged).
 */
static int mp_clear(const char *canon, const char *mnt)
{
	const char *const fm[] = { "fusermount3", "-u", "-z", "--", canon, NULL };
	struct mp_mount m;
	struct statfs sf;
	int i, ret;

	for (i = 0; i < 8 && mp_mount_at(canon, &m); i++) {
		if (strncmp(m.type, "fuse", 4)) {
			if (cz_params.force_mount)
				return 0;
			cz_log("--fuse %s: a mount point (%s %s): refused, it would be hidden "
			       "(--force-mount mounts over it)", mnt, m.type, m.src);
			return -EBUSY;
		}
		ret = mp_bounded(mp_statfs, canon, &sf, sizeof(sf));
		if (ret != -ENOTCONN)
			return mp_refuse_fuse(mnt, canon, &m, ret);
		/* EINVAL: detached meanwhile (another start racing with us) */
		if (umount2(canon, MNT_DETACH) && errno != EINVAL && mp_run(fm) != 0) {
			cz_log("--fuse %s: a stale FUSE mount (Transport endpoint is not connected) "
			       "that cannot be detached; run: fusermount3 -u -z %s", mnt, canon);
			return -ENOTCONN;
		}
		cz_log("--fuse %s: detached a stale FUSE mount (its daemon is gone)", mnt);
	}
	return 0;
}

static int mp_mkdir_p(const char *path, mode_t mode)
{
	char tmp[PATH_MAX];
	char *p;

	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(tmp, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, mode) && errno != EEXIST)
		return -errno;
	return 0;
}

/*
 * The canonical path of mnt without reaching into a dead mount at its leaf:
 * realpath() stats the leaf, which is ENOTCONN there, so then the parent is
 * resolved and the leaf kept.  Runs in mp_bounded's child.
 */
static int mp_canonical(const char *mnt, void *outv, size_t len)
{
	char buf[PATH_MAX], parent[PATH_MAX];
	char *out = outv;
	const char *leaf;
	char *slash;
	size_t n;

	if (realpath(mnt, parent)) {
		snprintf(out, len, "%s", parent);
		return 0;
	}
	if (errno != ENOTCONN)
		return -errno;
	n = (size_t)snprintf(buf, sizeof(buf), "%s", mnt);
	while (n > 1 && buf[n - 1] == '/')
		buf[--n] = '\0';
	slash = strrchr(buf, '/');
	leaf = slash ? slash + 1 : buf;
	if (slash)
		*slash = '\0';
	if (!realpath(slash ? (*buf ? buf : "/") : ".", parent))
		return -errno;
	if ((size_t)snprintf(out, len, "%s/%s", strcmp(parent, "/") ? parent : "", leaf) >= len)
		return -ENAMETOOLONG;
	return 0;
}

int mp_lock_file(const char *name, char *path, size_t len)
{
	struct stat st;
	int ret;

	if (geteuid() != 0)
		return -EPERM;
	ret = mp_mkdir_p(MP_LOCK_DIR, 0700);
	if (ret)
		return ret;
	/* Only root may write there, or anyone could hold our locks. */
	if (lstat(MP_LOCK_DIR, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != 0 || (st.st_mode & 022))
		return -EPERM;
	if ((size_t)snprintf(path, len, "%s/%s", MP_LOCK_DIR, name) >= len)
		return -ENAMETOOLONG;
	ret = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	return ret < 0 ? -errno : ret;
}

/* Take fd's lock (LOCK_NB, or for up to 10 s); -EWOULDBLOCK when busy. */
static int mp_flock(int fd, bool wait)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int i;

	for (i = 0; i < (wait ? 1000 : 1); i++) {
		if (!flock(fd, LOCK_EX | LOCK_NB))
			return 0;
		if (errno != EWOULDBLOCK)
			return -errno;
		if (wait)
			nanosleep(&ts, NULL);
	}
	return -EWOULDBLOCK;
}

/*
 * The mount point's lock for the life of the daemon: as root the key file
 * MP_LOCK_DIR/DEV-INO.  The file is removed when its daemon stops (mp_done),
 * so a start that opened it just before must check it locked the file the
 * name still leads to, else try again.
 */
static int mp_lock_key(const struct mp_dir *d)
{
	char name[64];
	struct stat a, b;
	int fd, i, ret;

	snprintf(name, sizeof(name), "%llx-%llx", (unsigned long long)d->dev,
		 (unsigned long long)d->ino);
	for (i = 0; i < 8; i++) {
		fd = mp_lock_file(name, mp_key, sizeof(mp_key));
		if (fd < 0)
			return fd;
		ret = mp_flock(fd, false);
		if (!ret && !fstat(fd, &a) && !stat(mp_key, &b) && a.st_ino == b.st_ino &&
		    a.st_dev == b.st_dev)
			return fd;
		close(fd);
		if (ret)
			return ret;
	}
	return -EAGAIN;
}

/* Without root: the directory itself (the fd of a directory nothing FUSE is mounted on). */
static int mp_lock_dir(const char *canon)
{
	int fd = open(canon, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = mp_flock(fd, false);
	if (ret) {
		close(fd);
		return ret;
	}
	return fd;
}

/* The directory: empty (or --force-mount), then its lock; then nothing FUSE mounted meanwhile. */
static int mp_lock(const char *canon, const char *mnt)
{
	struct mp_mount m;
	struct mp_dir d;
	int fd;

	fd = mp_bounded(mp_inspect, canon, &d, sizeof(d));
	if (fd) {
		cz_log("--fuse %s: %s", mnt, fd == -ENOTDIR ? "not a directory" :
		       fd == -ETIMEDOUT ? "does not answer (a FUSE mount on its path whose daemon "
					  "is stopped?)" :
		       fd == -EAGAIN ? MP_SLOW_WHY : strerror(-fd));
		return fd;
	}
	if (!d.empty && !cz_params.force_mount) {
		cz_log("--fuse %s: not empty: refused, mounting would hide what is in it "
		       "(--force-mount mounts over it)", mnt);
		return -ENOTEMPTY;
	}
	fd = geteuid() == 0 ? mp_lock_key(&d) : -EPERM;
	if (fd < 0 && fd != -EWOULDBLOCK)	/* no /run to write: the directory, as a user */
		fd = mp_lock_dir(canon);
	if (fd == -EWOULDBLOCK) {
		cz_log("--fuse %s: another cusezero is starting, serving or stopping there", mnt);
		return -EBUSY;
	}
	if (fd < 0) {
		cz_log("--fuse %s: cannot lock it: %s", mnt, strerror(-fd));
		return fd;
	}
	if (mp_mount_at(canon, &m) && !strncmp(m.type, "fuse", 4)) {
		close(fd);
		return mp_refuse_fuse(mnt, canon, &m, 0);
	}
	mp_lock_fd = fd;
	return 0;
}

/*
 * Detaching is by path, and a path can change what it leads to: two starts
 * that both found the dead mount would otherwise race, and the later
 * umount2() would detach the mount the earlier one had just made.  So the
 * steps from "is it dead?" to "the directory is locked" run under one more
 * lock, held a few milliseconds (seconds at most for a probe): as root
 * MP_LOCK_DIR/prepare, which no other user can hold; without root the parent
 * directory (best effort: a parent we cannot open goes unlocked).
 */
static int mp_serialize(const char *canon)
{
	char parent[PATH_MAX];
	char *slash;
	int fd;

	fd = mp_lock_file("prepare", parent, sizeof(parent));
	if (fd < 0) {
		snprintf(parent, sizeof(parent), "%s", canon);
		slash = strrchr(parent, '/');
		if (!slash)
			return -1;
		slash[slash == parent ? 1 : 0] = '\0';
		fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			return -1;
	}
	if (mp_flock(fd, true)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The canonical path, the directory made first when create; refuses "/". */
static int mp_resolve(const char *mnt, bool create, char *canon, size_t len)
{
	int ret;

	ret = mp_bounded(mp_canonical, mnt, canon, len);
	if (ret == -ENOENT && create) {
		ret = mp_mkdir_p(mnt, 0755);
		if (ret) {
			cz_log("--fuse %s: cannot create it: %s%s", mnt, strerror(-ret),
			       ret == -EACCES || ret == -EPERM ?
			       " (this default place needs root; give --fuse DIR)" : "");
			return ret;
		}
		ret = mp_bounded(mp_canonical, mnt, canon, len);
	}
	if (ret == -ETIMEDOUT)
		cz_log("--fuse %s: does not answer (a FUSE mount on its path whose daemon is "
		       "stopped?), left alone", mnt);
	else if (ret == -EAGAIN)
		cz_log("--fuse %s: %s", mnt, MP_SLOW_WHY);
	else if (ret)
		cz_log("--fuse %s: %s", mnt, strerror(-ret));
	if (ret)
		return ret;
	if (strcmp(canon, "/"))
		return 0;
	cz_log("--fuse %s: the root directory: refused (it would hide everything)", mnt);
	return -EBUSY;
}

int mp_prepare(const char *mnt, bool create, char *canon, size_t len)
{
	int ret, sfd;

	ret = mp_resolve(mnt, create, canon, len);
	if (ret)
		return ret;
	sfd = mp_serialize(canon);
	ret = mp_clear(canon, mnt);
	if (!ret)
		ret = mp_lock(canon, mnt);
	if (sfd >= 0)
		close(sfd);
	if (ret)
		return ret;
	/* The fallback's directory is ours even when a killed daemon left it behind. */
	mp_ours = create;
	snprintf(mp_path, sizeof(mp_path), "%s", canon);
	return 0;
}

void mp_done(void)
{
	struct stat a, b;

	if (mp_lock_fd < 0)
		return;
	if (mp_ours)
		rmdir(mp_path);
	/*
	 * Unlinked while locked: a start that opened it meanwhile sees the name
	 * gone.  Only if the name is still ours (not a later start's file).
	 */
	if (mp_key[0] && !fstat(mp_lock_fd, &a) && !stat(mp_key, &b) && a.st_ino == b.st_ino &&
	    a.st_dev == b.st_dev)
		unlink(mp_key);
	close(mp_lock_fd);
	mp_lock_fd = -1;
}

void mp_done_unmounted(void)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	struct mp_mount m;
	int i;

	if (mp_lock_fd < 0)
		return;
	for (i = 0; i < 1000 && mp_mount_at(mp_path, &m); i++)
		nanosleep(&ts, NULL);
	mp_done();
}
