/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A zab result: benchmarks (result classes) x variants, each cell the
 * samples of its measured runs, and the JSON document that carries them
 * (what zab run --export-json writes, zab report reads and the store
 * keeps).  The data model and its reader are one module (results/), so the
 * store, the statistics, the reports and zab read results one way.
 *   result.c   JSON document -> result (strict: one line on a bad file)
 *   cells.c    a result's cells (cells.h)
 *   merge.c    results of one experiment pooled per SUT class
 */
#ifndef RESULTS_RESULT_H
#define RESULTS_RESULT_H

#include <stdbool.h>
#include <stddef.h>

#include "alloc.h"
#include "cells.h"
#include "jsonout.h"

#define CZRES_MAX_ITEMS 64

/*
 * What a result class measures: the command's number (or its wall-clock
 * time) or the daemon's counters over the run.  Adding a class: its value
 * here and its line in zab_rkinds[] (run.c), with its take() when it comes
 * from the counters; CONTRIBUTING.md, "Adding a zab result class".
 */
enum czres_rkind { CZRES_RK_CMD, CZRES_RK_DEV_RATE, CZRES_RK_DEV_NS, CZRES_RK_COUNT };

/* The JSON "source" of each class (zab's zab_rkinds[] table says the same). */
#define CZRES_RK_SOURCE_CMD "command"
#define CZRES_RK_SOURCE_DEV_RATE "device: bytes per second of routine time"
#define CZRES_RK_SOURCE_DEV_NS "device: routine ns per chunk"
/* The class whose "source" is s (a result file), CZRES_RK_CMD when unknown or NULL. */
enum czres_rkind czres_rkind_of(const char *s);
/* "overlap" (false) | "paired" (true): 0 or -EINVAL. */
int czres_verdict_parse(const char *s, bool *paired);

struct czres_bench {
	char *name, *group, *unit;
	bool higher;
	enum czres_rkind kind;
	bool timed;          /* the command's wall-clock time (unit seconds) */
	size_t src;          /* the experiment's benchmark it comes from (runs only) */
	/* read back (report): "KEY=VALUE" lines of what makes its numbers what they are */
	char *settings;
	const char *file;    /* the file it was read from (report's merge messages) */
};

struct czres_result {
	char *sut;           /* SUT class */
	char *title;         /* experiment name */
	unsigned sessions, warmups, repeats;
	size_t nb, nv, base;
	struct czres_bench b[CZRES_MAX_ITEMS];
	char *vname[CZRES_MAX_ITEMS];
	char *vset[CZRES_MAX_ITEMS];        /* read back: each variant's settings, as b[].settings */
	const char *vfile[CZRES_MAX_ITEMS]; /* read back: the file each variant was read from */
	char *vparams[CZRES_MAX_ITEMS];     /* each variant's {NAME} values: "NAME=VALUE" lines */
	char *vlabel[CZRES_MAX_ITEMS];      /* a sequence step's label (its "label"), NULL: none */
	bool mixed;          /* merged from files whose warm-ups or repeats differ */
	bool paired;         /* verdict = paired (fixed placement): runs of one slot paired */
	const char *clash;   /* merged: the first file whose verdict differed from the first's */
	struct czres_cell *cells;   /* nb * nv, [bench * nv + variant] */
	json_t *doc;           /* the full JSON document (environment, settings ...) */
};

static inline struct czres_cell *czres_cell(const struct czres_result *r, size_t b, size_t v)
{
	return &r->cells[b * r->nv + v];
}

void czres_result_free(struct czres_result *r);
/* The index of s among names[0..n), n when absent. */
size_t czres_name_index(char *const *names, size_t n, const char *s);
/* Load a result from a JSON document (takes ownership of doc); prints one line on error. */
int czres_result_from_json(struct czres_result *r, json_t *doc, const char *file);
/*
 * The merge (merge.c): r (taken) into the result of its SUT class in res[0..n)
 * (a new one when none), pooling only what has one meaning; a copy of its
 * document pushed to arr, its class sut when not NULL.  0, or -1 after one line.
 */
int czres_merge(struct czres_result **res, size_t *n, struct czres_result *r, json_t *arr,
		const char *sut, const char *file);
/*
 * The pooling rule, the one report, history and bisect apply: the samples
 * of src may join dst's only when every benchmark (its command, unit,
 * direction, result class, the experiment's {NAME} values) and every
 * variant (its command, environment, device settings, routine source:
 * file_sha256, patchset_hash, git commit ...) the two share by name has
 * the same settings in both.  0, or -EINVAL with why ("benchmark 'x'
 * differs in cmd: A vs B") and *dfile the file dst's side came from.
 */
int czres_pool_check(const struct czres_result *dst, const struct czres_result *src,
		     const char **dfile, char *why, size_t len);
/* The same result class (name, kind, unit, direction); its index in r, r->nb when absent. */
bool czres_same_bench(const struct czres_bench *a, const struct czres_bench *b);
size_t czres_find_bench(const struct czres_result *r, const struct czres_bench *b);

/* Read a JSON file strictly (result.c); NULL after one line prefixed with who. */
json_t *czres_json_load(const char *path, const char *who);

#endif
