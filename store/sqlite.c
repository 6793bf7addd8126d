/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The SQLite back end (libsqlite3): one file, WAL so readers never wait for
 * the writer, busy_timeout so several writers take turns, writes in
 * BEGIN IMMEDIATE transactions (store.c).  A file that exists is opened
 * without creating anything and only read until store.c has seen it is a
 * cusezero store: WAL mode is set after that, as it writes the header.
 * Readers open it read-only; its -wal and -shm files take its mode (0600).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store_int.h"

#define SQ_STMTS 24

struct sq_stmts {
	const char *sql[SQ_STMTS];
	sqlite3_stmt *st[SQ_STMTS];
};

static const char *sq_text(const struct czs_row *r, int i)
{
	return (const char *)sqlite3_column_text(r->h, i);
}

static double sq_double(const struct czs_row *r, int i)
{
	return sqlite3_column_double(r->h, i);
}

static bool sq_null(const struct czs_row *r, int i)
{
	return sqlite3_column_type(r->h, i) == SQLITE_NULL;
}

/* SQLite's message, and the system's where a system call failed ("disk I/O error: No space left"). */
static void sq_msg(sqlite3 *db, const char *msg, int rc, char *err, size_t errlen)
{
	int e = db ? sqlite3_system_errno(db) : 0;

	if (e && ((rc & 0xff) == SQLITE_IOERR || (rc & 0xff) == SQLITE_FULL || (rc & 0xff) == SQLITE_CANTOPEN))
		snprintf(err, errlen, "%s: %s", msg, strerror(e));
	else
		snprintf(err, errlen, "%s", msg);
}

static int sq_err(sqlite3 *db, int rc, char *err, size_t errlen)
{
	sq_msg(db, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc), rc, err, errlen);
	return rc == SQLITE_BUSY || rc == SQLITE_LOCKED ? -EBUSY :
	       rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT ? -EBADMSG :
	       rc == SQLITE_READONLY || rc == SQLITE_PERM || rc == SQLITE_CANTOPEN ? -EACCES : -EIO;
}

/*
 * The file, through its checked folder (safepath.c): a writer may create
 * it (0600, O_EXCL, never through a link another user planted), a reader
 * opens an existing one read-only and makes nothing.  SQLite opens the
 * path the walk checked; the file it opened must be the one checked.
 */
static int sq_file(struct czs *s, const char *path, struct stat *st, char *err, size_t errlen)
{
	char why[512] = "";
	int ret, fd;

	if (!*path) {
		snprintf(err, errlen, "no file name");
		return -EINVAL;
	}
	if (strchr(path, '?') || !strncmp(path, "file:", 5)) {
		snprintf(err, errlen, "SQLite URI parameters and file: URIs are not taken: name the file alone");
		return -EINVAL;
	}
	ret = czs_path_dir(path, s->writer, s->writer, &s->path, why, sizeof(why));
	if (ret == -ENOENT && !s->writer) {
		snprintf(err, errlen, "no such store (zab run or zab store import makes one)");
		return ret;
	}
	if (!ret)
		ret = czs_path_check_file(&s->path, st, why, sizeof(why));
	if (ret == -ENOENT && !s->writer) {
		snprintf(err, errlen, "no such store (zab run or zab store import makes one)");
		return ret;
	}
	if (ret == -ENOENT) {
		fd = czs_path_create(&s->path, O_RDWR, why, sizeof(why));
		if (fd >= 0) {
			s->created = true;
			ret = fstat(fd, st) ? -errno : 0;
			close(fd);
		} else if (fd == -EEXIST) {
			/* another writer made it first: it is the one to open */
			why[0] = 0;
			ret = czs_path_check_file(&s->path, st, why, sizeof(why));
		} else {
			ret = fd;
		}
	}
	if (ret) {
		snprintf(err, errlen, "%s", why[0] ? why : strerror(-ret));
		czs_path_unmake(&s->path);
	}
	return ret;
}

static int sq_open(struct czs *s, const char *path, char *err, size_t errlen)
{
	struct stat st, now;
	sqlite3 *db = NULL;
	int rc, flags = (s->writer ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY) | SQLITE_OPEN_NOMUTEX;

	s->path.dfd = -1;
	rc = sq_file(s, path, &st, err, errlen);
	if (rc)
		return rc;
	rc = sqlite3_open_v2(s->path.file, &db, flags, NULL);
	if (rc == SQLITE_OK && (stat(s->path.file, &now) || now.st_dev != st.st_dev || now.st_ino != st.st_ino)) {
		snprintf(err, errlen, "the file changed while it was opened");
		sqlite3_close(db);
		return -EAGAIN;
	}
	if (rc != SQLITE_OK) {
		rc = sq_err(db, rc, err, errlen);
		sqlite3_close(db);
		return rc;
	}
	sqlite3_busy_timeout(db, 60000);
	s->db = db;
	s->stmts = calloc(1, sizeof(struct sq_stmts));
	return s->stmts ? 0 : -ENOMEM;
}

static void sq_close(struct czs *s)
{
	struct sq_stmts *c = s->stmts;

	for (int i = 0; c && i < SQ_STMTS; i++)
		sqlite3_finalize(c->st[i]);
	free(c);
	sqlite3_close(s->db);
	s->db = NULL;
	s->stmts = NULL;
}

