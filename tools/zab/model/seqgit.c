/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kernel = and git = (sequence.h): a file from several kernel trees, or
 * from the commits of a git range, and what they share: running a program
 * for its output and a tree's kernel version (the blob cache they
 * write to: blob.c).  git is the engine for history (git log, git cat-file): nothing
 * here reads a repository itself.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "child.h"
#include "cli.h"
#include "ksrc.h"
#include "sequence.h"
#include "util.h"

/* Debian's trees as scripts/kernel-sources.sh unpacks them: VERSION/linux-source-VERSION */
#define KSRC_TREES "/var/cache/cusezero-ksrc/*/linux-source-*"

int zab_run_capture(const char *const *argv, char **out, size_t *len, char *errline,
		    size_t errlen)
{
	struct cz_child c = { .argv = argv, .flags = CZ_CHILD_OUT | CZ_CHILD_ERR | CZ_CHILD_NULL_IN };
	int ret = cz_child_run(&c);

	snprintf(errline, errlen, "%s", c.err);
	*out = c.out ? c.out : cz_xstrdup("");
	*len = c.len;
	return ret;
}

/* ---- kernel versions ------------------------------------------------------- */

static char *read_small(const char *path, size_t *len, const char **kind);

/* "KEY = VALUE" at a line start of a Makefile: VALUE (malloc'd), or NULL. */
static char *mk_value(const char *text, const char *key)
{
	size_t kl = strlen(key);
	const char *p;

	for (p = text; *p; p += strcspn(p, "\n"), p += *p == '\n') {
		const char *q = p + kl;

		if (strncmp(p, key, kl) || (*q != ' ' && *q != '\t' && *q != '='))
			continue;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q != '=')
			continue;
		q++;
		while (*q == ' ' || *q == '\t')
			q++;
		return cz_xasprintf("%.*s", (int)strcspn(q, " \t\n#"), q);
	}
	return NULL;
}

char *zab_makefile_version(const char *text)
{
	char *v = mk_value(text, "VERSION"), *p = mk_value(text, "PATCHLEVEL");
	char *s = mk_value(text, "SUBLEVEL"), *e = mk_value(text, "EXTRAVERSION"), *out = NULL;

	/* the kernel's KERNELVERSION: V[.P[.S]]EXTRA */
	if (v && *v && isdigit((unsigned char)*v) && p && *p)
		out = cz_xasprintf("%s.%s%s%s%s", v, p, s && *s ? "." : "", s && *s ? s : "",
				   e ? e : "");
	free(v);
	free(p);
	free(s);
	free(e);
	return out;
}

/* "linux-source-6.12" or "linux-6.12.48" (a tarball's ".tar.xz" off): the version, or NULL. */
static char *name_version(const char *name)
{
	const char *v = !strncmp(name, "linux-source-", 13) ? name + 13 :
			!strncmp(name, "linux-", 6) ? name + 6 : NULL;
	size_t n;

	if (!v || !isdigit((unsigned char)*v))
		return NULL;
	n = strcspn(v, "/");
	if (strstr(v, ".tar") && (size_t)(strstr(v, ".tar") - v) < n)
		n = (size_t)(strstr(v, ".tar") - v);
	return cz_xasprintf("%.*s", (int)n, v);
}

char *zab_tree_version(const char *path)
{
	char dir[PATH_MAX], *slash, *text, *v = NULL;
	size_t len;

	snprintf(dir, sizeof(dir), "%s", path);
	while (!v && (slash = strrchr(dir, '/')) && slash > dir) {
		*slash = 0;
		char *mk = cz_xasprintf("%s/Makefile", dir);
		const char *kind;

		text = read_small(mk, &len, &kind);
		free(mk);
		if (text) {
			v = zab_makefile_version(text);
			free(text);
		}
		slash = strrchr(dir, '/');
		if (!v && slash)
			v = name_version(slash + 1);
	}
	return v;
}

/* ---- kernel = ---------------------------------------------------------------- */

struct tree {
	char *root, *version;
};

