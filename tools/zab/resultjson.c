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

static json_t *kv_obj(const struct zab_kv *kv, size_t n)
{
	json_t *o = cz_jobj();
	size_t i;

	for (i = 0; i < n; i++)
		cz_jset(o, kv[i].key, cz_jstr(kv[i].val));
	return o;
}

static const char *colocate_name(const struct zab_colocate *c)
{
	return c->mode == ZAB_COLOC_OFF ? "off" : c->mode == ZAB_COLOC_CPU ? "cpu" : "auto";
}

static void experiment_json(json_t *doc, const struct zab_result *r,
			    const struct zab_experiment *e, json_t *sessinfo, uint64_t seed)
{
	json_t *ex = cz_jset(doc, "experiment", cz_jobj());

	cz_jset(ex, "name", cz_jstr(r->title));
	cz_jset(ex, "file", cz_jstr(e->file));
	cz_jset(ex, "sessions", cz_jnum(r->sessions));
	cz_jset(ex, "warmups", cz_jnum(r->warmups));
	cz_jset(ex, "repeats", cz_jnum(r->repeats));
	cz_jset(ex, "retries", cz_jnum(e->retries));
	cz_jset(ex, "order", cz_jstr(zab_order_name(e->order)));
	cz_jset(ex, "seed", cz_jnum((double)seed));
	cz_jset(ex, "base", cz_jstr(r->vname[r->base]));
	cz_jset(ex, "vars", kv_obj(e->vars, e->nvars));
	cz_jset(ex, "colocate", cz_jstr(colocate_name(&e->colocate)));
	/* the offsets of each run follow from this and the seed (sample_offsets has them) */
	cz_jset(ex, "placement", cz_jstr(e->placement.spec ? e->placement.spec : "fixed"));
	/* the (R)/(I) rule at fixed placement: CIs apart, or runs of one slot paired */
	cz_jset(ex, "verdict", cz_jstr(r->paired ? "paired" : "overlap"));
	if (e->colocate.mode == ZAB_COLOC_CPU)
		cz_jset(ex, "colocate_cpu", cz_jnum(e->colocate.cpu));
	/* per session: the CPU its daemons and benchmarks ran on (null: not co-located) */
	if (sessinfo)
		cz_jset(ex, "session_placement", json_deep_copy(sessinfo));
}

static void benchmarks_json(json_t *doc, const struct zab_result *r,
			    const struct zab_experiment *e)
{
	json_t *arr = cz_jset(doc, "benchmarks", cz_jarr()), *o;
	size_t b;

	for (b = 0; b < r->nb; b++) {
		o = cz_jpush(arr, cz_jobj());
		cz_jset(o, "name", cz_jstr(r->b[b].name));
		cz_jset(o, "group", cz_jstr(r->b[b].group));
		cz_jset(o, "unit", cz_jstr(r->b[b].unit));
		cz_jset(o, "better", cz_jstr(r->b[b].higher ? "higher" : "lower"));
		cz_jset(o, "cmd", cz_jstr(e->bench[r->b[b].src].cmd));
		cz_jset(o, "source", cz_jstr(zab_rkinds[r->b[b].kind].source));
		if (r->b[b].timed)   /* absent: the number printed (files from before, too) */
			cz_jset(o, "measure", cz_jstr("time"));
	}
}

static void variants_json(json_t *doc, const struct zab_result *r,
			  const struct zab_experiment *e, json_t *devinfo)
{
	json_t *arr = cz_jset(doc, "variants", cz_jarr()), *o, *s;
	size_t v;

	for (v = 0; v < r->nv; v++) {
		const struct zab_variant *vv = &e->var[v];

		o = cz_jpush(arr, cz_jobj());
		cz_jset(o, "name", cz_jstr(vv->name));
		if (vv->cmd)
			cz_jset(o, "cmd", cz_jstr(vv->cmd));
		cz_jset(o, "env", kv_obj(vv->env, vv->nenv));
		cz_jset(o, "vars", kv_obj(vv->vars, vv->nvars));
		cz_jset(o, "placement", cz_jstr(zab_var_placement(e, v)->spec ?
					      zab_var_placement(e, v)->spec : "fixed"));
		if (!vv->device)
			continue;
		s = cz_jset(o, "device", cz_jobj());
		cz_jset(s, "routine", cz_jstr(vv->routine));
		cz_jset(s, "align", cz_jstr(vv->align));
		cz_jset(s, "align_point", cz_jstr(vv->align_point));
		cz_jset(s, "chunk", cz_jstr(vv->chunk));
		cz_jset(s, "frontend", cz_jstr(vv->frontend ? vv->frontend : "fuse"));
		cz_jset(s, "threads", cz_jstr(vv->threads));
		if (devinfo && v < json_array_size(devinfo))
			cz_jset(s, "sessions", json_deep_copy(json_array_get(devinfo, v)));
	}
}

