/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zero_kpath_pick(): the tree a running kernel is resolved with (kpath.h):
 * its own major.minor's tree when the folder holds one, else the newest
 * release below it -- the nearest the folder has of the code it runs.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kpath.h"

#define PICK_MAX_CANDIDATES 64

struct pick_cand {
	char tree[4096];
	char release[32];
	unsigned v[3];
};

/* "6.18.44-fc-v1300" -> {6, 18, 44}; the parts absent are 0.  False without a major.minor. */
bool zero_kpath_version(const char *s, unsigned v[3])
{
	int n;

	v[0] = v[1] = v[2] = 0;
	n = sscanf(s, "%u.%u.%u", &v[0], &v[1], &v[2]);
	return n >= 2;
}

static int vcmp(const unsigned a[3], const unsigned b[3])
{
	int i;

	for (i = 0; i < 3; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

static bool is_tree(const char *path)
{
	char mk[4224];
	struct stat st;

	snprintf(mk, sizeof(mk), "%s/Makefile", path);
	return !stat(mk, &st) && S_ISREG(st.st_mode);
}

/* path if it is a tree with a release; else nothing.  Keeps at most PICK_MAX_CANDIDATES. */
static void add(struct pick_cand *c, size_t *n, const char *path)
{
	char err[512];

	if (*n == PICK_MAX_CANDIDATES || !is_tree(path) || strlen(path) >= sizeof(c->tree))
		return;
	if (zero_kpath_release(path, c[*n].release, sizeof(c->release), err, sizeof(err)) ||
	    !zero_kpath_version(c[*n].release, c[*n].v))
		return;
	snprintf(c[*n].tree, sizeof(c->tree), "%s", path);
	(*n)++;
}

/* Every tree in dir and one level below (VERSION/linux-source-*), in no order. */
static void scan(const char *dir, struct pick_cand *c, size_t *n, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char sub[4200];

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name);
		if (is_tree(sub))
			add(c, n, sub);
		else if (depth < 1)
			scan(sub, c, n, depth + 1);
	}
	closedir(d);
}

static const struct pick_cand *choose(const struct pick_cand *c, size_t n, const unsigned run[3])
{
	const struct pick_cand *own = NULL, *below = NULL;
	size_t i;

	for (i = 0; i < n; i++) {
		if (c[i].v[0] == run[0] && c[i].v[1] == run[1]) {
			if (!own || vcmp(c[i].v, own->v) > 0)
				own = &c[i];
		} else if (vcmp(c[i].v, run) < 0 && (!below || vcmp(c[i].v, below->v) > 0)) {
			below = &c[i];
		}
	}
	return own ? own : below;
}

int zero_kpath_pick(const char *dir, const char *running, struct zero_kpath_pick *p, char *err,
		    size_t errlen)
{
	return zero_kpath_pick_dirs(&dir, 1, dir, running, p, err, errlen);
}

int zero_kpath_pick_dirs(const char *const *dirs, size_t ndirs, const char *where,
			 const char *running, struct zero_kpath_pick *p, char *err, size_t errlen)
{
	struct pick_cand *c;
	const struct pick_cand *best;
	unsigned run[3];
	size_t n = 0, i;

	memset(p, 0, sizeof(*p));
	if (!zero_kpath_version(running, run)) {
		snprintf(err, errlen, "kernel release '%s': no MAJOR.MINOR in it", running);
		return -EINVAL;
	}
	if (!(c = calloc(PICK_MAX_CANDIDATES, sizeof(*c)))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < ndirs; i++) {
		if (is_tree(dirs[i]))
			add(c, &n, dirs[i]);
		else
			scan(dirs[i], c, &n, 0);
	}
	best = choose(c, n, run);
	if (!best) {
		snprintf(err, errlen, "no kernel tree of release %u.%u or below in %s (%zu tree%s read)",
			 run[0], run[1], where, n, n == 1 ? "" : "s");
		free(c);
		return -ENOENT;
	}
	snprintf(p->tree, sizeof(p->tree), "%s", best->tree);
	snprintf(p->release, sizeof(p->release), "%s", best->release);
	p->own = best->v[0] == run[0] && best->v[1] == run[1];
	if (p->own)
		snprintf(p->how, sizeof(p->how), "%s's own tree (%s)", running, best->release);
	else
		snprintf(p->how, sizeof(p->how), "%s, the nearest release at or below %s in %s "
			 "(no %u.%u tree)", best->release, running, where, run[0], run[1]);
	free(c);
	return 0;
}
