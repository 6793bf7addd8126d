/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Experiment files: a small INI dialect (see experiments/README.md).
 *
 *   # comment                    ; comment
 *   [experiment]                 name= sessions= warmups= repeats= retries= timeout=
 *                                order=random|interleave|sequential|abba colocate=auto|off|CPU
 *                                base= var.NAME= placement=
 *   [benchmark NAME]             cmd= unit= better=higher|lower group= in-device=auto|yes|no
 *   [variant NAME]               cmd= env.NAME= var.NAME= routine= align=
 *                                align-point= chunk= frontend=fuse|cuse threads=
 *                                cusezero-args= placement= source= patch= alt= kconfig=
 *                                series= kernel= git= (a sequence: sequence.h) and a
 *                                step's sequence= sequence-kind= step= steps= label=
 *                                kernel-version= git-commit=
 *
 * Every error is one line naming FILE:LINE and the bad key or value; a key
 * given twice in one section is an error (which one was meant?).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cli.h"
#include "kpath.h"
#include "sequence.h"
#include "model.h"
#include "util.h"
#include "zeroing.h"

const char *zab_order_name(enum zab_order o)
{
	return o == ZAB_ORDER_INTERLEAVE ? "interleave" :
	       o == ZAB_ORDER_SEQUENTIAL ? "sequential" : o == ZAB_ORDER_ABBA ? "abba" : "random";
}

int zab_order_parse(const char *s, enum zab_order *o)
{
	if (!strcmp(s, "random"))
		*o = ZAB_ORDER_RANDOM;
	else if (!strcmp(s, "interleave"))
		*o = ZAB_ORDER_INTERLEAVE;
	else if (!strcmp(s, "sequential"))
		*o = ZAB_ORDER_SEQUENTIAL;
	else if (!strcmp(s, "abba"))
		*o = ZAB_ORDER_ABBA;
	else
		return -EINVAL;
	return 0;
}

int zab_colocate_parse(const char *s, struct zab_colocate *out)
{
	uint64_t v;

	if (!strcmp(s, "auto"))
		out->mode = ZAB_COLOC_AUTO;
	else if (!strcmp(s, "off"))
		out->mode = ZAB_COLOC_OFF;
	else if (!cz_parse_u64(s, 0, 4095, &v))
		*out = (struct zab_colocate){ ZAB_COLOC_CPU, (unsigned)v };
	else
		return -EINVAL;
	return 0;
}

int zab_indev_parse(const char *s, enum zab_indev *out)
{
	if (!strcmp(s, "auto"))
		*out = ZAB_INDEV_AUTO;
	else if (!strcmp(s, "yes"))
		*out = ZAB_INDEV_YES;
	else if (!strcmp(s, "no"))
		*out = ZAB_INDEV_NO;
	else
		return -EINVAL;
	return 0;
}

int zab_kref_parse(const char *s, bool *off)
{
	if (strcmp(s, "yes") && strcmp(s, "no"))
		return -EINVAL;
	*off = !strcmp(s, "no");
	return 0;
}

int zab_measure_parse(const char *s, enum zab_measure *out)
{
	if (!strcmp(s, "auto"))
		*out = ZAB_MEASURE_AUTO;
	else if (!strcmp(s, "output"))
		*out = ZAB_MEASURE_OUTPUT;
	else if (!strcmp(s, "time"))
		*out = ZAB_MEASURE_TIME;
	else
		return -EINVAL;
	return 0;
}

static bool valid_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isprint((unsigned char)*s) || strchr("[]=,:{}\"", *s))
			return false;
	return true;
}

static int kv_set(struct zab_kv *kv, size_t *n, const char *key, const char *val)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp(kv[i].key, key)) {
			free(kv[i].val);
			kv[i].val = cz_xstrdup(val);
			return 0;
		}
	if (*n == CZRES_MAX_ITEMS)
		return -E2BIG;
	kv[*n].key = cz_xstrdup(key);
	kv[(*n)++].val = cz_xstrdup(val);
	return 0;
}

static int parse_uint(const char *s, unsigned max, unsigned *out)
{
	uint64_t v;
	int ret = cz_parse_u64(s, 0, max, &v);

	if (!ret)
		*out = (unsigned)v;
	return ret;
}

