/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab pack EXPERIMENT DIR: the experiment and every file it names, as one
 * folder (pack.h).  The rewrite is text-level on the experiment FILE: each
 * file-valued key (source = FILE[:SYMBOL...], patch = FILE) is replaced by
 * files/SHA256.EXT, other lines are kept as written.  A name that is not
 * absolute is relative to the experiment file's folder.  Content-addressed:
 * a file named twice is shipped once, and a SUT checks every file against
 * SHA256SUMS before it runs anything.  A kernel path (source =
 * kpath:TREE:PATH, zeroing/kpath.h) ships the files of TREE the resolver
 * reads as files/kpath-SHA256/ in the tree's layout (SHA256 of their
 * "SHA256  NAME" list), so that a SUT resolves the path on its own CPU.
 */
#include <ftw.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "cli.h"
#include "kpath.h"
#include "pack.h"
#include "sequence.h"
#include "abspath.h"
#include "util.h"

#define PACK_FILE_MAX (256u << 20)

struct pack {
	const char *exp, *dir;
	char *expdir;           /* folder for relative names */
	FILE *sums;             /* SHA256SUMS lines of files/ */
	char *sumsbuf;
	size_t sumslen;
	json_t *files;
	char where[4200];
};

/* The whole file (zab_read_regular): 0, or -errno (a folder: -EISDIR; not a regular file or too long: -EFBIG). */
static int read_all(const char *path, char **buf, size_t *len)
{
	const char *kind;
	int ret = zab_read_regular(path, PACK_FILE_MAX, buf, len, &kind);

	if (ret == -EINVAL && kind)
		ret = !strcmp(kind, zab_file_kind(S_IFDIR)) ? -EISDIR : -EFBIG;
	return ret;
}

static int write_new(const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600), ret = 0;
	size_t off = 0;
	ssize_t n;

	if (fd < 0)
		return errno == EEXIST ? 0 : -errno;    /* the same content, already there */
	while (off < len && (n = write(fd, buf + off, len - off)) > 0)
		off += (size_t)n;
	if (off < len)
		ret = -(errno ? errno : EIO);
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/* ".S" for "x/clear_page_64.S": a short alphanumeric extension, else "". */
static const char *extension(const char *path)
{
	const char *base = strrchr(path, '/'), *dot;
	size_t i;

	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	if (!dot || dot == base || strlen(dot) > 9 || !dot[1])
		return "";
	for (i = 1; dot[i]; i++)
		if (!((dot[i] >= 'a' && dot[i] <= 'z') || (dot[i] >= 'A' && dot[i] <= 'Z') ||
		      (dot[i] >= '0' && dot[i] <= '9')))
			return "";
	return dot;
}

/* The folders above path (0700), below the bundle's files/. */
static int mkdir_parents(char *path)
{
	char *s = strstr(path, "/files/");
	int ret = 0;

	for (s = s ? strchr(s + 7, '/') : NULL; s && !ret; s = strchr(s + 1, '/')) {
		*s = 0;
		if (mkdir(path, 0700) && errno != EEXIST)
			ret = -errno;
		*s = '/';
	}
	return ret;
}

static bool shipped_before(json_t *files, const char *key, const char *path)
{
	json_t *f;
	size_t i;

	json_array_foreach(files, i, f)
		if (!strcmp(json_string_value(json_object_get(f, "key")), key) &&
		    !strcmp(json_string_value(json_object_get(f, "path")), path))
			return true;
	return false;
}

