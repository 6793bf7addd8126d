/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * series = FILE (sequence.h): the patches of a quilt series file (one
 * patch name a line, names relative to the file's folder, '#' comments,
 * options such as -p1 after the name), of a folder of git format-patch
 * output (NNNN-*.patch in name order, the 0000 cover letter left out; a
 * folder holding a "series" file is quilt's), or of an mbox (messages
 * starting at "From " lines; the ones without a diff, such as a cover
 * letter, left out; ordered by their [PATCH k/N] numbers when every one
 * has them), each message written to the blob cache as format-patch would
 * name it.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "sequence.h"

#define SERIES_FILE_MAX (64u << 20)

/* A series file, patch or mbox (zab_read_regular): 0 or -errno (-EINVAL: *kind says what it is). */
static int slurp(const char *path, char **out, size_t *len, const char **kind)
{
	return zab_read_regular(path, SERIES_FILE_MAX, out, len, kind);
}

/* Why slurp failed: what the file is instead of a regular one, or the error. */
static const char *why(int err, const char *kind)
{
	return err == -EINVAL && kind ? kind : strerror(-err);
}

/* Leading "[PATCH v2 3/7]"-like groups and blanks off s. */
static const char *strip_tags(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '[') {
		if (*s == '[') {
			const char *e = strchr(s, ']');

			if (!e)
				break;
			s = e + 1;
		} else {
			s++;
		}
	}
	return s;
}

char *zab_patch_subject(const char *text, const char *name)
{
	const char *p = text, *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	char *out = NULL;

	/* the mail header's Subject:, folded lines joined */
	for (p = text; *p && *p != '\n'; p += strcspn(p, "\n"), p += *p == '\n') {
		if (strncasecmp(p, "Subject:", 8))
			continue;
		out = cz_xasprintf("%.*s", (int)strcspn(p + 8, "\n"), p + 8);
		for (p += strcspn(p, "\n"); p[0] == '\n' && (p[1] == ' ' || p[1] == '\t'); ) {
			char *t = cz_xasprintf("%s %.*s", out, (int)strcspn(p + 2, "\n"), p + 2);

			free(out);
			out = t;
			p += 1 + strcspn(p + 1, "\n");
		}
		break;
	}
	/* else a quilt patch's description: its first line before the diff */
	for (p = text; !out && *p; p += strcspn(p, "\n"), p += *p == '\n') {
		size_t n = strcspn(p, "\n");

		if (!strncmp(p, "Index:", 6) || !strncmp(p, "diff ", 5) || !strncmp(p, "--- ", 4) ||
		    !strncmp(p, "===", 3))
			break;
		if (n && !isspace((unsigned char)*p) && strncmp(p, "From ", 5) && !strchr("-+@", *p))
			out = cz_xasprintf("%.*s", (int)n, p);
	}
	if (!out) {   /* else the name, without "0001-" and ".patch" */
		const char *s = base;
		size_t n;

		while (isdigit((unsigned char)*s))
			s++;
		s = *s == '-' && s > base ? s + 1 : base;
		n = strlen(s);
		if (n > 6 && !strcmp(s + n - 6, ".patch"))
			n -= 6;
		out = cz_xasprintf("%.*s", (int)n, s);
	}
	{
		/* data shown on one line: control characters written as \xNN */
		char *t = zab_seq_escape(strip_tags(out));
		size_t n = strlen(t);

		while (n && isspace((unsigned char)t[n - 1]))
			t[--n] = 0;
		free(out);
		return t;
	}
}

/* A diff in the text: a "--- " line followed by a "+++ " line. */
static bool has_diff(const char *text)
{
	const char *p = text;

	while ((p = strstr(p, "--- ")) != NULL) {
		const char *nl = strchr(p, '\n');

		if ((p == text || p[-1] == '\n') && nl && !strncmp(nl + 1, "+++ ", 4))
			return true;
		p += 4;
	}
	return false;
}

/* Whether a diff header's name ("b/arch/x86/lib/x.S", up to a tab) is a trailing part of file. */
static bool names_file(const char *name, const char *file)
{
	size_t n = strcspn(name, "\t\n"), fl = strlen(file);
	const char *rel = n > 2 && name[1] == '/' ? name + 2 : name;
	size_t rn = n - (size_t)(rel - name);

	/* as zeroing/ksrc_build.c's patch_part() picks the part of a patch to apply */
	return rn && fl >= rn && !strncmp(file + fl - rn, rel, rn) &&
	       (fl == rn || file[fl - rn - 1] == '/');
}

