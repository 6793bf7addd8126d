/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A result <-> its JSON document (what --export-json writes and report reads). */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "cli.h"
#include "zab.h"
#include "util.h"
#include "zeroing.h"

static struct zj *kv_obj(const struct zab_kv *kv, size_t n)
{
	struct zj *o = zj_new(ZJ_OBJ);
	size_t i;

	for (i = 0; i < n; i++)
		zj_set(o, kv[i].key, zj_str(kv[i].val));
	return o;
}

static const char *colocate_name(const struct zab_colocate *c)
{
	return c->mode == ZAB_COLOC_OFF ? "off" : c->mode == ZAB_COLOC_CPU ? "cpu" : "auto";
}

static void experiment_json(struct zj *doc, const struct zab_result *r,
			    const struct zab_experiment *e, struct zj *sessinfo, uint64_t seed)
{
	struct zj *ex = zj_set(doc, "experiment", zj_new(ZJ_OBJ));

	zj_set(ex, "name", zj_str(r->title));
	zj_set(ex, "file", zj_str(e->file));
	zj_set(ex, "sessions", zj_num(r->sessions));
	zj_set(ex, "warmups", zj_num(r->warmups));
	zj_set(ex, "repeats", zj_num(r->repeats));
	zj_set(ex, "retries", zj_num(e->retries));
	zj_set(ex, "order", zj_str(zab_order_name(e->order)));
	zj_set(ex, "seed", zj_num((double)seed));
	zj_set(ex, "base", zj_str(r->vname[r->base]));
	zj_set(ex, "vars", kv_obj(e->vars, e->nvars));
	zj_set(ex, "colocate", zj_str(colocate_name(&e->colocate)));
	/* the offsets of each run follow from this and the seed (sample_offsets has them) */
	zj_set(ex, "placement", zj_str(e->placement.spec ? e->placement.spec : "fixed"));
	if (e->colocate.mode == ZAB_COLOC_CPU)
		zj_set(ex, "colocate_cpu", zj_num(e->colocate.cpu));
	/* per session: the CPU its daemons and benchmarks ran on (null: not co-located) */
	if (sessinfo)
		zj_set(ex, "session_placement", zj_dup(sessinfo));
}

static void benchmarks_json(struct zj *doc, const struct zab_result *r,
			    const struct zab_experiment *e)
{
	struct zj *arr = zj_set(doc, "benchmarks", zj_new(ZJ_ARR)), *o;
	size_t b;

	for (b = 0; b < r->nb; b++) {
		o = zj_push(arr, zj_new(ZJ_OBJ));
		zj_set(o, "name", zj_str(r->b[b].name));
		zj_set(o, "group", zj_str(r->b[b].group));
		zj_set(o, "unit", zj_str(r->b[b].unit));
		zj_set(o, "better", zj_str(r->b[b].higher ? "higher" : "lower"));
		zj_set(o, "cmd", zj_str(e->bench[r->b[b].src].cmd));
		zj_set(o, "source", zj_str(zab_rkinds[r->b[b].kind].source));
		if (r->b[b].timed)   /* absent: the number printed (files from before, too) */
			zj_set(o, "measure", zj_str("time"));
	}
}

static void variants_json(struct zj *doc, const struct zab_result *r,
			  const struct zab_experiment *e, struct zj *devinfo)
{
	struct zj *arr = zj_set(doc, "variants", zj_new(ZJ_ARR)), *o, *s;
	size_t v;

	for (v = 0; v < r->nv; v++) {
		const struct zab_variant *vv = &e->var[v];

		o = zj_push(arr, zj_new(ZJ_OBJ));
		zj_set(o, "name", zj_str(vv->name));
		if (vv->cmd)
			zj_set(o, "cmd", zj_str(vv->cmd));
		zj_set(o, "env", kv_obj(vv->env, vv->nenv));
		zj_set(o, "vars", kv_obj(vv->vars, vv->nvars));
		zj_set(o, "placement", zj_str(zab_var_placement(e, v)->spec ?
					      zab_var_placement(e, v)->spec : "fixed"));
		if (!vv->device)
			continue;
		s = zj_set(o, "device", zj_new(ZJ_OBJ));
		zj_set(s, "routine", zj_str(vv->routine));
		zj_set(s, "align", zj_str(vv->align));
		zj_set(s, "align_point", zj_str(vv->align_point));
		zj_set(s, "chunk", zj_str(vv->chunk));
		zj_set(s, "frontend", zj_str(vv->frontend ? vv->frontend : "fuse"));
		zj_set(s, "threads", zj_str(vv->threads));
		if (devinfo && v < devinfo->n)
			zj_set(s, "sessions", zj_dup(devinfo->items[v]));
	}
}

