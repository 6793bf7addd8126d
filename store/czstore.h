/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The results store: every zab run -- the experiment, the SUT it ran on,
 * the run's settings and every sample of every result class -- in one SQL
 * schema (store/schema/NNN.sql, versioned, migrated forward), behind one
 * interface with two back ends: SQLite (libsqlite3, the embedded default)
 * and PostgreSQL (libpq, for a team or a fleet).  A store is named by a URL:
 *   sqlite:PATH, or a PATH ending in .db     an SQLite file (WAL, several writers)
 *   postgresql://... or postgres://...       a libpq connection URI
 * Credentials go the libpq way (~/.pgpass, PG* variables); a URL is shown
 * with its password masked.  Functions return 0 or -errno with one line in
 * err; the caller prints it once.
 *   store.c   open, schema and migrations, runs in and out
 *   sqlite.c  pg.c   the back ends (store_int.h)
 *   result.c  cells.c  alloc.c   the result data model and its reader (result.h)
 */
#ifndef STORE_CZSTORE_H
#define STORE_CZSTORE_H

#include <stdbool.h>
#include <stddef.h>

#include "jsonout.h"
#include "result.h"

struct czs;

/* Which runs: every field NULL / 0 means any. */
struct czs_filter {
	const char *experiment;          /* experiment name */
	const char *campaign;
	const char *sut_class;
	const char *sut_name;
	const char *const *uuids;        /* any of these runs */
	size_t nuuids;
	const char *uuid_prefix;         /* runs whose UUID starts so (hex digits and '-') */
};

enum czs_what { CZS_EXPERIMENTS, CZS_RUNS, CZS_SUTS };

/* The schema version this build writes (the newest store/schema/NNN.sql). */
int czs_schema_latest(void);

/* $CUSEZERO_STORE, else sqlite:$XDG_DATA_HOME/cusezero/results.db (~/.local/share). */
const char *czs_default_url(char *buf, size_t len);
/* $HOME, else the user's home from the password database, else "/". */
const char *czs_home(void);

/*
 * CZS_WRITE (zab run, import): open, creating an SQLite file and its
 * folders when absent (0600 and 0700; owner and type checked, no link
 * another user owns followed: safepath.c), and bring the schema to
 * czs_schema_latest() -- creation and check in one locked transaction.
 * CZS_READ (ls, export, report, compare, history): open read-only; a
 * missing store is refused (-ENOENT) and nothing is created; an older
 * schema is still migrated.  A file or database that is not a cusezero
 * store, is corrupt or has a newer schema is refused untouched.
 */
enum czs_mode { CZS_READ, CZS_WRITE };
int czs_open_mode(const char *url, enum czs_mode mode, struct czs **out, char *err, size_t errlen);
/* czs_open_mode(url, CZS_WRITE, ...). */
int czs_open(const char *url, struct czs **out, char *err, size_t errlen);
void czs_close(struct czs *s);
/* Close; a store this open created and that holds no run is removed, with the folders made for it. */
void czs_close_unused(struct czs *s);
/* The store's name for messages: the URL with any password masked. */
const char *czs_name(const struct czs *s);
/* Its URL to reach it again from anywhere: an SQLite file by its absolute path, a password masked. */
const char *czs_url(const struct czs *s);
int czs_version(const struct czs *s);

/*
 * Record one run's JSON document (a zab result, checked as zab report
 * would) in one transaction.  Its UUID is doc's run.uuid, else one derived
 * from its content (SHA-256), so the same file twice is stored once
 * (*already true); a run stored under that UUID with other contents is
 * -EEXIST.  A PostgreSQL connection lost since the open (a server
 * restart) is opened again, a few times over 3 s, and the run retried.
 */
int czs_put_run(struct czs *s, json_t *doc, const char *file, char uuid[37], bool *already,
		char *err, size_t errlen);

/* The documents of the matching runs, as recorded (a JSON array, oldest first). */
int czs_export(struct czs *s, const struct czs_filter *f, json_t **docs, char *err, size_t errlen);

/* The experiments, runs or SUTs that match: a JSON array of flat objects. */
int czs_list(struct czs *s, enum czs_what what, const struct czs_filter *f, json_t **rows,
	     char *err, size_t errlen);

/*
 * The matching runs as results (one per run, oldest first), the samples
 * straight from the sample table: each result's doc is its document
 * WITHOUT the per-sample arrays (czs_export has them).
 */
int czs_load_results(struct czs *s, const struct czs_filter *f, struct zab_result **out,
		     size_t *n, char *err, size_t errlen);

/*
 * A run selector, the words comma-combined (AND) into f, pointing into
 * sel (modified): a run UUID or a unique prefix of one (8 characters or
 * more), campaign:ID, sut-class:C, sut:NAME, experiment:NAME.  A prefix
 * that names no run or several is refused.  0, or -EINVAL with one line
 * in err naming the selector (select.c).
 */
int czs_select(struct czs *s, char *sel, struct czs_filter *f, char *err, size_t errlen);

/*
 * The stored experiment names closest to name (edit distance, also to the
 * experiment file's name): 0 when name is stored, else -ENOENT with one
 * line in err naming them, closest first.
 */
int czs_experiment_known(struct czs *s, const char *name, char *err, size_t errlen);

/*
 * A run that could not be stored, kept: doc written 0600 to
 * $XDG_STATE_HOME/cusezero/unstored/UUID.json (~/.local/state), beside
 * UUID.store naming the store meant (password masked).  0 and the file's
 * path, or -errno with err (unstored.c).
 */
int czs_keep_unstored(const json_t *doc, const char *uuid, const char *store, char *path, size_t plen,
		      char *err, size_t errlen);
/* The folder of the kept runs (not made). */
void czs_unstored_dir(char *buf, size_t len);

/* url with any password replaced by "***" (user:PASSWORD@, password=..., pass%77ord=...). */
void czs_mask_url(const char *url, char *out, size_t len);
/* A run's UUID from its content (the SHA-256 of its canonical JSON). */
void czs_content_uuid(const json_t *doc, char uuid[37]);
/* A fresh random UUID (version 4). */
void czs_random_uuid(char uuid[37]);

#endif
