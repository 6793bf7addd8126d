/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel-source build cache: where it lives, whether it may be trusted,
 * and its entries.
 *
 * A cached object is code this process will execute, so the cache is
 * trusted only as far as nobody but the running user (or root) could have
 * written it:
 *   - the directory is walked one component at a time (openat,
 *     O_NOFOLLOW): every directory on the way is owned by the user or root
 *     and not writable by others unless sticky (/tmp), a symbolic link is
 *     followed only when its owner is the user or root, and the cache
 *     directory itself is owned by the user and writable by nobody else;
 *   - an entry is one file, <key>.ksrc, opened with O_NOFOLLOW relative to
 *     the checked directory and checked on its descriptor (regular, owned
 *     by the user, not writable by others); it carries its full key and
 *     the SHA-256 of its contents, verified before use.  Anything else is
 *     ignored and rebuilt, never run.
 * Where: $CUSEZERO_KSRC_CACHE (refused with one line when unsafe), else
 * $XDG_CACHE_HOME/cusezero/ksrc, else root's /var/cache/cusezero/ksrc or a
 * user's ~/.cache/cusezero/ksrc; where that is missing or unsafe (HOME unset
 * or "/", sudo keeping another user's HOME), a private directory made by
 * mkdtemp for this process and removed after.  There is no shared
 * fallback in /tmp.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nettle/sha2.h>

#include "ksrc.h"
#include "ksrc_int.h"

#define ENTRY_MAGIC "cusezero-ksrc-cache 1"
#define ENTRY_MAX (128u << 20)

void ksrc_sha256_hex(const unsigned char digest[KSRC_SHA256_LEN], char hex[2 * KSRC_SHA256_LEN + 1])
{
	unsigned i;

	for (i = 0; i < KSRC_SHA256_LEN; i++)
		snprintf(hex + 2 * i, 3, "%02x", digest[i]);
}

/* SHA-256 of the key and both parts: what an entry says of itself. */
static void entry_digest(const char *key, const struct ksrc_blob *b, char hex[2 * KSRC_SHA256_LEN + 1])
{
	struct sha256_ctx c;
	unsigned char d[KSRC_SHA256_LEN];

	sha256_init(&c);
	sha256_update(&c, strlen(key) + 1, (const uint8_t *)key);
	sha256_update(&c, b->objlen, b->obj);
	sha256_update(&c, b->metalen, (const uint8_t *)b->meta);
	sha256_digest(&c, sizeof(d), d);
	ksrc_sha256_hex(d, hex);
}

void ksrc_blob_free(struct ksrc_blob *b)
{
	free(b->obj);
	free(b->meta);
	b->obj = NULL;
	b->meta = NULL;
	b->objlen = b->metalen = 0;
}

/* ---- the directory ----------------------------------------------------------- */

static bool owner_ok(const struct stat *st)
{
	return st->st_uid == geteuid() || st->st_uid == 0;
}

/*
 * Walk path from "/" (creating missing directories 0700 when create),
 * checking each step as the header says; the cache directory's fd, or
 * -errno with why (ksrc.h).
 */
