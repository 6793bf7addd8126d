/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Runs out of the store: the documents as recorded (export), listings of
 * experiments, runs and SUTs, and results for the reports.  Every query
 * takes the same filter (czs_filter): experiment, campaign, SUT class and
 * name, run UUIDs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_int.h"

/* The WHERE clause of a filter over runs r, experiments e, suts s, and its parameters. */
struct where {
	char sql[4096];
	const char *p[4 + 256];
	size_t np;
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

/* Put the samples back: rows ordered by cell and index, into the nulled arrays. */
struct fill {
	json_t *cells;
};

static const char *const sample_key[] = { "samples", "sample_sessions", "sample_preempted",
					  "sample_offsets", "sample_layouts" };

static json_t *num_of(const struct czs_row *r, int col)
{
	if (czs_col_null(r, col))
		return json_null();
	return cz_jnum(czs_col_double(r, col));
}

static int take_sample(void *ctx, const struct czs_row *r)
{
	struct fill *f = ctx;
	json_t *cell = json_array_get(f->cells, (size_t)atoll(czs_col_text(r, 0))), *a, *v;
	size_t k;

	if (!cell)
		return -EBADMSG;
	for (k = 0; k < 5; k++) {
		a = json_object_get(cell, sample_key[k]);
		if (!a)
			continue;        /* the document had no such array */
		if (json_is_null(a)) {
			a = json_array();
			json_object_set_new(cell, sample_key[k], a);   /* in place: order kept */
		}
		if (k == 4) {
			const char *t = czs_col_text(r, 6);

			v = t ? json_loads(t, 0, NULL) : json_null();
			if (!v)
				return -EBADMSG;
		} else {
			v = num_of(r, 2 + (int)k);
		}
		json_array_append_new(a, v);
	}
	return 0;
}

static int fill_samples(struct czs *s, long long run, json_t *doc, char *err, size_t errlen)
{
	struct fill f = { json_object_get(doc, "cells") };
	char id[32];
	const char *p[] = { id };
	json_t *c;
	size_t i, k;
	int ret;

	snprintf(id, sizeof(id), "%lld", run);
	ret = s->be->query(s, "SELECT c.cell_index, sa.idx, sa.value, sa.session, sa.preempted, "
			   "sa.place_offset, sa.layouts FROM cells c JOIN samples sa ON sa.cell_id = c.id "
			   "WHERE c.run_id = ? ORDER BY c.cell_index, sa.idx", 1, p, take_sample, &f,
			   err, errlen);
	/* a cell without samples: its arrays were empty */
	json_array_foreach(f.cells, i, c)
		for (k = 0; k < 5; k++)
			if (json_is_null(json_object_get(c, sample_key[k])))
				json_object_set_new(c, sample_key[k], json_array());
	return ret;
}

int czs_export(struct czs *s, const struct czs_filter *f, json_t **out, char *err, size_t errlen)
{
	struct docs d = { json_array(), json_array(), 0 };
	struct where w;
	char sql[4400];
	size_t i;
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
	for (i = 0; !ret && i < json_array_size(d.arr); i++)
		ret = fill_samples(s, (long long)json_integer_value(json_array_get(d.ids, i)),
				   json_array_get(d.arr, i), err, errlen);
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

int czs_load_results(struct czs *s, const struct czs_filter *f, struct zab_result **out, size_t *n,
		     char *err, size_t errlen)
{
	json_t *docs, *d;
	struct zab_result *r;
	size_t i;
	int ret = czs_export(s, f, &docs, err, errlen);

	*out = NULL;
	*n = 0;
	if (ret)
		return ret;
	r = zab_xmalloc((json_array_size(docs) + 1) * sizeof(*r));
	json_array_foreach(docs, i, d) {
		const char *uuid = json_string_value(json_object_get(json_object_get(d, "run"), "uuid"));
		char *name = zab_xasprintf("%s run %s", czs_name(s), uuid ? uuid : "");

		/* from_json keeps the name's pointer for messages: it lives with the process */
		if (zab_result_from_json(&r[*n], json_incref(d), name)) {
			snprintf(err, errlen, "a stored run is not a zab result (the store is damaged)");
			ret = -EBADMSG;
			break;
		}
		(*n)++;
	}
	json_decref(docs);
	*out = r;
	return ret;
}