/* The trees zab knows by version: $CUSEZERO_KERNEL_SOURCES, then scripts/kernel-sources.sh's. */
static size_t known_trees(struct tree **out)
{
	const char *env = getenv("CUSEZERO_KERNEL_SOURCES");
	char *copy = cz_xstrdup(env ? env : ""), *w, *save = NULL;
	struct tree *t = NULL;
	size_t n = 0, i;
	glob_t g;

	for (w = strtok_r(copy, " \t\n:", &save); w; w = strtok_r(NULL, " \t\n:", &save)) {
		char *probe = cz_xasprintf("%s/x", w);

		t = cz_xrealloc(t, (n + 1) * sizeof(*t));
		t[n].root = cz_xstrdup(w);
		t[n].version = zab_tree_version(probe);
		free(probe);
		if (t[n].version)
			n++;
		else
			free(t[n].root);
	}
	free(copy);
	if (!glob(KSRC_TREES, 0, NULL, &g)) {
		for (i = 0; i < g.gl_pathc; i++) {
			char *probe = cz_xasprintf("%s/x", g.gl_pathv[i]);

			t = cz_xrealloc(t, (n + 1) * sizeof(*t));
			t[n].root = cz_xstrdup(g.gl_pathv[i]);
			t[n].version = zab_tree_version(probe);
			free(probe);
			if (t[n].version)
				n++;
			else
				free(t[n].root);
		}
		globfree(&g);
	}
	*out = t;
	return n;
}

static void trees_free(struct tree *t, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(t[i].root);
		free(t[i].version);
	}
	free(t);
}

/* Whether tree version v is what the user asked for: 6.1 is 6.1, 6.1.0 or 6.1.158, not 6.12. */
static bool version_is(const char *v, const char *want)
{
	size_t n = strlen(want);

	return !strncmp(v, want, n) && (!v[n] || v[n] == '.' || v[n] == '-');
}

const char *zab_file_kind(mode_t mode)
{
	return S_ISREG(mode) ? "a regular file" : S_ISDIR(mode) ? "a folder" :
	       S_ISLNK(mode) ? "a symbolic link" : S_ISFIFO(mode) ? "a FIFO" :
	       S_ISSOCK(mode) ? "a socket" : S_ISBLK(mode) ? "a block device" :
	       S_ISCHR(mode) ? "a character device" : "not a regular file";
}

int zab_open_regular(const char *path, const char **kind)
{
	/* O_NONBLOCK: opening a FIFO does not wait for a writer; cleared for the reads */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), fl;
	struct stat st;

	*kind = NULL;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st)) {
		fl = errno;
		close(fd);
		errno = fl;
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		*kind = zab_file_kind(st.st_mode);
		close(fd);
		errno = EINVAL;
		return -1;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

/* The whole of a regular file (at most 64 MiB), NUL-ended, or NULL (*kind: what it is instead). */
int zab_read_regular(const char *path, size_t max, char **out, size_t *len, const char **kind)
{
	int fd = zab_open_regular(path, kind), err;
	size_t cap = 65536, n = 0;
	ssize_t got;
	char *buf;

	if (fd < 0)
		return -errno;
	buf = cz_xmalloc(cap);
	while ((got = read(fd, buf + n, cap - n - 1)) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 || (n += (size_t)got) > max) {
			err = got < 0 ? -errno : -EFBIG;
			close(fd);
			free(buf);
			return err;
		}
		if (n + 1 == cap)
			buf = cz_xrealloc(buf, cap *= 2);
	}
	close(fd);
	buf[n] = 0;
	*out = buf;
	*len = n;
	return 0;
}

/* A file of a tree (at most 64 MiB), or NULL with errno (EINVAL: *kind says what it is). */
static char *read_small(const char *path, size_t *len, const char **kind)
{
	char *buf;
	int ret = zab_read_regular(path, 64u << 20, &buf, len, kind);

	if (ret) {
		errno = -ret;
		return NULL;
	}
	return buf;
}

/*
 * tar -xvv's listing of the members it matched: 0, or -1 after one line
 * naming the first that is not a regular file, and its type.
 */
