/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The rendering module: figures drawn by gnuplot (a child process fed a
 * script and its data on stdin, SVG or PNG out) and one self-contained
 * HTML page (inline CSS, figures as inline SVG, each with its numbers in a
 * table beside it; no script, no network).  It knows nothing of results:
 * callers describe a figure as series of points and the page as sections.
 *   gnuplot.c  the child process, its terminal and file kinds (zbench too)
 *   figure.c   the figure kinds as gnuplot scripts
 *   html.c     the page writer
 */
#ifndef RENDER_CZRENDER_H
#define RENDER_CZRENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* ---- gnuplot ---------------------------------------------------------------------- */

/* gnuplot in PATH? */
bool czr_have_gnuplot(void);
/* "svg" / "png" from a file name, NULL if neither. */
const char *czr_plot_kind(const char *file);
/*
 * A pipe to gnuplot with the terminal for file (by its kind), width x
 * height pixels, and the title set; NULL with *err (-EINVAL: neither .svg
 * nor .png, or -errno).  Close with czr_plot_close: 0, -EIO (gnuplot
 * failed or wrote nothing) or -errno.
 */
FILE *czr_plot_open(const char *file, const char *title, int width, int height, int *err);
int czr_plot_close(FILE *gp, const char *file);
/* The same, gnuplot's output of kind ("svg", "png") to out (left open; czr_plot_close(gp, NULL)). */
FILE *czr_plot_open_fd(int out, const char *kind, const char *title, int width, int height,
		       int *err);
/*
 * A string for gnuplot, never in a command (gnuplot.c says why): the data
 * block $NAME of one line, s, which the script names $NAME[1][2:].  Of
 * several lines: begin, a line per string ($NAME[k][2:], k from 1), end.
 */
void czr_gp_text(FILE *gp, const char *name, const char *s);
void czr_gp_text_begin(FILE *gp, const char *name);
void czr_gp_text_line(FILE *gp, const char *s);
void czr_gp_text_end(FILE *gp);
/*
 * Where a title too wide for width pixels is split onto two lines: the
 * byte index of the space it is split at, 0 when it fits on one.
 */
size_t czr_title_split(const char *title, int width);
/* Vertical lines at every 32-byte (dashed) and 64-byte (solid) x in [lo, hi]. */
void czr_gp_cache_lines(FILE *gp, unsigned lo, unsigned hi);

/* ---- figures ---------------------------------------------------------------------- */

/* A point's verdict, and for a step whether it is a change point (orange ring, its verdict kept). */
enum czr_mark {
	CZR_NONE = 0, CZR_WORSE = -1, CZR_BETTER = 1,
	CZR_CHANGE = 2, CZR_CHANGE_WORSE = 3, CZR_CHANGE_BETTER = 4,
};
/* CZR_NONE, CZR_WORSE or CZR_BETTER of a mark; is it a change point? */
static inline int czr_mark_verdict(int mark)
{
	return mark == CZR_CHANGE_WORSE ? CZR_WORSE : mark == CZR_CHANGE_BETTER ? CZR_BETTER :
	       mark == CZR_CHANGE ? CZR_NONE : mark;
}
static inline int czr_mark_change(int mark)
{
	return mark >= CZR_CHANGE;
}

struct czr_point {
	double x, y, lo, hi;      /* lo, hi: NaN when there is no interval */
	int mark;                 /* enum czr_mark */
	const char *label;        /* a row's or step's label (whisker, steps) */
	const char *note;         /* steps: drawn at the point (a change's size), NULL: none */
};

struct czr_series {
	const char *name;
	size_t n;
	struct czr_point *p;
};

enum czr_kind {
	CZR_WHISKER,   /* one series: a row per point, y with [lo, hi], coloured by mark */
	CZR_STRIP,     /* a column per series: its points (jittered) and their box */
	CZR_LINES,     /* a line per series: y against x */
	CZR_BAND,      /* a line per series with its [lo, hi] band */
	CZR_STEPS,     /* one series: y with [lo, hi] per labelled step, marks drawn */
};

struct czr_fig {
	const char *name;         /* short id: --figure NAME, the page's anchor */
	const char *title, *xlabel, *ylabel;
	const char *caption;      /* one sentence: what it shows (page only) */
	enum czr_kind kind;
	struct czr_series *s;
	size_t ns;
	bool cache_lines;         /* the 32/64-byte lines on x */
	double ref;               /* a reference value (0 % change), NaN: none */
	const char *unit;         /* of y (the numbers table) */
};

/*
 * Draw f into file (.svg or .png): 0, or -errno as czr_plot_close.  An SVG
 * ends with a comment giving the plot's bounds and the canvas in pixels as
 * gnuplot reports them (y up from the bottom):
 * <!-- czr-plot xmin=X xmax=X ymin=Y ymax=Y width=W height=H -->
 */
int czr_fig_draw(const struct czr_fig *f, const char *file);
/* The same to out (left open), kind "svg" or "png". */
int czr_fig_draw_fd(const struct czr_fig *f, int out, const char *kind);
/* Free what czr_series_add() allocated in f. */
void czr_fig_free(struct czr_fig *f);
/* A new series of f (its points added with czr_point_add); name copied. */
struct czr_series *czr_series_add(struct czr_fig *f, const char *name);
/* A point of s; label copied (NULL: none). */
void czr_point_add(struct czr_series *s, double x, double y, double lo, double hi, int mark,
		   const char *label);
/* The note of s's last point (copied): a steps figure writes it above the point. */
void czr_point_note(struct czr_series *s, const char *note);

/* ---- the page --------------------------------------------------------------------- */

struct czr_page;

/* A page to f (its title in <title> and <h1>); NULL on out of memory. */
struct czr_page *czr_page_open(FILE *f, const char *title);
void czr_page_h2(struct czr_page *p, const char *text);
void czr_page_p(struct czr_page *p, const char *text);
/* Preformatted text (the text tables, as the terminal shows them). */
void czr_page_pre(struct czr_page *p, const char *text);
/*
 * The figure drawn by gnuplot as inline SVG, its numbers in a table beside
 * it: 0, or -errno when gnuplot failed (the page says so in its place).
 */
int czr_page_figure(struct czr_page *p, const struct czr_fig *f);
/* The end of the page: 0, or -1 when anything was not written. */
int czr_page_close(struct czr_page *p);
/* s with &, <, >, " and ' escaped: text or a quoted attribute's value. */
void czr_html_text(FILE *f, const char *s);

#endif
