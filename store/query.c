/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Runs out of the store: the documents as recorded (export), listings of
 * experiments, runs and SUTs, and results for the reports.  Every query
 * takes the same filter (czs_filter): experiment, campaign, SUT class and
 * name, run UUIDs.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_int.h"

/* The WHERE clause of a filter over runs r, experiments e, suts s, and its parameters. */
struct where {
	char sql[4096];
	const char *p[5 + 256];
	size_t np;
	char like[64];           /* uuid_prefix% */
};

static int where_of(const struct czs_filter *f, struct where *w)
{
	static const char *const cols[] = { "e.name", "r.campaign", "s.class", "s.name" };
	const char *vals[] = { f ? f->experiment : NULL, f ? f->campaign : NULL,
			       f ? f->sut_class : NULL, f ? f->sut_name : NULL };
	size_t n = (size_t)snprintf(w->sql, sizeof(w->sql), " WHERE 1 = 1"), i;

	w->np = 0;
	for (i = 0; i < 4; i++)
		if (vals[i]) {
			n += (size_t)snprintf(w->sql + n, sizeof(w->sql) - n, " AND %s = ?", cols[i]);
			w->p[w->np++] = vals[i];
		}
	if (f && f->uuid_prefix) {
		snprintf(w->like, sizeof(w->like), "%.40s%%", f->uuid_prefix);
		n += (size_t)snprintf(w->sql + n, sizeof(w->sql) - n, " AND r.uuid LIKE ?");
		w->p[w->np++] = w->like;
	}
	if (f && f->nuuids) {
		if (f->nuuids > 256)
			return -E2BIG;
		n += (size_t)snprintf(w->sql + n, sizeof(w->sql) - n, " AND r.uuid IN (");
		for (i = 0; i < f->nuuids; i++) {
			n += (size_t)snprintf(w->sql + n, sizeof(w->sql) - n, "%s?", i ? ", " : "");
			w->p[w->np++] = f->uuids[i];
		}
		snprintf(w->sql + n, sizeof(w->sql) - n, ")");
	}
	return 0;
}

#define FROM_RUNS " FROM runs r JOIN experiments e ON e.id = r.experiment_id JOIN suts s ON s.id = r.sut_id"

/* ---- export --------------------------------------------------------------------- */

struct docs {
	json_t *arr;        /* the documents */
	json_t *ids;        /* their run ids, as numbers */
	int bad;
};

static int take_doc(void *ctx, const struct czs_row *r)
{
	struct docs *d = ctx;
	json_error_t je;
	json_t *doc = json_loads(czs_col_text(r, 1), 0, &je);

	if (!doc) {
		d->bad = 1;
		return -EBADMSG;
	}
	json_array_append_new(d->arr, doc);
	json_array_append_new(d->ids, json_integer(atoll(czs_col_text(r, 0))));
	return 0;
}

/*
 * Put the samples back: one query over every run of the filter, rows ordered
 * by run, cell and index, into the nulled arrays of the run's document (the
 * documents are in run id order too, so a cursor finds each one).  One query
 * rather than one per run: PostgreSQL planned the per-run query as a scan of
 * every sample right after a large import (68 s to export 1000 runs).
 */
struct fill {
	const struct docs *d;
	size_t at;              /* the document of the current run */
};

static json_t *num_of(const struct czs_row *r, int col)
{
	if (czs_col_null(r, col))
		return json_null();
	return cz_jnum(czs_col_double(r, col));
}

static json_t *cell_of(struct fill *f, const struct czs_row *r)
{
	long long run = atoll(czs_col_text(r, 0));
	size_t n = json_array_size(f->d->ids);

	while (f->at < n && json_integer_value(json_array_get(f->d->ids, f->at)) < run)
		f->at++;
	if (f->at >= n || json_integer_value(json_array_get(f->d->ids, f->at)) != run)
		return NULL;
	return json_array_get(json_object_get(json_array_get(f->d->arr, f->at), "cells"),
			      (size_t)atoll(czs_col_text(r, 1)));
}