static int tar_members(const char *tb, const char *list, const char *where)
{
	static const char types[] = "-hldpbcs";
	static const char *const names[] = {
		"a regular file", "a hard link", "a symbolic link", "a folder", "a FIFO",
		"a block device", "a character device", "a socket",
	};
	const char *p, *name, *end, *arrow;
	int f;

	for (p = list; *p; p += strcspn(p, "\n"), p += *p == '\n') {
		if (*p == '-' || *p == '\n')
			continue;
		/* TYPE+MODE OWNER SIZE DATE TIME NAME: the name after five fields */
		for (name = p, f = 0; f < 5 && *name && *name != '\n'; f++)
			name += strcspn(name, " \n"), name += strspn(name, " ");
		end = name + strcspn(name, "\n");
		/* "NAME -> TARGET", "NAME link to TARGET": the name */
		arrow = *p == 'l' || *p == 'h' ? strstr(name, *p == 'l' ? " -> " : " link to ") : NULL;
		if (arrow && arrow < end)
			end = arrow;
		cz_err("%s: kernel tarball %s: member %.*s is %s: only regular files are taken", where, tb,
		       (int)(end - name), name,
		       strchr(types, *p) ? names[strchr(types, *p) - types] : "not a regular file");
		return -1;
	}
	return 0;
}

/*
 * A tarball (a kernel tree under one top folder): rel and the top Makefile
 * taken out in one pass (tar reads a compressed tarball from the start
 * for each), through tar's --to-command so that only regular files become
 * files (tar makes no link, node or FIFO); any other member that matched
 * is refused by name.  rel into the blob cache; the version from the
 * Makefile, else from the tarball's name.
 */
static int from_tarball(const char *tb, const char *rel, const char *where, struct zab_seq_step *st)
{
	const char *tmp = getenv("TMPDIR"), *kind = NULL;
	char dir[PATH_MAX - 256], err[512], *pat = cz_xasprintf("*/%s", rel), *out = NULL, *data;
	char *src, *mk, *more;
	/* each regular member to src (rel) or mk (the top Makefile); a second one to *.more */
	const char *to = "case ${TAR_FILENAME#*/} in \"$ZAB_TAR_REL\") f=src;; *) f=mk;; esac; "
			 "[ -e \"$ZAB_TAR_DIR/$f\" ] && f=$f.more; exec cat >\"$ZAB_TAR_DIR/$f\"";
	const char *x[] = { "tar", "-xvvf", tb, "--to-command", to, "--wildcards",
			    "--no-wildcards-match-slash", pat, "*/Makefile", NULL };
	size_t len;
	int ret;

	snprintf(dir, sizeof(dir), "%s/zab-tar.XXXXXX", tmp && *tmp == '/' ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		cz_err("%s: kernel tarball %s: a private folder: %s", where, tb, strerror(errno));
		free(pat);
		return -1;
	}
	setenv("ZAB_TAR_DIR", dir, 1);
	setenv("ZAB_TAR_REL", rel, 1);
	ret = zab_run_capture(x, &out, &len, err, sizeof(err));
	unsetenv("ZAB_TAR_DIR");
	unsetenv("ZAB_TAR_REL");
	src = cz_xasprintf("%s/src", dir);
	mk = cz_xasprintf("%s/mk", dir);
	more = cz_xasprintf("%s/src.more", dir);
	if (tar_members(tb, out, where)) {
		ret = -1;
	} else if (access(src, F_OK)) {
		cz_err("%s: kernel tarball %s: %s", where, tb,
		       ret && err[0] ? err : "no such file in it (under one top folder)");
		ret = -1;
	} else if (!access(more, F_OK)) {
		cz_err("%s: kernel tarball %s: %s under more than one top folder", where, tb, rel);
		ret = -1;
	} else if (!(data = read_small(src, &len, &kind))) {
		cz_err("%s: kernel tarball %s: %s: %s", where, tb, rel, kind ? kind : strerror(errno));
		ret = -1;
	} else {
		ret = zab_blob_put(data, len, rel, &st->source);
		free(data);
		data = read_small(mk, &len, &kind);
		st->kversion = data ? zab_makefile_version(data) : NULL;
		free(data);
		if (!st->kversion)
			st->kversion = name_version(strrchr(tb, '/') ? strrchr(tb, '/') + 1 : tb);
	}
	free(out);
	free(src);
	free(mk);
	free(more);
	free(pat);
	{
		const char *rm[] = { "rm", "-rf", "--", dir, NULL };

		zab_run_capture(rm, &out, &len, err, sizeof(err));
		free(out);
	}
	return ret ? -1 : 0;
}