/* Set one [experiment] key.  Returns 0, or -EINVAL (bad value) / -ENOENT (unknown key). */
static int experiment_key(struct zab_experiment *e, const char *k, const char *v)
{
	if (!strcmp(k, "name")) {
		free(e->name);
		e->name = cz_xstrdup(v);
		return 0;
	}
	if (!strcmp(k, "sessions"))
		return parse_uint(v, 100000, &e->sessions) || !e->sessions ? -EINVAL : 0;
	if (!strcmp(k, "warmups"))
		return parse_uint(v, 100000, &e->warmups) ? -EINVAL : 0;
	if (!strcmp(k, "repeats"))
		return parse_uint(v, 100000, &e->repeats) || !e->repeats ? -EINVAL : 0;
	if (!strcmp(k, "retries"))
		return parse_uint(v, 100, &e->retries) ? -EINVAL : 0;
	if (!strcmp(k, "timeout"))
		return parse_uint(v, 86400, &e->timeout) ? -EINVAL : 0;
	if (!strcmp(k, "order"))
		return zab_order_parse(v, &e->order);
	if (!strcmp(k, "colocate"))
		return zab_colocate_parse(v, &e->colocate);
	if (!strcmp(k, "placement"))
		return zab_placement_parse(v, &e->placement);
	if (!strcmp(k, "verdict"))
		return czres_verdict_parse(v, &e->paired);
	if (!strcmp(k, "kernel-ref"))
		return zab_kref_parse(v, &e->no_kernel_ref);
	if (!strcmp(k, "base") || !strcmp(k, "prepare")) {
		char **dst = !strcmp(k, "base") ? &e->base : &e->prepare;

		free(*dst);
		*dst = *v ? cz_xstrdup(v) : NULL;
		return 0;
	}
	if (!strncmp(k, "var.", 4))
		return zab_ident(k + 4) ? kv_set(e->vars, &e->nvars, k + 4, v) : -EINVAL;
	return -ENOENT;
}

static int bench_key(struct zab_bench *b, const char *k, const char *v)
{
	char **dst;

	if (!strcmp(k, "better")) {
		if (strcmp(v, "higher") && strcmp(v, "lower"))
			return -EINVAL;
		b->higher = !strcmp(v, "higher");
		return 0;
	}
	if (!strcmp(k, "in-device"))
		return zab_indev_parse(v, &b->in_device);
	if (!strcmp(k, "measure"))
		return zab_measure_parse(v, &b->measure);
	if (!strcmp(k, "cmd"))
		dst = &b->cmd;
	else if (!strcmp(k, "unit"))
		dst = &b->unit;
	else if (!strcmp(k, "group"))
		dst = &b->group;
	else
		return -ENOENT;
	if (!strcmp(k, "cmd") && !*v)
		return -EINVAL;
	free(*dst);
	*dst = cz_xstrdup(v);
	return 0;
}

/*
 * source= patch= alt= kconfig=: a kernel source file as the variant's
 * routine, handed to the variant's daemon as --source/--patch/--alt/
 * --kconfig (in order: each applies to the last source), which also makes
 * it the daemon's routine unless routine= names another.
 */
static int ksrc_key(struct zab_variant *x, const char *k, const char *v)
{
	char *arg;

	if (!strcmp(k, "patch") && (strchr(v, ' ') || strchr(v, '\t'))) {
		/* patch = A B C: several, applied in this order */
		char *copy = cz_xstrdup(v), *w, *save = NULL;
		int ret = 0;

		for (w = strtok_r(copy, " \t", &save); w && !ret; w = strtok_r(NULL, " \t", &save))
			ret = ksrc_key(x, k, w);
		free(copy);
		return ret;
	}
	if (!*v || strchr(v, ' ') || strchr(v, '\t'))
		return -EINVAL;         /* one word: an experiment's values are split on blanks */
	if (strcmp(k, "source") && !zab_devarg_find(x, "--source=", NULL))
		return -EINVAL;         /* patch=, alt=, kconfig= after a source= */
	arg = cz_xasprintf("--%s=%s", k, v);
	zab_devarg_add(x, arg);
	free(arg);
	x->device = true;
	return 0;
}

