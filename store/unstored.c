/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Runs kept for later: a measured run that could not be stored (the
 * server down, the disk full) is written, as the document zab store
 * import reads, to the user's state folder ($XDG_STATE_HOME, else
 * ~/.local/state, as the XDG Base Directory Specification puts it:
 * "state data that should persist between (application) restarts"),
 * 0600 in folders made 0700 and checked as the store's (safepath.c).
 * `zab store flush` imports them and removes each once stored.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store_int.h"

void czs_unstored_dir(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_STATE_HOME");

	if (xdg && xdg[0] == '/')
		snprintf(buf, len, "%s/cusezero/unstored", xdg);
	else
		snprintf(buf, len, "%s/.local/state/cusezero/unstored", czs_home());
}

/* name (in the checked folder p) holding text: 0, or -errno with err. */
static int write_new(struct czs_path *p, const char *name, const json_t *doc, const char *text,
		     char *err, size_t errlen)
{
	char why[512] = "";
	FILE *f;
	int fd, ret;

	/* written as NAME.part, renamed when complete: flush never reads half a run */
	snprintf(p->base, sizeof(p->base), "%s.part", name);
	fd = czs_path_create(p, O_WRONLY, why, sizeof(why));
	if (fd < 0) {
		snprintf(err, errlen, "%s/%s: %s", p->abs, name, why);
		return fd;
	}
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return -ENOMEM;
	}
	ret = doc ? cz_json_dump(f, doc, 0) : fputs(text, f) < 0 ? -1 : 0;
	if (fflush(f) || fsync(fd))
		ret = -1;
	if (fclose(f))
		ret = -1;
	if (ret) {
		int e = errno ? errno : EIO;

		snprintf(err, errlen, "%s/%s: %s", p->abs, name, strerror(e));
		unlinkat(p->dfd, p->base, 0);
		return -e;
	}
	if (renameat(p->dfd, p->base, p->dfd, name)) {
		int e = errno;

		snprintf(err, errlen, "%s/%s: %s", p->abs, name, strerror(e));
		unlinkat(p->dfd, p->base, 0);
		return -e;
	}
	return 0;
}

int czs_keep_unstored(const json_t *doc, const char *uuid, const char *store, char *path, size_t plen,
		      char *err, size_t errlen)
{
	struct czs_path p;
	char dir[4096], file[4200], why[512] = "", name[64], line[1100];
	int ret;

	czs_unstored_dir(dir, sizeof(dir));
	snprintf(file, sizeof(file), "%s/%s.json", dir, uuid);
	ret = czs_path_dir(file, true, true, &p, why, sizeof(why));
	if (ret) {
		snprintf(err, errlen, "%s: %s", dir, why[0] ? why : strerror(-ret));
		return ret;
	}
	snprintf(name, sizeof(name), "%s.store", uuid);
	snprintf(line, sizeof(line), "%s\n", store);
	ret = write_new(&p, name, NULL, line, err, errlen);
	if (!ret) {
		snprintf(name, sizeof(name), "%s.json", uuid);
		ret = write_new(&p, name, doc, NULL, err, errlen);
		if (ret) {
			snprintf(name, sizeof(name), "%s.store", uuid);
			unlinkat(p.dfd, name, 0);
		}
	}
	if (!ret)
		snprintf(path, plen, "%s/%s.json", p.abs, uuid);
	czs_path_free(&p);
	return ret;
}