/* One token of kernel =: a version zab knows, a tree or a tarball by path. */
static int kernel_step(const char *tok, const char *rel, const char *where,
		       const struct tree *t, size_t nt, struct zab_seq_step *st)
{
	struct stat sb;
	size_t i;

	if (strchr(tok, '/') || !stat(tok, &sb)) {
		char *abs = realpath(tok, NULL);

		if (!abs || stat(abs, &sb)) {
			cz_err("%s: kernel %s: %s", where, tok, strerror(errno));
			free(abs);
			return -1;
		}
		if (!S_ISDIR(sb.st_mode) && !S_ISREG(sb.st_mode)) {
			cz_err("%s: kernel %s: %s, not a tree or a tarball", where, tok,
			       zab_file_kind(sb.st_mode));
			free(abs);
			return -1;
		}
		if (!S_ISDIR(sb.st_mode)) {
			int ret = from_tarball(abs, rel, where, st);

			free(abs);
			return ret;
		}
		st->source = cz_xasprintf("%s/%s", abs, rel);
		free(abs);
	} else {
		/* v6.12, as kernel developers and the kernel's git tags write it, is 6.12 */
		const char *v = tok[0] == 'v' && isdigit((unsigned char)tok[1]) ? tok + 1 : tok;

		for (i = 0; i < nt && !version_is(t[i].version, v); i++)
			;
		if (i == nt) {
			char list[1024] = "";
			size_t n = 0;

			for (i = 0; i < nt && n + 8 < sizeof(list); i++)
				n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", i ? " " : "",
						      t[i].version);
			cz_err("%s: kernel %s: no tree of that version (trees here: %s; more from CUSEZERO_KERNEL_SOURCES=ROOTS or scripts/kernel-sources.sh, or name a tree or tarball by path)",
			       where, tok, nt ? list : "none");
			return -1;
		}
		st->source = cz_xasprintf("%s/%s", t[i].root, rel);
		st->kversion = cz_xstrdup(t[i].version);
	}
	if (access(st->source, R_OK) || stat(st->source, &sb)) {
		cz_err("%s: kernel %s: %s: %s", where, tok, st->source, strerror(errno));
		return -1;
	}
	if (!S_ISREG(sb.st_mode)) {
		cz_err("%s: kernel %s: %s: %s, not a regular file", where, tok, st->source,
		       zab_file_kind(sb.st_mode));
		return -1;
	}
	if (!st->kversion)
		st->kversion = zab_tree_version(st->source);
	if (!st->kversion) {
		cz_err("%s: kernel %s: its version is not known (no top Makefile with VERSION and PATCHLEVEL, no linux-source-V or linux-V folder)",
		       where, tok);
		return -1;
	}
	return 0;
}

static int cmp_step(const void *a, const void *b)
{
	return strverscmp(((const struct zab_seq_step *)a)->kversion,
			  ((const struct zab_seq_step *)b)->kversion);
}

int zab_seq_kernel(const char *tokens, const char *rel, const char *where, size_t max,
		   struct zab_seq *s)
{
	struct tree *t = NULL;
	size_t nt, i, nw = 0;
	char *copy = cz_xstrdup(tokens), *w, *save = NULL;
	int ret = 0;

	for (w = copy + strspn(copy, " \t"); *w; w += strcspn(w, " \t"), w += strspn(w, " \t"))
		nw++;
	if (nw > max) {
		cz_err("%s: kernel = %zu trees: %zu steps, room for %zu here (an experiment holds %d variants at most)",
		       where, nw, nw, max, CZRES_MAX_ITEMS);
		free(copy);
		return -1;
	}
	nt = known_trees(&t);