/* Per-layout cells and the figures over layouts (placement random/sweep). */
static void layouts_json(struct zj *o, const struct zab_result *r, size_t b, size_t v)
{
	struct zab_lstat ls, lb;
	struct zab_lpair p;
	struct zj *arr, *l, *pj;
	size_t j;

	if (!zab_layout_stat(zab_cell(r, b, v), r->b[b].higher, &ls))
		return;
	arr = zj_set(o, "layouts", zj_new(ZJ_ARR));
	for (j = 0; j < ls.nl; j++) {
		l = zj_push(arr, zj_new(ZJ_OBJ));
		zj_set(l, "offset", zj_num(ls.off[j]));
		zj_set(l, "runs", zj_num((double)ls.n[j]));
		zj_set(l, "mean", zj_num(ls.mean[j]));
	}
	l = zj_set(o, "over_layouts", zj_new(ZJ_OBJ));
	zj_set(l, "mean", zj_num(ls.grand));
	zj_set(l, "ci_lo", zj_num(ls.ci_lo));
	zj_set(l, "ci_hi", zj_num(ls.ci_hi));
	zj_set(l, "sensitivity_pct", zj_num(ls.sens_pct));
	zj_set(l, "sensitivity_significant", zj_bool(ls.sens_sig));
	zj_set(l, "layout_p", isnan(ls.sens_p) ? zj_new(ZJ_NULL) : zj_num(ls.sens_p));
	zj_set(l, "best_offset", zj_num(ls.off[ls.best]));
	zj_set(l, "worst_offset", zj_num(ls.off[ls.worst]));
	zj_set(l, "layout_share", isnan(ls.share) ? zj_new(ZJ_NULL) : zj_num(ls.share));
	if (v != r->base && zab_layout_stat(zab_cell(r, b, r->base), r->b[b].higher, &lb)) {
		if (zab_layout_pair(&lb, &ls, r->b[b].higher, &p)) {
			pj = zj_set(o, "paired_by_layout", zj_new(ZJ_OBJ));
			zj_set(pj, "layouts", zj_num((double)p.nl));
			zj_set(pj, "change_pct", zj_num(p.pct));
			zj_set(pj, "ci_lo_pct", zj_num(p.ci_lo));
			zj_set(pj, "ci_hi_pct", zj_num(p.ci_hi));
			zj_set(pj, "better", zj_num((double)p.better));
			zj_set(pj, "worse", zj_num((double)p.worse));
			zj_set(pj, "verdict", zj_str(p.flag > 0 ? "improvement" : p.flag < 0 ?
						     "regression" : "no difference"));
		}
		zab_lstat_free(&lb);
	}
	zab_lstat_free(&ls);
}

static void cells_json(struct zj *doc, const struct zab_result *r)
{
	struct zj *arr = zj_set(doc, "cells", zj_new(ZJ_ARR)), *o, *x;
	size_t b, v, i;

	for (b = 0; b < r->nb; b++)
		for (v = 0; v < r->nv; v++) {
			const struct zab_cell *c = zab_cell(r, b, v);

			o = zj_push(arr, zj_new(ZJ_OBJ));
			zj_set(o, "benchmark", zj_str(r->b[b].name));
			zj_set(o, "variant", zj_str(r->vname[v]));
			x = zj_set(o, "samples", zj_new(ZJ_ARR));
			for (i = 0; i < c->n; i++)
				zj_push(x, zj_num(c->x[i]));
			if (c->sess) {
				x = zj_set(o, "sample_sessions", zj_new(ZJ_ARR));
				for (i = 0; i < c->n; i++)
					zj_push(x, zj_num(c->sess[i]));
			}
			if (c->pre) {
				/* NaN (unknown) as null: JSON has no NaN */
				x = zj_set(o, "sample_preempted", zj_new(ZJ_ARR));
				for (i = 0; i < c->n; i++)
					zj_push(x, isnan(c->pre[i]) ? zj_new(ZJ_NULL) : zj_num(c->pre[i]));
			}
			if (c->off) {
				x = zj_set(o, "sample_offsets", zj_new(ZJ_ARR));
				for (i = 0; i < c->n; i++)
					zj_push(x, c->off[i] < 0 ? zj_new(ZJ_NULL) : zj_num(c->off[i]));
				layouts_json(o, r, b, v);
			}
			zj_set(o, "failed", zj_bool(c->failed));
			zj_set(o, "error", zj_str(c->error));
		}
}