/* cusezero-args = WORDS: the daemon's own options, as the user wrote them, one word each. */
static void dev_words(struct zab_variant *x, const char *v)
{
	char *copy = cz_xstrdup(v), *w, *save = NULL;

	for (w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		zab_devarg_add(x, w);
	free(copy);
	x->device = true;
}

static int variant_key(struct zab_variant *x, const char *k, const char *v)
{
	static const char *const dev_keys[] = {
		"routine", "align", "align-point", "chunk", "frontend", "threads",
	};
	char **dst[] = {
		&x->routine, &x->align, &x->align_point, &x->chunk, &x->frontend, &x->threads,
	};
	uint64_t u;
	size_t i;
	int ret;

	if (!strncmp(k, "env.", 4))
		return zab_ident(k + 4) ? kv_set(x->env, &x->nenv, k + 4, v) : -EINVAL;
	if (!strncmp(k, "var.", 4))
		return zab_ident(k + 4) ? kv_set(x->vars, &x->nvars, k + 4, v) : -EINVAL;
	if (!strcmp(k, "cmd")) {
		if (!*v)
			return -EINVAL;
		free(x->cmd);
		x->cmd = cz_xstrdup(v);
		return 0;
	}
	if (!strcmp(k, "source") || !strcmp(k, "patch") || !strcmp(k, "alt") || !strcmp(k, "kconfig"))
		return ksrc_key(x, k, v);
	if (!strcmp(k, "placement"))
		return zab_placement_parse(v, &x->placement);
	if (!strcmp(k, "cusezero-args")) {
		dev_words(x, v);
		return 0;
	}
	ret = zab_seq_key(x, k, v);
	if (ret != -ENOENT)
		return ret;
	if (!strcmp(k, "arch")) {
		if (!zab_ident(v))
			return -EINVAL;
		free(x->arch);
		x->arch = cz_xstrdup(v);
		return 0;
	}
	for (i = 0; i < CZ_ARRAY_SIZE(dev_keys); i++) {
		if (strcmp(k, dev_keys[i]))
			continue;
		if (!strcmp(k, "align") && cz_parse_u64(v, 0, 4095, &u))
			return -EINVAL;
		if (!strcmp(k, "chunk") && cz_parse_size(v, &u))
			return -EINVAL;
		if (!strcmp(k, "threads") && cz_parse_u64(v, 1, 1024, &u))
			return -EINVAL;
		if (!strcmp(k, "align-point") && strcmp(v, "entry") && strcmp(v, "loop"))
			return -EINVAL;
		if (!strcmp(k, "frontend") && strcmp(v, "fuse") && strcmp(v, "cuse"))
			return -EINVAL;
		if (!strcmp(k, "routine") && !zab_ident(v))
			return -EINVAL;
		free(*dst[i]);
		*dst[i] = cz_xstrdup(v);
		x->device = true;
		return 0;
	}
	return -ENOENT;
}

static struct zab_bench *new_bench(struct zab_experiment *e, const char *name, const char *where)
{
	struct zab_bench *b;
	size_t i;

	for (i = 0; i < e->nbench; i++)
		if (!strcmp(e->bench[i].name, name)) {
			cz_err("%s: benchmark '%s' defined twice", where, name);
			return NULL;
		}
	if (e->nbench == CZRES_MAX_ITEMS) {
		cz_err("%s: more than %d benchmarks", where, CZRES_MAX_ITEMS);
		return NULL;
	}
	b = &e->bench[e->nbench++];
	b->name = cz_xstrdup(name);
	b->higher = true;
	b->where = cz_xstrdup(where);
	return b;
}

static struct zab_variant *new_variant(struct zab_experiment *e, const char *name, const char *where)
{
	struct zab_variant *v;

	if (e->nvar == CZRES_MAX_ITEMS) {
		cz_err("%s: more than %d variants", where, CZRES_MAX_ITEMS);
		return NULL;
	}
	v = &e->var[e->nvar++];
	v->name = cz_xstrdup(name);
	v->where = cz_xstrdup(where);
	return v;
}

/* The parser's state while reading one file. */
struct loader {
	struct zab_experiment *e;
	enum { NONE, EXP, BENCH, VAR } sect;
	struct zab_bench *b;
	struct zab_variant *v;
	char where[512], secname[300];
	int lineno;
	/* keys seen in the current section ([experiment]: in all of them), and where */
	char **keys;
	int *keyline;
	size_t nkeys, nexp;      /* nexp: how many of keys belong to [experiment] */
};

static void loader_forget_keys(struct loader *ld, size_t from)
{
	while (ld->nkeys > from)
		free(ld->keys[--ld->nkeys]);
}

/* A key given twice in one section: which value was meant?  0, or -1 after one line. */
static int loader_key_once(struct loader *ld, const char *k)
{
	size_t i, from = ld->sect == EXP ? 0 : ld->nexp, to = ld->sect == EXP ? ld->nexp : ld->nkeys;

	for (i = from; i < to; i++)
		if (!strcmp(ld->keys[i], k)) {
			cz_err("%s: key '%s' given twice in %s (first at line %d)",
				ld->where, k, ld->secname, ld->keyline[i]);
			return -1;
		}
	/* entering a section drops the previous one's keys: [experiment]'s stay first */
	ld->keys = cz_xrealloc(ld->keys, (ld->nkeys + 1) * sizeof(*ld->keys));
	ld->keyline = cz_xrealloc(ld->keyline, (ld->nkeys + 1) * sizeof(*ld->keyline));
	ld->keys[ld->nkeys] = cz_xstrdup(k);
	ld->keyline[ld->nkeys++] = ld->lineno;
	if (ld->sect == EXP)
		ld->nexp++;
	return 0;
}

/* "[experiment]", "[benchmark NAME]", "[variant NAME]": 0 or -1 after one line. */
static int loader_section(struct loader *ld, char *s)
{
	char *end = strchr(s, ']'), *k, *val;

	if (!end || end[1]) {
		cz_err("%s: bad section header '%s' (expected [NAME])", ld->where, s);
		return -1;
	}
	*end = 0;
	s = cz_trim(s + 1);
	snprintf(ld->secname, sizeof(ld->secname), "[%s]", s);
	loader_forget_keys(ld, ld->nexp);
	if (!strcmp(s, "experiment")) {
		ld->sect = EXP;
		return 0;
	}
	k = strchr(s, ' ');
	val = k ? cz_trim(k + 1) : NULL;
	if (k)
		*k = 0;
	if (!val || !valid_name(val)) {
		cz_err("%s: bad section %s (expected [experiment], [benchmark NAME] or [variant NAME]; names without []=,:{}\")",
			ld->where, ld->secname);
		return -1;
	}
	if (!strcmp(s, "benchmark")) {
		ld->sect = BENCH;
		ld->b = new_bench(ld->e, val, ld->where);
		return ld->b ? 0 : -1;
	}
	if (!strcmp(s, "variant")) {
		ld->sect = VAR;
		ld->v = new_variant(ld->e, val, ld->where);
		return ld->v ? 0 : -1;
	}
	cz_err("%s: unknown section kind '%s' (expected experiment, benchmark or variant)",
		ld->where, s);
	return -1;
}

/* "KEY = VALUE" in the current section: 0 or -1 after one line. */
static int loader_key(struct loader *ld, char *s)
{
	char *eq = strchr(s, '='), *k, *val;
	int ret = 0;

	if (!eq) {
		cz_err("%s: expected KEY = VALUE, got '%s'", ld->where, s);
		return -1;
	}
	*eq = 0;
	k = cz_trim(s);
	val = cz_trim(eq + 1);
	switch (ld->sect) {
	case NONE:
		cz_err("%s: key '%s' before any [section]", ld->where, k);
		return -1;
	case EXP:
		ret = experiment_key(ld->e, k, val);
		break;
	case BENCH:
		ret = bench_key(ld->b, k, val);
		if (!ret && !strcmp(k, "cmd")) {
			free(ld->b->where);
			ld->b->where = cz_xstrdup(ld->where);
		}
		break;
	case VAR:
		ret = variant_key(ld->v, k, val);
		if (!ret && !strcmp(k, "cmd")) {
			free(ld->v->where);
			ld->v->where = cz_xstrdup(ld->where);
		}
		break;
	}
	if (ret == -ENOENT) {
		cz_err("%s: unknown key '%s' in %s", ld->where, k, ld->secname);
		return -1;
	}
	if (ret) {
		cz_err("%s: bad value '%s' for '%s' in %s", ld->where, val, k,
			ld->secname);
		return -1;
	}
	return loader_key_once(ld, k);
}

/* A directory given where a file belongs: say so, and name the experiment files in it. */
static int loader_directory(const char *path)
{
	char names[256] = "";
	size_t len = 0, n = 0;
	struct dirent *de;
	DIR *d = opendir(path);

	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.' || strchr(de->d_name, '.'))
			continue;   /* README.md and the like are not experiments */
		if (len + strlen(de->d_name) + 8 < sizeof(names))
			len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
						n ? ", " : "", de->d_name);
		n++;
	}
	if (d)
		closedir(d);
	cz_err("%s: is a directory, not an experiment file%s%s%s", path,
		n ? " (files in it: " : "", names, n ? ")" : "");
	return -EISDIR;
}