	while (*rel == '/')
		rel++;
	for (w = strtok_r(copy, " \t", &save); w && !ret; w = strtok_r(NULL, " \t", &save)) {
		s->step = cz_xrealloc(s->step, (s->nstep + 1) * sizeof(*s->step));
		memset(&s->step[s->nstep], 0, sizeof(*s->step));
		ret = kernel_step(w, rel, where, t, nt, &s->step[s->nstep++]);
	}
	free(copy);
	trees_free(t, nt);
	if (ret)
		return -1;
	if (s->nstep < 2) {
		cz_err("%s: kernel = %s: name two trees or more", where, tokens);
		return -1;
	}
	qsort(s->step, s->nstep, sizeof(*s->step), cmp_step);
	for (i = 0; i < s->nstep; i++)
		s->step[i].label = cz_xstrdup(s->step[i].kversion);
	return 0;
}

/* ---- git = -------------------------------------------------------------------- */

/*
 * What git runs of a repository's configuration is kept off: no transport
 * at all (a partial clone's lazy fetch would run core.sshCommand or a
 * remote helper), no fsmonitor; log.showSignature (gpg.program) is off by
 * --no-show-signature, textconv and filters by reading blobs with cat-file,
 * a pager by output to a pipe; safe.directory refuses others' repositories.
 */
#define GIT_SAFE "-c", "protocol.allow=never", "-c", "core.fsmonitor=false"

/* git -C repo ARGS...: its output, or NULL after one line naming what failed. */
static char *git(const char *repo, const char *where, const char *what, const char *a1,
		 const char *a2, const char *a3, const char *a4, const char *a5, size_t *len)
{
	const char *argv[] = { "git", GIT_SAFE, "-C", repo, a1, a2, a3, a4, a5, NULL };
	char err[512], *out = NULL;
	size_t n;
	int ret = zab_run_capture(argv, &out, len ? len : &n, err, sizeof(err));

	if (!ret)
		return out;
	free(out);
	if (what)
		cz_err("%s: git = %s: %s%s%s", where, repo, what, err[0] ? ": " : "",
		       err[0] ? err : "");
	return NULL;
}

/* The file at commit h into the cache, with the version of its tree there. */
static int git_step(const char *repo, const char *h, const char *rel, const char *where,
		    struct zab_seq_step *st)
{
	char *spec = cz_xasprintf("%s:%s", h, rel), *what, *data, *mk;
	size_t len;
	int ret;

	what = cz_xasprintf("%s is not in the repository at %.12s", rel, h);
	/* cat-file: the blob as stored (git show could run a textconv driver) */
	data = git(repo, where, what, "cat-file", "blob", spec, NULL, NULL, &len);
	free(what);
	free(spec);
	if (!data)
		return -1;
	ret = zab_blob_put(data, len, rel, &st->source);
	free(data);
	spec = cz_xasprintf("%s:Makefile", h);
	mk = git(repo, where, NULL, "cat-file", "blob", spec, NULL, NULL, NULL);
	free(spec);
	st->kversion = mk ? zab_makefile_version(mk) : NULL;
	free(mk);
	st->commit = cz_xstrdup(h);
	return ret;
}

static struct zab_seq_step *git_add(struct zab_seq *s)
{
	s->step = cz_xrealloc(s->step, (s->nstep + 1) * sizeof(*s->step));
	memset(&s->step[s->nstep], 0, sizeof(*s->step));
	return &s->step[s->nstep++];
}

/* How many records git log wrote (one a line). */
static size_t git_log_count(const char *log, size_t len)
{
	size_t n = 0, i;

	for (i = 0; i < len; i++)
		n += log[i] == '\n';
	return n + (len && log[len - 1] != '\n');
}