/* The prepared statement of sql (cached by the string's address and text). */
static sqlite3_stmt *sq_stmt(struct czs *s, const char *sql, bool cache, char *err, size_t errlen,
			     int *rc)
{
	struct sq_stmts *c = s->stmts;
	sqlite3_stmt *st = NULL;
	int i;

	for (i = 0; cache && i < SQ_STMTS && c->sql[i]; i++)
		if (c->sql[i] == sql && !strcmp(sqlite3_sql(c->st[i]), sql)) {
			sqlite3_reset(c->st[i]);
			sqlite3_clear_bindings(c->st[i]);
			return c->st[i];
		}
	*rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	if (*rc != SQLITE_OK) {
		*rc = sq_err(s->db, *rc, err, errlen);
		return NULL;
	}
	if (cache && i < SQ_STMTS) {
		c->sql[i] = sql;
		c->st[i] = st;
	}
	return st;
}

static int sq_run(struct czs *s, sqlite3_stmt *st, czs_row_fn fn, void *ctx, char *err, size_t errlen)
{
	struct czs_row row = { .be = &czs_sqlite, .h = st };
	int rc, ret = 0;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (fn && (ret = fn(ctx, &row)) != 0)
			break;
	if (!ret && rc != SQLITE_DONE)
		ret = sq_err(s->db, rc, err, errlen);
	sqlite3_reset(st);
	return ret;
}

static int sq_query(struct czs *s, const char *sql, size_t np, const char *const *p, czs_row_fn fn,
		    void *ctx, char *err, size_t errlen)
{
	int rc = 0;
	sqlite3_stmt *st = sq_stmt(s, sql, true, err, errlen, &rc);
	struct sq_stmts *c = s->stmts;
	bool cached = false;
	size_t i;

	if (!st)
		return rc;
	for (i = 0; i < np; i++)
		sqlite3_bind_text(st, (int)i + 1, p[i], -1, SQLITE_TRANSIENT);
	rc = sq_run(s, st, fn, ctx, err, errlen);
	for (i = 0; i < SQ_STMTS; i++)
		cached |= c->st[i] == st;
	if (!cached)
		sqlite3_finalize(st);
	return rc;
}

static int sq_exec(struct czs *s, const char *sql, char *err, size_t errlen)
{
	char *msg = NULL;
	int rc = sqlite3_exec(s->db, sql, NULL, NULL, &msg);

	if (rc == SQLITE_OK)
		return 0;
	sq_msg(s->db, msg ? msg : sqlite3_errstr(rc), rc, err, errlen);
	sqlite3_free(msg);
	return rc == SQLITE_BUSY ? -EBUSY : rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT ? -EBADMSG : -EIO;
}

static int sq_has_table(struct czs *s, const char *name, char *err, size_t errlen)
{
	static const char sql[] = "SELECT count(*) FROM sqlite_master WHERE type = 'table' "
				  "AND (?1 IS NULL OR name = ?1)";
	int rc = 0;
	sqlite3_stmt *st = sq_stmt(s, sql, false, err, errlen, &rc);

	if (!st)
		return rc;
	if (name)
		sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		rc = sqlite3_column_int(st, 0) > 0;
	else
		rc = sq_err(s->db, rc, err, errlen);
	sqlite3_finalize(st);
	return rc;
}

static void sq_bind(sqlite3_stmt *st, int i, const struct czs_val *v)
{
	switch (v->type) {
	case CZS_NULL: sqlite3_bind_null(st, i); break;
	case CZS_INT: sqlite3_bind_int64(st, i, v->i); break;
	case CZS_REAL: sqlite3_bind_double(st, i, v->d); break;
	case CZS_TEXT: sqlite3_bind_text(st, i, v->s, -1, SQLITE_STATIC); break;
	}
}

static int sq_bulk(struct czs *s, const char *table, const char *cols, size_t ncols, size_t nrows,
		   const struct czs_val *vals, char *err, size_t errlen)
{
	char sql[512];
	size_t n = (size_t)snprintf(sql, sizeof(sql), "INSERT INTO %s (%s) VALUES (", table, cols);
	sqlite3_stmt *st;
	int rc = 0;

	for (size_t c = 0; c < ncols && n + 3 < sizeof(sql); c++)
		n += (size_t)snprintf(sql + n, sizeof(sql) - n, "%s?", c ? "," : "");
	snprintf(sql + n, sizeof(sql) - n, ")");
	st = sq_stmt(s, sql, false, err, errlen, &rc);
	if (!st)
		return rc;
	for (size_t r = 0; r < nrows && !rc; r++) {
		for (size_t c = 0; c < ncols; c++)
			sq_bind(st, (int)c + 1, &vals[r * ncols + c]);
		rc = sqlite3_step(st);
		rc = rc == SQLITE_DONE ? 0 : sq_err(s->db, rc, err, errlen);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return rc;
}

const struct czs_backend czs_sqlite = {
	.name = "sqlite",
	.lost = NULL,
	.reconnect = NULL,
	.open = sq_open,
	.close = sq_close,
	.has_table = sq_has_table,
	.exec = sq_exec,
	.query = sq_query,
	.bulk = sq_bulk,
	.col_text = sq_text,
	.col_double = sq_double,
	.col_null = sq_null,
	.id_type = "INTEGER PRIMARY KEY",
};
