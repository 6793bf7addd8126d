/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reports of results: the significance tables (report.c), hyperfine's
 * JSON (hyperfine.c), "layout or code?" (layoutcode.c), the cells of the
 * JSON document with the figures over layouts (cellsjson.c).  zab report,
 * zab run and the store's views print through these.
 */
#ifndef REPORT_REPORT_H
#define REPORT_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results/result.h"

enum czrep_style { CZREP_STYLE_BOX, CZREP_STYLE_GRID, CZREP_STYLE_PLAIN, CZREP_STYLE_MARKDOWN,
		   CZREP_STYLE_DETAIL, CZREP_STYLE_BENCHSTAT };

int czrep_style_parse(const char *s, enum czrep_style *st);
/* hyperfine's --export-json layout: one entry of "results" per cell (hyperfine.c). */
void czrep_hyperfine(FILE *f, struct czres_result *const *r, size_t n);
/*
 * "Layout or code?": the same experiment at the variants' own placements
 * (own) and with placement varied per run (lay); per benchmark row and
 * variant pair, whether a difference seen at the own placements survives
 * over layouts.  0, or -1 after one line when the two do not match.
 */
int czrep_layout_or_code(FILE *f, const struct czres_result *own, const struct czres_result *lay);
/*
 * The document's "cells" (cellsjson.c): each cell's samples and their facts,
 * and for placement random/sweep/rotate its layouts and the figures over them.
 */
void czrep_cells_json(json_t *doc, const struct czres_result *r);
/* Render several results (one section per SUT class) to f. */
void czrep_render(FILE *f, struct czres_result *const *r, size_t n, enum czrep_style st);
/* A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break; NULL is empty. */
void czrep_csv_str(FILE *f, const char *s);
/* One CSV row per cell: statistics, change and verdict (--export-csv). */
void czrep_csv(FILE *f, struct czres_result *const *r, size_t n);

/*
 * Variant v's name with its sequence step's label (r->vlabel), control
 * characters written as \xNN: "s@3 (x86: align the loop)", the base
 * "s@0 (base: LABEL)" (base true); no label: the name (and " (base)").
 */
char *czrep_variant_text(const struct czres_result *r, size_t v, bool base);
/* s wrapped at w display columns at its blanks, lines joined by '\n'; a longer word continues
 * on the next line, never cut (malloc'd). */
char *czrep_wrap(const char *s, size_t w);

/* Length of s without trailing blanks (CPU model strings are padded); 1 for NULL ("?"). */
size_t czrep_trimmed_len(const char *s);

#endif