/* Ship one file; *shipped gets "files/SHA256.EXT".  0, or -1 after one line. */
static int ship(struct pack *p, const char *key, const char *name, char **shipped)
{
	char *path = name[0] == '/' ? cz_xstrdup(name) : cz_xasprintf("%s/%s", p->expdir, name);
	char hex[65], *buf, *dst, *real;
	size_t len;
	int ret;

	if (zab_blob_check(path)) {
		free(path);
		return -1;
	}
	ret = read_all(path, &buf, &len);
	if (ret) {
		cz_err("%s: %s file '%s'%s%s: %s", p->where, key, name, strcmp(path, name) ? " = " : "",
		       strcmp(path, name) ? path : "", ret == -EFBIG ? "not a regular file under 256 MiB" :
		       strerror(-ret));
		free(path);
		return -1;
	}
	cz_sha256_hex(buf, len, hex);
	if (zab_blob_named(path) && memcmp(zab_blob_named(path), hex, 64)) {
		cz_err("blob %s: its content's SHA-256 is %.16s..., not its name's: changed after it was written (zab expand again)",
		       path, hex);
		free(buf);
		free(path);
		return -1;
	}
	real = realpath(path, NULL);
	if (real && !strcmp(key, "source") && !zab_seq_plain_name(real)) {
		/* the bundle names it by this path: one word of experiment text, no line break */
		char *e = zab_seq_escape(real);

		cz_err("%s: source file '%s' is '%s', which has a blank or control character: an experiment cannot name it",
		       p->where, name, e);
		free(e);
		free(real);
		free(buf);
		free(path);
		return -1;
	}
	/* a source keeps its path under its hash: a patch finds it by its trailing components */
	*shipped = !strcmp(key, "source") && real ? cz_xasprintf("files/%s%s", hex, real) :
		   cz_xasprintf("files/%s%s", hex, extension(name));
	free(real);
	dst = cz_xasprintf("%s/%s", p->dir, *shipped);
	ret = mkdir_parents(dst);
	if (!ret)
		ret = write_new(dst, buf, len);
	fflush(p->sums);
	if (ret)
		cz_err("%s: %s", dst, strerror(-ret));
	else if (!p->sumsbuf || !strstr(p->sumsbuf, *shipped))
		fprintf(p->sums, "%s  %s\n", hex, *shipped);
	if (!shipped_before(p->files, key, path))
		json_array_append_new(p->files, json_pack("{s:s, s:s, s:s}", "key", key, "path", path,
							  "sha256", hex));
	free(dst);
	free(buf);
	free(path);
	return ret ? -1 : 0;
}

/* One file of a tree, read: its SHA-256 into hex and its bytes (malloc).  0, or -1 after one line. */
static int tree_file(struct pack *p, const char *root, const char *rel, char **buf, size_t *len,
		     char hex[65])
{
	char *path = cz_xasprintf("%s/%s", root, rel);
	int ret = read_all(path, buf, len);

	if (ret)
		cz_err("%s: kpath tree file %s: %s", p->where, path, ret == -EFBIG ?
		       "not a regular file under 256 MiB" : strerror(-ret));
	else
		cz_sha256_hex(*buf, *len, hex);
	free(path);
	return ret ? -1 : 0;
}

/*
 * kpath:TREE:PATH: the tree's files the resolver reads shipped under
 * files/kpath-SHA256/ (SHA256 of their "SHA256  NAME" lines), *shipped that
 * folder's name.  0, or -1 after one line.
 */
static int ship_tree(struct pack *p, const char *root, char **shipped)
{
	char err[512], (*hex)[65], sum[65], *list = cz_xstrdup(""), *t, *buf, *dst, **rel, *full;
	size_t n, i, len;
	int ret;

	full = root[0] == '/' ? cz_xstrdup(root) : cz_xasprintf("%s/%s", p->expdir, root);
	if (zero_kpath_tree_files(full, &rel, &n, err, sizeof(err))) {
		cz_err("%s: source kpath:%s: %s", p->where, root, err);
		free(full);
		free(list);
		return -1;
	}
	hex = cz_xmalloc((n + 1) * sizeof(*hex));
	for (i = 0, ret = 0; i < n && !ret; i++) {
		ret = tree_file(p, full, rel[i], &buf, &len, hex[i]);
		if (!ret) {
			t = cz_xasprintf("%s%s  %s\n", list, hex[i], rel[i]);
			free(list);
			list = t;
			free(buf);
		}
	}
	cz_sha256_hex(list, strlen(list), sum);
	*shipped = cz_xasprintf("files/kpath-%s", sum);
	for (i = 0; i < n && !ret; i++) {
		dst = cz_xasprintf("%s/%s/%s", p->dir, *shipped, rel[i]);
		ret = tree_file(p, full, rel[i], &buf, &len, hex[i]);
		if (!ret && ((ret = mkdir_parents(dst)) || (ret = write_new(dst, buf, len))))
			cz_err("%s: %s", dst, strerror(-ret));
		fflush(p->sums);
		if (!ret && (!p->sumsbuf || !strstr(p->sumsbuf, dst + strlen(p->dir) + 1)))
			fprintf(p->sums, "%s  %s/%s\n", hex[i], *shipped, rel[i]);
		if (!ret)
			free(buf);
		free(dst);
	}
	t = cz_xasprintf("kpath:%s", full);
	if (!ret && !shipped_before(p->files, "source", t))
		json_array_append_new(p->files, json_pack("{s:s, s:s, s:s}", "key", "source", "path", t,
							  "sha256", sum));
	free(t);
	zero_kpath_files_free(rel, n);
	free(hex);
	free(list);
	free(full);
	if (ret) {
		free(*shipped);
		*shipped = NULL;
	}
	return ret ? -1 : 0;
}