int zero_safe_dir(const char *path, bool create, char *why, size_t wlen)
{
	char buf[PATH_MAX], first[PATH_MAX], *comp, *save = NULL;
	struct stat st, dst;
	int dfd = AT_FDCWD, nfd;

	if (path[0] != '/') {
		snprintf(why, wlen, "not an absolute path");
		return -EINVAL;
	}
	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	for (comp = strtok_r(buf, "/", &save); comp; comp = strtok_r(NULL, "/", &save)) {
		bool link = false;
		const char *name = comp;

		/*
		 * The first component by its absolute name ("/tmp"), not openat
		 * from an open "/": qemu-user's -L prefix maps "/" itself into the
		 * guest's sysroot, and the walk would go on there.
		 */
		if (dfd == AT_FDCWD) {
			snprintf(first, sizeof(first), "/%s", comp);
			name = first;
		} else if (fstat(dfd, &dst) || !owner_ok(&dst) ||
			   ((dst.st_mode & (S_IWGRP | S_IWOTH)) && !(dst.st_mode & S_ISVTX))) {
			snprintf(why, wlen, "the folder holding %s is owned by uid %u or writable by others (mode %03o)",
				 comp, (unsigned)dst.st_uid, (unsigned)(dst.st_mode & 07777));
			close(dfd);
			return -EPERM;
		}
		if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) && errno == ENOENT && create &&
		    (!mkdirat(dfd, name, 0700) || errno == EEXIST))
			fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW);
		if (S_ISLNK(st.st_mode)) {
			if (!owner_ok(&st)) {
				snprintf(why, wlen, "%s is a symbolic link owned by uid %u", comp,
					 (unsigned)st.st_uid);
				if (dfd != AT_FDCWD)
					close(dfd);
				return -EPERM;
			}
			link = true;
		}
		nfd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (link ? 0 : O_NOFOLLOW));
		if (dfd != AT_FDCWD)
			close(dfd);
		if (nfd < 0) {
			int e = errno;

			snprintf(why, wlen, "%s: %s", comp, strerror(e));
			return -e;
		}
		dfd = nfd;
	}
	if (dfd == AT_FDCWD) {
		snprintf(why, wlen, "the root folder itself");
		return -EINVAL;
	}
	if (fstat(dfd, &st) || st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH))) {
		if (st.st_uid != geteuid())
			snprintf(why, wlen, "owned by uid %u, not by uid %u", (unsigned)st.st_uid,
				 (unsigned)geteuid());
		else
			snprintf(why, wlen, "writable by others (mode %03o)",
				 (unsigned)(st.st_mode & 07777));
		close(dfd);
		return -EPERM;
	}
	return dfd;
}

/* The default place, or "" when there is none (HOME unset or "/"). */
static void default_dir(char *out, size_t len)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	out[0] = 0;
	if (xdg && xdg[0] == '/')
		snprintf(out, len, "%s/cusezero/ksrc", xdg);
	else if (geteuid() == 0)
		snprintf(out, len, "/var/cache/cusezero/ksrc");
	else if (home && home[0] == '/' && home[1])
		snprintf(out, len, "%s/.cache/cusezero/ksrc", home);
}

int ksrc_cache_open(struct ksrc_cache *c, char *err, size_t errlen)
{
	const char *env = getenv("CUSEZERO_KSRC_CACHE");
	char why[PATH_MAX + 128];

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	if (env && *env) {
		/* asked for by name: refused rather than replaced */
		snprintf(c->path, sizeof(c->path), "%s", env);
		c->fd = zero_safe_dir(c->path, true, why, sizeof(why));
		if (c->fd < 0) {
			snprintf(err, errlen, "CUSEZERO_KSRC_CACHE=%s: refused as a build cache: %s", env, why);
			return c->fd;
		}
		return 0;
	}
	default_dir(c->path, sizeof(c->path));
	if (c->path[0] && (c->fd = zero_safe_dir(c->path, true, why, sizeof(why))) >= 0)
		return 0;
	/* no safe shared place: a private one, this process's only */
	snprintf(c->path, sizeof(c->path), "/tmp/cusezero-ksrc.XXXXXX");
	if (!mkdtemp(c->path)) {
		snprintf(err, errlen, "no private build directory in /tmp: %s", strerror(errno));
		return -EIO;
	}
	c->private_dir = true;
	c->fd = zero_safe_dir(c->path, false, why, sizeof(why));
	if (c->fd < 0) {
		snprintf(err, errlen, "%s: not a safe build directory: %s", c->path, why);
		ksrc_rm_dir(c->path);
		return c->fd;
	}
	return 0;
}

/* Remove a build directory's files (one level) and the directory. */
void ksrc_rm_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
	rmdir(dir);
}

void ksrc_cache_close(struct ksrc_cache *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	if (c->private_dir)
		ksrc_rm_dir(c->path);
}

/* ---- entries ------------------------------------------------------------------- */

