/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Change sequences (sequence.h): the keys of a [variant] that name one, a
 * variant's sequence into its steps, and a step's variant.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "kpath.h"
#include "ksrc.h"
#include "sequence.h"
#include "abspath.h"
#include "util.h"

static int set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = cz_xstrdup(v);
	return 0;
}

bool zab_seq_is(const struct zab_variant *x)
{
	return x->series || x->kernels || x->git;
}

int zab_seq_key(struct zab_variant *x, const char *k, const char *v)
{
	uint64_t u;

	if (!strcmp(k, "series") || !strcmp(k, "kernel") || !strcmp(k, "git")) {
		if (!*v)
			return -EINVAL;
		return set_str(!strcmp(k, "series") ? &x->series : !strcmp(k, "kernel") ? &x->kernels :
			       &x->git, v);
	}
	if (!strcmp(k, "sequence") || !strcmp(k, "label") || !strcmp(k, "kernel-version") ||
	    !strcmp(k, "git-commit") || !strcmp(k, "sequence-kind")) {
		if (!*v)
			return -EINVAL;
		if (!strcmp(k, "sequence-kind") && strcmp(v, "series") && strcmp(v, "kernel") &&
		    strcmp(v, "git"))
			return -EINVAL;
		return set_str(!strcmp(k, "sequence") ? &x->seq : !strcmp(k, "label") ? &x->label :
			       !strcmp(k, "kernel-version") ? &x->kversion :
			       !strcmp(k, "git-commit") ? &x->git_commit : &x->seq_kind, v);
	}
	if (!strcmp(k, "step") || !strcmp(k, "steps")) {
		if (cz_parse_u64(v, 0, 100000, &u))
			return -EINVAL;
		*(!strcmp(k, "step") ? &x->step : &x->steps) = (unsigned)u;
		return 0;
	}
	return -ENOENT;
}

void zab_seq_variant_free(struct zab_variant *x)
{
	free(x->series);
	free(x->kernels);
	free(x->git);
	free(x->seq);
	free(x->seq_kind);
	free(x->label);
	free(x->kversion);
	free(x->git_commit);
}

/* One sequence's steps and name freed (the struct itself is the caller's). */
static void seq_clear(struct zab_seq *s)
{
	size_t k, j;

	for (k = 0; k < s->nstep; k++) {
		struct zab_seq_step *st = &s->step[k];

		free(st->source);
		for (j = 0; j < st->npatches; j++)
			free(st->patches[j]);
		free(st->patches);
		free(st->label);
		free(st->kversion);
		free(st->commit);
	}
	free(s->step);
	free(s->name);
	memset(s, 0, sizeof(*s));
}

void zab_seq_free(struct zab_seq *seqs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		seq_clear(&seqs[i]);
	free(seqs);
}

/*
 * What a sequence found is data: a file it names must stand as one word of
 * an experiment file and one daemon argument (no blank, no control
 * character: refused, named), and a label or version is one line of text
 * (a control character written as \xNN).
 */
static int seq_sanitize(const struct zab_variant *x, struct zab_seq *s)
{
	size_t k, j;
	char *t;

	for (k = 0; k < s->nstep; k++) {
		struct zab_seq_step *st = &s->step[k];
		const char *bad = st->source && !zab_seq_plain_name(st->source) ? st->source : NULL;

		for (j = 0; !bad && j < st->npatches; j++)
			if (!zab_seq_plain_name(st->patches[j]))
				bad = st->patches[j];
		if (bad) {
			t = zab_seq_escape(bad);
			cz_err("%s: variant '%s': step %zu: file name '%s' has a blank or control character (an experiment file cannot name it): rename it",
			       x->where, x->name, k, t);
			free(t);
			return -1;
		}
		t = zab_seq_escape(st->label ? st->label : "");
		free(st->label);
		st->label = *cz_trim(t) ? cz_xstrdup(cz_trim(t)) : cz_xasprintf("step %zu", k);
		free(t);
		if (st->kversion) {
			t = zab_seq_escape(st->kversion);
			free(st->kversion);
			st->kversion = t;
		}
		if (st->commit && strspn(st->commit, "0123456789abcdef") != strlen(st->commit)) {
			cz_err("%s: variant '%s': step %zu: git gave no commit hash", x->where, x->name, k);
			return -1;
		}
	}
	return 0;
}