struct zj *zab_result_json(const struct zab_result *r, const struct zab_experiment *e,
			   struct zj *env, struct zj *devinfo, struct zj *sessinfo, uint64_t seed)
{
	struct zj *doc = zj_new(ZJ_OBJ);

	zj_set(doc, "zab", zj_num(1));
	zj_set(doc, "sut", zj_str(r->sut));
	zj_set(doc, "environment", env);
	experiment_json(doc, r, e, sessinfo, seed);
	benchmarks_json(doc, r, e);
	variants_json(doc, r, e, devinfo);
	cells_json(doc, r);
	return doc;
}

static int bad_doc(const char *file, const char *what)
{
	cz_err("%s: not a zab result: %s", file, what);
	return -EINVAL;
}

static int bad_doc2(const char *file, const char *what, const char *name)
{
	cz_err("%s: not a zab result: %s: %s", file, what, name);
	return -EINVAL;
}

static size_t index_of(char *const *names, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return i;
	return n;
}

/*
 * A count of the experiment ("sessions": 4): absent is 0 (files from before
 * it was written); present it must be a whole number min..1000000, the range
 * zab run takes -- a cast of -5 or 1e300 to unsigned is no count at all.
 */
static int get_count(const struct zj *ex, const char *key, unsigned min, unsigned *out,
		     const char *file)
{
	struct zj *v = zj_get(ex, key);
	char what[96];

	if (!v)
		return 0;
	if (v->t != ZJ_NUM || v->num != floor(v->num) || v->num < min || v->num > 1000000) {
		snprintf(what, sizeof(what), "expected a whole number from %u to 1000000", min);
		return bad_doc2(file, key, what);
	}
	*out = (unsigned)v->num;
	return 0;
}

/*
 * The members of o that say what its numbers mean, one "KEY=VALUE" line
 * each (objects flattened to "KEY.SUB="; arrays -- facts of one run, e.g.
 * the daemons' pids -- and the names are left out): what report compares
 * before pooling two files' samples under one name.
 */
static void settings_text(FILE *f, const struct zj *o, const char *prefix)
{
	for (size_t i = 0; o && o->t == ZJ_OBJ && i < o->n; i++) {
		const struct zj *v = o->items[i];
		char *key = zab_xasprintf("%s%s", prefix, o->keys[i]);

		if (v->t == ZJ_OBJ) {
			char *sub = zab_xasprintf("%s.", key);

			settings_text(f, v, sub);
			free(sub);
		} else if (v->t != ZJ_ARR && strcmp(key, "name") && strcmp(key, "group")) {
			fprintf(f, "%s=", key);
			zj_write(f, v);
		}
		free(key);
	}
}

/* The settings of o, and the experiment's var.NAME values ({NAME} in its commands). */
static char *settings_of(const struct zj *o, const struct zj *doc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		abort();
	settings_text(f, o, "");
	settings_text(f, zj_get(zj_get(doc, "experiment"), "vars"), "var.");
	fclose(f);
	return text;
}

/* A variant's "vars" as "NAME=VALUE" lines (hyperfine's "parameters"). */
static char *params_of(const struct zj *vars)
{
	char *text = zab_xstrdup("");

	for (size_t i = 0; vars && vars->t == ZJ_OBJ && i < vars->n; i++) {
		char *t = zab_xasprintf("%s%s=%s\n", text, vars->keys[i],
					vars->items[i]->t == ZJ_STR ? vars->items[i]->str : "");

		free(text);
		text = t;
	}
	return text;
}

