/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A result's JSON document -> struct czres_result, strictly: a file that is
 * not a zab result, or is one with a bad member, is one line naming the
 * file and the member.  zab report and compare read files through it, the
 * store its own exports.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cusezero.h"
#include "czlimits.h"
#include "result.h"

int czres_verdict_parse(const char *s, bool *paired)
{
	if (!strcmp(s, "overlap"))
		*paired = false;
	else if (!strcmp(s, "paired"))
		*paired = true;
	else
		return -EINVAL;
	return 0;
}

enum czres_rkind czres_rkind_of(const char *s)
{
	static const char *const sources[CZRES_RK_COUNT] = {
		[CZRES_RK_CMD] = CZRES_RK_SOURCE_CMD,
		[CZRES_RK_DEV_RATE] = CZRES_RK_SOURCE_DEV_RATE,
		[CZRES_RK_DEV_NS] = CZRES_RK_SOURCE_DEV_NS,
	};
	int k;

	for (k = 0; s && k < CZRES_RK_COUNT; k++)
		if (!strcmp(sources[k], s))
			return (enum czres_rkind)k;
	return CZRES_RK_CMD;
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

void czres_result_free(struct czres_result *r)
{
	size_t i;

	for (i = 0; r->cells && i < r->nb * r->nv; i++) {
		free(r->cells[i].x);
		free(r->cells[i].sess);
		free(r->cells[i].pre);
		free(r->cells[i].off);
		free(r->cells[i].loff);
		free(r->cells[i].lay);
		free(r->cells[i].error);
	}
	for (i = 0; i < r->nb; i++) {
		free(r->b[i].name);
		free(r->b[i].group);
		free(r->b[i].unit);
		free(r->b[i].settings);
	}
	for (i = 0; i < r->nv; i++) {
		free(r->vname[i]);
		free(r->vset[i]);
		free(r->vparams[i]);
		free(r->vlabel[i]);
	}
	free(r->cells);
	free(r->sut);
	free(r->title);
	json_decref(r->doc);
	memset(r, 0, sizeof(*r));
}

size_t czres_name_index(char *const *names, size_t n, const char *s)
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
		char *key = cz_xasprintf("%s%s", prefix, k);

		if (json_is_object(v)) {
			char *sub = cz_xasprintf("%s.", key);

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
	char *text = cz_xstrdup("");
	const char *k;
	json_t *v;

	if (!json_is_object(vars))
		return text;
	json_object_foreach((json_t *)vars, k, v) {
		const char *val = json_string_value(v);
		char *t = cz_xasprintf("%s%s=%s\n", text, k, val ? val : "");

		free(text);
		text = t;
	}
	return text;
}

static int result_benchmarks(struct czres_result *r, const json_t *doc, const char *file)
{
	json_t *arr = json_object_get(doc, "benchmarks"), *o;
	const char *s;
	size_t i;

	if (!json_is_array(arr) || !json_array_size(arr) || json_array_size(arr) > CZRES_MAX_ITEMS)
		return bad_doc(file, "\"benchmarks\" missing, empty or too long");
	for (i = 0; i < json_array_size(arr); i++) {
		o = json_array_get(arr, i);
		s = json_string_value(json_object_get(o, "name"));
		if (!s)
			return bad_doc(file, "a benchmark without a name");
		for (size_t j = 0; j < r->nb; j++)
			if (!strcmp(r->b[j].name, s))
				return bad_doc2(file, "benchmark named twice", s);
		r->b[i].name = cz_xstrdup(s);
		s = json_string_value(json_object_get(o, "group"));
		r->b[i].group = cz_xstrdup(s ? s : "");
		s = json_string_value(json_object_get(o, "unit"));
		r->b[i].unit = cz_xstrdup(s ? s : "");
		s = json_string_value(json_object_get(o, "better"));
		r->b[i].higher = !s || strcmp(s, "lower");
		r->b[i].kind = czres_rkind_of(json_string_value(json_object_get(o, "source")));
		r->b[i].settings = settings_of(o, doc);
		r->b[i].file = file;
		r->nb++;
	}
	return 0;
}

static int result_variants(struct czres_result *r, const json_t *doc, const char *file)
{
	json_t *arr = json_object_get(doc, "variants");
	const char *s;
	size_t i;

	if (!json_is_array(arr) || !json_array_size(arr) || json_array_size(arr) > CZRES_MAX_ITEMS)
		return bad_doc(file, "\"variants\" missing, empty or too long");
	for (i = 0; i < json_array_size(arr); i++) {
		s = json_string_value(json_object_get(json_array_get(arr, i), "name"));
		if (!s)
			return bad_doc(file, "a variant without a name");
		if (czres_name_index(r->vname, r->nv, s) != r->nv)
			return bad_doc2(file, "variant named twice", s);
		r->vname[i] = cz_xstrdup(s);
		r->vset[i] = settings_of(json_array_get(arr, i), NULL);
		r->vparams[i] = params_of(json_object_get(json_array_get(arr, i), "vars"));
		s = json_string_value(json_object_get(json_array_get(arr, i), "label"));
		r->vlabel[i] = s && *s ? cz_xstrdup(s) : NULL;
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
static int cell_samples(struct czres_cell *c, const json_t *o, const char *file)
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
			czres_cell_add_session(c, d, (unsigned)json_number_value(json_array_get(ss, j)));
		else
			czres_cell_add(c, d);
		it = pre ? json_array_get(pre, j) : NULL;
		d = json_number_value(it);
		if (it && !json_is_null(it) && !(json_is_number(it) && d >= 0 && d <= 1))
			return bad_doc2(file, "not a share in 0..1 or null", "sample_preempted");
		if (it)
			czres_cell_set_pre(c, json_is_null(it) ? NAN : d);
		it = off ? json_array_get(off, j) : NULL;
		if (it && !json_is_null(it) && !whole_in(it, 0, ZERO_PLACE_MAX_OFFSET))
			return bad_doc2(file, "not an offset in 0..4095 or null", "sample_offsets");
		if (it)
			czres_cell_set_off(c, json_is_null(it) ? -1 : (int)json_number_value(it));
	}
	return 0;
}

/* placement = rotate: "layout_offsets" and "sample_layouts" (after the samples). */
static int cell_rotation(struct czres_cell *c, const json_t *o, const char *file)
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
	czres_cell_set_rotation(c, off, n);
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
		czres_cell_set_layouts(c, i, val);
	}
	return 0;
}