static struct zab_seq_step *add_step(struct zab_seq *s)
{
	s->step = cz_xrealloc(s->step, (s->nstep + 1) * sizeof(*s->step));
	memset(&s->step[s->nstep], 0, sizeof(*s->step));
	return &s->step[s->nstep++];
}

/*
 * series: step 0 the file, step k the file + the series' patches 1..k that
 * change it (a patch that changes other files only is no step), each
 * checked to apply after the ones before: the error names the patch.
 */
static int build_series(const struct zab_variant *x, const char *file, size_t max,
			struct zab_seq *s)
{
	struct zab_seq_patch *p = NULL;
	struct zab_seq_step *st;
	char dir[PATH_MAX - 64], in[PATH_MAX], out[PATH_MAX], err[1024];
	const char *tmp = getenv("TMPDIR");
	size_t np = 0, i, used = 0;
	int ret = 0;

	if (zab_series_read(x->series, x->where, file, max - 1, &p, &np))
		return -1;
	snprintf(dir, sizeof(dir), "%s/zab-series.XXXXXX", tmp && *tmp == '/' ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		cz_err("%s: variant '%s': a private folder in %s: %s", x->where, x->name,
		       tmp && *tmp == '/' ? tmp : "/tmp", strerror(errno));
		zab_series_free(p, np);
		return -1;
	}
	st = add_step(s);
	st->source = cz_xstrdup(file);
	st->label = cz_xstrdup("base");
	snprintf(in, sizeof(in), "%s", file);
	for (i = 0; i < np && !ret; i++) {
		if (p[i].touch == ZAB_PATCH_NONE)
			continue;       /* changes other files only: no step, nothing to run */
		if (p[i].touch == ZAB_PATCH_DELETES) {
			cz_err("%s: variant '%s': series %s: patch %zu/%zu '%s' (%s) deletes %s: a step needs the file (end the series before it)",
			       x->where, x->name, x->series, i + 1, np, p[i].subject, p[i].path, file);
			ret = -1;
			break;
		}
		snprintf(out, sizeof(out), "%s/step%zu", dir, i);
		ret = zero_ksrc_apply_patch(file, in, p[i].path, out, err, sizeof(err));
		if (ret == -ENODATA) {
			ret = 0;
			continue;
		}
		if (ret) {
			cz_err("%s: variant '%s': series %s: patch %zu/%zu '%s' (%s) does not apply after the %zu before it: %s",
			       x->where, x->name, x->series, i + 1, np, p[i].subject, p[i].path, i, err);
			break;
		}
		snprintf(in, sizeof(in), "%s", out);
		st = add_step(s);
		st->source = cz_xstrdup(file);
		st->patches = cz_xmalloc((used + 1) * sizeof(*st->patches));
		for (size_t j = 0; j < used; j++)
			st->patches[j] = cz_xstrdup(s->step[s->nstep - 2].patches[j]);
		st->patches[used++] = cz_xstrdup(p[i].path);
		st->npatches = used;
		st->label = cz_xstrdup(p[i].subject);
	}
	for (i = 0; i < np; i++) {
		snprintf(out, sizeof(out), "%s/step%zu", dir, i);
		unlink(out);
	}
	rmdir(dir);
	if (!ret && !used) {
		cz_err("%s: variant '%s': series %s: none of its %zu patches changes %s", x->where,
		       x->name, x->series, np, file);
		ret = -1;
	}
	zab_series_free(p, np);
	return ret ? -1 : 0;
}

/*
 * kernel = ... with source = kpath:PATH: each step runs what its release
 * runs for PATH on this CPU (zeroing/kpath.h), its label saying what and
 * why (the --alt= of the variant assumed).  A tree whose path cannot be
 * resolved stops the expansion with the resolver's line.
 */
