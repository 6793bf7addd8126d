/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Files the store writes -- an SQLite store, a run kept for later
 * (unstored.c) -- in folders nobody else controls, the way the
 * kernel-source build cache does (zeroing/ksrc_cache.c):
 *   - the folder is walked one component at a time from "/" (openat,
 *     O_NOFOLLOW); for a writer every folder on the way is owned by the
 *     user or root and not writable by others unless sticky (/tmp), and a
 *     symbolic link, on the way or as the file itself, is followed only
 *     when its owner is the user or root (a reader checks the links only);
 *   - missing folders are made 0700 (a writer that may create), files 0600
 *     with O_EXCL | O_NOFOLLOW, so nothing another user planted is taken
 *     over and what is made is the user's alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store_int.h"

static bool owner_ok(const struct stat *st)
{
	return st->st_uid == geteuid() || st->st_uid == 0;
}

/* One component of the walk: its fd (opened relative to dfd), or -errno with why. */
static int walk_step(struct czs_path *p, int dfd, const char *name, const char *shown,
		     char *why, size_t wlen)
{
	struct stat st, dst;
	bool link = false;
	int nfd;

	if (dfd != AT_FDCWD && p->writer &&
	    (fstat(dfd, &dst) || !owner_ok(&dst) ||
	     ((dst.st_mode & (S_IWGRP | S_IWOTH)) && !(dst.st_mode & S_ISVTX)))) {
		if (owner_ok(&dst))
			snprintf(why, wlen, "the folder holding %s is writable by others (mode %03o)", shown,
				 (unsigned)(dst.st_mode & 07777));
		else
			snprintf(why, wlen, "the folder holding %s is owned by uid %u, not by you or root", shown,
				 (unsigned)dst.st_uid);
		return -EPERM;
	}
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) && errno == ENOENT && p->create) {
		if (!mkdirat(dfd, name, 0700)) {
			if (p->nmade < CZS_PATH_MADE)
				p->made[p->nmade++] = strdup(p->abs);
		} else if (errno != EEXIST) {
			int e = errno;

			snprintf(why, wlen, "cannot make folder %s: %s", shown, strerror(e));
			return -e;
		}
		fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW);
	}
	if (S_ISLNK(st.st_mode)) {
		if (!owner_ok(&st)) {
			snprintf(why, wlen, "%s is a symbolic link owned by uid %u (not followed)", shown,
				 (unsigned)st.st_uid);
			return -EPERM;
		}
		link = true;
	}
	nfd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (link ? 0 : O_NOFOLLOW));
	if (nfd < 0) {
		int e = errno;

		snprintf(why, wlen, "%s: %s", shown, e == ENOENT ? "no such folder" : strerror(e));
		return -e;
	}
	return nfd;
}

void czs_path_free(struct czs_path *p)
{
	if (p->dfd >= 0)
		close(p->dfd);
	p->dfd = -1;
	for (size_t i = 0; i < p->nmade; i++)
		free(p->made[i]);
	p->nmade = 0;
}

/* Remove the folders the walk made (newest first), where they are empty. */
void czs_path_unmake(struct czs_path *p)
{
	while (p->nmade) {
		p->nmade--;
		rmdir(p->made[p->nmade]);
		free(p->made[p->nmade]);
	}
}

int czs_path_dir(const char *path, bool writer, bool create, struct czs_path *p, char *why, size_t wlen)
{
	char buf[PATH_MAX], *comp, *save = NULL, *slash;
	size_t at = 0;
	int dfd = AT_FDCWD, nfd;

	memset(p, 0, sizeof(*p));
	p->dfd = -1;
	p->writer = writer;
	p->create = create;
	if (path[0] == '/') {
		snprintf(buf, sizeof(buf), "%s", path);
	} else {
		if (!getcwd(buf, sizeof(buf) - 2)) {
			snprintf(why, wlen, "the current folder: %s", strerror(errno));
			return -EIO;
		}
		at = strlen(buf);
		snprintf(buf + at, sizeof(buf) - at, "/%s", path);
	}
	if (strlen(buf) + 1 >= sizeof(p->file)) {
		snprintf(why, wlen, "path too long");
		return -ENAMETOOLONG;
	}
	snprintf(p->file, sizeof(p->file), "%s", buf);
	slash = strrchr(buf, '/');
	snprintf(p->base, sizeof(p->base), "%s", slash + 1);
	if (!p->base[0] || !strcmp(p->base, ".") || !strcmp(p->base, "..")) {
		snprintf(why, wlen, "no file name");
		return -EINVAL;
	}
	*slash = 0;
	at = 0;
	p->abs[0] = 0;
	for (comp = strtok_r(buf, "/", &save); comp; comp = strtok_r(NULL, "/", &save)) {
		char first[PATH_MAX];

		at += (size_t)snprintf(p->abs + at, sizeof(p->abs) - at, "/%s", comp);
		if (!strcmp(comp, ".") || !strcmp(comp, "..")) {
			snprintf(why, wlen, "'%s' in the path (give it without . or ..)", comp);
			nfd = -EINVAL;
		} else {
			snprintf(first, sizeof(first), "/%s", comp);
			nfd = walk_step(p, dfd, dfd == AT_FDCWD ? first : comp, p->abs, why, wlen);
		}
		if (dfd != AT_FDCWD)
			close(dfd);
		if (nfd < 0) {
			czs_path_unmake(p);
			return nfd;
		}
		dfd = nfd;
	}
	if (dfd == AT_FDCWD) {
		dfd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		snprintf(p->abs, sizeof(p->abs), "/");
	}
	p->dfd = dfd;
	return dfd < 0 ? -errno : 0;
}

int czs_path_check_file(struct czs_path *p, struct stat *st, char *why, size_t wlen)
{
	struct stat dst;

	if (p->writer && (fstat(p->dfd, &dst) || !owner_ok(&dst) ||
			  ((dst.st_mode & (S_IWGRP | S_IWOTH)) && !(dst.st_mode & S_ISVTX)))) {
		if (!owner_ok(&dst))
			snprintf(why, wlen, "its folder %s is owned by uid %u, not by you or root", p->abs,
				 (unsigned)dst.st_uid);
		else
			snprintf(why, wlen, "its folder %s is writable by others (mode %03o)", p->abs,
				 (unsigned)(dst.st_mode & 07777));
		return -EPERM;
	}
	if (fstatat(p->dfd, p->base, st, AT_SYMLINK_NOFOLLOW))
		return -errno;
	if (S_ISLNK(st->st_mode)) {
		if (!owner_ok(st)) {
			snprintf(why, wlen, "a symbolic link owned by uid %u (not followed)", (unsigned)st->st_uid);
			return -EPERM;
		}
		if (fstatat(p->dfd, p->base, st, 0))
			return -errno;
	}
	if (!S_ISREG(st->st_mode)) {
		snprintf(why, wlen, "not a regular file");
		return -EINVAL;
	}
	if (p->writer && !owner_ok(st)) {
		snprintf(why, wlen, "owned by uid %u, not by you or root", (unsigned)st->st_uid);
		return -EPERM;
	}
	return 0;
}

int czs_path_create(struct czs_path *p, int flags, char *why, size_t wlen)
{
	int fd = openat(p->dfd, p->base, flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);

	if (fd < 0) {
		int e = errno;

		snprintf(why, wlen, "cannot create it: %s", strerror(e));
		return -e;
	}
	return fd;
}