/* One word of a file-valued key (source = FILE[:SYMBOL...]): its rewrite appended to *out. */
static int pack_word(struct pack *p, const char *key, const char *w, char **out)
{
	/* FILE:SYMBOL as zab run and the daemon split it: the last ':', unless a '/' follows */
	size_t n = strcmp(key, "source") ? strlen(w) : zab_source_path_len(w);
	char *name, *shipped, *t;
	const char *colon;

	if (!strcmp(key, "source") && !strncmp(w, "kpath:", 6) && (colon = strrchr(w + 6, ':'))) {
		/* kpath:TREE:PATH: the tree's files, the path kept */
		name = cz_xasprintf("%.*s", (int)(colon - w - 6), w + 6);
		if (!*name || ship_tree(p, name, &shipped)) {
			if (!*name)
				cz_err("%s: source %s with no tree", p->where, w);
			free(name);
			return -1;
		}
		t = cz_xasprintf("%s kpath:%s%s", *out, shipped, colon);
		free(*out);
		*out = t;
		free(shipped);
		free(name);
		return 0;
	}
	name = cz_xasprintf("%.*s", (int)n, w);

	if (!*name) {
		cz_err("%s: %s with no file", p->where, key);
		free(name);
		return -1;
	}
	if (ship(p, key, name, &shipped)) {
		free(name);
		return -1;
	}
	t = cz_xasprintf("%s %s%s", *out, shipped, w + n);
	free(*out);
	*out = t;
	free(shipped);
	free(name);
	return 0;
}

/* One "KEY = VALUE" line: the rewritten line (malloc), NULL to keep it, or (char *)-1. */
static char *pack_line(struct pack *p, const char *line)
{
	const char *eq = strchr(line, '='), *k = line;
	char key[16], *val, *w, *save = NULL, *out;
	size_t klen;
	int ret = 0;

	if (!eq)
		return NULL;
	while (*k == ' ' || *k == '\t')
		k++;
	for (klen = (size_t)(eq - k); klen && (k[klen - 1] == ' ' || k[klen - 1] == '\t'); klen--)
		;
	if (klen >= sizeof(key))
		return NULL;
	memcpy(key, k, klen);
	key[klen] = 0;
	if (strcmp(key, "source") && strcmp(key, "patch"))
		return NULL;
	/* patch = A B C: each a file, in order */
	val = cz_xstrdup(eq + 1);
	out = cz_xasprintf("%s =", key);
	for (w = strtok_r(val, " \t\r\n", &save); w && !ret; w = strtok_r(NULL, " \t\r\n", &save))
		ret = pack_word(p, key, w, &out);
	if (!ret && !strcmp(out, key)) {
		cz_err("%s: %s with no file", p->where, key);
		ret = -1;
	}
	free(val);
	if (ret) {
		free(out);
		return (char *)-1;
	}
	w = cz_xasprintf("%s\n", out);
	free(out);
	return w;
}

/* The rewritten experiment, line by line, into f. */
static int pack_text(struct pack *p, char *text, FILE *f)
{
	char *line = text, *nl, *out;
	int lineno = 0;

	for (; *line; line = nl) {
		nl = strchr(line, '\n');
		nl = nl ? nl + 1 : line + strlen(line);
		snprintf(p->where, sizeof(p->where), "%s:%d", p->exp, ++lineno);
		{
			char save = *nl;

			*nl = 0;
			out = line[strspn(line, " \t")] == '#' ? NULL : pack_line(p, line);
			if (out == (char *)-1)
				return -1;
			fputs(out ? out : line, f);
			free(out);
			*nl = save;
		}
	}
	return 0;
}

static int pack_do(const char *exp, const char *shown, const char *base, const char *dir,
		   char sums[65], json_t **files);

static int pack_run(struct pack *p, const char *text, size_t len, char sums[65])
{
	char *copy = cz_xstrdup(text), *exptext = NULL, hex[65], *path;
	size_t explen = 0;
	FILE *f = open_memstream(&exptext, &explen);
	int ret;

	p->sums = open_memstream(&p->sumsbuf, &p->sumslen);
	ret = pack_text(p, copy, f);
	fclose(f);
	fflush(p->sums);
	if (!ret) {
		cz_sha256_hex(exptext, explen, hex);
		path = cz_xasprintf("%s/experiment", p->dir);
		ret = write_new(path, exptext, explen) ? -1 : 0;
		free(path);
		fclose(p->sums);
		p->sums = NULL;
		/* experiment first, then files/ */
		path = cz_xasprintf("%s  experiment\n%s", hex, p->sumsbuf);
		cz_sha256_hex(path, strlen(path), sums);
		free(exptext);
		exptext = path;
		path = cz_xasprintf("%s/SHA256SUMS", p->dir);
		if (!ret && write_new(path, exptext, strlen(exptext)))
			ret = -1;
		if (ret)
			cz_err("%s: %s", path, strerror(errno));
		free(path);
	}
	(void)len;
	free(exptext);
	free(copy);
	return ret;
}

