/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * FUSE front end: `cusezero --fuse MNT` (and the fallback when CUSE is
 * unavailable) mounts a file system with four files:
 *   MNT/zero        behaves like /dev/zero (the shared read path)
 *   MNT/control     write "routine=NAME", "align=K|none", "align_point=entry|loop",
 *                   "chunk=SIZE", "reset" (one write: all or nothing, control.c);
 *                   read: the current settings
 *   MNT/stats       statistics as text        MNT/stats.json   the same as JSON
 * The cusezero.h ioctls work on every file (FUSE restricted ioctl mode).
 *
 * Every open gets FOPEN_DIRECT_IO, so every read reaches the daemon (no page
 * cache) and a read of n bytes is answered with n bytes, up to max_pages
 * (256 = 1 MiB here; libfuse negotiates it from its 1 MiB receive buffer).
 *
 * Size of `zero`: reported as CZ_ZERO_SIZE, the largest offset there is
 * (2^63 - 1, the kernel's MAX_LFS_FILESIZE), not 0.  Regular reads on
 * direct-io files ignore i_size, but the kernel's asynchronous read paths
 * (io_uring and AIO, with or without O_DIRECT) stop at i_size, so a size of
 * 0 made those return EOF -- and 1 EiB, an earlier choice, made them return
 * EOF at 1 EiB where pread(2) and the kernel's /dev/zero return zeros.
 * /dev/zero is endless anyway: `cat` or `cp` of either never ends.
 *
 * The text files (control, stats, stats.json) are read with read(2) only.
 * Each open gets its own snapshot of the text (direct I/O), but sendfile(2),
 * splice(2) and mmap(2) of a FUSE file go through the inode's one page
 * cache and stop at its one i_size, even with FOPEN_DIRECT_IO
 * (fs/fuse/file.c, fuse_splice_read -> filemap_splice_read, Linux >= 6.5;
 * doc/sources.md), and a short page read trims i_size to that reader's
 * length -- unless another open's LOOKUP moved the inode's attribute
 * version meanwhile (fuse_read_update_size).  With readers at once (busybox
 * cat copies with sendfile) a text came out cut at another reader's length,
 * or followed by NUL bytes up to the page's end.  So a read through the page
 * cache is refused with EINVAL (sendfile(2): "mmap-like operations not
 * available"; the caller sees EIO where the kernel reads FUSE pages through
 * iomap, Linux 7.x), and sendfile users fall back to read(2), as busybox and
 * Python's shutil do.  The kernel marks the two kinds apart: a direct read
 * carries the reader's lock owner (fuse_send_read sets FUSE_READ_LOCKOWNER,
 * called only from fuse_direct_io), page-cache reads (fuse_do_readpage,
 * fuse_send_readpages; fuse_do_readfolio in 7.x) carry none.
 *
 * Their size: FF_TEXT_MAX, the most any of them holds, not their length --
 * as sysfs reports PAGE_SIZE for its attributes.  read(2) ignores it; with
 * a size of 0 sendfile(2) would return 0 (end of file) before asking us, and
 * busybox cat printed nothing.  The zero entry/attribute timeout stays as a
 * guard: should a kernel serve page reads without the mark, the next open's
 * lookup puts back a size that a short read trimmed.
 *
 * The mount point (mountpoint.c): an empty directory where nothing is
 * mounted, one daemon per mount point (a lock named after the directory),
 * and the dead mount a SIGKILLed daemon leaves is detached by the next start
 * on the same path.
 */
#define FUSE_USE_VERSION 314

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "control.h"
#include "front_fuse.h"
#include "fuse_uring_daemon.h"
#include "lifecycle.h"
#include "log.h"
#include "loop.h"
#include "mountpoint.h"
#include "params.h"
#include "readpath.h"
#include "schedguard.h"
#include "devstats.h"
#include "statsfmt.h"
#include <fuse_lowlevel.h>
#include "reply.h"