static int take_sample(void *ctx, const struct czs_row *r)
{
	struct fill *f = ctx;
	json_t *cell = cell_of(f, r), *a, *v;
	size_t k;

	if (!cell)
		return -EBADMSG;
	for (k = 0; k < CZS_K_COUNT; k++) {
		a = json_object_get(cell, czs_sample_key[k]);
		if (!a)
			continue;        /* the document had no such array */
		if (json_is_null(a)) {
			a = json_array();
			json_object_set_new(cell, czs_sample_key[k], a);   /* in place: order kept */
		}
		if (k == CZS_K_LAYOUTS) {
			const char *t = czs_col_text(r, 7);

			v = t ? json_loads(t, 0, NULL) : json_null();
			if (!v)
				return -EBADMSG;
		} else {
			v = num_of(r, 3 + (int)k);
		}
		json_array_append_new(a, v);
	}
	return 0;
}

static int fill_samples(struct czs *s, const struct docs *d, const struct where *w,
			char *err, size_t errlen)
{
	struct fill f = { d, 0 };
	char sql[4600];
	json_t *doc, *c;
	size_t i, j, k;
	int ret;

	snprintf(sql, sizeof(sql), "SELECT r.id, c.cell_index, sa.idx, sa.value, sa.session, "
		 "sa.preempted, sa.place_offset, sa.layouts" FROM_RUNS
		 " JOIN cells c ON c.run_id = r.id JOIN samples sa ON sa.cell_id = c.id%s"
		 " ORDER BY r.id, c.cell_index, sa.idx", w->sql);
	ret = s->be->query(s, sql, w->np, w->p, take_sample, &f, err, errlen);
	if (ret == -EBADMSG)
		snprintf(err, errlen, "a stored sample has no cell (the store is damaged)");
	/* a cell without samples: its arrays were empty */
	json_array_foreach(d->arr, j, doc)
		json_array_foreach(json_object_get(doc, "cells"), i, c)
			for (k = 0; k < CZS_K_COUNT; k++)
				if (json_is_null(json_object_get(c, czs_sample_key[k])))
					json_object_set_new(c, czs_sample_key[k], json_array());
	return ret;
}

int czs_export(struct czs *s, const struct czs_filter *f, json_t **out, char *err, size_t errlen)
{
	struct docs d = { json_array(), json_array(), 0 };
	struct where w;
	char sql[4400];
	int ret = where_of(f, &w);

	*out = NULL;
	if (ret) {
		snprintf(err, errlen, "too many runs named (at most 256)");
		goto out;
	}
	snprintf(sql, sizeof(sql), "SELECT r.id, r.doc" FROM_RUNS "%s ORDER BY r.id", w.sql);
	ret = s->be->query(s, sql, w.np, w.p, take_doc, &d, err, errlen);
	if (d.bad)
		snprintf(err, errlen, "a stored document is not JSON (the store is damaged)");
	if (!ret && json_array_size(d.arr))
		ret = fill_samples(s, &d, &w, err, errlen);
out:
	json_decref(d.ids);
	if (ret)
		json_decref(d.arr);
	else
		*out = d.arr;
	return ret;
}

/* ---- listings -------------------------------------------------------------------- */

struct rows {
	json_t *arr;
	const char *const *names;
	const char *ints;       /* per column: 'i' an integer, else text */
};

static int take_row(void *ctx, const struct czs_row *r)
{
	struct rows *t = ctx;
	json_t *o = json_object();
	size_t i;

	for (i = 0; t->names[i]; i++) {
		const char *v = czs_col_text(r, (int)i);

		json_object_set_new(o, t->names[i], !v ? json_null() :
				    t->ints[i] == 'i' ? json_integer(atoll(v)) : json_string(v));
	}
	json_array_append_new(t->arr, o);
	return 0;
}