/* Per-layout cells and the figures over layouts (placement random/sweep/rotate). */
static void layouts_json(json_t *o, const struct zab_result *r, size_t b, size_t v)
{
	struct zab_lstat ls, lb;
	struct zab_lpair p;
	json_t *arr, *l, *pj;
	size_t j;

	if (!zab_layout_stat(zab_cell(r, b, v), r->b[b].higher, &ls))
		return;
	arr = cz_jset(o, "layouts", cz_jarr());
	for (j = 0; j < ls.nl; j++) {
		l = cz_jpush(arr, cz_jobj());
		cz_jset(l, "offset", cz_jnum(ls.off[j]));
		cz_jset(l, "runs", cz_jnum((double)ls.n[j]));
		cz_jset(l, "mean", cz_jnum(ls.mean[j]));
	}
	l = cz_jset(o, "over_layouts", cz_jobj());
	/* rotate: every run held every layout (the two-way model; runs: those in it) */
	if (ls.rotate) {
		cz_jset(l, "design", cz_jstr("rotate"));
		cz_jset(l, "runs", cz_jnum((double)ls.runs));
	}
	cz_jset(l, "mean", cz_jnum(ls.grand));
	cz_jset(l, "ci_lo", cz_jnum(ls.ci_lo));
	cz_jset(l, "ci_hi", cz_jnum(ls.ci_hi));
	cz_jset(l, "sensitivity_pct", cz_jnum(ls.sens_pct));
	cz_jset(l, "sensitivity_significant", json_boolean(ls.sens_sig));
	cz_jset(l, "layout_p", isnan(ls.sens_p) ? json_null() : cz_jnum(ls.sens_p));
	cz_jset(l, "best_offset", cz_jnum(ls.off[ls.best]));
	cz_jset(l, "worst_offset", cz_jnum(ls.off[ls.worst]));
	cz_jset(l, "layout_share", isnan(ls.share) ? json_null() : cz_jnum(ls.share));
	if (v != r->base && zab_layout_stat(zab_cell(r, b, r->base), r->b[b].higher, &lb)) {
		if (zab_layout_pair(&lb, &ls, r->b[b].higher, &p)) {
			pj = cz_jset(o, "paired_by_layout", cz_jobj());
			/* rotate: the change is over the runs paired by slot */
			if (ls.rotate)
				cz_jset(pj, "paired", cz_jstr("runs"));
			cz_jset(pj, "layouts", cz_jnum((double)p.nl));
			cz_jset(pj, "change_pct", cz_jnum(p.pct));
			cz_jset(pj, "ci_lo_pct", cz_jnum(p.ci_lo));
			cz_jset(pj, "ci_hi_pct", cz_jnum(p.ci_hi));
			cz_jset(pj, "better", cz_jnum((double)p.better));
			cz_jset(pj, "worse", cz_jnum((double)p.worse));
			cz_jset(pj, "verdict", cz_jstr(p.flag > 0 ? "improvement" : p.flag < 0 ?
						     "regression" : "no difference"));
		}
		zab_lstat_free(&lb);
	}
	zab_lstat_free(&ls);
}

