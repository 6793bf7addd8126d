/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal: the store's back ends.  store.c speaks SQL that SQLite and
 * PostgreSQL both accept ("?" placeholders, numbered for libpq by pg.c;
 * INSERT ... ON CONFLICT DO NOTHING; RETURNING); a back end runs it.
 */
#ifndef STORE_STORE_INT_H
#define STORE_STORE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "czstore.h"

struct czs_backend;

/* A value for bulk inserts, typed: no text round trip for 10^6 numbers. */
struct czs_val {
	enum { CZS_NULL, CZS_INT, CZS_REAL, CZS_TEXT } type;
	long long i;
	double d;
	const char *s;
};

/* One row of a result (the back end's statement or result, and the row). */
struct czs_row {
	const struct czs_backend *be;
	void *h;
	int row;
};

/* Column i as text (NULL for SQL NULL), as a double, or whether it is NULL. */
const char *czs_col_text(const struct czs_row *r, int i);
double czs_col_double(const struct czs_row *r, int i);
bool czs_col_null(const struct czs_row *r, int i);

/* Called per row; non-zero stops the query with that value. */
typedef int (*czs_row_fn)(void *ctx, const struct czs_row *r);

struct czs_backend {
	const char *name;
	/* open the store at target (the URL's path or conninfo); mask fills the shown name */
	int (*open)(struct czs *s, const char *target, char *err, size_t errlen);
	void (*close)(struct czs *s);
	/* whether a table exists; -errno when the store cannot be read at all */
	int (*has_table)(struct czs *s, const char *name, char *err, size_t errlen);
	/* statements without parameters or results, ";"-separated (schema files) */
	int (*exec)(struct czs *s, const char *sql, char *err, size_t errlen);
	/* one statement, text parameters (NULL: SQL NULL), rows to fn */
	int (*query)(struct czs *s, const char *sql, size_t np, const char *const *p,
		     czs_row_fn fn, void *ctx, char *err, size_t errlen);
	/* many rows into table(cols): vals[row * ncols + col] */
	int (*bulk)(struct czs *s, const char *table, const char *cols, size_t ncols, size_t nrows,
		    const struct czs_val *vals, char *err, size_t errlen);
	const char *(*col_text)(const struct czs_row *r, int i);
	double (*col_double)(const struct czs_row *r, int i);
	bool (*col_null)(const struct czs_row *r, int i);
	/* the integer primary key's type in CREATE TABLE ("@ID@" in the schema files) */
	const char *id_type;
};

extern const struct czs_backend czs_sqlite, czs_pg;

struct czs {
	const struct czs_backend *be;
	void *db;                /* sqlite3 * or PGconn * */
	void *stmts;             /* the back end's prepared-statement cache */
	char name[1024];         /* for messages, password masked */
	int version;
};

/* A row callback: the first column as an integer into *(long long *)ctx (-1: NULL). */
int czs_take_int(void *ctx, const struct czs_row *r);

/* The schema files compiled in (store/schema/NNN.sql): text of version v, or NULL. */
const char *czs_schema_sql(int v);

#endif