static int result_benchmarks(struct zab_result *r, const struct zj *doc, const char *file)
{
	struct zj *arr = zj_get(doc, "benchmarks"), *o;
	const char *s;
	size_t i;

	if (!arr || arr->t != ZJ_ARR || !arr->n || arr->n > ZAB_MAX_ITEMS)
		return bad_doc(file, "\"benchmarks\" missing, empty or too long");
	for (i = 0; i < arr->n; i++) {
		o = arr->items[i];
		s = zj_get_str(o, "name");
		if (!s)
			return bad_doc(file, "a benchmark without a name");
		for (size_t j = 0; j < r->nb; j++)
			if (!strcmp(r->b[j].name, s))
				return bad_doc2(file, "benchmark named twice", s);
		r->b[i].name = zab_xstrdup(s);
		s = zj_get_str(o, "group");
		r->b[i].group = zab_xstrdup(s ? s : "");
		s = zj_get_str(o, "unit");
		r->b[i].unit = zab_xstrdup(s ? s : "");
		s = zj_get_str(o, "better");
		r->b[i].higher = !s || strcmp(s, "lower");
		r->b[i].kind = zab_rkind_of(zj_get_str(o, "source"));
		r->b[i].settings = settings_of(o, doc);
		r->b[i].file = file;
		r->nb++;
	}
	return 0;
}

static int result_variants(struct zab_result *r, const struct zj *doc, const char *file)
{
	struct zj *arr = zj_get(doc, "variants");
	const char *s;
	size_t i;

	if (!arr || arr->t != ZJ_ARR || !arr->n || arr->n > ZAB_MAX_ITEMS)
		return bad_doc(file, "\"variants\" missing, empty or too long");
	for (i = 0; i < arr->n; i++) {
		s = zj_get_str(arr->items[i], "name");
		if (!s)
			return bad_doc(file, "a variant without a name");
		if (index_of(r->vname, r->nv, s) != r->nv)
			return bad_doc2(file, "variant named twice", s);
		r->vname[i] = zab_xstrdup(s);
		r->vset[i] = settings_of(arr->items[i], NULL);
		r->vparams[i] = params_of(zj_get(arr->items[i], "vars"));
		r->vfile[i] = file;
		r->nv++;
	}
	return 0;
}

/* One cell: its samples (finite numbers), failed and error.  seen: cells already read. */
/*
 * A per-sample array beside "samples" (sessions, preempted shares, offsets):
 * NULL when absent, else its items, checked to be one per sample.
 */
static const struct zj *per_sample(const struct zj *o, const char *key, size_t n, const char *file,
				   int *err)
{
	const struct zj *a = zj_get(o, key);

	*err = 0;
	if (!a)
		return NULL;
	if (a->t != ZJ_ARR || a->n != n) {
		*err = bad_doc2(file, "not one entry per sample", key);
		return NULL;
	}
	return a;
}

static bool whole_in(const struct zj *x, double lo, double hi)
{
	return x->t == ZJ_NUM && x->num >= lo && x->num <= hi && x->num == floor(x->num);
}