static int kpath_steps(const struct zab_variant *x, const char *path, size_t max,
		       struct zab_seq *s)
{
	struct zero_kpath_cpu cpu;
	struct zero_kpath_res *r = cz_xmalloc(sizeof(*r));
	enum zero_kpath_path p;
	char err[1024];
	size_t i;
	int ret = zero_kpath_path_parse(path, &p);

	if (ret)
		cz_err("%s: variant '%s': source kpath:%s: expected kpath:clear_user or kpath:clear_page",
		       x->where, x->name, path);
	if (!ret && zero_kpath_cpu_host(&cpu, err, sizeof(err))) {
		cz_err("%s: variant '%s': %s", x->where, x->name, err);
		ret = -1;
	}
	for (i = 0; !ret && i < x->ndev; i++) {
		const char *w = x->dev_argv[i];

		if (!strncmp(w, "--alt=", 6) && zero_kpath_force(&cpu, w + 6, err, sizeof(err)) == -E2BIG)
			ret = -1;	/* a feature no path reads is the file's alone */
	}
	if (!ret)
		ret = zab_seq_kernel(x->kernels, "Makefile", x->where, max, s);
	for (i = 0; !ret && i < s->nstep; i++) {
		struct zab_seq_step *st = &s->step[i];
		char *root = cz_xasprintf("%.*s", (int)(strlen(st->source) - 9), st->source);

		if (strcmp(st->source + strlen(st->source) - 9, "/Makefile") ||
		    strstr(st->source, "/cusezero/blobs/")) {
			cz_err("%s: variant '%s': kernel %s: kpath:%s reads a tree, not a tarball",
			       x->where, x->name, st->kversion ? st->kversion : st->source, path);
			ret = -1;
		} else if (zero_kpath_resolve(root, p, &cpu, r, err, sizeof(err))) {
			cz_err("%s: variant '%s': %s", x->where, x->name, err);
			ret = -1;
		} else {
			free(st->source);
			st->source = cz_xasprintf("kpath:%s", root);
			free(st->label);
			st->label = cz_xasprintf("%s %s", st->kversion ? st->kversion : r->release, r->brief);
		}
		free(root);
	}
	free(r);
	return ret ? -1 : 0;
}

/*
 * kernel = ... over a file named without :SYMBOL: each step runs its file's
 * default function (ksrc.h), which is not the same function in every
 * release (clear_page_64.S: 6.1 clear_user_original, 6.12 and 7.2
 * rep_stos_alternative).  Steps that would run different functions are
 * refused, naming them, rather than compared silently.
 */
static int same_default(const struct zab_variant *x, const char *file, const struct zab_seq *s)
{
	char first[128] = "", sym[128], list[1024] = "";
	bool differ = false;
	size_t i, n = 0;

	for (i = 0; i < s->nstep; i++) {
		if (zero_ksrc_default_symbol(s->step[i].source, sym, sizeof(sym)))
			return 0;	/* no default: the daemon says so, naming the file */
		if (!i)
			snprintf(first, sizeof(first), "%s", sym);
		differ |= strcmp(first, sym) != 0;
		if (n < sizeof(list))
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s: %s", i ? ", " : "",
					      s->step[i].kversion ? s->step[i].kversion : s->step[i].source, sym);
	}
	if (!differ)
		return 0;
	cz_err("%s: variant '%s': kernel = %s: %s runs a different function per release when none "
	       "is named (%s): name one (source = %s:SYMBOL) or run what each release runs "
	       "(source = kpath:clear_user)", x->where, x->name, x->kernels, file, list, file);
	return -1;
}

