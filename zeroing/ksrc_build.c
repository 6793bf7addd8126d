/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Building a kernel source file for zero_ksrc_load(): a private copy (the
 * patch applied to it with GNU patch), assembled by the C compiler with
 * cusezero's compatibility headers first in the include path
 * (zeroing/kcompat/README.md), the thunk cz/thunk.S appended, and the
 * backward branches listed by objdump for the loop-head search.
 *
 * One build per content: the key is the SHA-256 (nettle) of every input --
 * the file, the patch's changes, the symbol, label and convention, the
 * CONFIG_ settings, the compatibility headers, the architecture and the
 * compiler's name and version.  Entries live in the build cache
 * (ksrc_cache.c), which is trusted only where nobody else can write it.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nettle/sha2.h>

#include "kcompat/include/cz/records.h"
#include "ksrc.h"
#include "ksrc_int.h"

extern char **environ;

#ifndef CZ_KSRC_CC
#define CZ_KSRC_CC "cc"
#endif

#if defined(__x86_64__)
#define KSRC_ARCH "x86_64"
#elif defined(__aarch64__)
#define KSRC_ARCH "aarch64"
#else
#define KSRC_ARCH "unknown"
#endif

/* ---- small helpers ----------------------------------------------------- */

/* snprintf for paths and arguments: -ENAMETOOLONG instead of a cut string. */
__attribute__((format(printf, 3, 4)))
static int fmt(char *out, size_t len, const char *f, ...)
{
	va_list ap;
	int n;

	va_start(ap, f);
	n = vsnprintf(out, len, f, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int read_all(const char *path, char **buf, size_t *len)
{
	struct stat st;
	char *p;
	ssize_t r;
	size_t off = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > (64 << 20)) {
		close(fd);
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	p = malloc((size_t)st.st_size + 1);
	if (!p) {
		close(fd);
		return -ENOMEM;
	}
	while (off < (size_t)st.st_size && (r = read(fd, p + off, (size_t)st.st_size - off)) > 0)
		off += (size_t)r;
	close(fd);
	p[off] = 0;
	*buf = p;
	*len = off;
	return 0;
}

static int write_all(const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	size_t off = 0;
	ssize_t r;

	if (fd < 0)
		return -errno;
	while (off < len && (r = write(fd, buf + off, len - off)) > 0)
		off += (size_t)r;
	if (close(fd) || off != len)
		return -EIO;
	return 0;
}

/* Feed a length-prefixed field: no two different inputs hash alike. */
static void sha_field(struct sha256_ctx *c, const void *p, size_t n)
{
	uint64_t len = n;

	sha256_update(c, sizeof(len), (const uint8_t *)&len);
	sha256_update(c, n, p);
}

static void sha_str(struct sha256_ctx *c, const char *s)
{
	sha_field(c, s, strlen(s));
}

/* ---- where things are ---------------------------------------------------- */

static int is_dir(const char *p)
{
	struct stat st;

	return p && !stat(p, &st) && S_ISDIR(st.st_mode);
}

const char *ksrc_compat_dir(void)
{
	const char *env = getenv("CUSEZERO_KCOMPAT");

	if (env && *env)
		return is_dir(env) ? env : NULL;
#ifdef CZ_PKGDATADIR
	if (is_dir(CZ_PKGDATADIR "/kcompat"))
		return CZ_PKGDATADIR "/kcompat";
#endif
#ifdef CZ_SRC_KCOMPAT_DIR
	/* a program run from its build tree: the sources' copy */
	if (is_dir(CZ_SRC_KCOMPAT_DIR))
		return CZ_SRC_KCOMPAT_DIR;
#endif
	return NULL;
}

/* The compiler (and objdump) used: $CUSEZERO_KSRC_CC, else the build's CC. */
static const char *ksrc_cc(void)
{
	const char *env = getenv("CUSEZERO_KSRC_CC");

	return env && *env ? env : CZ_KSRC_CC;
}

static void ksrc_objdump(char *out, size_t len)
{
	const char *env = getenv("CUSEZERO_KSRC_OBJDUMP"), *cc = ksrc_cc(), *sp;
	size_t n;

	if (env && *env) {
		snprintf(out, len, "%s", env);
		return;
	}
	/* aarch64-linux-gnu-gcc -> aarch64-linux-gnu-objdump; gcc, cc, clang -> objdump */
	sp = strchr(cc, ' ');
	n = sp ? (size_t)(sp - cc) : strlen(cc);
	if (n > 4 && !strncmp(cc + n - 4, "-gcc", 4))
		snprintf(out, len, "%.*s-objdump", (int)(n - 4), cc);
	else
		snprintf(out, len, "objdump");
}

/* ---- the compat layer's content, for the cache key ----------------------- */

/* Each file of the compat layer: its path below the layer and its content's SHA-256. */
struct compat_file {
	char *name;
	unsigned char sum[KSRC_SHA256_LEN];
};

static struct compat_file *compat_files;
static size_t compat_n, compat_cap;

static int compat_file(const char *path, const struct stat *st, int type, struct FTW *f)
{
	struct sha256_ctx c;
	struct compat_file *cf;
	char *buf;
	size_t len;

	(void)st;
	(void)f;
	if (type != FTW_F || read_all(path, &buf, &len))
		return 0;
	if (compat_n == compat_cap) {
		size_t cap = compat_cap ? 2 * compat_cap : 64;
		void *p = realloc(compat_files, cap * sizeof(*compat_files));

		if (!p) {
			free(buf);
			return -1;
		}
		compat_files = p;
		compat_cap = cap;
	}
	cf = &compat_files[compat_n];
	cf->name = strdup(path + strlen(ksrc_compat_dir()));
	if (!cf->name) {
		free(buf);
		return -1;
	}
	sha256_init(&c);
	sha256_update(&c, len, (const uint8_t *)buf);
	sha256_digest(&c, sizeof(cf->sum), cf->sum);
	compat_n++;
	free(buf);
	return 0;
}

static int compat_cmp(const void *a, const void *b)
{
	return strcmp(((const struct compat_file *)a)->name, ((const struct compat_file *)b)->name);
}

/* The compat layer into the key: its files in name order (walk order varies). */
static void compat_key(struct sha256_ctx *c)
{
	size_t i;

	if (!compat_files) {
		nftw(ksrc_compat_dir(), compat_file, 16, FTW_PHYS);
		qsort(compat_files, compat_n, sizeof(*compat_files), compat_cmp);
	}
	sha_field(c, &compat_n, sizeof(compat_n));
	for (i = 0; i < compat_n; i++) {
		sha_str(c, compat_files[i].name);
		sha_field(c, compat_files[i].sum, sizeof(compat_files[i].sum));
	}
}

/* ---- running the tools ---------------------------------------------------- */

/*
 * Run argv with stdout and stderr to the given files (either may be NULL:
 * /dev/null).  Returns the exit status, or -errno when it could not run.
 */
static int run(const char *const argv[], const char *out, const char *errf)
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int st, ret;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, out ? out : "/dev/null",
					 O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_addopen(&fa, 2, errf ? errf : "/dev/null",
					 O_WRONLY | O_CREAT | O_TRUNC, 0644);
	/* posix_spawn's argv is char *const []: it does not write the strings */
	ret = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)(uintptr_t)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (ret)
		return -ret;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/*
 * The first error line of a tool's stderr, with the private copy's path
 * replaced by the user's: "clear_user.S:27: Error: unknown mnemonic ...".
 */
static void first_error(const char *errf, const char *tmpcopy, const char *shown,
			char *err, size_t errlen)
{
	char line[1024], *hit = NULL, *p;
	FILE *f = fopen(errf, "r");

	err[0] = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, "rror") || strstr(line, "No such file")) {
			hit = line;
			break;
		}
	}
	fclose(f);
	if (!hit)
		return;
	hit[strcspn(hit, "\n")] = 0;
	p = strstr(hit, tmpcopy);
	if (p)
		snprintf(err, errlen, "%.*s%s%s", (int)(p - hit), hit, shown, p + strlen(tmpcopy));
	else
		snprintf(err, errlen, "%s", hit);
}