/*
 * The experiment's sequences expanded first (zab expand: explicit variants
 * naming absolute paths), in the experiment's folder so that every other
 * relative name is still the experiment file's; then the rewrite.
 */
int zab_pack(const char *exp, const char *dir, char sums[65], json_t **files)
{
	const char *td = getenv("TMPDIR");
	char *aexp = cz_absolute(exp), *slash = strrchr(aexp, '/'), *base, *priv, *tmp;
	int cwd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), ret;

	base = cz_xasprintf("%.*s", slash == aexp ? 1 : (int)(slash - aexp), aexp);
	/*
	 * The expanded copy in a folder of the user's own (0700), not beside
	 * DIR: a name in a shared folder is one another user can plant a link
	 * at, and the copy is written, then read back by name.
	 */
	priv = cz_xasprintf("%s/zab-pack.XXXXXX", td && *td == '/' ? td : "/tmp");
	if (!mkdtemp(priv)) {
		cz_err("%s: a folder for the expanded experiment: %m", priv);
		*priv = 0;
		ret = -EIO;
	} else {
		ret = cwd < 0 || chdir(base) ? -errno : 0;
	}
	tmp = cz_xasprintf("%s/expanded", priv);
	if (!ret)
		ret = zab_expand_file(aexp, tmp);
	if (cwd >= 0 && (fchdir(cwd) || close(cwd)) && !ret)
		ret = -errno;
	if (ret == -EACCES || ret == -ENOENT)
		cz_err("%s: %s", base, strerror(-ret));
	if (!ret)
		ret = pack_do(tmp, exp, base, dir, sums, files);
	if (*priv) {
		unlink(tmp);
		rmdir(priv);
	}
	free(tmp);
	free(priv);
	free(base);
	free(aexp);
	return ret ? -1 : 0;
}

int zab_pack_from(const char *exp, const char *base, const char *dir, char sums[65],
		  json_t **files)
{
	return pack_do(exp, exp, base, dir, sums, files);
}

/* exp read, shown in messages as `shown`. */
static int pack_do(const char *exp, const char *shown, const char *base, const char *dir,
		   char sums[65], json_t **files)
{
	struct pack p = { .exp = shown, .dir = dir, .files = json_array() };
	char *text, *slash, *sub;
	size_t len;
	int ret = read_all(exp, &text, &len);

	if (ret) {
		cz_err("experiment '%s': %s", shown, ret == -EFBIG ? "not a regular file" : strerror(-ret));
		json_decref(p.files);
		return -1;
	}
	text[len] = 0;
	if (memchr(text, 0, len)) {
		cz_err("experiment '%s': binary data (a NUL byte)", shown);
		free(text);
		json_decref(p.files);
		return -1;
	}
	slash = strrchr(exp, '/');
	p.expdir = base ? cz_xstrdup(base) : slash ? cz_xasprintf("%.*s", (int)(slash - exp), exp) :
		   cz_xstrdup(".");
	if (!*p.expdir) {
		free(p.expdir);
		p.expdir = cz_xstrdup("/");
	}
	sub = cz_xasprintf("%s/files", dir);
	if (mkdir(dir, 0700) || mkdir(sub, 0700)) {
		cz_err("%s: %s", dir, strerror(errno));
		ret = -1;
	} else if ((ret = pack_run(&p, text, len, sums)))
		zab_pack_remove(dir);           /* nothing half made is left */
	if (p.sums)
		fclose(p.sums);
	free(p.sumsbuf);
	free(sub);
	free(p.expdir);
	free(text);
	if (!ret && files)
		*files = p.files;
	else
		json_decref(p.files);
	return ret;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path), 0;
}

void zab_pack_remove(const char *dir)
{
	char *files = cz_xasprintf("%s/files", dir);
	struct stat st;

	/* only what zab_pack makes: a folder with its files/ folder */
	if (!lstat(dir, &st) && S_ISDIR(st.st_mode) && !lstat(files, &st) && S_ISDIR(st.st_mode))
		nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	free(files);
}