int czs_list(struct czs *s, enum czs_what what, const struct czs_filter *f, json_t **out,
	     char *err, size_t errlen)
{
	static const char *const exp_cols[] = { "experiment", "file", "file_sha256", "runs", "suts",
						"first", "last", NULL };
	static const char *const run_cols[] = { "uuid", "experiment", "sut_class", "sut_name",
						"campaign", "started", "ended", "kernel", "samples", NULL };
	static const char *const sut_cols[] = { "sut_class", "sut_name", "hostname", "cpu_model",
						"cpu_id", "cores", "machine", "kernel", "cusezero_version",
						"runs", NULL };
	struct rows t = { json_array(), NULL, NULL };
	struct where w;
	char sql[5000];
	int ret = where_of(f, &w);

	*out = NULL;
	if (ret) {
		snprintf(err, errlen, "too many runs named (at most 256)");
		json_decref(t.arr);
		return ret;
	}
	if (what == CZS_EXPERIMENTS) {
		t.names = exp_cols;
		t.ints = "tttiitt";
		snprintf(sql, sizeof(sql), "SELECT e.name, e.file, e.file_sha256, count(r.id), "
			 "count(DISTINCT r.sut_id), min(r.recorded), max(r.recorded)" FROM_RUNS
			 "%s GROUP BY e.id, e.name, e.file, e.file_sha256 ORDER BY min(r.id)", w.sql);
	} else if (what == CZS_RUNS) {
		t.names = run_cols;
		t.ints = "tttttttti";
		snprintf(sql, sizeof(sql), "SELECT r.uuid, e.name, s.class, s.name, r.campaign, "
			 "r.started, r.ended, s.kernel, (SELECT count(*) FROM cells c JOIN samples sa "
			 "ON sa.cell_id = c.id WHERE c.run_id = r.id)" FROM_RUNS "%s ORDER BY r.id", w.sql);
	} else {
		t.names = sut_cols;
		t.ints = "tttttitttti";
		snprintf(sql, sizeof(sql), "SELECT s.class, s.name, s.hostname, s.cpu_model, s.cpu_id, "
			 "s.cores, s.machine, s.kernel, s.cusezero_version, count(r.id)" FROM_RUNS
			 "%s GROUP BY s.id, s.class, s.name, s.hostname, s.cpu_model, s.cpu_id, s.cores, "
			 "s.machine, s.kernel, s.cusezero_version ORDER BY s.class, s.name", w.sql);
	}
	ret = s->be->query(s, sql, w.np, w.p, take_row, &t, err, errlen);
	if (ret)
		json_decref(t.arr);
	else
		*out = t.arr;
	return ret;
}

/* ---- results for the reports ---------------------------------------------------------- */

/*
 * The reports read every sample of many runs: one query for all of them
 * straight into the cells, no JSON between, and no ORDER BY -- each row
 * carries its index and lands in its place (sorting 10^6 rows took most
 * of a report's second; one query per run cost a plan each, and
 * PostgreSQL chose scans before its statistics existed: bench/store.sh).
 */
struct slot {
	double v, sess, pre, off;
	char *lay;
	bool set;
};

struct pending {               /* one cell's samples, by index */
	struct slot *s;
	size_t n;
};

struct load {
	struct czres_result *r;
	long long *ids;          /* run id of each result, ascending */
	unsigned char **has;     /* per result, per cell index: which arrays the document had */
	struct czres_cell ***cell; /* per result, per cell index: the cell */
	struct pending **pend;   /* per result, per cell index */
	size_t *ncells;
	size_t n;
	int col[CZS_K_COUNT];    /* each array's column in the query, -1: no document has it */
};

/* A stored document: its null sample arrays taken out (noted in has), then read as a result. */
static int load_doc(struct load *L, size_t k, json_t *doc, const char *name)
{
	json_t *cells = json_object_get(doc, "cells"), *c;
	size_t i, j, nc = json_array_size(cells);
	struct czres_result *r = &L->r[k];

	L->ncells[k] = nc;
	L->has[k] = cz_xmalloc(nc + 1);
	L->cell[k] = cz_xmalloc((nc + 1) * sizeof(*L->cell[k]));
	L->pend[k] = cz_xmalloc((nc + 1) * sizeof(*L->pend[k]));
	json_array_foreach(cells, i, c)
		for (j = 0; j < CZS_K_COUNT; j++)
			if (json_object_get(c, czs_sample_key[j])) {
				L->has[k][i] |= (unsigned char)(1u << j);
				json_object_del(c, czs_sample_key[j]);
			}
	if (czres_result_from_json(r, json_incref(doc), name))
		return -EBADMSG;
	json_array_foreach(cells, i, c) {
		const char *bn = json_string_value(json_object_get(c, "benchmark"));
		const char *vn = json_string_value(json_object_get(c, "variant"));
		size_t b, v;

		for (b = 0; b < r->nb && strcmp(r->b[b].name, bn); b++)
			;
		for (v = 0; v < r->nv && strcmp(r->vname[v], vn); v++)
			;
		L->cell[k][i] = b < r->nb && v < r->nv ? czres_cell(r, b, v) : NULL;
	}
	return 0;
}