/* ---- the patch --------------------------------------------------------------- */

/*
 * The part of a (git format-patch or plain unified) patch that changes the
 * file whose path ends in `base`'s trailing components; written to out.
 */
static int patch_part(const char *patch, const char *path, const char *out, char *err,
		      size_t errlen)
{
	char *buf, *line, *next, *keep = NULL, touched[512] = "";
	size_t len, klen = 0, tlen = 0;
	bool in = false;
	int ret = read_all(patch, &buf, &len);

	if (ret) {
		snprintf(err, errlen, "%s: %s", patch, strerror(-ret));
		return ret;
	}
	keep = malloc(len + 1);
	if (!keep) {
		free(buf);
		return -ENOMEM;
	}
	for (line = buf; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			next++;
		if (!strncmp(line, "diff ", 5))
			in = false;
		if (!strncmp(line, "--- ", 4) && next && !strncmp(next, "+++ ", 4)) {
			/* "+++ b/arch/arm64/lib/clear_user.S": a suffix of the given path? */
			const char *name = next + 4, *end = strpbrk(name, "\t\n");
			size_t n = end ? (size_t)(end - name) : strlen(name);
			const char *rel = n > 2 && name[1] == '/' ? name + 2 : name;
			size_t rn = n - (size_t)(rel - name), pl = strlen(path);

			in = pl >= rn && !strncmp(path + pl - rn, rel, rn) &&
			     (pl == rn || path[pl - rn - 1] == '/');
			if (!in && tlen + rn + 3 < sizeof(touched))
				tlen += (size_t)snprintf(touched + tlen, sizeof(touched) - tlen, "%s%.*s",
							 tlen ? ", " : "", (int)rn, rel);
		}
		if (in) {
			size_t n = next ? (size_t)(next - line) : strlen(line);

			memcpy(keep + klen, line, n);
			klen += n;
		}
	}
	free(buf);
	if (!klen) {
		snprintf(err, errlen, "%s: changes no file ending in %s (it changes: %s)", patch, path,
			 tlen ? touched : "nothing a unified diff names");
		free(keep);
		return -EINVAL;
	}
	ret = write_all(out, keep, klen);
	free(keep);
	return ret;
}

