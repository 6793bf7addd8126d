/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Runs in and out of the store.  A run's document is split once: every
 * per-sample array of every cell ("samples", "sample_sessions", ...) goes
 * row by row into the sample table, where reports select them; the rest
 * of the document is kept as recorded, with a null where each array was,
 * so an export puts them back in place and is the document recorded
 * (numbers as doubles, written as zab writes them: 2.0 comes back as 2).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store_int.h"

static const char *jstr(const json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : "";
}

/* ---- in ------------------------------------------------------------------------ */

struct put {
	struct czs *s;
	char *err;
	size_t errlen;
};

/* INSERT ... ON CONFLICT DO NOTHING, then the row's id by its unique columns. */
static int upsert_id(struct put *p, const char *ins, const char *sel, size_t np, const char *const *v,
		     long long *id)
{
	int ret = p->s->be->query(p->s, ins, np, v, NULL, NULL, p->err, p->errlen);

	*id = -1;
	if (!ret)
		ret = p->s->be->query(p->s, sel, np, v, czs_take_int, id, p->err, p->errlen);
	return ret ? ret : *id < 0 ? -EIO : 0;
}

static int put_ids(struct put *p, const json_t *doc, long long *exp, long long *sut)
{
	const json_t *env = json_object_get(doc, "environment"), *ex = json_object_get(doc, "experiment");
	const json_t *run = json_object_get(doc, "run");
	char cores[32];
	const char *sname = jstr(run, "sut_name");
	const char *ev[] = { jstr(ex, "name"), jstr(ex, "file"), jstr(ex, "file_sha256") };
	const char *sv[] = { json_string_value(json_object_get(doc, "sut")) ?
			     json_string_value(json_object_get(doc, "sut")) : "unknown",
			     *sname ? sname : jstr(env, "hostname"), jstr(env, "hostname"),
			     jstr(env, "cpu"), jstr(env, "cpu_id"), cores, jstr(env, "machine"),
			     jstr(env, "kernel"), jstr(env, "cusezero_version") };
	int ret;

	snprintf(cores, sizeof(cores), "%lld", (long long)json_number_value(json_object_get(env, "cores")));
	ret = upsert_id(p, "INSERT INTO experiments (name, file, file_sha256) VALUES (?, ?, ?) "
			   "ON CONFLICT DO NOTHING",
			"SELECT id FROM experiments WHERE name = ? AND file = ? AND file_sha256 = ?",
			3, ev, exp);
	if (!ret)
		ret = upsert_id(p, "INSERT INTO suts (class, name, hostname, cpu_model, cpu_id, cores, "
				   "machine, kernel, cusezero_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
				   "ON CONFLICT DO NOTHING",
				"SELECT id FROM suts WHERE class = ? AND name = ? AND hostname = ? AND "
				"cpu_model = ? AND cpu_id = ? AND cores = CAST(? AS INTEGER) AND machine = ? "
				"AND kernel = ? AND cusezero_version = ?", 9, sv, sut);
	return ret;
}

/* The routine a cell's variant ran: its source file (and patch) or its built-in name. */
static const char *variant_routine(const json_t *doc, const char *variant)
{
	const json_t *arr = json_object_get(doc, "variants"), *v, *src;
	size_t i;

	json_array_foreach(arr, i, v) {
		if (strcmp(jstr(v, "name"), variant))
			continue;
		src = json_object_get(v, "routine_source");
		if (json_is_object(src))
			return *jstr(src, "file") ? jstr(src, "file") : jstr(src, "name");
		return jstr(json_object_get(v, "device"), "routine");
	}
	return "";
}

