/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The PostgreSQL back end (libpq).  The URL is handed to PQconnectdb as it
 * is, so everything libpq reads applies: ~/.pgpass, PGPASSWORD, PGHOST,
 * sslmode=... (libpq, "Connection Strings" and "Environment Variables").
 * store.c's "?" placeholders become $1, $2 ...; many rows go in with
 * COPY ... FROM STDIN (one round trip instead of one per row).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "cli.h"
#include "store_int.h"

/*
 * Results come in binary format (pg_query): a float8 arrives as its 8
 * bytes instead of 17 digits that the server prints and strtod parses back
 * -- a third of a report's time over 10^6 samples.  The schema has four
 * column types (BIGINT, INTEGER, DOUBLE PRECISION, TEXT; count() is
 * BIGINT); anything else is shown as text by its bytes.
 */
enum { OID_INT8 = 20, OID_INT2 = 21, OID_INT4 = 23, OID_FLOAT4 = 700, OID_FLOAT8 = 701 };

static unsigned long long be_uint(const unsigned char *b, int n)
{
	unsigned long long v = 0;
	int k;

	for (k = 0; k < n; k++)
		v = v << 8 | b[k];
	return v;
}

static double be_double(const unsigned char *b, Oid t)
{
	union { unsigned long long u; double d; } u8;
	union { unsigned int u; float f; } u4;

	if (t == OID_FLOAT4) {
		u4.u = (unsigned int)be_uint(b, 4);
		return u4.f;
	}
	u8.u = be_uint(b, 8);
	return u8.d;
}

static const char *pg_text(const struct czs_row *r, int i)
{
	static _Thread_local char ring[16][32];
	static _Thread_local unsigned at;
	const unsigned char *b;
	char *o;
	Oid t;

	if (PQgetisnull(r->h, r->row, i))
		return NULL;
	b = (const unsigned char *)PQgetvalue(r->h, r->row, i);
	t = PQftype(r->h, i);
	if (!PQfformat(r->h, i) || (t != OID_INT8 && t != OID_INT4 && t != OID_INT2 &&
				    t != OID_FLOAT4 && t != OID_FLOAT8))
		return (const char *)b;          /* text, and libpq ends every value with a NUL */
	o = ring[at++ % 16];
	if (t == OID_INT8)
		snprintf(o, 32, "%lld", (long long)be_uint(b, 8));
	else if (t == OID_INT4)
		snprintf(o, 32, "%d", (int)(unsigned int)be_uint(b, 4));
	else if (t == OID_INT2)
		snprintf(o, 32, "%d", (short)(unsigned short)be_uint(b, 2));
	else
		snprintf(o, 32, "%.17g", be_double(b, t));
	return o;
}

static double pg_double(const struct czs_row *r, int i)
{
	const unsigned char *b = (const unsigned char *)PQgetvalue(r->h, r->row, i);
	Oid t = PQftype(r->h, i);

	if (!PQfformat(r->h, i))
		return strtod((const char *)b, NULL);
	if (t == OID_FLOAT8 || t == OID_FLOAT4)
		return be_double(b, t);
	if (t == OID_INT8)
		return (double)(long long)be_uint(b, 8);
	if (t == OID_INT4)
		return (int)(unsigned int)be_uint(b, 4);
	if (t == OID_INT2)
		return (short)(unsigned short)be_uint(b, 2);
	return strtod((const char *)b, NULL);
}

static bool pg_null(const struct czs_row *r, int i)
{
	return PQgetisnull(r->h, r->row, i);
}

/* libpq's message, on one line, without its "ERROR:  " or trailing newline. */
static int pg_err(PGconn *c, char *err, size_t errlen)
{
	const char *m = PQerrorMessage(c);
	size_t n;

	if (!strncmp(m, "ERROR:  ", 8))
		m += 8;
	snprintf(err, errlen, "%s", m);
	for (n = 0; err[n]; n++)
		if (err[n] == '\n' || err[n] == '\t')
			err[n] = err[n + 1] ? ' ' : 0;
	return PQstatus(c) == CONNECTION_OK ? -EIO : -ECONNREFUSED;
}

/*
 * A server's notice or warning (and an error that arrives while the
 * connection is idle, which libpq hands to the same hook) on one line of
 * zab's, never libpq's default "WARNING:  ..." lines on stderr; the last
 * one is kept for the error that may follow.
 */
static void pg_notice(void *arg, const char *msg)
{
	struct czs *s = arg;
	size_t n;

	snprintf(s->notice, sizeof(s->notice), "%s", msg);
	for (n = 0; s->notice[n]; n++)
		if (s->notice[n] == '\n' || s->notice[n] == '\t' || s->notice[n] == '\r')
			s->notice[n] = s->notice[n + 1] ? ' ' : 0;
	cz_err("store %s: the server says: %s", s->name, s->notice);
}

/* The session's settings: exact float8 text, only warnings and errors as notices. */
static void pg_session(PGconn *c)
{
	/* shortest exact text for float8 (the default from PostgreSQL 12 on) */
	PQclear(PQexec(c, "SET extra_float_digits = 3; SET client_min_messages = warning"));
}

static int pg_open(struct czs *s, const char *url, char *err, size_t errlen)
{
	PGconn *c;

	c = PQconnectdb(url);
	if (!c) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (PQstatus(c) != CONNECTION_OK) {
		int ret = pg_err(c, err, errlen);

		PQfinish(c);
		return ret;
	}
	PQsetNoticeProcessor(c, pg_notice, s);
	s->db = c;
	pg_session(c);
	return 0;
}

static bool pg_lost(struct czs *s)
{
	return PQstatus(s->db) != CONNECTION_OK;
}

