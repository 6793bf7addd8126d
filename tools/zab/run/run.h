/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab's runs (run/): sessions, order, processes, device daemons,
 * co-location, in-device samples and progress (run.c), placement = rotate
 * on the device (rotate.c), the machine's description (machine.c) and the
 * kernel reference (kref.c).
 */
#ifndef TOOLS_ZAB_RUN_RUN_H
#define TOOLS_ZAB_RUN_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/model.h"

/* A CPU given for co-location must be one zab may run on: 0, or -EINVAL after one line. */
int zab_colocate_check(const struct zab_colocate *c);

/* The machine, and the kernel reference (taken; NULL: not measured) as its kernel_ref. */
json_t *zab_environment(json_t *kernel_ref);
char *zab_default_sut(void);
/*
 * kref.c: the running kernel as reference (zeroing/kref.h), measured now
 * (a failure is {"error": WHY}, never fatal); one line of it; and report
 * --by sut-class's lines under the table, one per class with a reference
 * among docs (every run's document, their "sut" the class).
 */
json_t *zab_kernel_ref(const struct zab_experiment *e);
void zab_kref_text(char *buf, size_t len, const json_t *kref);
/*
 * The reference's verdict lines: the running kernel's path ("kernel path:
 * HOW: WHAT RUNS: ...; agrees ..." or "... DISAGREES ..."), then each
 * kpath variant checked ("variant 'NAME' (LABEL): ..."); [] for older runs.
 */
json_t *zab_kref_verdicts(const json_t *kref);
/*
 * Per class of r (its runs among docs): {sut_class, kernel_runs, kernel_ref
 * (the line), kernel_ns_per_chunk, kernel_like, kernel_ratio, ...}; NULL
 * when no run of any class recorded one.  Shown under the table, and in the
 * view's JSON ("kernel_ref", and each row's columns: zab_kref_rows).
 */
json_t *zab_kref_classes(struct czres_result *const *r, size_t n, const json_t *docs);
void zab_kref_by_class(FILE *f, const json_t *classes);
void zab_kref_rows(json_t *doc, const json_t *classes);

/* ---- run ------------------------------------------------------------------ */

struct zab_run_opts {
	uint64_t seed;
	bool dry_run;
	bool progress;
	const char *cusezero;  /* path of the daemon */
};

/* The result classes of an experiment: each benchmark, and its in-device classes. 0 / -E2BIG. */
int zab_result_rows(struct czres_result *r, const struct zab_experiment *e);

/*
 * Run e; fills r, devinfo (an array per variant: its daemons' facts) and
 * sessinfo (an object per session: its CPU when co-located).  0, 1 if any
 * cell failed, or -errno.
 */
int zab_run(const struct zab_experiment *e, const struct zab_run_opts *o,
	    struct czres_result *r, json_t *devinfo, json_t *sessinfo);
/* ---- placement = rotate, the device side (rotate.c) ---- */

struct cz_devlayouts;

/* The rotation's seed for a session: the same for every variant of it. */
uint32_t zab_rotate_seed(uint64_t seed, unsigned session);
/* SET_ROTATE p's set and point on the device fd, checked by GET_ROTATE (got): NULL, or why. */
char *zab_rotate_start(int fd, const char *path, const struct zab_placement *p, uint32_t seed,
		       struct cusezero_rotate *got);

/* One measured run's copies: the counters before and after, per layout its median. */
struct zab_rotrun {
	struct cz_devlayouts *before, *after, *d;
	int err;             /* of the reading before */
	unsigned count, used;   /* layouts; those that served a request */
	unsigned off[CUSEZERO_ROTATE_MAX];
	double med[CUSEZERO_ROTATE_MAX];   /* ns per CUSEZERO_HIST_UNIT bytes, NaN: no request */
};

struct zab_rotrun *zab_rotrun_new(void);
void zab_rotrun_free(struct zab_rotrun *rr);
void zab_rotrun_begin(struct zab_rotrun *rr, int fd);
/* 0 with count, off[], med[], used; -errno, -ESTALE (a reset), -ENOTTY (not rotating). */
int zab_rotrun_end(struct zab_rotrun *rr, int fd);
/* The mean over the layouts that served a request of their medians; NaN: none did. */
double zab_rotrun_mean(const struct zab_rotrun *rr);

/* For tests and --dry-run: the order of variants in round k of session s. */
void zab_order_round(enum zab_order o, uint64_t seed, unsigned session, unsigned round,
		     size_t nvar, size_t *perm);

/* After zab_run returned -EINTR: die of the signal that interrupted it (exit 128+N). */
void zab_reraise(void);

#endif /* TOOLS_ZAB_RUN_RUN_H */