/* placement = rotate: the layouts, and per sample each one's value (null: no request). */
static void rotation_json(json_t *o, const struct zab_cell *c)
{
	json_t *x, *row;
	size_t i, j;

	x = cz_jset(o, "layout_offsets", cz_jarr());
	for (j = 0; j < c->nlay; j++)
		cz_jpush(x, cz_jnum(c->loff[j]));
	if (!c->lay)
		return;
	x = cz_jset(o, "sample_layouts", cz_jarr());
	for (i = 0; i < c->n; i++) {
		row = cz_jpush(x, cz_jarr());
		for (j = 0; j < c->nlay; j++) {
			double y = c->lay[i * c->nlay + j];

			cz_jpush(row, isfinite(y) ? cz_jnum(y) : json_null());
		}
	}
}

static void cells_json(json_t *doc, const struct zab_result *r)
{
	json_t *arr = cz_jset(doc, "cells", cz_jarr()), *o, *x;
	size_t b, v, i;

	for (b = 0; b < r->nb; b++)
		for (v = 0; v < r->nv; v++) {
			const struct zab_cell *c = zab_cell(r, b, v);

			o = cz_jpush(arr, cz_jobj());
			cz_jset(o, "benchmark", cz_jstr(r->b[b].name));
			cz_jset(o, "variant", cz_jstr(r->vname[v]));
			x = cz_jset(o, "samples", cz_jarr());
			for (i = 0; i < c->n; i++)
				cz_jpush(x, cz_jnum(c->x[i]));
			if (c->sess) {
				x = cz_jset(o, "sample_sessions", cz_jarr());
				for (i = 0; i < c->n; i++)
					cz_jpush(x, cz_jnum(c->sess[i]));
			}
			if (c->pre) {
				/* NaN (unknown) as null: JSON has no NaN */
				x = cz_jset(o, "sample_preempted", cz_jarr());
				for (i = 0; i < c->n; i++)
					cz_jpush(x, isnan(c->pre[i]) ? json_null() : cz_jnum(c->pre[i]));
			}
			if (c->off) {
				x = cz_jset(o, "sample_offsets", cz_jarr());
				for (i = 0; i < c->n; i++)
					cz_jpush(x, c->off[i] < 0 ? json_null() : cz_jnum(c->off[i]));
			}
			if (c->loff)
				rotation_json(o, c);
			if (c->off || c->loff)
				layouts_json(o, r, b, v);
			cz_jset(o, "failed", json_boolean(c->failed));
			cz_jset(o, "error", cz_jstr(c->error));
		}
}