int zab_seq_build(const struct zab_variant *x, size_t max, struct zab_seq *s)
{
	const char *src;
	size_t nsrc = zab_devarg_find(x, "--source=", &src), i;
	char *file;
	int ret, n = !!x->series + !!x->kernels + !!x->git;

	memset(s, 0, sizeof(*s));
	if (n > 1 || nsrc != 1) {
		cz_err("%s: variant '%s': %s", x->where, x->name, n > 1 ?
		       "one sequence per variant (series=, kernel= or git=)" :
		       "a sequence (series=, kernel=, git=) needs one source= (the file it changes)");
		return -1;
	}
	if (x->series && zab_devarg_find(x, "--patch=", NULL)) {
		cz_err("%s: variant '%s': patch= beside series=: put the patch in the series",
		       x->where, x->name);
		return -1;
	}
	s->name = cz_xstrdup(x->name);
	s->kind = x->series ? "series" : x->kernels ? "kernel" : "git";
	file = cz_xasprintf("%.*s", (int)zab_source_path_len(src), src);
	if (x->series) {
		char *abs = cz_absolute(file);

		struct stat sb;

		ret = access(abs, R_OK) || stat(abs, &sb) ? -1 : 0;
		if (ret)
			cz_err("%s: variant '%s': source %s: %s", x->where, x->name, file,
			       strerror(errno));
		else if (!S_ISREG(sb.st_mode) && (ret = -1))
			cz_err("%s: variant '%s': source %s: %s, not a regular file", x->where,
			       x->name, file, zab_file_kind(sb.st_mode));
		else
			ret = build_series(x, abs, max, s);
		free(abs);
	} else if (x->kernels && !strcmp(file, "kpath")) {
		ret = kpath_steps(x, src + 6, max, s);
	} else if (x->kernels) {
		ret = zab_seq_kernel(x->kernels, file, x->where, max, s);
		if (!ret && zab_source_path_len(src) == strlen(src))
			ret = same_default(x, file, s);
	} else {
		ret = zab_seq_git(x->git, file, x->where, max, s);
	}
	free(file);
	for (i = 0; !ret && i < s->nstep; i++)
		if (!s->step[i].kversion && s->step[i].source)
			s->step[i].kversion = zab_tree_version(s->step[i].source);
	if (!ret)
		ret = seq_sanitize(x, s);
	if (ret)
		seq_clear(s);
	return ret ? -1 : 0;
}

/* v's daemon arguments made step st's: its --source (the original's :SYMBOL kept) and patches. */
static void step_args(struct zab_variant *v, const struct zab_seq_step *st)
{
	char **old = v->dev_argv, *t;
	size_t nold = v->ndev, i, j;

	v->dev_argv = NULL;
	v->ndev = 0;
	for (i = 0; i < nold; i++) {
		const char *w = old[i];

		if (!strncmp(w, "--source=", 9)) {
			t = cz_xasprintf("--source=%s%s", st->source, w + 9 + zab_source_path_len(w + 9));
			zab_devarg_add(v, t);
			free(t);
			for (j = 0; j < st->npatches; j++) {
				t = cz_xasprintf("--patch=%s", st->patches[j]);
				zab_devarg_add(v, t);
				free(t);
			}
		} else if (!strncmp(w, "--patch=", 8)) {
			char *abs = cz_absolute(w + 8);

			t = cz_xasprintf("--patch=%s", abs);
			zab_devarg_add(v, t);
			free(t);
			free(abs);
		} else {
			zab_devarg_add(v, w);
		}
		free(old[i]);
	}
	free(old);
}

void zab_seq_apply(struct zab_variant *v, const struct zab_seq *s, size_t k)
{
	const struct zab_seq_step *st = &s->step[k];

	step_args(v, st);
	free(v->name);
	v->name = cz_xasprintf("%s@%zu", s->name, k);
	free(v->series);
	free(v->kernels);
	free(v->git);
	v->series = v->kernels = v->git = NULL;
	set_str(&v->seq, s->name);
	set_str(&v->seq_kind, s->kind);
	set_str(&v->label, st->label);
	free(v->kversion);
	v->kversion = st->kversion ? cz_xstrdup(st->kversion) : NULL;
	free(v->git_commit);
	v->git_commit = st->commit ? cz_xstrdup(st->commit) : NULL;
	v->step = (unsigned)k;
	v->steps = (unsigned)(s->nstep - 1);
}