/*
 * A patch part's changes into the key: its lines without the file-name
 * headers ("--- a/...", "+++ b/..." carry dates and folders that do not
 * change the result), so one change is one cache entry wherever the patch
 * was written.
 */
static int patch_key(struct sha256_ctx *c, const char *part)
{
	char line[4096];
	FILE *f = fopen(part, "r");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "--- ", 4) && strncmp(line, "+++ ", 4))
			sha_str(c, line);
	fclose(f);
	return 0;
}

/*
 * The first rejected hunk in rej, on one line ("@@ -10,6 +10,6 @@ | -x | +y"),
 * at most len bytes: the build folder with the .rej file is removed after.
 */
static void first_hunk(const char *rej, char *out, size_t len)
{
	char line[256];
	size_t n = 0;
	bool in = false;
	FILE *f = fopen(rej, "r");

	out[0] = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && n + 4 < len) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "@@", 2)) {
			if (in)
				break;
			in = true;
		}
		if (in && line[0])
			n += (size_t)snprintf(out + n, len - n, "%s%s", n ? " | " : "", line);
	}
	fclose(f);
	if (n >= len)
		snprintf(out + len - 4, 4, "...");
}

/* GNU patch applies the part (of patch, for file) to in, writing out. */
static int apply_patch(const char *patch, const char *file, const char *in, const char *dir,
		       const char *part, const char *out, char *err, size_t errlen)
{
	char log[PATH_MAX], rej[PATH_MAX], msg[512], hunk[600];
	const char *argv[] = { "patch", "--batch", "--silent", "--forward", "-o", out, "-r", rej,
			       in, "-i", part, NULL };
	int ret;

	if (fmt(log, sizeof(log), "%s/patch.log", dir) || fmt(rej, sizeof(rej), "%s/patch.rej", dir))
		return -ENAMETOOLONG;
	unlink(rej);
	ret = run(argv, log, log);
	if (ret < 0) {
		snprintf(err, errlen, "%s: cannot run patch (GNU patch): %s", patch, strerror(-ret));
		return ret;
	}
	if (ret) {
		FILE *f = fopen(log, "r");

		msg[0] = 0;
		if (f) {
			if (!fgets(msg, sizeof(msg), f))
				msg[0] = 0;
			fclose(f);
		}
		msg[strcspn(msg, "\n")] = 0;
		/* "saving rejects to file ...": a file about to be removed; show the hunk */
		if (strstr(msg, "saving rejects")) {
			size_t n = (size_t)(strstr(msg, "saving rejects") - msg);

			while (n && (msg[n - 1] == ' ' || msg[n - 1] == '-'))
				n--;
			msg[n] = 0;
		}
		first_hunk(rej, hunk, sizeof(hunk));
		snprintf(err, errlen, "%s does not apply to %s: %s%s%s", patch, file,
			 msg[0] ? msg : "patch failed", hunk[0] ? "; rejected: " : "", hunk);
		return -EINVAL;
	}
	return 0;
}