static int read_fd(int fd, size_t size, unsigned char **out)
{
	unsigned char *p = malloc(size + 1);
	size_t off = 0;
	ssize_t r;

	if (!p)
		return -ENOMEM;
	while (off < size && (r = pread(fd, p + off, size - off, (off_t)off)) > 0)
		off += (size_t)r;
	if (off != size) {
		free(p);
		return -EIO;
	}
	p[size] = 0;
	*out = p;
	return 0;
}

/* Parse and verify an entry's bytes into b (copies); -EBADMSG when anything is off. */
static int entry_parse(const unsigned char *p, size_t size, const char *key, struct ksrc_blob *b)
{
	char k[2 * KSRC_SHA256_LEN + 9], sum[2 * KSRC_SHA256_LEN + 9], want[2 * KSRC_SHA256_LEN + 1];
	size_t objlen, metalen, hdr;
	const unsigned char *body = memmem(p, size, "\n\n", 2);
	int n = 0;

	if (!body || sscanf((const char *)p, ENTRY_MAGIC "\nkey %72s\nobject %zu\nbranches %zu\nsha256 %72s\n%n",
			    k, &objlen, &metalen, sum, &n) != 4 || !n)
		return -EBADMSG;
	hdr = (size_t)(body - p) + 2;
	if (strcmp(k, key) || objlen > size || metalen > size || hdr + objlen + metalen != size)
		return -EBADMSG;
	b->obj = malloc(objlen + 1);
	b->meta = malloc(metalen + 1);
	if (!b->obj || !b->meta) {
		ksrc_blob_free(b);
		return -ENOMEM;
	}
	memcpy(b->obj, p + hdr, objlen);
	memcpy(b->meta, p + hdr + objlen, metalen);
	b->meta[metalen] = 0;
	b->objlen = objlen;
	b->metalen = metalen;
	entry_digest(key, b, want);
	if (strcmp(want, sum)) {
		ksrc_blob_free(b);
		return -EBADMSG;
	}
	return 0;
}

int ksrc_cache_get(const struct ksrc_cache *c, const char *key, struct ksrc_blob *b)
{
	char name[2 * KSRC_SHA256_LEN + 16];
	unsigned char *p = NULL;
	struct stat st;
	int fd, ret;

	memset(b, 0, sizeof(*b));
	snprintf(name, sizeof(name), "%s.ksrc", key);
	fd = openat(c->fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -ENOENT;
	/* on the descriptor: what was opened is what is checked and read */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & (S_IWGRP | S_IWOTH)) || st.st_size > ENTRY_MAX) {
		close(fd);
		return -ENOENT;
	}
	ret = read_fd(fd, (size_t)st.st_size, &p);
	close(fd);
	if (!ret)
		ret = entry_parse(p, (size_t)st.st_size, key, b);
	free(p);
	return ret ? -ENOENT : 0;
}

int ksrc_cache_put(const struct ksrc_cache *c, const char *key, const struct ksrc_blob *b,
		   const char *tmpdir)
{
	char tmp[PATH_MAX], name[2 * KSRC_SHA256_LEN + 16], sum[2 * KSRC_SHA256_LEN + 1], hdr[256];
	FILE *f;
	int fd, hl, ret = 0;

	entry_digest(key, b, sum);
	hl = snprintf(hdr, sizeof(hdr), ENTRY_MAGIC "\nkey %s\nobject %zu\nbranches %zu\nsha256 %s\n\n",
		      key, b->objlen, b->metalen, sum);
	if (snprintf(tmp, sizeof(tmp), "%s/entry.ksrc", tmpdir) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		ret = -errno;
		if (fd >= 0)
			close(fd);
		return ret;
	}
	if (fwrite(hdr, 1, (size_t)hl, f) != (size_t)hl || fwrite(b->obj, 1, b->objlen, f) != b->objlen ||
	    fwrite(b->meta, 1, b->metalen, f) != b->metalen)
		ret = -EIO;
	if (fclose(f) && !ret)
		ret = -EIO;
	snprintf(name, sizeof(name), "%s.ksrc", key);
	/* one rename: an entry is whole or absent, whoever builds the same key at once */
	if (!ret && renameat(AT_FDCWD, tmp, c->fd, name))
		ret = -errno;
	return ret;
}