#define CZ_ZERO_SIZE INT64_MAX
#define FF_TIMEOUT 86400.0
#define FF_TEXT_MAX 65536	/* a page multiple: the text files' buffer and size (stats.json with the
				 * request histogram reached 12 KiB after 3000 reads) */
_Static_assert(FF_TEXT_MAX <= CZ_MAX_REQUEST, "a text file's reply fits the read-path buffer");

enum { FF_INO_ROOT = 1, FF_INO_ZERO, FF_INO_CONTROL, FF_INO_STATS, FF_INO_JSON, FF_INO_MAX };

static const char *const ff_names[FF_INO_MAX] = {
	[FF_INO_ZERO] = "zero",
	[FF_INO_CONTROL] = "control",
	[FF_INO_STATS] = "stats",
	[FF_INO_JSON] = "stats.json",
};

static char ff_mnt[PATH_MAX];
static char ff_zero[PATH_MAX + 8];
static time_t ff_start_time;

const char *ff_zero_path(void)
{
	return ff_zero;
}

/*
 * Per open file of control/stats/stats.json: a snapshot taken at open, so a
 * reader sees one consistent text, and (control) the written text held
 * until its last command is complete (ff_control_write).
 */
struct ff_text {
	/*
	 * held/held_len: one open file's writes and close()s can run at once
	 * on different workers (FLUSH comes without the inode lock, and a
	 * process can write from two threads), so they are touched only under
	 * this lock.
	 */
	pthread_mutex_t held_lock;
	char *held;
	size_t held_len;
	size_t len;
	char data[];
};

static void ff_attr(fuse_ino_t ino, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_ino = ino;
	st->st_uid = cz_params.owner_set ? cz_params.owner : geteuid();
	st->st_gid = cz_params.group_set ? cz_params.group : getegid();
	st->st_nlink = 1;
	st->st_atime = st->st_mtime = st->st_ctime = ff_start_time;
	switch (ino) {
	case FF_INO_ROOT:
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		break;
	case FF_INO_ZERO:
		st->st_mode = S_IFREG | (cz_params.mode & 07777);
		st->st_size = (off_t)CZ_ZERO_SIZE;
		break;
	case FF_INO_CONTROL:
		/*
		 * The mode that is enforced: settings change for root and the
		 * owner above (--owner, else the daemon's user: ctl_may_change),
		 * the settings read for everyone.  The mount's default_permissions
		 * makes the kernel refuse others at open (EACCES); the daemon
		 * still checks each write (EPERM) for a descriptor opened before.
		 */
		st->st_mode = S_IFREG | 0644;
		break;
	default:
		st->st_mode = S_IFREG | 0444;
		break;
	}
	if (ino != FF_INO_ROOT && ino != FF_INO_ZERO)
		st->st_size = FF_TEXT_MAX;
}

/* Attributes of the text files are never cached: see FF_TEXT_MAX. */
static double ff_timeout(fuse_ino_t ino)
{
	return ino == FF_INO_ROOT || ino == FF_INO_ZERO ? FF_TIMEOUT : 0.0;
}

static void ff_init(void *userdata, struct fuse_conn_info *conn)
{
	/* libfuse's splice paths off: session_io.c splices replies itself (--reply). */
	conn->want &= ~(FUSE_CAP_SPLICE_READ | FUSE_CAP_SPLICE_WRITE | FUSE_CAP_SPLICE_MOVE);
	conn->want &= ~FUSE_CAP_ATOMIC_O_TRUNC;
	cz_debug("fuse init: proto %u.%u max_write %u max_read %u", conn->proto_major,
		 conn->proto_minor, conn->max_write, conn->max_read);
}