/* Every patch of q in order: the first to the file as given, each next to the result. */
static int apply_patches(const struct ksrc_req *q, const char *dir, char parts[][PATH_MAX],
			 const char *copy, char *err, size_t errlen)
{
	char in[PATH_MAX], out[PATH_MAX];
	unsigned i;
	int ret = 0;

	snprintf(in, sizeof(in), "%s", q->path);
	for (i = 0; i < q->npatches && !ret; i++) {
		if (i + 1 == q->npatches)
			snprintf(out, sizeof(out), "%s", copy);
		else if (fmt(out, sizeof(out), "%s/step%u", dir, i))
			return -ENAMETOOLONG;
		ret = apply_patch(q->patches[i], q->path, in, dir, parts[i], out, err, errlen);
		snprintf(in, sizeof(in), "%s", out);
	}
	return ret;
}

int zero_ksrc_apply_patch(const char *path, const char *in, const char *patch, const char *out,
			  char *err, size_t errlen)
{
	char dir[PATH_MAX], part[PATH_MAX];
	const char *tmp = getenv("TMPDIR");
	int ret;

	err[0] = 0;
	if (fmt(dir, sizeof(dir), "%s/cz-patch.XXXXXX", tmp && *tmp == '/' ? tmp : "/tmp"))
		return -ENAMETOOLONG;
	if (!mkdtemp(dir)) {
		ret = -errno;
		snprintf(err, errlen, "%s: cannot make a private folder in %s: %s", patch,
			 tmp && *tmp == '/' ? tmp : "/tmp", strerror(-ret));
		return ret;
	}
	ret = fmt(part, sizeof(part), "%s/part.patch", dir);
	if (!ret)
		ret = patch_part(patch, path, part, err, errlen);
	if (ret == -EINVAL && strstr(err, "changes no file"))
		ret = -ENODATA;
	if (!ret)
		ret = apply_patch(patch, path, in, dir, part, out, err, errlen);
	ksrc_rm_dir(dir);
	return ret;
}

/* ---- the key --------------------------------------------------------------- */

/*
 * The compiler's version line ("gcc (Debian 12.2.0-14) 12.2.0"), once per
 * process; $CUSEZERO_KSRC_CC_VERSION says it where the compiler cannot run
 * (a cache built on another machine for one without a compiler).
 */
static const char *cc_version(const char *dir)
{
	static char ver[256];
	const char *env = getenv("CUSEZERO_KSRC_CC_VERSION");
	char out[PATH_MAX], cc[256], *save = NULL;
	const char *argv[10];
	int n = 0;
	FILE *f;

	if (env && *env)
		return env;
	if (ver[0] || fmt(out, sizeof(out), "%s/cc.version", dir))
		return ver;
	snprintf(cc, sizeof(cc), "%s", ksrc_cc());
	for (char *t = strtok_r(cc, " ", &save); t && n < 8; t = strtok_r(NULL, " ", &save))
		argv[n++] = t;
	argv[n++] = "--version";
	argv[n] = NULL;
	if (run(argv, out, NULL) == 0 && (f = fopen(out, "r"))) {
		if (!fgets(ver, sizeof(ver), f))
			ver[0] = 0;
		fclose(f);
		ver[strcspn(ver, "\n")] = 0;
	}
	return ver;
}