/* Column i of row (i < 0: not queried), none when absent or null. */
static double opt_double(const struct czs_row *row, int i, double none)
{
	return i < 0 || czs_col_null(row, i) ? none : czs_col_double(row, i);
}

static int take_load_sample(void *ctx, const struct czs_row *row)
{
	struct load *L = ctx;
	long long run = (long long)czs_col_double(row, 0);
	size_t ci = (size_t)czs_col_double(row, 1), idx = (size_t)czs_col_double(row, 2), lo = 0, hi = L->n;
	struct pending *p;
	struct slot *sl;

	while (lo < hi) {       /* the run's result: ids ascend */
		size_t mid = (lo + hi) / 2;

		if (L->ids[mid] < run)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == L->n || L->ids[lo] != run || ci >= L->ncells[lo] || !L->cell[lo][ci] || idx > (1u << 30))
		return -EBADMSG;
	p = &L->pend[lo][ci];
	if (idx >= p->n) {
		size_t n = idx + 1 > 2 * p->n ? idx + 1 : 2 * p->n;

		p->s = cz_xrealloc(p->s, n * sizeof(*p->s));
		memset(p->s + p->n, 0, (n - p->n) * sizeof(*p->s));
		p->n = n;
	}
	sl = &p->s[idx];
	sl->set = true;
	sl->v = czs_col_double(row, 3);
	sl->sess = opt_double(row, L->col[CZS_K_SESSION], NAN);
	sl->pre = opt_double(row, L->col[CZS_K_PRE], NAN);
	sl->off = opt_double(row, L->col[CZS_K_OFF], -1);
	sl->lay = L->col[CZS_K_LAYOUTS] < 0 || czs_col_null(row, L->col[CZS_K_LAYOUTS]) ? NULL :
		  cz_xstrdup(czs_col_text(row, L->col[CZS_K_LAYOUTS]));
	return 0;
}

/*
 * The samples query: only the columns of the arrays some document has
 * (most runs have sessions and nothing else: 5 columns, not 8, and 10^6
 * rows are that much less for the client library to hold and read).
 */
static void load_sql(struct load *L, const struct where *w, char *sql, size_t len)
{
	static const char *const name[CZS_K_COUNT] = { "sa.value", "sa.session", "sa.preempted",
						       "sa.place_offset", "sa.layouts" };
	unsigned any = 1;        /* the value: always */
	size_t i, k, o;
	int n = 3;

	for (k = 0; k < L->n; k++)
		for (i = 0; i < L->ncells[k]; i++)
			any |= L->has[k][i];
	o = (size_t)snprintf(sql, len, "SELECT r.id, c.cell_index, sa.idx");
	for (k = 0; k < CZS_K_COUNT; k++) {
		L->col[k] = any & (1u << k) ? n++ : -1;
		if (L->col[k] >= 0 && o < len)
			o += (size_t)snprintf(sql + o, len - o, ", %s", name[k]);
	}
	if (o < len)
		snprintf(sql + o, len - o, FROM_RUNS " JOIN cells c ON c.run_id = r.id "
			 "JOIN samples sa ON sa.cell_id = c.id%s", w->sql);
}