static void ff_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct fuse_entry_param e;
	fuse_ino_t ino;

	if (parent != FF_INO_ROOT) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	for (ino = FF_INO_ZERO; ino < FF_INO_MAX; ino++)
		if (!strcmp(name, ff_names[ino]))
			break;
	if (ino == FF_INO_MAX) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	memset(&e, 0, sizeof(e));
	e.ino = ino;
	e.attr_timeout = ff_timeout(ino);
	e.entry_timeout = ff_timeout(ino);
	ff_attr(ino, &e.attr);
	fuse_reply_entry(req, &e);
}

static void ff_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct stat st;

	if (ino < FF_INO_ROOT || ino >= FF_INO_MAX) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	ff_attr(ino, &st);
	fuse_reply_attr(req, &st, ff_timeout(ino));
}

/* O_TRUNC on `control` (shell redirection) arrives as a size change: accept, change nothing. */
static void ff_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr, int to_set,
		       struct fuse_file_info *fi)
{
	if (to_set & ~(FUSE_SET_ATTR_SIZE | FUSE_SET_ATTR_ATIME | FUSE_SET_ATTR_MTIME |
		       FUSE_SET_ATTR_ATIME_NOW | FUSE_SET_ATTR_MTIME_NOW | FUSE_SET_ATTR_CTIME)) {
		fuse_reply_err(req, EPERM);
		return;
	}
	ff_getattr(req, ino, fi);
}

static struct ff_text *ff_snapshot(fuse_ino_t ino)
{
	struct cusezero_stats st;
	struct ff_text *t = malloc(sizeof(*t) + FF_TEXT_MAX);
	int n;

	if (!t)
		return NULL;
	pthread_mutex_init(&t->held_lock, NULL);
	t->held = NULL;
	t->held_len = 0;
	if (ino == FF_INO_CONTROL) {
		n = ctl_format_settings(t->data, FF_TEXT_MAX);
	} else {
		struct cusezero_rotate rot;
		struct cz_devlayouts *lay = NULL;

		rp_get_rotate(&rot);
		/* a rotating device's copies too (520 KiB: only then, and off the stack) */
		if (rot.count && (lay = malloc(sizeof(*lay))) != NULL)
			rp_get_layouts(lay);
		rp_get_stats(&st);
		n = sf_format(&st, lay, ino == FF_INO_JSON, t->data, FF_TEXT_MAX);
		free(lay);
		/* --sched-idle: how often the starvation guard stepped in (text file only) */
		if (n >= 0 && ino == FF_INO_STATS && cz_params.sched_idle) {
			int m = snprintf(t->data + n, FF_TEXT_MAX - (size_t)n, "sched_idle_starved %lu\n",
					 sg_demotions());

			if (m > 0 && n + m < FF_TEXT_MAX)
				n += m;
		}
	}
	t->len = n < 0 ? 0 : (size_t)n;
	return t;
}

static void ff_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	fi->direct_io = 1;
	fi->fh = 0;
	switch (ino) {
	case FF_INO_ZERO:
		break;
	case FF_INO_STATS:
	case FF_INO_JSON:
		/* read-only for root too (root passes the 0444 mode check) */
		if ((fi->flags & O_ACCMODE) != O_RDONLY) {
			fuse_reply_err(req, EACCES);
			return;
		}
		/* fall through */
	case FF_INO_CONTROL:
		fi->fh = (uintptr_t)ff_snapshot(ino);
		if (!fi->fh) {
			fuse_reply_err(req, ENOMEM);
			return;
		}
		break;
	default:
		fuse_reply_err(req, ino == FF_INO_ROOT ? EISDIR : ENOENT);
		return;
	}
	fuse_reply_open(req, fi);
}