static int pg_reconnect(struct czs *s, char *err, size_t errlen)
{
	PQreset(s->db);
	if (PQstatus(s->db) != CONNECTION_OK)
		return pg_err(s->db, err, errlen);
	pg_session(s->db);
	return 0;
}

static void pg_close(struct czs *s)
{
	PQfinish(s->db);
	s->db = NULL;
}

/* "?" -> "$N" (store.c's statements hold no "?" inside strings). */
static char *numbered(const char *sql)
{
	char *out = malloc(strlen(sql) * 4 + 1), *o = out;
	int n = 0;

	if (!out)
		return NULL;
	for (; *sql; sql++) {
		if (*sql == '?')
			o += sprintf(o, "$%d", ++n);
		else
			*o++ = *sql;
	}
	*o = 0;
	return out;
}

static int pg_query(struct czs *s, const char *sql, size_t np, const char *const *p, czs_row_fn fn,
		    void *ctx, char *err, size_t errlen)
{
	char *q = numbered(sql);
	PGresult *res;
	int ret = 0, st;

	if (!q)
		return -ENOMEM;
	res = PQexecParams(s->db, q, (int)np, NULL, p, NULL, NULL, 1);   /* results binary */
	free(q);
	st = PQresultStatus(res);
	if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK) {
		ret = pg_err(s->db, err, errlen);
		/* unique_violation / serialization: store.c retries or reports */
		if (res && PQresultErrorField(res, PG_DIAG_SQLSTATE) &&
		    !strncmp(PQresultErrorField(res, PG_DIAG_SQLSTATE), "40", 2))
			ret = -EBUSY;
	} else if (fn) {
		struct czs_row row = { .be = &czs_pg, .h = res };

		for (row.row = 0; row.row < PQntuples(res) && !ret; row.row++)
			ret = fn(ctx, &row);
	}
	PQclear(res);
	return ret;
}

static int pg_exec(struct czs *s, const char *sql, char *err, size_t errlen)
{
	PGresult *res = PQexec(s->db, sql);
	int st = PQresultStatus(res), ret = 0;

	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK)
		ret = pg_err(s->db, err, errlen);
	PQclear(res);
	return ret;
}

static int pg_has_table(struct czs *s, const char *name, char *err, size_t errlen)
{
	const char *p[] = { name };
	PGresult *res = PQexecParams(s->db,
		"SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() "
		"AND (CAST($1 AS TEXT) IS NULL OR table_name = $1)", 1, NULL, p, NULL, NULL, 0);
	int ret;

	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		ret = pg_err(s->db, err, errlen);
	else
		ret = atoi(PQgetvalue(res, 0, 0)) > 0;
	PQclear(res);
	return ret;
}

/* One value in COPY's text format: backslash, tab, newline and return escaped; NULL is \\N. */
static size_t copy_value(char *o, const struct czs_val *v)
{
	const char *t;
	size_t n = 0;

	switch (v->type) {
	case CZS_NULL:
		memcpy(o, "\\N", 2);
		return 2;
	case CZS_INT:
		return (size_t)sprintf(o, "%lld", v->i);
	case CZS_REAL:
		return (size_t)sprintf(o, "%.17g", v->d);
	case CZS_TEXT:
		break;
	}
	for (t = v->s; *t; t++) {
		if (*t == '\\' || *t == '\t' || *t == '\n' || *t == '\r') {
			o[n++] = '\\';
			o[n++] = *t == '\t' ? 't' : *t == '\n' ? 'n' : *t == '\r' ? 'r' : '\\';
		} else {
			o[n++] = *t;
		}
	}
	return n;
}

static int pg_bulk(struct czs *s, const char *table, const char *cols, size_t ncols, size_t nrows,
		   const struct czs_val *vals, char *err, size_t errlen)
{
	char sql[512], *buf = NULL;
	size_t cap = 0, len = 0;
	PGresult *res;
	int ret = 0;

	snprintf(sql, sizeof(sql), "COPY %s (%s) FROM STDIN", table, cols);
	res = PQexec(s->db, sql);
	if (PQresultStatus(res) != PGRES_COPY_IN) {
		PQclear(res);
		return pg_err(s->db, err, errlen);
	}
	PQclear(res);
	for (size_t r = 0; r < nrows && !ret; r++) {
		for (size_t c = 0; c < ncols; c++) {
			const struct czs_val *v = &vals[r * ncols + c];
			size_t need = len + (v->type == CZS_TEXT ? 2 * strlen(v->s) : 32) + 2;

			if (need > cap) {
				char *nb = realloc(buf, cap = 2 * need + 65536);

				if (!nb) {
					ret = -ENOMEM;
					break;
				}
				buf = nb;
			}
			len += copy_value(buf + len, v);
			buf[len++] = c + 1 < ncols ? '\t' : '\n';
		}
		if (len > 1 << 20 || r + 1 == nrows) {
			if (PQputCopyData(s->db, buf, (int)len) != 1)
				ret = pg_err(s->db, err, errlen);
			len = 0;
		}
	}
	free(buf);
	if (PQputCopyEnd(s->db, ret ? "cancelled" : NULL) != 1 && !ret)
		ret = pg_err(s->db, err, errlen);
	while ((res = PQgetResult(s->db)) != NULL) {
		if (PQresultStatus(res) != PGRES_COMMAND_OK && !ret)
			ret = pg_err(s->db, err, errlen);
		PQclear(res);
	}
	return ret;
}

const struct czs_backend czs_pg = {
	.name = "postgresql",
	.lost = pg_lost,
	.reconnect = pg_reconnect,
	.open = pg_open,
	.close = pg_close,
	.has_table = pg_has_table,
	.exec = pg_exec,
	.query = pg_query,
	.bulk = pg_bulk,
	.col_text = pg_text,
	.col_double = pg_double,
	.col_null = pg_null,
	.id_type = "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
};