/* The key: SHA-256 of every input that makes the object what it is, in hex. */
static int build_key(const struct ksrc_req *q, const char *dir, const char *text, size_t len,
		     char parts[][PATH_MAX], char key[2 * KSRC_SHA256_LEN + 1])
{
	struct sha256_ctx c;
	unsigned char d[KSRC_SHA256_LEN];
	unsigned i;
	int ret = 0;

	sha256_init(&c);
	sha_str(&c, "cusezero ksrc key 2");
	sha_str(&c, KSRC_ARCH);
	sha_field(&c, text, len);
	sha_str(&c, q->symbol);
	sha_str(&c, q->label);
	sha_field(&c, &q->conv, sizeof(q->conv));
	sha_field(&c, &q->nconfigs, sizeof(q->nconfigs));
	for (i = 0; i < q->nconfigs; i++)
		sha_str(&c, q->configs[i]);
	compat_key(&c);
	sha_str(&c, ksrc_cc());
	sha_str(&c, cc_version(dir));
	sha_str(&c, q->npatches ? "patched" : "as is");
	/* one patch keys as it always did; a series adds its length */
	if (q->npatches > 1)
		sha_field(&c, &q->npatches, sizeof(q->npatches));
	for (i = 0; i < q->npatches && !ret; i++)
		ret = patch_key(&c, parts[i]);
	sha256_digest(&c, sizeof(d), d);
	ksrc_sha256_hex(d, key);
	return ret;
}

/* ---- assembling ------------------------------------------------------------- */

/* -DCONFIG_X=V for "CONFIG_X=V" / "=y"; -UCONFIG_X and -DCZ_NO_CONFIG_X for "=n". */
static int config_args(const struct ksrc_req *q, const char **argv, int n, char store[][160])
{
	unsigned i;

	for (i = 0; i < q->nconfigs; i++) {
		const char *eq = strchr(q->configs[i], '=');
		int nl = (int)(eq - q->configs[i]);

		if (!strcmp(eq + 1, "n")) {
			snprintf(store[2 * i], 160, "-U%.*s", nl, q->configs[i]);
			snprintf(store[2 * i + 1], 160, "-DCZ_NO_%.*s", nl, q->configs[i]);
			argv[n++] = store[2 * i];
			argv[n++] = store[2 * i + 1];
		} else {
			snprintf(store[2 * i], 160, "-D%.*s=%s", nl, q->configs[i],
				 !strcmp(eq + 1, "y") ? "1" : eq + 1);
			argv[n++] = store[2 * i];
		}
	}
	return n;
}