static void ff_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	struct ff_text *t = (struct ff_text *)(uintptr_t)fi->fh;
	char *buf;

	if (ino == FF_INO_ZERO) {
		if (size > CZ_MAX_REQUEST)
			size = CZ_MAX_REQUEST;
		/* The reader may be gone (ENOENT): nothing to do, keep serving. */
		fuse_reply_buf(req, rp_read(size), size);
		return;
	}
	/* no lock owner: the page cache asks (sendfile, splice, mmap); see the top */
	if (!fi->lock_owner) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	if (!t || off < 0 || (size_t)off >= t->len) {
		fuse_reply_buf(req, NULL, 0);
		return;
	}
	if (size > t->len - (size_t)off)
		size = t->len - (size_t)off;
	/*
	 * Reply from this thread's own reply buffer (the read path's), not from
	 * t: the moment the kernel has the reply, the reader may close the file,
	 * and another worker may run RELEASE (freeing t) while this one is still
	 * returning from the write to /dev/fuse -- and the sanitizers' writev
	 * interceptor checks the buffer after the call: a heap-use-after-free
	 * report (and an ASan build's abort) with --threads > 1.  Every serving
	 * thread has its buffer (rp_thread_attach) before it serves.
	 */
	buf = rp_thread_buffer();
	if (!buf) {
		fuse_reply_err(req, EIO);
		return;
	}
	memcpy(buf, t->data + off, size);
	fuse_reply_buf(req, buf, size);
}

static bool ff_control_sep(char c)
{
	return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == ';' || c == '\0';
}

/*
 * A write to `control`.  The kernel splits a write() into requests of at most
 * max_write (1 MiB), or fewer bytes when the writer's buffer spans more than
 * max_pages pages (fs/fuse/file.c, fuse_direct_io), and sends them one after
 * another, each answered before the next: the daemon cannot see the rest of
 * a write before replying to its first part.  So a request that is a page
 * or longer and ends inside a command (not on a blank, newline or ';') may
 * be the first part of a longer write: it is held (accepted, not applied)
 * and the next request on the same open file continues it.  The text is
 * applied as a whole -- all or nothing -- with the first request that ends
 * on a separator or is shorter than a page, or at close if none came (then
 * close() returns the error).  Shorter writes are applied at once, as
 * before.  At most FF_HELD_MAX bytes are held (EFBIG beyond).
 */
#define FF_HELD_MAX (16u << 20)

static int ff_control_write_locked(struct ff_text *t, uid_t uid, const char *buf, size_t size)
{
	bool complete = size < 4096 || ff_control_sep(buf[size - 1]);
	char *p;
	int ret;

	if (!ctl_may_change(uid))
		return -EPERM;
	if (!t->held_len && complete)
		return ctl_command(uid, buf, size);
	if (t->held_len + size > FF_HELD_MAX) {
		ret = -EFBIG;
		goto out;
	}
	p = realloc(t->held, t->held_len + size);
	if (!p) {
		ret = -ENOMEM;
		goto out;
	}
	t->held = p;
	memcpy(t->held + t->held_len, buf, size);
	t->held_len += size;
	if (!complete)
		return 0;
	ret = ctl_command(uid, t->held, t->held_len);
out:
	free(t->held);
	t->held = NULL;
	t->held_len = 0;
	return ret;
}

static int ff_control_write(struct ff_text *t, uid_t uid, const char *buf, size_t size)
{
	int ret;

	pthread_mutex_lock(&t->held_lock);
	ret = ff_control_write_locked(t, uid, buf, size);
	pthread_mutex_unlock(&t->held_lock);
	return ret;
}

static void ff_write(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size, off_t off,
		     struct fuse_file_info *fi)
{
	struct ff_text *t = (struct ff_text *)(uintptr_t)fi->fh;
	int ret;

	switch (ino) {
	case FF_INO_ZERO:
		rp_count_write(size);
		fuse_reply_write(req, size);
		return;
	case FF_INO_CONTROL:
		ret = size ? ff_control_write(t, fuse_req_ctx(req)->uid, buf, size) : 0;
		if (ret)
			fuse_reply_err(req, -ret);
		else
			fuse_reply_write(req, size);
		return;
	default:
		fuse_reply_err(req, EBADF);
	}
}