json_t *zab_result_json(const struct zab_result *r, const struct zab_experiment *e,
			   json_t *env, json_t *devinfo, json_t *sessinfo, uint64_t seed)
{
	json_t *doc = cz_jobj();

	cz_jset(doc, "zab", cz_jnum(1));
	cz_jset(doc, "sut", cz_jstr(r->sut));
	cz_jset(doc, "environment", env);
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
static int get_count(const json_t *ex, const char *key, unsigned min, unsigned *out,
		     const char *file)
{
	json_t *v = json_object_get(ex, key);
	char what[96];
	double d;

	if (!v)
		return 0;
	d = json_number_value(v);
	if (!json_is_number(v) || d != floor(d) || d < min || d > 1000000) {
		snprintf(what, sizeof(what), "expected a whole number from %u to 1000000", min);
		return bad_doc2(file, key, what);
	}
	*out = (unsigned)d;
	return 0;
}

/*
 * The members of o that say what its numbers mean, one "KEY=VALUE" line
 * each (objects flattened to "KEY.SUB="; arrays -- facts of one run, e.g.
 * the daemons' pids -- and the names are left out): what report compares
 * before pooling two files' samples under one name.
 */
static void settings_text(FILE *f, const json_t *o, const char *prefix)
{
	const char *k;
	json_t *v;

	if (!json_is_object(o))
		return;
	json_object_foreach((json_t *)o, k, v) {
		char *key = zab_xasprintf("%s%s", prefix, k);

		if (json_is_object(v)) {
			char *sub = zab_xasprintf("%s.", key);

			settings_text(f, v, sub);
			free(sub);
		} else if (!json_is_array(v) && strcmp(key, "name") && strcmp(key, "group")) {
			fprintf(f, "%s=", key);
			json_dumpf(v, f, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(17));
			fputc('\n', f);
		}
		free(key);
	}
}

/* The settings of o, and the experiment's var.NAME values ({NAME} in its commands). */
static char *settings_of(const json_t *o, const json_t *doc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		abort();
	settings_text(f, o, "");
	settings_text(f, json_object_get(json_object_get(doc, "experiment"), "vars"), "var.");
	fclose(f);
	return text;
}

/* A variant's "vars" as "NAME=VALUE" lines (hyperfine's "parameters"). */
static char *params_of(const json_t *vars)
{
	char *text = zab_xstrdup("");
	const char *k;
	json_t *v;

	if (!json_is_object(vars))
		return text;
	json_object_foreach((json_t *)vars, k, v) {
		const char *val = json_string_value(v);
		char *t = zab_xasprintf("%s%s=%s\n", text, k, val ? val : "");

		free(text);
		text = t;
	}
	return text;
}

static int result_benchmarks(struct zab_result *r, const json_t *doc, const char *file)
{
	json_t *arr = json_object_get(doc, "benchmarks"), *o;
	const char *s;
	size_t i;

	if (!json_is_array(arr) || !json_array_size(arr) || json_array_size(arr) > ZAB_MAX_ITEMS)
		return bad_doc(file, "\"benchmarks\" missing, empty or too long");
	for (i = 0; i < json_array_size(arr); i++) {
		o = json_array_get(arr, i);
		s = json_string_value(json_object_get(o, "name"));
		if (!s)
			return bad_doc(file, "a benchmark without a name");
		for (size_t j = 0; j < r->nb; j++)
			if (!strcmp(r->b[j].name, s))
				return bad_doc2(file, "benchmark named twice", s);
		r->b[i].name = zab_xstrdup(s);
		s = json_string_value(json_object_get(o, "group"));
		r->b[i].group = zab_xstrdup(s ? s : "");
		s = json_string_value(json_object_get(o, "unit"));
		r->b[i].unit = zab_xstrdup(s ? s : "");
		s = json_string_value(json_object_get(o, "better"));
		r->b[i].higher = !s || strcmp(s, "lower");
		r->b[i].kind = zab_rkind_of(json_string_value(json_object_get(o, "source")));
		r->b[i].settings = settings_of(o, doc);
		r->b[i].file = file;
		r->nb++;
	}
	return 0;
}

static int result_variants(struct zab_result *r, const json_t *doc, const char *file)
{
	json_t *arr = json_object_get(doc, "variants");
	const char *s;
	size_t i;

	if (!json_is_array(arr) || !json_array_size(arr) || json_array_size(arr) > ZAB_MAX_ITEMS)
		return bad_doc(file, "\"variants\" missing, empty or too long");
	for (i = 0; i < json_array_size(arr); i++) {
		s = json_string_value(json_object_get(json_array_get(arr, i), "name"));
		if (!s)
			return bad_doc(file, "a variant without a name");
		if (index_of(r->vname, r->nv, s) != r->nv)
			return bad_doc2(file, "variant named twice", s);
		r->vname[i] = zab_xstrdup(s);
		r->vset[i] = settings_of(json_array_get(arr, i), NULL);
		r->vparams[i] = params_of(json_object_get(json_array_get(arr, i), "vars"));
		r->vfile[i] = file;
		r->nv++;
	}
	return 0;
}

/* One cell: its samples (finite numbers), failed and error.  seen: cells already read. */
/*
 * A per-sample array beside "samples" (sessions, preempted shares, offsets):
 * NULL when absent, else the array, checked to hold one entry per sample.
 */
static const json_t *per_sample(const json_t *o, const char *key, size_t n, const char *file,
				int *err)
{
	const json_t *a = json_object_get(o, key);

	*err = 0;
	if (!a)
		return NULL;
	if (!json_is_array(a) || json_array_size(a) != n) {
		*err = bad_doc2(file, "not one entry per sample", key);
		return NULL;
	}
	return a;
}

static bool whole_in(const json_t *x, double lo, double hi)
{
	double d = json_number_value(x);

	return json_is_number(x) && d >= lo && d <= hi && d == floor(d);
}

/* A cell's samples with their sessions, preempted shares and placement offsets. */
static int cell_samples(struct zab_cell *c, const json_t *o, const char *file)
{
	const json_t *x = json_object_get(o, "samples"), *ss, *pre, *off, *it;
	size_t j, n = json_array_size(x);
	int e1, e2, e3;
	double d;

	ss = per_sample(o, "sample_sessions", n, file, &e1);
	pre = per_sample(o, "sample_preempted", n, file, &e2);
	off = per_sample(o, "sample_offsets", n, file, &e3);
	if (e1 || e2 || e3)
		return -1;
	for (j = 0; j < n; j++) {
		it = json_array_get(x, j);
		d = json_number_value(it);
		if (!json_is_number(it) || !isfinite(d))
			return bad_doc(file, "a sample is not a number");
		if (ss && !whole_in(json_array_get(ss, j), 1, UINT_MAX))
			return bad_doc2(file, "not a session number", "sample_sessions");
		if (ss)
			zab_cell_add_session(c, d, (unsigned)json_number_value(json_array_get(ss, j)));
		else
			zab_cell_add(c, d);
		it = pre ? json_array_get(pre, j) : NULL;
		d = json_number_value(it);
		if (it && !json_is_null(it) && !(json_is_number(it) && d >= 0 && d <= 1))
			return bad_doc2(file, "not a share in 0..1 or null", "sample_preempted");
		if (it)
			zab_cell_set_pre(c, json_is_null(it) ? NAN : d);
		it = off ? json_array_get(off, j) : NULL;
		if (it && !json_is_null(it) && !whole_in(it, 0, ZERO_PLACE_MAX_OFFSET))
			return bad_doc2(file, "not an offset in 0..4095 or null", "sample_offsets");
		if (it)
			zab_cell_set_off(c, json_is_null(it) ? -1 : (int)json_number_value(it));
	}
	return 0;
}

/* placement = rotate: "layout_offsets" and "sample_layouts" (after the samples). */
static int cell_rotation(struct zab_cell *c, const json_t *o, const char *file)
{
	const json_t *lo = json_object_get(o, "layout_offsets"), *sl, *row, *it;
	double val[CUSEZERO_ROTATE_MAX];
	unsigned off[CUSEZERO_ROTATE_MAX];
	size_t j, i, k, n = json_array_size(lo);
	int err;

	if (!lo)
		return 0;
	if (!json_is_array(lo) || !n || n > CUSEZERO_ROTATE_MAX)
		return bad_doc2(file, "not an array of 1 to 64 offsets", "layout_offsets");
	for (j = 0; j < n; j++) {
		it = json_array_get(lo, j);
		if (!whole_in(it, 0, ZERO_PLACE_MAX_OFFSET))
			return bad_doc2(file, "not an offset in 0..4095", "layout_offsets");
		off[j] = (unsigned)json_number_value(it);
		for (k = 0; k < j; k++)
			if (off[k] == off[j])
				return bad_doc2(file, "an offset given twice", "layout_offsets");
	}
	zab_cell_set_rotation(c, off, n);
	sl = per_sample(o, "sample_layouts", c->n, file, &err);
	if (err)
		return -1;
	for (i = 0; sl && i < c->n; i++) {
		row = json_array_get(sl, i);
		if (!json_is_array(row) || json_array_size(row) != n)
			return bad_doc2(file, "not one value per layout offset", "sample_layouts");
		for (j = 0; j < n; j++) {
			it = json_array_get(row, j);
			val[j] = json_number_value(it);
			if (json_is_null(it))
				val[j] = NAN;
			else if (!json_is_number(it) || !isfinite(val[j]) || val[j] <= 0)
				return bad_doc2(file, "not a positive number or null", "sample_layouts");
		}
		zab_cell_set_layouts(c, i, val);
	}
	return 0;
}

static int result_cell(struct zab_result *r, const json_t *o, bool *seen, const char *file)
{
	const char *bn = json_string_value(json_object_get(o, "benchmark")), *vn = json_string_value(json_object_get(o, "variant")), *s;
	struct zab_cell *c;
	json_t *fl;
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
	if (cell_samples(c, o, file) || cell_rotation(c, o, file))
		return -1;
	fl = json_object_get(o, "failed");
	c->failed = json_is_true(fl);
	s = json_string_value(json_object_get(o, "error"));
	c->error = zab_xstrdup(s);
	return 0;
}

int zab_result_from_json(struct zab_result *r, json_t *doc, const char *file)
{
	json_t *ex, *arr;
	const char *s;
	bool *seen;
	double d;
	size_t i;
	int ret;

	memset(r, 0, sizeof(*r));
	r->doc = doc;
	if (!json_is_number(json_object_get(doc, "zab")))
		return bad_doc(file, "no \"zab\" version member");
	d = json_number_value(json_object_get(doc, "zab"));
	if (d != 1)
		return bad_doc(file, "unsupported \"zab\" version");
	ex = json_object_get(doc, "experiment");
	s = json_string_value(json_object_get(doc, "sut"));
	r->sut = zab_xstrdup(s ? s : "unknown");
	s = json_string_value(json_object_get(ex, "name"));
	r->title = zab_xstrdup(s ? s : "");
	if (get_count(ex, "sessions", 1, &r->sessions, file) ||
	    get_count(ex, "warmups", 0, &r->warmups, file) ||
	    get_count(ex, "repeats", 1, &r->repeats, file))
		return -EINVAL;
	/* absent (files from before it): the CI-overlap rule */
	s = json_string_value(json_object_get(ex, "verdict"));
	if (json_object_get(ex, "verdict") && (!s || zab_verdict_parse(s, &r->paired)))
		return bad_doc(file, "\"verdict\" is neither \"overlap\" nor \"paired\"");
	ret = result_benchmarks(r, doc, file);
	if (!ret)
		ret = result_variants(r, doc, file);
	if (ret)
		return ret;
	s = json_string_value(json_object_get(ex, "base"));
	r->base = s ? index_of(r->vname, r->nv, s) : 0;
	if (r->base == r->nv)
		return bad_doc(file, "the base variant is not among the variants");
	r->cells = zab_xmalloc(r->nb * r->nv * sizeof(*r->cells));
	arr = json_object_get(doc, "cells");
	if (!json_is_array(arr))
		return bad_doc(file, "\"cells\" missing");
	seen = zab_xmalloc(r->nb * r->nv * sizeof(*seen));
	for (i = 0, ret = 0; !ret && i < json_array_size(arr); i++)
		ret = result_cell(r, json_array_get(arr, i), seen, file);
	free(seen);
	return ret;
}

/*
 * The most a result file may hold.  zab's own are a few hundred bytes per
 * sample; without a bound `zab report /dev/zero` read forever.
 */
#define ZAB_JSON_MAX (256u << 20)

/*
 * A JSON file for report or compare: at most ZAB_JSON_MAX bytes, no NUL
 * byte, strict RFC 8259 (jansson: no trailing comma, no NaN or Infinity,
 * no number out of double's range) and no key given twice in an object.
 * NULL after one line naming the file.
 */
json_t *zab_json_load(const char *path, const char *who)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t cap = 0, n = 0, got;
	json_error_t jerr;
	json_t *doc;

	if (!f) {
		cz_err("%s%s: %s", who, path, strerror(errno));
		return NULL;
	}
	do {
		if (n + 4096 + 1 > cap)
			text = zab_xrealloc(text, cap = 2 * cap + 8192);
		got = fread(text + n, 1, 4096, f);
		/* JSON text holds no NUL byte: binary data, stop at once. */
		if (memchr(text + n, 0, got) || n + got > ZAB_JSON_MAX) {
			cz_err("%s%s: not a zab result: %s", who, path, n + got > ZAB_JSON_MAX ?
			       "larger than 256 MiB" : "binary data (a NUL byte)");
			fclose(f);
			free(text);
			return NULL;
		}
		n += got;
	} while (got > 0);
	if (ferror(f)) {
		cz_err("%s%s: %s", who, path, strerror(errno));
		fclose(f);
		free(text);
		return NULL;
	}
	fclose(f);
	doc = json_loadb(text, n, JSON_REJECT_DUPLICATES, &jerr);
	free(text);
	if (!doc)
		cz_err("%s%s:%d: bad JSON: %s", who, path, jerr.line, jerr.text);
	return doc;
}