/* git log's "HASH\0ABBREV\0SUBJECT\n" records (len bytes) into steps after the base. */
static int git_log_steps(const char *repo, const char *log, size_t len, const char *rel,
			 const char *where, struct zab_seq *s)
{
	const char *p = log, *end = log + len, *h, *ab, *subj;
	int ret = 0;

	while (p < end && !ret) {
		struct zab_seq_step *st;

		h = p;
		ab = memchr(h, 0, (size_t)(end - h));
		subj = ab ? memchr(ab + 1, 0, (size_t)(end - ab - 1)) : NULL;
		if (!ab || !subj) {
			cz_err("%s: git log: a line not HASH ABBREV SUBJECT", where);
			return -1;
		}
		ab++;
		subj++;
		p = memchr(subj, '\n', (size_t)(end - subj));
		p = p ? p + 1 : end;
		st = git_add(s);
		ret = git_step(repo, h, rel, where, st);
		st->label = cz_xasprintf("%s %.*s", ab, (int)strcspn(subj, "\n"), subj);
	}
	return ret;
}

int zab_seq_git(const char *spec, const char *rel, const char *where, size_t max,
		struct zab_seq *s)
{
	char repo[PATH_MAX], range[512], *a, *b, *ha, *hb, *log, *what, *r;
	struct zab_seq_step *st;
	size_t len;
	int ret, end = 0;

	if (sscanf(spec, "%4095s %511s%n", repo, range, &end) != 2 || !(r = strstr(range, "..")) ||
	    r == range || strstr(r + 2, "..") || r[2] == '.' || spec[end + strspn(spec + end, " \t")]) {
		cz_err("%s: git = %s: expected git = REPOSITORY A..B%s", where, spec,
		       strstr(range, "...") ? " (a symmetric range A...B is no sequence)" :
		       spec[end + strspn(spec + end, " \t")] ? ", and nothing after it" : "");
		return -1;
	}
	while (*rel == '/')
		rel++;
	a = cz_xasprintf("%.*s^{commit}", (int)(r - range), range);
	b = cz_xasprintf("%s^{commit}", r[2] ? r + 2 : "HEAD");
	what = cz_xasprintf("%.*s is not a commit of it", (int)strlen(a) - 9, a);
	ha = git(repo, where, what, "rev-parse", "--verify", "--end-of-options", a, NULL, NULL);
	free(what);
	what = cz_xasprintf("%.*s is not a commit of it", (int)strlen(b) - 9, b);
	hb = !ha ? NULL :
	     git(repo, where, what, "rev-parse", "--verify", "--end-of-options", b, NULL, NULL);
	free(what);
	free(a);
	free(b);
	if (!ha || !hb) {
		free(ha);
		return -1;
	}
	ha[strcspn(ha, "\n")] = 0;
	hb[strcspn(hb, "\n")] = 0;
	st = git_add(s);
	ret = git_step(repo, ha, rel, where, st);
	if (!ret) {
		/* --no-show-signature: log.showSignature would run the repository's gpg.program */
		log = git(repo, where, "git log", "log", "--no-show-signature", "-1", "--format=%h %s",
			  ha, NULL);
		st->label = log ? cz_xasprintf("%.*s", (int)strcspn(log, "\n"), log) : cz_xstrdup(ha);
		free(log);
		range[0] = 0;
		snprintf(range, sizeof(range), "%s..%s", ha, hb);
		{
			const char *argv[] = { "git", GIT_SAFE, "-C", repo, "log", "--no-show-signature",
					       "--reverse", "--format=%H%x00%h%x00%s", range, "--", rel,
					       NULL };
			char err[512];

			ret = zab_run_capture(argv, &log, &len, err, sizeof(err));
			if (ret)
				cz_err("%s: git = %s: git log: %s", where, spec, err);
		}
		if (!ret && git_log_count(log, len) + 1 > max) {
			cz_err("%s: git = %s: %zu commits change %s: %zu steps, room for %zu here (an experiment holds %d variants at most)",
			       where, spec, git_log_count(log, len), rel, git_log_count(log, len) + 1, max,
			       CZRES_MAX_ITEMS);
			ret = -1;
		}
		if (!ret)
			ret = git_log_steps(repo, log, len, rel, where, s);
		free(log);
	}
	free(ha);
	free(hb);
	if (!ret && s->nstep < 2) {
		cz_err("%s: git = %s: no commit of the range changes %s", where, spec, rel);
		return -1;
	}
	return ret ? -1 : 0;
}