int zab_patch_touches(const char *text, const char *file)
{
	const char *p, *next;
	int touch = ZAB_PATCH_NONE;

	for (p = text; *p; p = next) {
		next = p + strcspn(p, "\n");
		next += *next == '\n';
		if (strncmp(p, "--- ", 4) || strncmp(next, "+++ ", 4))
			continue;
		if (names_file(next + 4, file))
			touch = touch == ZAB_PATCH_NONE ? ZAB_PATCH_CHANGES : touch;
		else if (names_file(p + 4, file) && !strncmp(next + 4, "/dev/null", 9))
			touch = ZAB_PATCH_DELETES;
	}
	return touch;
}

static int add_patch(struct zab_seq_patch **out, size_t *n, const char *path, const char *text,
		     const char *file)
{
	char *abs = realpath(path, NULL);

	*out = cz_xrealloc(*out, (*n + 1) * sizeof(**out));
	(*out)[*n].path = abs ? abs : cz_xstrdup(path);
	(*out)[*n].subject = zab_patch_subject(text, path);
	(*out)[*n].touch = zab_patch_touches(text, file);
	++*n;
	return 0;
}

/* A patch file of a series: read, checked to hold a diff, added. */
static int add_file(struct zab_seq_patch **out, size_t *n, const char *path, const char *where,
		    const char *file)
{
	const char *kind;
	char *text;
	size_t len;
	int ret = slurp(path, &text, &len, &kind);

	if (ret) {
		cz_err("%s: patch %s: %s", where, path, why(ret, kind));
		return -1;
	}
	if (!has_diff(text) || memchr(text, 0, len)) {
		cz_err("%s: %s is not a patch (no unified diff in it)", where, path);
		free(text);
		return -1;
	}
	add_patch(out, n, path, text, file);
	free(text);
	return 0;
}

/* quilt: one patch a line, relative to the series file's folder. */
static int read_quilt(const char *file, const char *text, const char *src,
		      struct zab_seq_patch **out, size_t *n)
{
	const char *slash = strrchr(file, '/'), *p;
	char where[PATH_MAX + 32], *path;
	int line = 0, ret = 0;