/* One cell: its row, then its samples in one bulk insert; the arrays nulled in the kept copy. */
static int put_cell(struct put *p, long long run, size_t idx, const json_t *cell, const json_t *doc)
{
	const json_t *arr[CZS_K_COUNT];
	char rid[32], ix[32], fl[2], **lay;
	const char *bn = jstr(cell, "benchmark"), *vn = jstr(cell, "variant"), *src = "";
	const json_t *b, *bs = json_object_get(doc, "benchmarks");
	size_t i, n = json_array_size(json_object_get(cell, "samples")), k;
	long long id = -1;
	struct czs_val *vals;
	int ret;

	json_array_foreach(bs, i, b)
		if (!strcmp(jstr(b, "name"), bn))
			src = jstr(b, "source");
	snprintf(rid, sizeof(rid), "%lld", run);
	snprintf(ix, sizeof(ix), "%zu", idx);
	snprintf(fl, sizeof(fl), "%d", json_is_true(json_object_get(cell, "failed")));
	{
		const char *v[] = { rid, ix, bn, vn, src, variant_routine(doc, vn), fl };

		ret = p->s->be->query(p->s, "INSERT INTO cells (run_id, cell_index, benchmark, variant, "
				      "source, routine, failed) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
				      7, v, czs_take_int, &id, p->err, p->errlen);
	}
	if (ret || id < 0)
		return ret ? ret : -EIO;
	for (k = 0; k < CZS_K_COUNT; k++) {
		arr[k] = json_object_get(cell, czs_sample_key[k]);
		if (arr[k])
			json_incref((json_t *)arr[k]);
	}
	vals = calloc(n * 7 + 1, sizeof(*vals));
	lay = calloc(n + 1, sizeof(*lay));
	if (!vals || !lay) {
		free(vals);
		free(lay);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		struct czs_val *row = vals + i * 7;

		row[0] = (struct czs_val){ .type = CZS_INT, .i = id };
		row[1] = (struct czs_val){ .type = CZS_INT, .i = (long long)i };
		for (k = 0; k < CZS_K_LAYOUTS; k++) {
			const json_t *x = arr[k] ? json_array_get(arr[k], i) : NULL;

			row[2 + k] = !x || json_is_null(x) ? (struct czs_val){ .type = CZS_NULL } :
				     (struct czs_val){ .type = CZS_REAL, .d = json_number_value(x) };
		}
		lay[i] = arr[CZS_K_LAYOUTS] ? json_dumps(json_array_get(arr[CZS_K_LAYOUTS], i),
						     JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(17)) : NULL;
		row[2 + CZS_K_LAYOUTS] = lay[i] ? (struct czs_val){ .type = CZS_TEXT, .s = lay[i] } :
					      (struct czs_val){ .type = CZS_NULL };
	}
	ret = n ? p->s->be->bulk(p->s, "samples", "cell_id, idx, value, session, preempted, place_offset, layouts",
				 7, n, vals, p->err, p->errlen) : 0;
	for (i = 0; i < n; i++)
		free(lay[i]);
	free(lay);
	free(vals);
	for (k = 0; k < CZS_K_COUNT; k++)
		json_decref((json_t *)arr[k]);
	return ret;
}

static int put_run(struct put *p, json_t *kept, const char *uuid, long long *id)
{
	const json_t *run = json_object_get(kept, "run");
	json_t *cells = json_object_get(kept, "cells"), *c;

	*id = -1;
	long long exp, sut;
	char e[32], su[32], now[32], *text;
	size_t i;
	int ret = put_ids(p, kept, &exp, &sut);

	if (ret)
		return ret;
	snprintf(e, sizeof(e), "%lld", exp);
	snprintf(su, sizeof(su), "%lld", sut);
	{
		time_t t = time(NULL);
		struct tm tm;

		gmtime_r(&t, &tm);
		strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", &tm);
	}
	/* the document without its samples: they follow in rows */
	json_array_foreach(cells, i, c)
		for (size_t k = 0; k < CZS_K_COUNT; k++)
			if (json_object_get(c, czs_sample_key[k]))
				json_object_set_new(c, czs_sample_key[k], json_null());
	text = json_dumps(kept, JSON_COMPACT | JSON_REAL_PRECISION(17));
	if (!text)
		return -ENOMEM;
	{
		const char *v[] = { uuid, e, su, jstr(run, "campaign"),
				    json_string_value(json_object_get(run, "started")),
				    json_string_value(json_object_get(run, "ended")), now, text };

		ret = p->s->be->query(p->s, "INSERT INTO runs (uuid, experiment_id, sut_id, campaign, "
				      "started, ended, recorded, doc) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
				      "ON CONFLICT (uuid) DO NOTHING RETURNING id",
				      8, v, czs_take_int, id, p->err, p->errlen);
	}
	free(text);
	return ret;
}

static bool is_uuid_text(const char *s)
{
	size_t i;

	if (strlen(s) != 36)
		return false;
	for (i = 0; i < 36; i++)
		if ((i == 8 || i == 13 || i == 18 || i == 23) ? s[i] != '-' :
		    !strchr("0123456789abcdef", s[i]))
			return false;
	return true;
}

/* Numbers as numbers (2 and 2.0 alike: the store keeps doubles), the rest as jansson compares. */
static bool same_json(const json_t *a, const json_t *b)
{
	const char *k;
	json_t *v;
	size_t i;

	if (!a || !b)
		return a == b;
	if (json_is_number(a) && json_is_number(b))
		return json_number_value(a) == json_number_value(b);
	if (json_typeof(a) != json_typeof(b))
		return false;
	if (json_is_object(a)) {
		if (json_object_size(a) != json_object_size(b))
			return false;
		json_object_foreach((json_t *)a, k, v)
			if (!same_json(v, json_object_get(b, k)))
				return false;
		return true;
	}
	if (json_is_array(a)) {
		if (json_array_size(a) != json_array_size(b))
			return false;
		json_array_foreach(a, i, v)
			if (!same_json(v, json_array_get(b, i)))
				return false;
		return true;
	}
	return json_equal((json_t *)a, (json_t *)b);
}