static int assemble(const struct ksrc_req *q, const char *dir, const char *src, const char *obj,
		    const char *shown, char *err, size_t errlen)
{
	const char *compat = ksrc_compat_dir();
	char wrap[PATH_MAX], inc1[PATH_MAX], inc2[PATH_MAX], quote[PATH_MAX], sym[200], conv[64];
	char errf[PATH_MAX], text[PATH_MAX + 64], ccbuf[256], cfg[2 * ZERO_KSRC_MAX_SETTINGS][160];
	const char *argv[64 + 2 * ZERO_KSRC_MAX_SETTINGS];
	char *save = NULL, *tok;
	const char *slash = strrchr(q->path, '/');
	int n = 0, ret;

	if (fmt(wrap, sizeof(wrap), "%s/wrap.S", dir))
		return -ENAMETOOLONG;
	snprintf(text, sizeof(text), "#include \"%s\"\n#include <cz/thunk.S>\n", src);
	ret = write_all(wrap, text, strlen(text));
	if (ret)
		return ret;
	snprintf(ccbuf, sizeof(ccbuf), "%s", ksrc_cc());
	for (tok = strtok_r(ccbuf, " ", &save); tok && n < 8; tok = strtok_r(NULL, " ", &save))
		argv[n++] = tok;
	snprintf(inc1, sizeof(inc1), "-I%s/arch/%s/include", compat, KSRC_ARCH);
	snprintf(inc2, sizeof(inc2), "-I%s/include", compat);
	/* the file's own folder for its "..." includes (the private copy is elsewhere) */
	snprintf(quote, sizeof(quote), "-iquote%.*s", slash ? (int)(slash - q->path) : 1,
		 slash ? q->path : ".");
	snprintf(sym, sizeof(sym), "-DCZ_THUNK_SYM=%s", q->symbol);
	snprintf(conv, sizeof(conv), "-DCZ_THUNK_CONV=%d", q->conv);
	argv[n++] = "-c";
	argv[n++] = "-x";
	argv[n++] = "assembler-with-cpp";
	argv[n++] = "-nostdinc";
	argv[n++] = "-D__ASSEMBLY__";
	argv[n++] = "-D__KERNEL__";
	argv[n++] = inc1;
	argv[n++] = inc2;
	argv[n++] = quote;
	argv[n++] = sym;
	argv[n++] = conv;
	argv[n++] = "-Wa,-L";   /* keep .L labels in the symbol table: SYMBOL@LABEL */
	n = config_args(q, argv, n, cfg);
	argv[n++] = wrap;
	argv[n++] = "-o";
	argv[n++] = obj;
	argv[n] = NULL;
	if (fmt(errf, sizeof(errf), "%s/cc.err", dir))
		return -ENAMETOOLONG;
	ret = run(argv, NULL, errf);
	if (ret < 0) {
		snprintf(err, errlen, "%s: cannot run the assembler %s: %s (CUSEZERO_KSRC_CC names another)",
			 q->path, argv[0], strerror(-ret));
		return ret;
	}
	if (ret) {
		first_error(errf, src, shown, err, errlen);
		if (strstr(err, "unknown mnemonic") || strstr(err, "no such instruction") ||
		    strstr(err, "unknown pseudo-op") ||
		    strstr(err, "No such file") || strstr(err, "undefined"))
			snprintf(err + strlen(err), errlen - strlen(err),
				 " (a macro, header or symbol cusezero's kernel compat layer lacks: see %s/README.md)",
				 compat);
		if (!err[0])
			snprintf(err, errlen, "%s: the assembler failed (status %d)", shown, ret);
		return -EINVAL;
	}
	return 0;
}

/*
 * The backward branches of every text section, from objdump -d:
 * "bb SECTION BRANCH TARGET" (section offsets, hex).  A branch is any jump
 * (x86 j*, loop*; arm64 b, b.cond, cbz/cbnz, tbz/tbnz), calls excluded.
 */
static int list_branches(const char *obj, const char *meta, const char *dir)
{
	char od[256], dis[PATH_MAX], line[1024], sec[128] = "";
	const char *argv[] = { od, "-d", "-w", "--no-show-raw-insn", obj, NULL };
	FILE *in, *out;
	int ret;

	ksrc_objdump(od, sizeof(od));
	if (fmt(dis, sizeof(dis), "%s/objdump.txt", dir))
		return -ENAMETOOLONG;
	ret = run(argv, dis, NULL);
	if (ret)
		return ret < 0 ? ret : -EIO;
	in = fopen(dis, "r");
	out = fopen(meta, "w");
	if (!in || !out) {
		if (in)
			fclose(in);
		if (out)
			fclose(out);
		return -EIO;
	}
	while (fgets(line, sizeof(line), in)) {
		unsigned long at, to;
		char mn[32], *lt, *p;

		if (sscanf(line, "Disassembly of section %127[^:]:", sec) == 1)
			continue;
		if (sscanf(line, " %lx: %31s", &at, mn) != 2 || !(lt = strstr(line, " <")))
			continue;
		if (strncmp(mn, "j", 1) && strncmp(mn, "loop", 4) && strcmp(mn, "b") &&
		    strncmp(mn, "b.", 2) && strncmp(mn, "cb", 2) && strncmp(mn, "tb", 2))
			continue;
		/* the target is the hex number just before " <" */
		for (p = lt; p > line && p[-1] != ' ' && p[-1] != '\t' && p[-1] != ','; p--)
			;
		if (sscanf(p, "%lx", &to) == 1 && to <= at)
			fprintf(out, "bb %s %lx %lx\n", sec, at, to);
	}
	fclose(in);
	return fclose(out) ? -EIO : 0;
}

/* ---- the whole step ----------------------------------------------------------- */

