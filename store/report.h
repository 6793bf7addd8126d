/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reports of results: the significance tables (report.c), hyperfine's
 * JSON (hyperfine.c), "layout or code?" (layoutcode.c), and the merge of
 * results files of one experiment into one result (merge.c).  zab report,
 * zab run and the store's views print through these.
 */
#ifndef STORE_REPORT_H
#define STORE_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "result.h"

enum zab_style { ZAB_STYLE_BOX, ZAB_STYLE_GRID, ZAB_STYLE_PLAIN, ZAB_STYLE_MARKDOWN,
		 ZAB_STYLE_DETAIL, ZAB_STYLE_BENCHSTAT };

int zab_style_parse(const char *s, enum zab_style *st);
/* hyperfine's --export-json layout: one entry of "results" per cell (hyperfine.c). */
void zab_render_hyperfine(FILE *f, struct zab_result *const *r, size_t n);
/*
 * Variant v vs the base on benchmark row b, as the table shows it: -1 (R),
 * +1 (I), 0 not flagged, with *pct the change (negative: worse); or
 * ZAB_CHANGE_NONE when there is nothing to compare (failed, no samples, v
 * is the base).
 */
#define ZAB_CHANGE_NONE (-2)
int zab_change(const struct zab_result *r, size_t b, size_t v, double *pct);
/*
 * The same verdict with the value's own change in per cent (new / base - 1:
 * a time that doubled reads +100) and its 95% interval [*lo, *hi] (NaN
 * when there is none): the interval of the verdict's rule where it has
 * one (layouts, rotate, paired), else the ratio of the two means' (first
 * order, Student t).
 */
int zab_change_ci(const struct zab_result *r, size_t b, size_t v, double *pct, double *lo,
		  double *hi);
/*
 * "Layout or code?": the same experiment at the variants' own placements
 * (own) and with placement varied per run (lay); per benchmark row and
 * variant pair, whether a difference seen at the own placements survives
 * over layouts.  0, or -1 after one line when the two do not match.
 */
int zab_render_layout_or_code(FILE *f, const struct zab_result *own, const struct zab_result *lay);
/* Render several results (one section per SUT class) to f. */
void zab_render(FILE *f, struct zab_result *const *r, size_t n, enum zab_style st);
/* A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break; NULL is empty. */
void zab_csv_str(FILE *f, const char *s);
/* One CSV row per cell: statistics, change and verdict (--export-csv). */
void zab_render_csv(FILE *f, struct zab_result *const *r, size_t n);

/*
 * The merge (merge.c): r (taken) into the result of its SUT class in res[0..n)
 * (a new one when none), pooling only what has one meaning; a copy of its
 * document pushed to arr, its class sut when not NULL.  0, or -1 after one line.
 */
int zab_report_add(struct zab_result **res, size_t *n, struct zab_result *r, json_t *arr,
		   const char *sut, const char *file);
/* The same result class (name, kind, unit, direction); its index in r, r->nb when absent. */
bool zab_same_bench(const struct zab_rbench *a, const struct zab_rbench *b);
size_t zab_find_bench(const struct zab_result *r, const struct zab_rbench *b);

/* Length of s without trailing blanks (CPU model strings are padded); 1 for NULL ("?"). */
size_t zab_trimmed_len(const char *s);

#endif