/*
 * The longest line and the most text an experiment file may hold.  getline
 * grew without bound on /dev/zero (no newline ever comes): read a bounded
 * line by hand.  1 on a line, 0 at the end, -1 after one error line.
 */
#define ZAB_LINE_MAX 65536
#define ZAB_FILE_MAX (16u << 20)

static int read_line(FILE *f, char *buf, size_t *total, const char *where)
{
	size_t n = 0;
	int c;

	while ((c = getc(f)) != EOF) {
		if (!c || n + 1 >= ZAB_LINE_MAX || ++*total > ZAB_FILE_MAX) {
			cz_err("%s: %s", where, !c ? "binary data (a NUL byte), not an experiment" :
			       n + 1 >= ZAB_LINE_MAX ? "line longer than 64 KiB" :
			       "file larger than 16 MiB");
			return -1;
		}
		buf[n++] = (char)c;
		if (c == '\n')
			break;
	}
	buf[n] = 0;
	return n > 0;
}

int zab_experiment_load(struct zab_experiment *e, const char *path)
{
	struct loader ld = { .e = e, .sect = NONE };
	char *line = cz_xmalloc(ZAB_LINE_MAX), *s;
	size_t total = 0;
	int ret = 0, got;
	struct stat st;
	FILE *f;

	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		free(line);
		return loader_directory(path);
	}
	f = fopen(path, "r");
	if (!f) {
		ret = -errno;
		cz_err("%s: %s", path, strerror(-ret));
		free(line);
		return ret;
	}
	free(e->file);
	e->file = cz_xstrdup(path);
	while (!ret) {
		ld.lineno++;
		snprintf(ld.where, sizeof(ld.where), "%s:%d", path, ld.lineno);
		got = read_line(f, line, &total, ld.where);
		if (got <= 0) {
			ret = got;
			break;
		}
		s = cz_trim(line);
		if (!*s || *s == '#' || *s == ';')
			continue;
		ret = *s == '[' ? loader_section(&ld, s) : loader_key(&ld, s);
	}
	loader_forget_keys(&ld, 0);
	free(ld.keys);
	free(ld.keyline);
	free(line);
	fclose(f);
	return ret ? -EINVAL : 0;
}

