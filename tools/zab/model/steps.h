/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A change sequence as stored runs see it: the variants NAME@0 (the base)
 * .. NAME@K an experiment's sequence expands to, each step's label (the
 * variant's "label": patch subject, kernel version or commit; else its
 * name), and the result class its figures come from (steps.c).  zab
 * history --by series (histseries.c) and zab bisect (bisect.c) read them.
 */
#ifndef TOOLS_ZAB_MODEL_STEPS_H
#define TOOLS_ZAB_MODEL_STEPS_H

#include <stdbool.h>
#include <stddef.h>

#include "results/result.h"

/* K when vname is seq@K (seq NULL: any NAME@K, its NAME length at *seqlen), else -1. */
long zab_step_of(const char *vname, const char *seq, size_t *seqlen);
/* The sequence of the first variant named NAME@K in r (malloc'd), NULL when none. */
char *zab_step_seq(const struct czres_result *r);
/* Step variant vname's label in r's document: its "label", else vname. */
const char *zab_step_label(const struct czres_result *r, const char *vname);
/*
 * The result class of r to judge steps on: the one named name (NULL: the
 * in-device class, bytes per second of routine time, where there is one,
 * else the first); r->nb when name is absent.
 */
size_t zab_step_bench(const struct czres_result *r, const char *name);

/* zab history --by series's options (history.c parses them). */
struct zab_page_opts;
struct zab_series_opts {
	const char *experiment, *benchmark, *seq, *json, *csv;
	const struct zab_page_opts *po;   /* --html / --plot: the history page */
};
/*
 * zab history --by series over the runs r[0..nr) of one experiment (freed
 * here): per SUT class each step's value and the change points over the
 * whole sequence (histseries.c).  0, 1 when an output failed, 2 when
 * there is no sequence to show.
 */
int zab_history_series(struct czres_result *r, size_t nr, const struct zab_series_opts *o);

#endif