/* A cell's samples with their sessions, preempted shares and placement offsets. */
static int cell_samples(struct zab_cell *c, const struct zj *o, const char *file)
{
	const struct zj *x = zj_get(o, "samples"), *ss, *pre, *off, *it;
	size_t j, n = x && x->t == ZJ_ARR ? x->n : 0;
	int e1, e2, e3;

	ss = per_sample(o, "sample_sessions", n, file, &e1);
	pre = per_sample(o, "sample_preempted", n, file, &e2);
	off = per_sample(o, "sample_offsets", n, file, &e3);
	if (e1 || e2 || e3)
		return -1;
	for (j = 0; j < n; j++) {
		if (x->items[j]->t != ZJ_NUM || !isfinite(x->items[j]->num))
			return bad_doc(file, "a sample is not a number");
		if (ss && !whole_in(ss->items[j], 1, UINT_MAX))
			return bad_doc2(file, "not a session number", "sample_sessions");
		if (ss)
			zab_cell_add_session(c, x->items[j]->num, (unsigned)ss->items[j]->num);
		else
			zab_cell_add(c, x->items[j]->num);
		it = pre ? pre->items[j] : NULL;
		if (it && it->t != ZJ_NULL && !(it->t == ZJ_NUM && it->num >= 0 && it->num <= 1))
			return bad_doc2(file, "not a share in 0..1 or null", "sample_preempted");
		if (it)
			zab_cell_set_pre(c, it->t == ZJ_NULL ? NAN : it->num);
		it = off ? off->items[j] : NULL;
		if (it && it->t != ZJ_NULL && !whole_in(it, 0, ZERO_PLACE_MAX_OFFSET))
			return bad_doc2(file, "not an offset in 0..4095 or null", "sample_offsets");
		if (it)
			zab_cell_set_off(c, it->t == ZJ_NULL ? -1 : (int)it->num);
	}
	return 0;
}

static int result_cell(struct zab_result *r, const struct zj *o, bool *seen, const char *file)
{
	const char *bn = zj_get_str(o, "benchmark"), *vn = zj_get_str(o, "variant"), *s;
	struct zab_cell *c;
	struct zj *fl;
	char what[160];
	size_t b = r->nb, v, j;

	for (j = 0; bn && j < r->nb; j++)
		if (!strcmp(r->b[j].name, bn))
			b = j;
	v = vn ? index_of(r->vname, r->nv, vn) : r->nv;
	if (b == r->nb || v == r->nv)
		return bad_doc(file, "a cell names an unknown benchmark or variant");
	/* Two cells for one pair would be pooled silently: which file is right? */
	if (seen[b * r->nv + v]) {
		snprintf(what, sizeof(what), "benchmark '%s', variant '%s'", bn, vn);
		return bad_doc2(file, "a cell given twice", what);
	}
	seen[b * r->nv + v] = true;
	c = zab_cell(r, b, v);
	if (cell_samples(c, o, file))
		return -1;
	fl = zj_get(o, "failed");
	c->failed = fl && fl->t == ZJ_BOOL && fl->b;
	s = zj_get_str(o, "error");
	c->error = zab_xstrdup(s);
	return 0;
}

int zab_result_from_json(struct zab_result *r, struct zj *doc, const char *file)
{
	struct zj *ex, *arr;
	const char *s;
	bool *seen;
	double d;
	size_t i;
	int ret;

	memset(r, 0, sizeof(*r));
	r->doc = doc;
	if (doc->t != ZJ_OBJ || !zj_get_num(doc, "zab", &d))
		return bad_doc(file, "no \"zab\" version member");
	if (d != 1)
		return bad_doc(file, "unsupported \"zab\" version");
	ex = zj_get(doc, "experiment");
	s = zj_get_str(doc, "sut");
	r->sut = zab_xstrdup(s ? s : "unknown");
	s = zj_get_str(ex, "name");
	r->title = zab_xstrdup(s ? s : "");
	if (get_count(ex, "sessions", 1, &r->sessions, file) ||
	    get_count(ex, "warmups", 0, &r->warmups, file) ||
	    get_count(ex, "repeats", 1, &r->repeats, file))
		return -EINVAL;
	ret = result_benchmarks(r, doc, file);
	if (!ret)
		ret = result_variants(r, doc, file);
	if (ret)
		return ret;
	s = zj_get_str(ex, "base");
	r->base = s ? index_of(r->vname, r->nv, s) : 0;
	if (r->base == r->nv)
		return bad_doc(file, "the base variant is not among the variants");
	r->cells = zab_xmalloc(r->nb * r->nv * sizeof(*r->cells));
	arr = zj_get(doc, "cells");
	if (!arr || arr->t != ZJ_ARR)
		return bad_doc(file, "\"cells\" missing");
	seen = zab_xmalloc(r->nb * r->nv * sizeof(*seen));
	for (i = 0, ret = 0; !ret && i < arr->n; i++)
		ret = result_cell(r, arr->items[i], seen, file);
	free(seen);
	return ret;
}