int zab_bench_spec(struct zab_experiment *e, const char *spec)
{
	const char *eq = strchr(spec, '=');
	struct zab_bench *b;
	char *name;

	if (!eq || eq == spec || !eq[1]) {
		cz_err("--bench '%s': expected NAME=COMMAND", spec);
		return -EINVAL;
	}
	name = cz_xasprintf("%.*s", (int)(eq - spec), spec);
	if (!valid_name(name)) {
		cz_err("--bench '%s': bad name '%s'", spec, name);
		free(name);
		return -EINVAL;
	}
	b = new_bench(e, name, "--bench");
	free(name);
	if (!b)
		return -EINVAL;
	b->cmd = cz_xstrdup(eq + 1);
	return 0;
}

static bool env_like(const char *k)
{
	if (!zab_ident(k))
		return false;
	for (; *k; k++)
		if (islower((unsigned char)*k))
			return false;
	return true;
}

int zab_variant_spec(struct zab_experiment *e, const char *spec)
{
	const char *colon = strchr(spec, ':');
	char *name, *rest, *item, *next, *eq, *key;
	struct zab_variant *v;
	int ret = 0;

	name = colon ? cz_xasprintf("%.*s", (int)(colon - spec), spec) : cz_xstrdup(spec);
	if (!valid_name(name)) {
		cz_err("--variant '%s': bad name '%s' (expected NAME[:KEY=VALUE,...])",
			spec, name);
		free(name);
		return -EINVAL;
	}
	v = new_variant(e, name, "--variant");
	free(name);
	if (!v)
		return -EINVAL;
	if (!colon || !colon[1])
		return 0;
	rest = cz_xstrdup(colon + 1);
	for (item = rest; item && !ret; item = next) {
		eq = strchr(item, '=');
		if (!eq) {
			cz_err("--variant '%s': expected KEY=VALUE, got '%s'", spec, item);
			ret = -EINVAL;
			break;
		}
		*eq = 0;
		key = item;
		/* cmd= takes the rest of the spec (commands contain commas) */
		next = strcmp(key, "cmd") ? strchr(eq + 1, ',') : NULL;
		if (next)
			*next++ = 0;
		ret = variant_key(v, key, eq + 1);
		if (ret == -ENOENT && env_like(key))
			ret = kv_set(v->env, &v->nenv, key, eq + 1);
		if (ret == -ENOENT)
			cz_err("--variant '%s': unknown key '%s' (settings: routine align align-point chunk frontend threads cusezero-args placement source patch alt kconfig series kernel git cmd env.X var.X, or an UPPER_CASE environment variable)",
				spec, key);
		else if (ret)
			cz_err("--variant '%s': bad value '%s' for '%s'", spec, eq + 1, key);
	}
	free(rest);
	return ret ? -EINVAL : 0;
}