	for (p = text; *p && !ret; p += strcspn(p, "\n"), p += *p == '\n') {
		size_t len = strcspn(p, "\n"), w;

		line++;
		while (len && (*p == ' ' || *p == '\t'))
			p++, len--;
		if (!len || *p == '#')
			continue;
		w = strcspn(p, " \t\n#");
		snprintf(where, sizeof(where), "%s:%d", file, line);
		path = p[0] == '/' ? cz_xasprintf("%.*s", (int)w, p) :
		       cz_xasprintf("%.*s%.*s", slash ? (int)(slash - file + 1) : 0, file, (int)w, p);
		ret = add_file(out, n, path, where, src);
		free(path);
	}
	if (!ret && !*n) {
		cz_err("%s: no patch named in this series file", file);
		return -1;
	}
	return ret;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A folder of format-patch output: NNNN-*.patch, in name order, without 0000-*. */
static int read_folder(const char *dir, const char *src, struct zab_seq_patch **out, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL, *path;
	size_t nn = 0, i, len;
	int ret = 0;

	if (!d) {
		cz_err("series %s: %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		len = strlen(de->d_name);
		if (len < 11 || strcmp(de->d_name + len - 6, ".patch") || de->d_name[4] != '-' ||
		    strspn(de->d_name, "0123456789") != 4 || !strncmp(de->d_name, "0000", 4))
			continue;
		if (!zab_seq_plain_name(de->d_name) && !ret) {
			/* a name is data: never experiment text or a daemon argument */
			char *e = zab_seq_escape(de->d_name);

			cz_err("series %s: patch file name '%s' has a blank or control character: rename it",
			       dir, e);
			free(e);
			ret = -1;
		}
		names = cz_xrealloc(names, (nn + 1) * sizeof(*names));
		names[nn++] = cz_xstrdup(de->d_name);
	}
	closedir(d);
	if (nn)
		qsort(names, nn, sizeof(*names), cmp_names);
	for (i = 0; i < nn; i++) {
		path = cz_xasprintf("%s/%s", dir, names[i]);
		if (!ret)
			ret = add_file(out, n, path, dir, src);
		free(path);
		free(names[i]);
	}
	free(names);
	if (ret)
		return -1;
	if (!nn) {
		cz_err("series %s: a folder with no series file and no NNNN-*.patch (git format-patch) in it",
		       dir);
		return -1;
	}
	return ret;
}

/* "[PATCH v2 3/7] ...": 3, or 0 when the subject has no k/N. */
static unsigned patch_number(const char *text)
{
	const char *s = strstr(text, "\nSubject:"), *e;
	unsigned k, total;

	if (!s)
		s = !strncasecmp(text, "Subject:", 8) ? text : NULL;
	if (!s)
		return 0;
	e = s + 1 + strcspn(s + 1, "\n");
	for (s = strchr(s, '['); s && s < e; s = strchr(s + 1, '['))
		for (const char *q = s; q < e && *q != ']'; q++)
			if (isdigit((unsigned char)*q) && (q == s || !isdigit((unsigned char)q[-1])) &&
			    sscanf(q, "%u/%u", &k, &total) == 2)
				return k;
	return 0;
}

/* format-patch's file name for a subject: 0001-words-joined-by-dashes.patch. */
static char *patch_name(size_t k, const char *subject)
{
	char slug[53];
	size_t n = 0;
	const char *s;

	for (s = subject; *s && n < sizeof(slug) - 1; s++) {
		if (isalnum((unsigned char)*s) || *s == '_' || *s == '.')
			slug[n++] = *s;
		else if (n && slug[n - 1] != '-')
			slug[n++] = '-';
	}
	while (n && (slug[n - 1] == '-' || slug[n - 1] == '.'))
		n--;
	slug[n] = 0;
	return cz_xasprintf("%04zu-%s.patch", k, n ? slug : "patch");
}

/* A "From " line opening a message: the next line is a header ("Name: value"). */
static bool separator(const char *line)
{
	const char *h = strchr(line, '\n');
	size_t n;

	if (!h)
		return false;
	h++;
	n = strspn(h, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-");
	return n && h[n] == ':' && (h[n + 1] == ' ' || h[n + 1] == '\t');
}

struct mail {
	const char *start;
	size_t len;
	unsigned num;
};

static int cmp_mail(const void *a, const void *b)
{
	const struct mail *x = a, *y = b;

	return x->num < y->num ? -1 : x->num > y->num;
}

/*
 * The messages of an mbox with a diff, split at "From " lines; counted
 * (too_many) before the ones that change src are written to the blob
 * cache (the others are kept by subject only: no step, no file).
 */
static int read_mbox(const char *file, char *text, size_t len, const char *src,
		     int (*too_many)(const struct zab_seq_patch *, size_t, const void *),
		     const void *arg, struct zab_seq_patch **out, size_t *n)
{
	struct mail *m = NULL;
	size_t nm = 0, cap = 0, i;
	bool numbered = true;
	char *p, *path;
	int ret = 0;

	for (p = text; p && *p; ) {
		char *next = p;

		/* the next "From " line that a header follows (not a body line "From ...") */
		while ((next = strstr(next + 1, "\nFrom ")) != NULL && !separator(next + 1))
			;
		next = next ? next + 1 : text + len;
		if (nm == cap)
			m = cz_xrealloc(m, (cap = cap ? 2 * cap : 64) * sizeof(*m));
		m[nm] = (struct mail){ p, (size_t)(next - p), 0 };
		p[m[nm].len - (*next ? 1 : 0)] = 0;   /* the blank line before "From " ends it */
		if (has_diff(p)) {
			m[nm].num = patch_number(p);
			numbered = numbered && m[nm].num;
			nm++;
		}
		p = *next ? next : NULL;
	}
	if (numbered && nm)
		qsort(m, nm, sizeof(*m), cmp_mail);
	*out = nm ? cz_xmalloc(nm * sizeof(**out)) : NULL;
	for (i = 0; i < nm; i++) {
		(*out)[i].path = NULL;
		(*out)[i].subject = zab_patch_subject(m[i].start, "patch");
		(*out)[i].touch = zab_patch_touches(m[i].start, src);
	}
	*n = nm;
	ret = nm ? too_many(*out, nm, arg) : 0;
	for (i = 0; i < nm && !ret; i++) {
		char *name;

		if ((*out)[i].touch == ZAB_PATCH_NONE)
			continue;
		name = patch_name(i + 1, (*out)[i].subject);
		ret = zab_blob_put(m[i].start, strlen(m[i].start), name, &path);
		(*out)[i].path = ret ? NULL : path;
		free(name);
	}
	free(m);
	if (!ret && !nm) {
		cz_err("series %s: an mbox with no patch in it (no message holds a unified diff)", file);
		return -1;
	}
	return ret ? -1 : 0;
}

struct limit {
	const char *where, *spec, *src;
	size_t max;
};

/* More patches changing src than the experiment has room for steps: refused, before any work. */
static int over_limit(const struct zab_seq_patch *p, size_t n, const void *arg)
{
	const struct limit *l = arg;
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		k += p[i].touch != ZAB_PATCH_NONE;
	if (k <= l->max)
		return 0;
	cz_err("%s: series %s: %zu of its %zu patches change %s: %zu steps, room for %zu here (an experiment holds %d variants at most)",
	       l->where, l->spec, k, n, l->src, k + 1, l->max + 1, CZRES_MAX_ITEMS);
	return -1;
}

static int series_read(const char *spec, const char *where, const char *src, size_t max,
		       struct zab_seq_patch **out, size_t *n)
{
	const struct limit lim = { where, spec, src, max };
	struct stat st;
	const char *kind;
	char *text, *series;
	size_t len;
	int ret;

	*out = NULL;
	*n = 0;
	if (stat(spec, &st)) {
		cz_err("%s: series %s: %s", where, spec, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		series = cz_xasprintf("%s/series", spec);
		if (access(series, F_OK)) {
			ret = read_folder(spec, src, out, n);
		} else if ((ret = slurp(series, &text, &len, &kind)) != 0) {
			cz_err("%s: series %s: %s", where, series, why(ret, kind));
		} else {
			ret = read_quilt(series, text, src, out, n);
			free(text);
		}
		free(series);
		if (!ret)
			ret = over_limit(*out, *n, &lim);
		if (ret)
			zab_series_free(*out, *n);
		return ret ? -1 : 0;
	}
	ret = slurp(spec, &text, &len, &kind);
	if (ret) {
		cz_err("%s: series %s: %s", where, spec, why(ret, kind));
		return -1;
	}
	if (memchr(text, 0, len)) {
		cz_err("%s: series %s: binary data (a NUL byte), not a series file, folder or mbox",
		       where, spec);
		ret = -1;
	} else if (!strncmp(text, "From ", 5)) {
		ret = read_mbox(spec, text, len, src, over_limit, &lim, out, n);
	} else if (has_diff(text)) {
		cz_err("%s: series %s: a patch, not a series (give a quilt series file, a format-patch folder or an mbox; one patch: patch =)",
		       where, spec);
		ret = -1;
	} else {
		ret = read_quilt(spec, text, src, out, n);
		if (!ret)
			ret = over_limit(*out, *n, &lim);
	}
	free(text);
	if (ret)
		zab_series_free(*out, *n);
	return ret ? -1 : 0;
}

/* The last component of a path. */
static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* A diff header's name without its a/ or b/ folder: its start, its length at *len. */
static const char *header_name(const char *name, size_t *len)
{
	size_t n = strcspn(name, "\t\n");

	*len = n > 2 && name[1] == '/' ? n - 2 : n;
	return n > 2 && name[1] == '/' ? name + 2 : name;
}

/*
 * The paths the diffs in text change (or delete) whose last component is
 * base: the first at *found (malloc'd), *count raised by each other path
 * (an ambiguous name: *count > 1).
 */
static void same_name(const char *text, const char *base, char **found, size_t *count)
{
	const char *p, *next, *name;
	size_t len, bl = strlen(base);

	for (p = text; *p; p = next) {
		next = p + strcspn(p, "\n");
		next += *next == '\n';
		if (strncmp(p, "--- ", 4) || strncmp(next, "+++ ", 4))
			continue;
		name = header_name(strncmp(next + 4, "/dev/null", 9) ? next + 4 : p + 4, &len);
		if (len < bl || strncmp(name + len - bl, base, bl) || (len > bl && name[len - bl - 1] != '/'))
			continue;
		if (!*found) {
			*found = cz_xasprintf("%.*s", (int)len, name);
			*count = 1;
		} else if (strlen(*found) != len || strncmp(*found, name, len)) {
			++*count;
		}
	}
}

/* same_name over a series: its patch files, or an mbox's whole text. */
static void series_same_name(const char *spec, const struct zab_seq_patch *p, size_t n,
			     const char *base, char **found, size_t *count)
{
	const char *kind;
	char *text;
	size_t i, len;

	for (i = 0; i < n && p[i].path; i++)
		;
	if (i < n) {    /* an mbox: its messages are in it */
		if (!slurp(spec, &text, &len, &kind)) {
			same_name(text, base, found, count);
			free(text);
		}
		return;
	}
	for (i = 0; i < n; i++)
		if (!slurp(p[i].path, &text, &len, &kind)) {
			same_name(text, base, found, count);
			free(text);
		}
}

/*
 * A patch of a series matched by name, its headers naming rel written
 * to name base instead (as zeroing/ksrc_build.c takes the part of a patch
 * that changes a file by the header's trailing components), to the blob
 * cache; p->path the blob.  0, or -1 after one line.
 */
static int rename_patch(struct zab_seq_patch *p, size_t k, const char *rel, const char *base)
{
	const char *kind, *s, *next, *name;
	char *text, *out, *o, *blob, *bname;
	size_t len, nl, rl = strlen(rel);
	int ret = slurp(p->path, &text, &len, &kind);

	if (ret) {
		cz_err("series patch %s: %s", p->path, why(ret, kind));
		return -1;
	}
	o = out = cz_xmalloc(len + 1);
	for (s = text; *s; s = next) {
		next = s + strcspn(s, "\n");
		next += *next == '\n';
		name = header_name(s + 4, &nl);
		if ((!strncmp(s, "--- ", 4) || !strncmp(s, "+++ ", 4)) && nl == rl && !strncmp(name, rel, rl)) {
			/* base ends rel: the text only shrinks */
			memcpy(o, s, (size_t)(name - s));
			o += name - s;
			memcpy(o, base, strlen(base));
			o += strlen(base);
			s = name + rl;
		}
		memcpy(o, s, (size_t)(next - s));
		o += next - s;
	}
	bname = patch_name(k, p->subject);
	ret = zab_blob_put(out, (size_t)(o - out), bname, &blob);
	if (!ret) {
		free(p->path);
		p->path = blob;
	}
	free(bname);
	free(out);
	free(text);
	return ret ? -1 : 0;
}

/*
 * A series none of whose patches changes src at a path ending like it (a
 * file copied out of its tree): when the series changes exactly one file
 * of src's name, that file's patches are taken, said in one line.  When
 * it changes none or several, the series stays as read (refused after).
 */
static int by_name(const char *spec, const char *where, const char *src, size_t max,
		   struct zab_seq_patch **out, size_t *n)
{
	const char *base = base_name(src);
	char *rel = NULL;
	size_t i, count = 0;
	int ret = 0;

	for (i = 0; i < *n; i++)
		if ((*out)[i].touch != ZAB_PATCH_NONE)
			return 0;
	series_same_name(spec, *out, *n, base, &rel, &count);
	if (count == 1 && *base) {
		zab_series_free(*out, *n);
		ret = series_read(spec, where, rel, max, out, n);
		for (i = 0; !ret && i < *n; i++)
			if ((*out)[i].touch != ZAB_PATCH_NONE)
				ret = rename_patch(&(*out)[i], i + 1, rel, base);
		if (ret) {
			zab_series_free(*out, *n);
			*out = NULL;
			*n = 0;
		} else {
			cz_err("%s: series %s: no patch changes a path ending like %s: matched by name to %s, the one file of that name it changes",
			       where, spec, src, rel);
		}
	}
	free(rel);
	return ret;
}

int zab_series_read(const char *spec, const char *where, const char *src, size_t max,
		    struct zab_seq_patch **out, size_t *n)
{
	int ret = series_read(spec, where, src, max, out, n);

	return ret ? ret : by_name(spec, where, src, max, out, n);
}

void zab_series_free(struct zab_seq_patch *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(p[i].path);
		free(p[i].subject);
	}
	free(p);
}