/* A run already stored under uuid: 0 when it is doc, else -EEXIST with err. */
static int same_run(struct czs *s, const json_t *doc, const char *uuid, const char *file, char *err,
		    size_t errlen)
{
	const char *u[] = { uuid };
	struct czs_filter f = { .uuids = u, .nuuids = 1 };
	json_t *docs = NULL;
	int ret = czs_export(s, &f, &docs, err, errlen);

	if (!ret && !same_json(doc, json_array_get(docs, 0))) {
		snprintf(err, errlen, "%s: run %s is stored with different contents: not imported (the stored "
			 "one is kept; zab store export --run %s shows it)", file, uuid, uuid);
		ret = -EEXIST;
	}
	json_decref(docs);
	return ret;
}

/* The document's numbers the store keeps apart from it, range-checked: 0, or -EINVAL with err. */
static int doc_numbers(const json_t *doc, char *err, size_t errlen)
{
	const json_t *c = json_object_get(json_object_get(doc, "environment"), "cores");
	double d = json_number_value(c);

	if (!c || json_is_null(c) || (json_is_number(c) && d == floor(d) && d >= 0 && d <= 1 << 24))
		return 0;
	if (json_is_number(c))
		snprintf(err, errlen, "environment.cores: %g is not a whole number from 0 to %d", d, 1 << 24);
	else
		snprintf(err, errlen, "environment.cores: not a number");
	return -EINVAL;
}

static int put_once(struct czs *s, json_t *doc, const char *uuid, bool *already, char *err, size_t errlen)
{
	struct put p = { s, err, errlen };
	json_t *kept = json_deep_copy(doc), *cells = json_object_get(doc, "cells");
	long long id = -1;
	size_t i;
	int ret = s->be->exec(s, s->be == &czs_sqlite ? "BEGIN IMMEDIATE" : "BEGIN", err, errlen);

	if (!ret)
		ret = put_run(&p, kept, uuid, &id);
	*already = !ret && id < 0;
	for (i = 0; !ret && !*already && i < json_array_size(cells); i++)
		ret = put_cell(&p, id, i, json_array_get(cells, i), doc);
	json_decref(kept);
	if (ret || *already) {
		char e2[128];

		s->be->exec(s, "ROLLBACK", e2, sizeof(e2));
		return ret;
	}
	return s->be->exec(s, "COMMIT", err, errlen);
}

/* The connection again, tried at once, after 1 s and after 2 s more: 0, or -errno with err. */
static int reconnect(struct czs *s, char *err, size_t errlen)
{
	int ret = -EIO;

	for (unsigned k = 0; k < 3 && ret; k++) {
		if (k)
			sleep(k);
		ret = s->be->reconnect(s, err, errlen);
	}
	return ret;
}

int czs_put_run(struct czs *s, json_t *doc, const char *file, char uuid[37], bool *already,
		char *err, size_t errlen)
{
	struct zab_result r;
	const char *given = json_string_value(json_object_get(json_object_get(doc, "run"), "uuid"));
	char first[512];
	int ret;

	*already = false;
	err[0] = 0;
	/* a zab result, checked as report reads it (one line on stderr when not) */
	ret = zab_result_from_json(&r, json_deep_copy(doc), file);
	zab_result_free(&r);
	if (ret)
		return -EINVAL;
	if (given && !is_uuid_text(given)) {
		snprintf(err, errlen, "%s: run.uuid '%s' is not a UUID", file, given);
		return -EINVAL;
	}
	if ((ret = doc_numbers(doc, err, errlen)))
		return ret;
	if (given)
		snprintf(uuid, 37, "%s", given);
	else
		czs_content_uuid(doc, uuid);
	ret = put_once(s, doc, uuid, already, err, errlen);
	if (ret && s->be->lost && s->be->lost(s)) {
		/* the server went away since the open (a restart): a new connection, the run again */
		snprintf(first, sizeof(first), "%s", err);
		ret = reconnect(s, err, errlen);
		if (!ret)
			ret = put_once(s, doc, uuid, already, err, errlen);
		else
			snprintf(err + strlen(err), errlen - strlen(err), " (connection lost: %s)", first);
	}
	if (!ret && *already)
		ret = same_run(s, doc, uuid, file, err, errlen);
	return ret;
}