char *zab_expand(const char *tmpl, const struct zab_kv *kv, size_t nkv, char **bad)
{
	return zab_subst(tmpl, kv, nkv, true, bad);
}

static void free_kv(struct zab_kv *kv, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(kv[i].key);
		free(kv[i].val);
	}
}

void zab_experiment_free(struct zab_experiment *e)
{
	size_t i;

	for (i = 0; i < e->nbench; i++) {
		free(e->bench[i].name);
		free(e->bench[i].group);
		free(e->bench[i].cmd);
		free(e->bench[i].unit);
		free(e->bench[i].where);
	}
	for (i = 0; i < e->nvar; i++)
		zab_variant_free(&e->var[i]);
	free_kv(e->vars, e->nvars);
	free(e->name);
	free(e->file);
	free(e->base);
	free(e->prepare);
	zab_placement_free(&e->placement);
	zab_seq_free(e->seqs, e->nseqs);
	free(e->arch_dropped);
	memset(e, 0, sizeof(*e));
}

int zab_experiment_only(struct zab_experiment *e, const char *list)
{
	bool keep[CZRES_MAX_ITEMS] = { false };
	char *l = cz_xstrdup(list), *save = NULL, *w;
	size_t i, n = 0;
	int ret = 0;

	for (w = strtok_r(l, ",", &save); w && !ret; w = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < e->nvar && strcmp(e->var[i].name, w); i++)
			;
		if (i == e->nvar) {
			cz_err("--only-variants: no variant '%s' in the experiment", w);
			ret = -1;
		} else {
			keep[i] = true;
		}
	}
	free(l);
	for (i = 0; i < e->nvar && !ret && e->base; i++)
		if (!strcmp(e->var[i].name, e->base) && !keep[i]) {
			cz_err("--only-variants: the base '%s' is not among them", e->base);
			ret = -1;
		}
	for (i = 0; i < e->nvar && !ret; i++) {
		if (keep[i])
			e->var[n++] = e->var[i];
		else
			zab_variant_free(&e->var[i]);
	}
	if (!ret)
		e->nvar = n;
	return ret;
}

void zab_variant_free(struct zab_variant *v)
{
	{
		free(v->name);
		free(v->arch);
		free(v->cmd);
		free_kv(v->env, v->nenv);
		free_kv(v->vars, v->nvars);
		free(v->routine);
		free(v->align);
		free(v->align_point);
		free(v->chunk);
		free(v->frontend);
		free(v->threads);
		for (size_t i = 0; i < v->ndev; i++)
			free(v->dev_argv[i]);
		free(v->dev_argv);
		free(v->where);
		zab_placement_free(&v->placement);
		zab_seq_variant_free(v);
	}
	memset(v, 0, sizeof(*v));
}

/*
 * An experiment given by name ("quick-alignment") or as "experiments/NAME"
 * that is not there is looked up by its last component in the directories of
 * $ZAB_EXPERIMENT_PATH (colon-separated), then in the installed experiments,
 * CZ_PKGDATADIR/experiments (make install).  Returns name itself when it
 * exists or nothing matches (the open then names it), else a static buffer.
 */
#ifndef CZ_PKGDATADIR	/* Makefile.am passes $(pkgdatadir); a build without it (scripts/fuzz) */
#define CZ_PKGDATADIR "/usr/share/cusezero"
#endif
const char *zab_find_experiment(const char *name)
{
	static char found[PATH_MAX];
	const char *base = strrchr(name, '/'), *env = getenv("ZAB_EXPERIMENT_PATH");
	char dirs[PATH_MAX], *dir, *save = NULL;

	if (!access(name, F_OK) || (base && strncmp(name, "experiments/", 12)))
		return name;
	base = base ? base + 1 : name;
	snprintf(dirs, sizeof(dirs), "%s%s%s", env ? env : "", env ? ":" : "",
		 CZ_PKGDATADIR "/experiments");
	for (dir = strtok_r(dirs, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		if ((size_t)snprintf(found, sizeof(found), "%s/%s", dir, base) < sizeof(found) &&
		    !access(found, R_OK))
			return found;
	}
	return name;
}
