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
	/* whether the connection is gone (a server restart): reconnect may bring it back */
	bool (*lost)(struct czs *s);
	int (*reconnect)(struct czs *s, char *err, size_t errlen);
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

/* A file's folder, walked and checked (safepath.c). */
#define CZS_PATH_MADE 32
struct czs_path {
	int dfd;                 /* the folder, open */
	bool writer, create;     /* a writer's checks; make missing folders */
	char file[4096];         /* the file, absolute */
	char abs[4096];          /* its folder, absolute */
	char base[256];          /* its name in the folder */
	char *made[CZS_PATH_MADE];   /* the folders the walk made, outermost first */
	size_t nmade;
};

struct stat;
/*
 * Walk path's folder (relative paths from the current folder) with a
 * writer's or a reader's checks, making missing folders 0700 when create:
 * 0, or -errno with why (the folders made are removed again).
 */
int czs_path_dir(const char *path, bool writer, bool create, struct czs_path *p, char *why, size_t wlen);
/* The file in the walked folder: 0 and its stat (a link followed only when trusted), or -errno. */
int czs_path_check_file(struct czs_path *p, struct stat *st, char *why, size_t wlen);
/* Create the file 0600 (O_EXCL, O_NOFOLLOW) with open flags: its fd, or -errno with why. */
int czs_path_create(struct czs_path *p, int flags, char *why, size_t wlen);
void czs_path_unmake(struct czs_path *p);
void czs_path_free(struct czs_path *p);

struct czs {
	const struct czs_backend *be;
	void *db;                /* sqlite3 * or PGconn * */
	void *stmts;             /* the back end's prepared-statement cache */
	char name[1024];         /* for messages, password masked */
	char url[4200];          /* czs_url */
	int version;
	bool writer;             /* opened by a writer (may create, migrate, write) */
	bool created;            /* SQLite: this open made the file */
	struct czs_path path;    /* SQLite: the file and its checked folder */
	char notice[512];        /* PostgreSQL: the server's last notice, on one line */
};

/* The per-sample arrays of a cell, in the order zab writes them; the
 * samples table keeps one row per index with one column per array. */
enum { CZS_K_VALUE, CZS_K_SESSION, CZS_K_PRE, CZS_K_OFF, CZS_K_LAYOUTS, CZS_K_COUNT };
extern const char *const czs_sample_key[CZS_K_COUNT];

/* A row callback: the first column as an integer into *(long long *)ctx (-1: NULL). */
int czs_take_int(void *ctx, const struct czs_row *r);

/* The schema files compiled in (store/schema/NNN.sql): text of version v, or NULL. */
const char *czs_schema_sql(int v);

#endif
