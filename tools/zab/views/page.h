/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Private to views/: the figure list a page is built in, shared by
 * page.c (report pages) and pagerows.c (compare and history pages).
 */
#ifndef TOOLS_ZAB_VIEWS_PAGE_H
#define TOOLS_ZAB_VIEWS_PAGE_H

#include "czrender.h"
#include "views.h"

#define PG_MAX_FIGS 64
#define PG_MAX_POINTS 1000   /* per series: a figure of 10^6 points helps no reader */

struct pg {
	struct czr_fig fig[PG_MAX_FIGS];
	char *names[PG_MAX_FIGS], *titles[PG_MAX_FIGS];
	size_t n;
};

/* A new figure of the list; name copied, title (malloc) taken; NULL when full. */
struct czr_fig *zab_pg_fig(struct pg *g, enum czr_kind kind, const char *name, char *title);
void zab_pg_free(struct pg *g);
/* "runs" for the first benchmark, "runs-2" for the second ... */
char *zab_pg_name(const char *kind, size_t i);
/* --plot: the figure named (or the first); --html: the page.  0, or 1 after one line. */
int zab_pg_emit(const struct zab_page_opts *po, struct pg *g, const char *title,
		const char *intro, const char *text);

#endif