static void ff_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct ff_text *t = (struct ff_text *)(uintptr_t)fi->fh;

	if (t) {
		free(t->held);
		pthread_mutex_destroy(&t->held_lock);
	}
	free(t);
	fuse_reply_err(req, 0);
}

/* close(): a held control text that never got its end is applied now. */
static void ff_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct ff_text *t = (struct ff_text *)(uintptr_t)fi->fh;
	int ret = 0;

	if (ino == FF_INO_CONTROL && t) {
		pthread_mutex_lock(&t->held_lock);
		if (t->held_len) {
			ret = ctl_command(fuse_req_ctx(req)->uid, t->held, t->held_len);
			free(t->held);
			t->held = NULL;
			t->held_len = 0;
		}
		pthread_mutex_unlock(&t->held_lock);
	}
	fuse_reply_err(req, -ret);
}

static void ff_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		       struct fuse_file_info *fi)
{
	char buf[1024];
	size_t pos = 0, n;
	struct stat st;
	off_t i;

	if (ino != FF_INO_ROOT) {
		fuse_reply_err(req, ENOTDIR);
		return;
	}
	if (size > sizeof(buf))
		size = sizeof(buf);
	/* entries: 0 ".", 1 "..", then the files; off = index of the next one */
	for (i = off; i < FF_INO_MAX - FF_INO_ZERO + 2; i++) {
		const char *name = i == 0 ? "." : i == 1 ? ".." : ff_names[FF_INO_ZERO + i - 2];

		ff_attr(i < 2 ? FF_INO_ROOT : (fuse_ino_t)(FF_INO_ZERO + i - 2), &st);
		n = fuse_add_direntry(req, buf + pos, size - pos, name, &st, i + 1);
		if (n > size - pos)
			break;
		pos += n;
	}
	fuse_reply_buf(req, buf, pos);
}

/*
 * The four names are fixed: creating, removing, renaming or linking any
 * name is EPERM ("Operation not permitted"), not ENOSYS.  Not EROFS: the
 * file system takes writes (zero discards them, control applies them).
 */
static void ff_no_mknod(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode,
			dev_t rdev)
{
	fuse_reply_err(req, EPERM);
}

static void ff_no_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode)
{
	fuse_reply_err(req, EPERM);
}

static void ff_no_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	fuse_reply_err(req, EPERM);
}

static void ff_no_symlink(fuse_req_t req, const char *link, fuse_ino_t parent, const char *name)
{
	fuse_reply_err(req, EPERM);
}

static void ff_no_rename(fuse_req_t req, fuse_ino_t parent, const char *name, fuse_ino_t newparent,
			 const char *newname, unsigned int flags)
{
	fuse_reply_err(req, EPERM);
}

static void ff_no_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t newparent, const char *newname)
{
	fuse_reply_err(req, EPERM);
}

static void ff_no_create(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode,
			 struct fuse_file_info *fi)
{
	fuse_reply_err(req, EPERM);
}

static void ff_ioctl(fuse_req_t req, fuse_ino_t ino, unsigned int cmd, void *arg,
		     struct fuse_file_info *fi, unsigned flags, const void *in_buf,
		     size_t in_bufsz, size_t out_bufsz)
{
	reply_ioctl(req, cmd, flags, in_buf, in_bufsz, out_bufsz);
}

static void ff_poll(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi,
		    struct fuse_pollhandle *ph)
{
	reply_poll(req, ph);	/* always ready, like /dev/zero */
}

static const struct fuse_lowlevel_ops ff_ops = {
	.init = ff_init,
	.lookup = ff_lookup,
	.getattr = ff_getattr,
	.setattr = ff_setattr,
	.open = ff_open,
	.read = ff_read,
	.write = ff_write,
	.flush = ff_flush,
	.release = ff_release,
	.readdir = ff_readdir,
	.ioctl = ff_ioctl,
	.poll = ff_poll,
	.mknod = ff_no_mknod,
	.mkdir = ff_no_mkdir,
	.unlink = ff_no_unlink,
	.rmdir = ff_no_unlink,
	.symlink = ff_no_symlink,
	.rename = ff_no_rename,
	.link = ff_no_link,
	.create = ff_no_create,
};

