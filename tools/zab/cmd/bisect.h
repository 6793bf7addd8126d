/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab bisect's parts: the search (bisect.c) and the decided, verified
 * comparisons it rests on (bisectverify.c).
 */
#ifndef TOOLS_ZAB_CMD_BISECT_H
#define TOOLS_ZAB_CMD_BISECT_H

#include <signal.h>
#include <stdbool.h>
#include <time.h>

#include "czstore.h"
#include "stats/decide.h"
#include "views/views.h"

/* Exit codes (doc/changepoints.md). */
#define BS_FOUND 0
#define BS_NONE 1
#define BS_UNVERIFIED 3      /* a change found, but a check of the culprit failed: a range */
#define BS_UNDECIDED 125
#define BS_STOPPED (-1)

/* Per comparison: sessions at most (--max-sessions), the bisect's seconds (--budget-seconds). */
#define BS_MAX_SESSIONS 32
#define BS_BUDGET_S 540
#define BS_MAXX 1024         /* per-session ratios kept per comparison */

struct bs_opts {
	const char *file, *seq, *result, *store, *sut, *seed, *cusezero;
	bool stored;
	double band;
	unsigned max_sessions;
	double budget;       /* seconds, 0: none */
};

/* One comparison: variant v against the reference a, decided with added sessions. */
struct bs_cmp {
	const char *file;            /* the experiment file its runs run */
	char a[160], v[160];
	size_t from;                 /* the store's runs from b->r[from] on count */
	const char *order;           /* the runs' order (NULL: the file's) */
	const char *json;            /* not NULL: runs kept in JSON files PREFIX.N, not stored */
	unsigned njson;
	/* what it found */
	struct czst_decision d;
	unsigned ran, reused;        /* runs made for it, stored runs it pooled */
	bool capped;                 /* undecided when the budget ran out */
	bool failed;                 /* a cell failed or has no sample */
	char label[256], bench[256], uuid[40], err[300];
	bool indev;
};

struct bs {
	struct bs_opts o;
	char *title, *seq;
	long last;                   /* N: the steps after the base */
	bool series;                 /* the sequence is a patch series (the revert check) */
	json_t *frame;                 /* what a run of the file records (zab_run_frame) */
	struct czs *s;
	struct czres_result *r;        /* the experiment's stored runs (oldest first) */
	size_t nr, refused, told;      /* told: the runs left out the last line counted */
	unsigned ran, reused;
	struct timespec t0;
	sigset_t sigs;                 /* the signals passed on to a probe's run */
	char *stopped;                 /* stopped by a signal: what became of the probe */
	/* bisect.c's, for bisectverify.c: the signal that stopped it (0: none), */
	volatile sig_atomic_t *signal;
	/* the store's runs of class cls that pool (0 or -1), one zab run for c (0 or -1) */
	int (*load)(struct bs *b, const char *cls);
	int (*run)(struct bs *b, const char *cls, const struct bs_cmp *c, unsigned sessions);
};

/* bisectverify.c */
int bs_compare(struct bs *b, const char *cls, struct bs_cmp *c);
void bs_cmp_init(struct bs_cmp *c, const char *file, const char *a, const char *v);
/* "-1.23% [95% -2.00..-0.50%], 6 sessions" */
const char *bs_cmp_text(const struct bs_cmp *c, char *buf, size_t len);
/* The culprit k's checks: BS_FOUND (verified) or BS_UNVERIFIED, its lines printed. */
int bs_verify(struct bs *b, const char *cls, long k, long lo, const struct bs_cmp *first);

#endif
