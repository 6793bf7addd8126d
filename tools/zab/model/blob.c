/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The content-addressed blob cache (sequence.h): files from commits,
 * tarballs and mboxes written once as BLOBS/SHA256/NAME, checked against
 * their name before use.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nettle/sha2.h>

#include "cli.h"
#include "ksrc.h"
#include "sequence.h"
#include "util.h"

/*
 * $XDG_CACHE_HOME/cusezero/blobs, root's /var/cache/cusezero/blobs,
 * ~/.cache/cusezero/blobs: its descriptor, every folder on the way checked
 * as the build cache's (zero_safe_dir), or -errno with why.
 */
static int blob_dir(char *out, size_t len, char *why, size_t wlen)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (xdg && xdg[0] == '/')
		snprintf(out, len, "%s/cusezero/blobs", xdg);
	else if (!geteuid())
		snprintf(out, len, "/var/cache/cusezero/blobs");
	else if (home && home[0] == '/' && home[1])
		snprintf(out, len, "%s/.cache/cusezero/blobs", home);
	else {
		snprintf(out, len, "(no XDG_CACHE_HOME or HOME)");
		snprintf(why, wlen, "no place for it");
		return -ENOENT;
	}
	return zero_safe_dir(out, true, why, wlen);
}

static int write_fd(int fd, const void *data, size_t len)
{
	const char *p = data;
	ssize_t w;

	while (len) {
		w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/*
 * The SHA-256 of a regular file of ours opened at dfd/name (no symbolic
 * link, no FIFO waited on): 0, or -errno (-EPERM: not a regular file of
 * this user's, or writable by others).
 */
static int blob_hash(int dfd, const char *name, char hex[65])
{
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC), ret = 0;
	struct sha256_ctx c;
	unsigned char d[SHA256_DIGEST_SIZE], buf[65536];
	struct stat st;
	ssize_t n;
	int i;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (st.st_uid != geteuid() && st.st_uid) ||
	    (st.st_mode & 022)) {
		close(fd);
		return -EPERM;
	}
	sha256_init(&c);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		sha256_update(&c, (size_t)n, buf);
	if (n < 0)
		ret = -errno;
	close(fd);
	sha256_digest(&c, sizeof(d), d);
	for (i = 0; i < SHA256_DIGEST_SIZE; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
	return ret;
}

int zab_blob_put(const void *data, size_t len, const char *name, char **path)
{
	char dir[PATH_MAX], why[PATH_MAX + 128], hex[65], have[65], tmp[64];
	const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	int dfd = blob_dir(dir, sizeof(dir) - 80, why, sizeof(why)), hfd, fd, ret;

	*path = NULL;
	if (dfd < 0) {
		cz_err("blob cache %s: refused: %s (set XDG_CACHE_HOME to a folder of yours)", dir, why);
		return -1;
	}
	cz_sha256_hex(data, len, hex);
	/* every step relative to the checked folder: nothing on the way may be swapped */
	if (mkdirat(dfd, hex, 0700) && errno != EEXIST) {
		ret = -errno;
	} else if ((hfd = openat(dfd, hex, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
		ret = -errno;
	} else {
		struct stat st;

		ret = fstat(hfd, &st) || st.st_uid != geteuid() || (st.st_mode & 022) ? -EPERM : 0;
		/* there with the right content: kept (its name is its content's hash) */
		if (!ret && !(blob_hash(hfd, base, have) || strcmp(have, hex))) {
			close(hfd);
			close(dfd);
			*path = cz_xasprintf("%s/%s/%s", dir, hex, base);
			return 0;
		}
		snprintf(tmp, sizeof(tmp), ".tmp.%d", (int)getpid());
		unlinkat(hfd, tmp, 0);
		fd = ret ? -1 : openat(hfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
				      0600);
		if (!ret && fd < 0)
			ret = -errno;
		if (fd >= 0) {
			ret = write_fd(fd, data, len);
			if (close(fd) && !ret)
				ret = -errno;
		}
		if (!ret && renameat(hfd, tmp, hfd, base))
			ret = -errno;
		if (ret)
			unlinkat(hfd, tmp, 0);
		close(hfd);
	}
	close(dfd);
	if (ret) {
		cz_err("blob cache %s/%s/%s: %s", dir, hex, base,
		       ret == -EPERM ? "not a folder of this user's, or writable by others" :
		       strerror(-ret));
		return -1;
	}
	*path = cz_xasprintf("%s/%s/%s", dir, hex, base);
	return 0;
}

const char *zab_blob_named(const char *path)
{
	const char *slash = strrchr(path, '/'), *h;

	if (!slash || slash - path < 71)
		return NULL;
	h = slash - 64;
	return strspn(h, "0123456789abcdef") == 64 && !memcmp(h - 7, "/blobs/", 7) ? h : NULL;
}

int zab_blob_check(const char *path)
{
	const char *h = zab_blob_named(path);
	char hex[65];
	int ret;

	/* .../blobs/SHA256/NAME: a blob; anything else is no concern of the cache */
	if (!h)
		return 0;
	ret = blob_hash(AT_FDCWD, path, hex);
	if (ret == -ENOENT)
		return 0;         /* missing: said as such by the caller */
	if (ret) {
		cz_err("blob %s: %s", path, ret == -EPERM ?
		       "not a regular file of this user's or root's, or writable by others" :
		       strerror(-ret));
		return -1;
	}
	if (memcmp(hex, h, 64)) {
		cz_err("blob %s: its content's SHA-256 is %.16s..., not its name's: changed after it was written (zab expand again)",
		       path, hex);
		return -1;
	}
	return 0;
}