int ff_prepare_mountpoint(const char *mnt, bool create)
{
	int ret = mp_prepare(mnt, create, ff_mnt, sizeof(ff_mnt));

	if (ret)
		return ret;
	snprintf(ff_zero, sizeof(ff_zero), "%s/zero", ff_mnt);
	return 0;
}

void ff_release_mountpoint(void)
{
	mp_done();
}

int ff_serve(void)
{
	char opts[256];
	const char *argv[4];
	int argc = 0, ret;
	struct fuse_args args;
	struct fuse_session *se;
	bool root = geteuid() == 0;

	ff_start_time = time(NULL);
	/*
	 * allow_other: any user may read the device (as /dev/zero), which needs
	 * root (or user_allow_other).  default_permissions: the kernel applies
	 * the modes above.  After --user we can no longer umount, so let
	 * fusermount3 unmount when our fd closes (auto_unmount).
	 */
	snprintf(opts, sizeof(opts), "fsname=cusezero,subtype=cusezero,default_permissions%s%s",
		 root ? ",allow_other" : "", cz_params.user ? ",auto_unmount" : "");
	argv[argc++] = "cusezero";
	argv[argc++] = "-o";
	argv[argc++] = opts;
	if (cz_params.debug)
		argv[argc++] = "-d";
	args = (struct fuse_args)FUSE_ARGS_INIT(argc, (char **)argv);

	se = fuse_session_new(&args, &ff_ops, sizeof(ff_ops), NULL);
	fuse_opt_free_args(&args);	/* parsing copied our argv (a leak under ASan) */
	if (!se) {
		cz_log("--fuse %s: cannot create a FUSE session", ff_mnt);
		return -EIO;
	}
	fud_prepare();	/* before the mount sends INIT */
	if (fuse_session_mount(se, ff_mnt)) {
		cz_log("--fuse %s: mount failed (is /dev/fuse there? see above)", ff_mnt);
		ret = -EIO;
		goto err_destroy;
	}
	if (fuse_set_signal_handlers(se) || lc_signals(se)) {
		cz_log("cannot install signal handlers");
		ret = -EIO;
		goto err_unmount;
	}
	ret = fud_start(se, FF_INO_ZERO);	/* --transport: io_uring queues */
	if (ret)
		goto err_signals;
	ret = lc_pidfile();
	if (ret)
		goto err_signals;
	if (cz_params.user) {
		ret = lc_drop_privileges(cz_params.user);
		if (ret) {
			cz_log("--user %s: cannot drop privileges: %s", cz_params.user,
			       strerror(-ret));
			goto err_signals;
		}
		cz_params.dropped = true;
	}
	if (cz_params.fuse_fallback)
		cz_debug("serving %s", ff_zero);
	ret = loop_prepare(se, cz_params.threads);	/* a start that cannot serve fails */
	if (ret)
		goto err_signals;
	lc_ready();
	ret = loop_run(se, cz_params.threads, NULL);
err_signals:
	fuse_remove_signal_handlers(se);
err_unmount:
	fud_unmounting();	/* the io_uring queue threads leave the fd alone from now on */
	/* after --user, umount is not ours to do: auto_unmount does it when the fd closes */
	if (!cz_params.dropped)
		fuse_session_unmount(se);
	fud_stop();	/* after unmount: the kernel ends the queues' entries */
err_destroy:
	fuse_session_destroy(se);
	fud_restore();	/* after the unmount: the switch matters at mount only */
	if (!cz_params.dropped)
		mp_done();
	return ret;
}