/* The built object and branch list, read into out. */
static int read_build(const char *obj, const char *meta, struct ksrc_blob *out)
{
	char *o = NULL;
	int ret = read_all(obj, &o, &out->objlen);

	if (!ret)
		ret = read_all(meta, &out->meta, &out->metalen);
	out->obj = (unsigned char *)o;
	if (ret)
		ksrc_blob_free(out);
	return ret;
}

static int build_in(const struct ksrc_req *q, const char *dir, const struct ksrc_cache *cache,
		    struct ksrc_blob *out, char *err, size_t errlen)
{
	char copy[PATH_MAX], key[2 * KSRC_SHA256_LEN + 1], tobj[PATH_MAX], tmeta[PATH_MAX];
	char (*parts)[PATH_MAX] = NULL, shown[PATH_MAX + 16];
	const char *base = strrchr(q->path, '/') ? strrchr(q->path, '/') + 1 : q->path;
	char *text;
	size_t len;
	unsigned i;
	int ret = 0;

	/* the private copy keeps the file's name, so messages read naturally */
	if (fmt(copy, sizeof(copy), "%s/%s", dir, base) ||
	    fmt(tobj, sizeof(tobj), "%s/out.o", dir) || fmt(tmeta, sizeof(tmeta), "%s/out.branches", dir))
		return -ENAMETOOLONG;
	snprintf(shown, sizeof(shown), "%s%s", q->path, q->npatches ? " (patched)" : "");
	parts = calloc(q->npatches ? q->npatches : 1, sizeof(*parts));
	if (!parts)
		return -ENOMEM;
	for (i = 0; i < q->npatches && !ret; i++)
		if (fmt(parts[i], sizeof(parts[i]), "%s/part%u.patch", dir, i))
			ret = -ENAMETOOLONG;
		else
			ret = patch_part(q->patches[i], q->path, parts[i], err, errlen);
	if (!ret)
		ret = read_all(q->path, &text, &len);
	if (ret) {
		if (!err[0])
			snprintf(err, errlen, "%s: %s", q->path, strerror(-ret));
		free(parts);
		return ret;
	}
	/* the key is the file as given and the patches' changes: a hit needs no patch run */
	ret = build_key(q, dir, text, len, parts, key);
	if (!ret && !q->npatches)
		ret = write_all(copy, text, len);
	free(text);
	if (!ret && !ksrc_cache_get(cache, key, out)) {
		free(parts);
		return 0;
	}
	if (!ret && q->npatches)
		ret = apply_patches(q, dir, parts, copy, err, errlen);
	free(parts);
	if (ret)
		return ret;
	ret = assemble(q, dir, copy, tobj, shown, err, errlen);
	if (ret)
		return ret;
	ret = list_branches(tobj, tmeta, dir);
	if (ret) {
		snprintf(err, errlen, "%s: objdump failed (%s): CUSEZERO_KSRC_OBJDUMP names another",
			 q->path, ret < 0 ? strerror(-ret) : "exit status");
		return -EIO;
	}
	ret = read_build(tobj, tmeta, out);
	if (!ret && (ret = ksrc_cache_put(cache, key, out, dir)))
		snprintf(err, errlen, "%s: cannot store the build in %s: %s", q->path, cache->path,
			 strerror(-ret));
	if (ret)
		ksrc_blob_free(out);
	return ret;
}

int ksrc_build(const struct ksrc_req *q, struct ksrc_blob *out, char *err, size_t errlen)
{
	struct ksrc_cache cache;
	char dir[PATH_MAX];
	int ret;

	memset(out, 0, sizeof(*out));
	if (!ksrc_compat_dir()) {
		snprintf(err, errlen, "%s: cusezero's kernel compat headers are not installed "
			 "(set CUSEZERO_KCOMPAT to the zeroing/kcompat folder of the sources)", q->path);
		return -ENOENT;
	}
	ret = ksrc_cache_open(&cache, err, errlen);
	if (ret)
		return ret;
	if (fmt(dir, sizeof(dir), "%s/tmp.XXXXXX", cache.path) || !mkdtemp(dir)) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s: %s", q->path, dir, strerror(-ret));
		ksrc_cache_close(&cache);
		return ret;
	}
	ret = build_in(q, dir, &cache, out, err, errlen);
	ksrc_rm_dir(dir);
	ksrc_cache_close(&cache);
	return ret;
}
