/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The FUSE front end's mount point: one daemon per mount point, recovery
 * from a dead one.
 *
 * One daemon per mount point: flock(LOCK_EX | LOCK_NB) on the directory we
 * are about to mount on, held for the life of the daemon (the descriptor
 * survives the background fork; O_CLOEXEC keeps it from fusermount3 and
 * from `cusezero run`'s COMMAND).  The key is the directory itself, so every
 * spelling of the path (symlinks, "..", spaces, bind mounts) is the same
 * lock, every user can take it (no shared writable lock directory), and the
 * kernel drops it when its owner dies, SIGKILL included.  Two starts before
 * either has mounted contend for that lock: exactly one gets it.  Once a
 * daemon has mounted, the path leads into its file system instead, and a
 * later start finds a live FUSE mount there and refuses.
 *
 * A dead mount (its daemon was killed): the kernel keeps the mount and
 * answers ENOTCONN for anything that needs the daemon.  stat() may still
 * succeed from the attribute cache (the front end caches for a day), so the
 * test is statfs(), which always asks the daemon (fs/fuse/inode.c,
 * fuse_statfs): a FUSE mount at the path (/proc/self/mountinfo, whose mount
 * points escape space, tab, newline and backslash as \040 \011 \012 \134)
 * whose statfs fails with ENOTCONN is dead and is detached (umount2
 * MNT_DETACH; fusermount3 -u -z without privilege).  The probe runs in a
 * child with a time limit, since a stopped daemon's mount would block it.
 * A live FUSE mount (another cusezero, another file system, a bind of one)
 * is refused and left alone.  The steps from the probe to the lock run under
 * a lock on the parent directory (mp_lock_parent).  Limit: a FUSE mount of another user without
 * allow_other answers statfs for root without asking its daemon, so root
 * never sees it dead: it is refused with the fusermount3 command to run.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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

#define MP_PROBE_MS 3000

static int mp_lock_fd = -1;
static char mp_path[PATH_MAX];
static bool mp_ours;		/* remove the directory when done */

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

/*
 * The topmost mount at path (the last mountinfo line naming it): true with
 * its type ("fuse.cusezero") and source, false if nothing is mounted there.
 */
static bool mp_mount_at(const char *path, char *type, size_t tlen, char *src, size_t slen)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL, *save, *tok, *dash;
	size_t cap = 0;
	bool found = false;
	int i;

	if (!f)
		return false;
	while (getline(&line, &cap, f) > 0) {
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
		if (strcmp(tok, path))
			continue;
		tok = strtok_r(dash + 3, " ", &save);
		snprintf(type, tlen, "%s", tok ? tok : "");
		tok = tok ? strtok_r(NULL, " ", &save) : NULL;
		snprintf(src, slen, "%s", tok ? tok : "");
		found = true;
	}
	free(line);
	fclose(f);
	return found;
}

/* statfs(path) in a child, MP_PROBE_MS at most: 0 (answers), -ETIMEDOUT or -errno. */
static int mp_probe(const char *path)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int status, i;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		struct statfs sf;

		_exit(statfs(path, &sf) ? (errno & 0xff) : 0);
	}
	for (i = 0; i < MP_PROBE_MS / 10; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) ? -WEXITSTATUS(status) : -EIO;
		nanosleep(&ts, NULL);
	}
	kill(pid, SIGKILL);	/* FUSE request waits are killable */
	waitpid(pid, NULL, 0);
	return -ETIMEDOUT;
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