static int result_cell(struct czres_result *r, const json_t *o, bool *seen, const char *file)
{
	const char *bn = json_string_value(json_object_get(o, "benchmark")), *vn = json_string_value(json_object_get(o, "variant")), *s;
	struct czres_cell *c;
	json_t *fl;
	char what[160];
	size_t b = r->nb, v, j;

	for (j = 0; bn && j < r->nb; j++)
		if (!strcmp(r->b[j].name, bn))
			b = j;
	v = vn ? czres_name_index(r->vname, r->nv, vn) : r->nv;
	if (b == r->nb || v == r->nv)
		return bad_doc(file, "a cell names an unknown benchmark or variant");
	/* Two cells for one pair would be pooled silently: which file is right? */
	if (seen[b * r->nv + v]) {
		snprintf(what, sizeof(what), "benchmark '%s', variant '%s'", bn, vn);
		return bad_doc2(file, "a cell given twice", what);
	}
	seen[b * r->nv + v] = true;
	c = czres_cell(r, b, v);
	if (cell_samples(c, o, file) || cell_rotation(c, o, file))
		return -1;
	fl = json_object_get(o, "failed");
	c->failed = json_is_true(fl);
	s = json_string_value(json_object_get(o, "error"));
	c->error = cz_xstrdup(s);
	return 0;
}

int czres_result_from_json(struct czres_result *r, json_t *doc, const char *file)
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
	r->sut = cz_xstrdup(s ? s : "unknown");
	s = json_string_value(json_object_get(ex, "name"));
	r->title = cz_xstrdup(s ? s : "");
	if (get_count(ex, "sessions", 1, &r->sessions, file) ||
	    get_count(ex, "warmups", 0, &r->warmups, file) ||
	    get_count(ex, "repeats", 1, &r->repeats, file))
		return -EINVAL;
	/* absent (files from before it): the CI-overlap rule */
	s = json_string_value(json_object_get(ex, "verdict"));
	if (json_object_get(ex, "verdict") && (!s || czres_verdict_parse(s, &r->paired)))
		return bad_doc(file, "\"verdict\" is neither \"overlap\" nor \"paired\"");
	ret = result_benchmarks(r, doc, file);
	if (!ret)
		ret = result_variants(r, doc, file);
	if (ret)
		return ret;
	s = json_string_value(json_object_get(ex, "base"));
	r->base = s ? czres_name_index(r->vname, r->nv, s) : 0;
	if (r->base == r->nv)
		return bad_doc(file, "the base variant is not among the variants");
	r->cells = cz_xmalloc(r->nb * r->nv * sizeof(*r->cells));
	arr = json_object_get(doc, "cells");
	if (!json_is_array(arr))
		return bad_doc(file, "\"cells\" missing");
	seen = cz_xmalloc(r->nb * r->nv * sizeof(*seen));
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
json_t *czres_json_load(const char *path, const char *who)
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
			text = cz_xrealloc(text, cap = 2 * cap + 8192);
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
