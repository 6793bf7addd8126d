/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Output files written whole, in a fresh file renamed onto the name given
 * (outfile.h says why).  rename(2) replaces a symbolic link at the name
 * itself, not what it points to; mkostemp(3) creates with O_CREAT|O_EXCL,
 * which fails on any existing name, a link too (open(2)).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

/* The process's umask without changing it (umask(2) is process-wide: no set and reset). */
static mode_t current_umask(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	unsigned m = 022;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Umask: %o", &m) == 1)
			break;
	if (f)
		fclose(f);
	return (mode_t)m;
}

/* A FIFO or character device at path, reached by no link but the user's or root's? */
static int write_in_place(const char *path)
{
	struct stat l, t;

	if (lstat(path, &l))
		return 0;
	if (S_ISFIFO(l.st_mode) || S_ISCHR(l.st_mode))
		return 1;
	if (!S_ISLNK(l.st_mode) || (l.st_uid != geteuid() && l.st_uid != 0) || stat(path, &t))
		return 0;
	return S_ISFIFO(t.st_mode) || S_ISCHR(t.st_mode);
}

static int open_in_place(struct cz_out *o)
{
	struct stat l;
	int fd;

	/* a link only when write_in_place() found it the user's or root's */
	fd = open(o->path, O_WRONLY | O_NOCTTY | O_CLOEXEC |
		  (!lstat(o->path, &l) && S_ISLNK(l.st_mode) ? 0 : O_NOFOLLOW));
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		return -e;
	}
	return 0;
}

int cz_out_open(struct cz_out *o, const char *path, mode_t mode)
{
	const char *slash = strrchr(path, '/');
	struct stat st;
	int fd, e;

	memset(o, 0, sizeof(*o));
	o->mode = mode & ~current_umask() & 07777;
	if (!*path || (slash && !slash[1]))
		return -EISDIR;
	if (!lstat(path, &st) && S_ISDIR(st.st_mode))
		return -EISDIR;
	o->path = strdup(path);
	if (!o->path)
		return -ENOMEM;
	if (write_in_place(path)) {
		e = open_in_place(o);
		if (e)
			cz_out_discard(o);
		return e;
	}
	/* .NAME.XXXXXX beside it: the same file system, so the rename is atomic */
	if (asprintf(&o->tmp, "%.*s.%.64s.XXXXXX", slash ? (int)(slash - path + 1) : 0, path,
		     slash ? slash + 1 : path) < 0) {
		o->tmp = NULL;
		cz_out_discard(o);
		return -ENOMEM;
	}
	fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		e = errno;
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		free(o->tmp);
		o->tmp = NULL;
		cz_out_discard(o);
		return -e;
	}
	return 0;
}

int cz_out_commit(struct cz_out *o)
{
	int e = 0;

	if (!o->f)
		return -EBADF;
	errno = 0;
	if (fflush(o->f) || ferror(o->f))
		e = errno ? errno : EIO;
	if (!e && o->tmp && fchmod(fileno(o->f), o->mode))
		e = errno;
	if (fclose(o->f) && !e)
		e = errno ? errno : EIO;
	o->f = NULL;
	if (!e && o->tmp && rename(o->tmp, o->path))
		e = errno;
	if (!e) {
		free(o->tmp);
		o->tmp = NULL;
	}
	cz_out_discard(o);
	return -e;
}

void cz_out_discard(struct cz_out *o)
{
	if (o->f)
		fclose(o->f);
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
}