/* Detach every dead FUSE mount stacked at canon (a live one stops the loop). */
static int mp_detach_dead(const char *canon, const char *mnt)
{
	const char *const fm[] = { "fusermount3", "-u", "-z", "--", canon, NULL };
	char type[64], src[256];
	int i;

	for (i = 0; i < 8; i++) {
		if (!mp_mount_at(canon, type, sizeof(type), src, sizeof(src)) ||
		    strncmp(type, "fuse", 4) || mp_probe(canon) != -ENOTCONN)
			return 0;
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

static int mp_mkdir_p(const char *path)
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
	if (mkdir(tmp, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

/*
 * The canonical path of mnt without reaching into a dead mount at its leaf:
 * realpath() stats the leaf, which is ENOTCONN there, so then the parent is
 * resolved and the leaf kept.
 */
static int mp_canonical(const char *mnt, char *out, size_t len)
{
	char buf[PATH_MAX], parent[PATH_MAX];
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

/* The directory's lock, then: nothing live may be mounted there. */
static int mp_lock(const char *canon, const char *mnt)
{
	char type[64], src[256];
	int fd = open(canon, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0) {
		cz_log("--fuse %s: %s", mnt, errno == ENOTDIR ? "not a directory" : strerror(errno));
		return -errno;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int err = errno;

		close(fd);
		if (err != EWOULDBLOCK) {
			cz_log("--fuse %s: cannot lock it: %s", mnt, strerror(err));
			return -err;
		}
		cz_log("--fuse %s: another cusezero is starting, serving or stopping there", mnt);
		return -EBUSY;
	}
	if (mp_mount_at(canon, type, sizeof(type), src, sizeof(src)) && !strncmp(type, "fuse", 4)) {
		close(fd);
		if (!strcmp(type, "fuse.cusezero"))
			cz_log("--fuse %s: another cusezero serves it (stop that one first)", mnt);
		else
			cz_log("--fuse %s: already a FUSE mount point (%s %s), left alone", mnt, type,
			       src);
		return -EBUSY;
	}
	mp_lock_fd = fd;
	return 0;
}

/*
 * Detaching is by path, and a path can change what it leads to: two starts
 * that both found the dead mount would otherwise race, and the later
 * umount2() would detach the mount the earlier one had just made.  So the
 * steps from "is it dead?" to "the directory is locked" run under a lock on
 * the parent directory (a few milliseconds, seconds at most for a probe).
 * Best effort: a parent we cannot open (another user's) goes unlocked.
 */
static int mp_lock_parent(const char *canon)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	char parent[PATH_MAX];
	char *slash;
	int fd, i;

	snprintf(parent, sizeof(parent), "%s", canon);
	slash = strrchr(parent, '/');
	if (!slash)
		return -1;
	slash[slash == parent ? 1 : 0] = '\0';
	fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	for (i = 0; i < 1000; i++) {	/* 10 s: longer than any probe */
		if (!flock(fd, LOCK_EX | LOCK_NB))
			return fd;
		if (errno != EWOULDBLOCK)
			break;
		nanosleep(&ts, NULL);
	}
	close(fd);
	return -1;
}

int mp_prepare(const char *mnt, bool create, char *canon, size_t len)
{
	int ret, pfd;

	ret = mp_canonical(mnt, canon, len);
	if (ret == -ENOENT && create) {
		ret = mp_mkdir_p(mnt);
		if (ret) {
			cz_log("--fuse %s: cannot create it: %s%s", mnt, strerror(-ret),
			       ret == -EACCES || ret == -EPERM ?
			       " (this default place needs root; give --fuse DIR)" : "");
			return ret;
		}
		ret = mp_canonical(mnt, canon, len);
	}
	if (ret) {
		cz_log("--fuse %s: %s", mnt, strerror(-ret));
		return ret;
	}
	pfd = mp_lock_parent(canon);
	ret = mp_detach_dead(canon, mnt);
	if (!ret)
		ret = mp_lock(canon, mnt);
	if (pfd >= 0)
		close(pfd);
	if (ret)
		return ret;
	/* The fallback's directory is ours even when a killed daemon left it behind. */
	mp_ours = create;
	snprintf(mp_path, sizeof(mp_path), "%s", canon);
	return 0;
}

void mp_done(void)
{
	if (mp_ours && mp_lock_fd >= 0)
		rmdir(mp_path);
}