/* One cell's samples, in index order, into the cell. */
static void place(struct czres_cell *c, struct pending *p, unsigned char has)
{
	double *lay = NULL;
	size_t i, j;

	for (i = 0; i < p->n && p->s[i].set; i++) {
		struct slot *sl = &p->s[i];

		if (!isnan(sl->sess))
			czres_cell_add_session(c, sl->v, (unsigned)sl->sess);
		else
			czres_cell_add(c, sl->v);
		if (has & 4)
			czres_cell_set_pre(c, sl->pre);
		if (has & 8)
			czres_cell_set_off(c, (int)sl->off);
		if ((has & 16) && c->nlay && sl->lay) {
			json_t *a = json_loads(sl->lay, JSON_DECODE_ANY, NULL);

			lay = cz_xrealloc(lay, c->nlay * sizeof(*lay));
			for (j = 0; j < c->nlay; j++) {
				json_t *x = json_array_get(a, j);

				lay[j] = json_is_number(x) ? json_number_value(x) : NAN;
			}
			czres_cell_set_layouts(c, c->n - 1, lay);
			json_decref(a);
		}
	}
	for (i = 0; i < p->n; i++)
		free(p->s[i].lay);
	free(p->s);
	free(lay);
}

/* A run's name for messages: results (and what is merged from them) keep it, so it lives as
 * long as the process, reachable from here (a leak checker's root, not a leak). */
static const char *run_name(const struct czs *s, const char *uuid)
{
	static char **kept;
	static size_t nkept;

	kept = cz_xrealloc(kept, (nkept + 1) * sizeof(*kept));
	kept[nkept] = cz_xasprintf("%s run %s", czs_name(s), uuid ? uuid : "(no uuid)");
	return kept[nkept++];
}

int czs_load_results(struct czs *s, const struct czs_filter *f, struct czres_result **out, size_t *n,
		     char *err, size_t errlen)
{
	struct docs d = { json_array(), json_array(), 0 };
	struct load L = { 0 };
	struct where w;
	char sql[4600];
	size_t i;
	int ret = where_of(f, &w);

	*out = NULL;
	*n = 0;
	err[0] = 0;
	if (ret) {
		snprintf(err, errlen, "too many runs named (at most 256)");
		goto out;
	}
	snprintf(sql, sizeof(sql), "SELECT r.id, r.doc" FROM_RUNS "%s ORDER BY r.id", w.sql);
	ret = s->be->query(s, sql, w.np, w.p, take_doc, &d, err, errlen);
	L.n = json_array_size(d.arr);
	L.r = cz_xmalloc((L.n + 1) * sizeof(*L.r));
	L.ids = cz_xmalloc((L.n + 1) * sizeof(*L.ids));
	L.has = cz_xmalloc((L.n + 1) * sizeof(*L.has));
	L.cell = cz_xmalloc((L.n + 1) * sizeof(*L.cell));
	L.pend = cz_xmalloc((L.n + 1) * sizeof(*L.pend));
	L.ncells = cz_xmalloc((L.n + 1) * sizeof(*L.ncells));
	for (i = 0; !ret && i < L.n; i++) {
		json_t *doc = json_array_get(d.arr, i);
		const char *uuid = json_string_value(json_object_get(json_object_get(doc, "run"), "uuid"));

		L.ids[i] = (long long)json_integer_value(json_array_get(d.ids, i));
		ret = load_doc(&L, i, doc, run_name(s, uuid));
		*n = i + 1;
	}
	if (d.bad || ret == -EBADMSG)
		snprintf(err, errlen, "a stored run is not a zab result (the store is damaged)");
	if (!ret) {
		load_sql(&L, &w, sql, sizeof(sql));
		ret = s->be->query(s, sql, w.np, w.p, take_load_sample, &L, err, errlen);
	}
	if (ret == -EBADMSG && !err[0])
		snprintf(err, errlen, "a sample of no stored cell (the store is damaged)");
	for (i = 0; i < *n; i++)
		for (size_t k = 0; k < L.ncells[i]; k++)
			if (L.cell[i][k])
				place(L.cell[i][k], &L.pend[i][k], L.has[i][k]);
			else
				free(L.pend[i][k].s);
out:
	for (i = 0; i < L.n; i++) {
		free(L.has[i]);
		free(L.cell[i]);
		free(L.pend[i]);
	}
	free(L.pend);
	free(L.ncells);
	free(L.has);
	free(L.cell);
	free(L.ids);
	json_decref(d.arr);
	json_decref(d.ids);
	*out = L.r;
	return ret;
}
