/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The figure kinds as gnuplot scripts: the caller's points go to gnuplot
 * as inline data blocks ($sK, one per series), so what is drawn is what
 * the page's number tables list.  Colours: (R) red, (I) green, no
 * difference grey; change points orange.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "czrender.h"

#define C_WORSE "#c0392b"
#define C_BETTER "#1e8449"
#define C_NONE "#707070"
#define C_CHANGE "#e67e22"

static const char *const palette[] = {
	"#1f4e9c", "#d35400", "#117a65", "#7d3c98", "#b7950b", "#2e86c1", "#a93226", "#566573",
};
#define NPAL (sizeof(palette) / sizeof(palette[0]))

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n);

	if (!q) {
		fputs("out of memory\n", stderr);
		exit(2);
	}
	return q;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xrealloc(NULL, n), s, n);
}

struct czr_series *czr_series_add(struct czr_fig *f, const char *name)
{
	struct czr_series *s;

	f->s = xrealloc(f->s, (f->ns + 1) * sizeof(*f->s));
	s = &f->s[f->ns++];
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name ? name : "");
	return s;
}

void czr_point_add(struct czr_series *s, double x, double y, double lo, double hi, int mark,
		   const char *label)
{
	s->p = xrealloc(s->p, (s->n + 1) * sizeof(*s->p));
	s->p[s->n++] = (struct czr_point){ x, y, lo, hi, mark, label ? xstrdup(label) : NULL, NULL };
}

void czr_point_note(struct czr_series *s, const char *note)
{
	if (!s->n)
		return;
	free((char *)s->p[s->n - 1].note);
	s->p[s->n - 1].note = note ? xstrdup(note) : NULL;
}

void czr_fig_free(struct czr_fig *f)
{
	size_t i, k;

	for (i = 0; i < f->ns; i++) {
		for (k = 0; k < f->s[i].n; k++) {
			free((char *)f->s[i].p[k].label);
			free((char *)f->s[i].p[k].note);
		}
		free(f->s[i].p);
		free((char *)f->s[i].name);
	}
	free(f->s);
	f->s = NULL;
	f->ns = 0;
}

/* A mark's verdict (its colour): a change point keeps the (R)/(I) of its step. */
static const char *mark_colour(int mark)
{
	int v = czr_mark_verdict(mark);

	return v == CZR_WORSE ? C_WORSE : v == CZR_BETTER ? C_BETTER : C_NONE;
}

/* A number for gnuplot: NaN as "NaN" (missing points are skipped). */
static void num(FILE *gp, double v)
{
	if (isfinite(v))
		fprintf(gp, " %.9g", v);
	else
		fputs(" NaN", gp);
}

/*
 * Series k as data block $sK: x y lo hi colour change note-y (labels:
 * $czr_lab, names: $czr_names, notes: $czr_note); note-y is where a note
 * is written (above the interval), NaN for a point without one.
 */
static void data_block(FILE *gp, const struct czr_fig *f, size_t k)
{
	const struct czr_series *s = &f->s[k];
	size_t i;

	fprintf(gp, "$s%zu << EOD\n", k);
	for (i = 0; i < s->n; i++) {
		const struct czr_point *p = &s->p[i];
		double x = p->x;

		if (f->kind == CZR_STRIP)   /* a column per series, points spread by rank */
			x = (double)k + 0.28 * (fmod(0.618034 * (double)i, 1.0) - 0.5);
		fprintf(gp, "%.9g", x);
		num(gp, p->y);
		num(gp, p->lo);
		num(gp, p->hi);
		fprintf(gp, " %ld %d", strtol(mark_colour(p->mark) + 1, NULL, 16),
			czr_mark_change(p->mark));
		num(gp, p->note && *p->note ? (isfinite(p->hi) ? p->hi : p->y) : NAN);
		fputc('\n', gp);
	}
	fputs("EOD\n", gp);
}

static void legend_marks(FILE *gp, bool change)
{
	if (change) {
		fprintf(gp, ", NaN with points pt 7 ps 1.4 lc rgb '%s' title 'change point'", C_CHANGE);
		return;
	}
	fprintf(gp, ", NaN with points pt 7 lc rgb '%s' title '(R) worse'"
		", NaN with points pt 7 lc rgb '%s' title '(I) better'"
		", NaN with points pt 7 lc rgb '%s' title 'no difference'", C_WORSE, C_BETTER, C_NONE);
}

/*
 * The layout, in pixels, set in screen units so that the plot keeps its
 * area whatever the texts: the title above (two lines when long), the
 * axes' tic labels, the axis label and the legend below it, then the
 * numbered key.  Names on tics or in the legend (rows, steps, series)
 * longer than the kind's limit are numbered and listed in the key under
 * the figure, a line each (wrapped at L_WRAP characters, never cut), so
 * no name takes the plot's width or height.
 */
#define L_WIDTH 760
#define L_RIGHT 24
#define L_TITLE 40       /* a title of one line; of two, L_TITLE2 more */
#define L_TITLE2 18
#define L_KEYLINE 16
#define L_WRAP 118
#define L_PLOT 260       /* the plot's height (the whisker's: L_ROW a row) */
#define L_ROW 34
#define L_CHAR 6.6       /* a tic label's character, sans 11 */

struct lay {
	double h, top, bottom, left, key;
	bool numbered;
	size_t nkey;         /* lines of the key */
	size_t longest;      /* characters of the longest name */
};

/* How many names the figure's tics or legend show: its rows or steps, else its series. */
static size_t names_n(const struct czr_fig *f)
{
	return f->kind == CZR_WHISKER || f->kind == CZR_STEPS ? (f->ns ? f->s[0].n : 0) : f->ns;
}

static const char *name_at(const struct czr_fig *f, size_t i)
{
	const char *s = f->kind == CZR_WHISKER || f->kind == CZR_STEPS ? f->s[0].p[i].label : f->s[i].name;

	return s ? s : "";
}

static size_t chars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* The bytes of the key line starting at s: up to L_WRAP characters, ended at a space when more follow. */
static size_t wrap_len(const char *s)
{
	size_t i, c = 0, sp = 0;

	for (i = 0; s[i]; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80 && c++ == L_WRAP)
			break;
		if (s[i] == ' ' && i)
			sp = i;
	}
	return !s[i] || !sp ? i : sp;
}

/* The key's lines ("K  name", wrapped lines indented) to gp as $czr_key when gp, counted. */
static size_t key_lines(FILE *gp, const struct czr_fig *f)
{
	size_t i, n = 0, len, first = f->kind == CZR_STEPS ? 0 : 1;
	char *line, *s, *p;

	if (gp)
		czr_gp_text_begin(gp, "czr_key");
	for (i = 0; i < names_n(f); i++) {
		line = xrealloc(NULL, strlen(name_at(f, i)) + 32);
		sprintf(line, "%zu  %s", i + first, name_at(f, i));
		for (s = line; *s; s += len, s += *s == ' ', n++) {
			len = wrap_len(s);
			p = xrealloc(NULL, len + 5);
			sprintf(p, "%s%.*s", s == line ? "" : "    ", (int)len, s);
			if (gp)
				czr_gp_text_line(gp, p);
			free(p);
		}
		free(line);
	}
	if (gp)
		czr_gp_text_end(gp);
	return n;
}

/* Names longer than this are numbered: a whisker's rows, steps, a strip's columns, a legend's. */
static size_t name_limit(const struct czr_fig *f)
{
	return f->kind == CZR_WHISKER ? 30 : f->kind == CZR_STEPS ? 20 : f->kind == CZR_STRIP ? 16 : 40;
}

/* The legend's height below the axis label (lines, band: a title per series, in columns). */
static double legend_h(const struct czr_fig *f, const struct lay *l)
{
	size_t entries, cols, longest;

	if (f->kind == CZR_WHISKER || f->kind == CZR_STEPS)
		return 28;
	if (f->kind == CZR_STRIP)
		return 4;
	entries = f->ns + (f->cache_lines ? 2 : 0);
	longest = l->numbered ? 4 : l->longest;
	if (f->cache_lines && longest < 16)
		longest = 16;
	/* gnuplot's key columns: the title and the sample, in its character width (8.4 px at sans 11) */
	cols = (size_t)((L_WIDTH - 104) / (8.4 * (double)(longest + 8)));
	cols = cols ? cols : 1;
	return (double)((entries + cols - 1) / cols) * 19 + 12;
}

static void layout(const struct czr_fig *f, struct lay *l)
{
	size_t i, n = names_n(f);
	double plot = L_PLOT, tics;

	memset(l, 0, sizeof(*l));
	for (i = 0; i < n; i++)
		if (chars(name_at(f, i)) > l->longest)
			l->longest = chars(name_at(f, i));
	l->numbered = l->longest > name_limit(f);
	l->nkey = l->numbered ? key_lines(NULL, f) : 0;
	l->key = l->nkey ? (double)l->nkey * L_KEYLINE + 8 : 0;
	l->top = L_TITLE + (czr_title_split(f->title ? f->title : "", L_WIDTH) ? L_TITLE2 : 0);
	l->left = 84;
	/* tic labels under the x axis: numbers, or names turned upright (steps, strip) */
	tics = 22;
	if (!l->numbered && (f->kind == CZR_STEPS || f->kind == CZR_STRIP))
		tics = 14 + L_CHAR * (double)l->longest;
	if (f->kind == CZR_WHISKER) {
		plot = n * L_ROW < 120 ? 120 : (double)n * L_ROW;
		l->left = l->numbered ? 40 : L_CHAR * (double)l->longest + 24;
		if (l->left > L_WIDTH / 3.0)
			l->left = L_WIDTH / 3.0;
	}
	l->bottom = tics + (f->xlabel && *f->xlabel ? 24 : 0) + legend_h(f, l);
	l->h = ceil(l->top + plot + l->bottom + l->key);
}

/* The margins of l, the legend above the key, the key (its lines K from 1) at the left. */
static void set_layout(FILE *gp, const struct czr_fig *f, const struct lay *l)
{
	fprintf(gp, "set lmargin at screen %.4f\nset rmargin at screen %.4f\n"
		"set tmargin at screen %.4f\nset bmargin at screen %.4f\n",
		l->left / L_WIDTH, 1 - (double)L_RIGHT / L_WIDTH, 1 - l->top / l->h,
		(l->bottom + l->key) / l->h);
	fprintf(gp, "set key at screen 0.5, screen %.4f center bottom horizontal\n", (l->key + 4) / l->h);
	/*
	 * the y label at the canvas' left edge, not left of the tic labels: wide
	 * tic labels (3.2e+11) would push it off the canvas, and gnuplot then
	 * leaves it out
	 */
	if (f->ylabel && *f->ylabel && f->kind != CZR_WHISKER)
		fprintf(gp, "unset ylabel\nset label 999 $czr_ylabel[1][2:] at screen %.4f, screen %.4f "
			"center rotate by 90 noenhanced\n", 14.0 / L_WIDTH,
			(l->bottom + l->key + (l->h - l->top - l->bottom - l->key) / 2) / l->h);
	if (!l->numbered)
		return;
	key_lines(gp, f);
	fprintf(gp, "do for [k = 1:%zu] { set label 1000 + k $czr_key[k][2:] at screen %.4f, "
		"screen (%.1f - (k - 0.5) * %d) / %.1f left font ',9' noenhanced }\n",
		l->nkey, 12.0 / L_WIDTH, l->key, L_KEYLINE, l->h);
}

/* Rows top to bottom: y = -index, the row's label (or number) as its tic. */
static void plot_whisker(FILE *gp, const struct czr_fig *f, const struct lay *l)
{
	size_t n = f->ns ? f->s[0].n : 0;

	fprintf(gp, "set yrange [%f:0.7]\nset grid xtics\nunset ytics\nset ytics scale 0\n",
		-(double)n + 0.3);
	set_layout(gp, f, l);
	/* the reference (no change) always in sight: a change is read against it */
	if (isfinite(f->ref))
		fprintf(gp, "set xrange [*<%g:%g<*]\n", f->ref, f->ref);
	if (isfinite(f->ref))
		fprintf(gp, "set arrow from %g, graph 0 to %g, graph 1 nohead lc rgb '#444444' dt 2\n",
			f->ref, f->ref);
	fprintf(gp, "plot $s0 using 2:(-$0):3:4:5:ytic(%s) with xerrorbars pt 7 ps 1.1 lw 2 "
		"lc rgb variable notitle", l->numbered ? "sprintf('%d', int($0) + 1)" :
		"$czr_lab[int($0) + 1][2:]");
	legend_marks(gp, false);
	fputc('\n', gp);
}

static void plot_strip(FILE *gp, const struct czr_fig *f, const struct lay *l)
{
	size_t k;

	fprintf(gp, "set xrange [-0.6:%f]\nset grid ytics\nset xtics %s scale 0\n"
		"set style boxplot nooutliers\nset style fill empty\nset boxwidth 0.5\n",
		(double)f->ns - 0.4, l->numbered ? "norotate" : "rotate by 90 right");
	set_layout(gp, f, l);
	if (l->numbered)
		fprintf(gp, "set xtics ()\ndo for [k = 1:%zu] { set xtics add (sprintf('%%d', k) k - 1) }\n",
			f->ns);
	else
		fprintf(gp, "set xtics ()\ndo for [k = 1:%zu] { set xtics add ($czr_names[k][2:] k - 1) }\n",
			f->ns);
	if (isfinite(f->ref))
		fprintf(gp, "set yrange [*<%g:%g<*]\n"
			"set arrow from graph 0, first %g to graph 1, first %g nohead lc rgb '#444444' dt 2\n",
			f->ref, f->ref, f->ref, f->ref);
	fputs("plot ", gp);
	for (k = 0; k < f->ns; k++)
		fprintf(gp, "%s$s%zu using (%zu):2 with boxplot lc rgb '#999999' notitle, "
			"$s%zu using 1:2 with points pt 7 ps 0.6 lc rgb '%s' notitle",
			k ? ", " : "", k, k, k, palette[k % NPAL]);
	fputc('\n', gp);
}

static void plot_lines(FILE *gp, const struct czr_fig *f, const struct lay *l, bool band)
{
	size_t k;

	fputs("set grid ytics\nset style fill transparent solid 0.18 noborder\n", gp);
	set_layout(gp, f, l);
	fputs("plot ", gp);
	for (k = 0; k < f->ns; k++) {
		const char *c = palette[k % NPAL];

		fputs(k ? ", " : "", gp);
		if (band)
			fprintf(gp, "$s%zu using 1:3:4 with filledcurves lc rgb '%s' notitle, ", k, c);
		if (l->numbered)
			fprintf(gp, "$s%zu using 1:2 with linespoints pt 7 ps 0.5 lc rgb '%s' title '%zu'",
				k, c, k + 1);
		else
			fprintf(gp, "$s%zu using 1:2 with linespoints pt 7 ps 0.5 lc rgb '%s' "
				"title $czr_names[%zu][2:]", k, c, k + 1);
	}
	if (f->cache_lines)
		fputs(", NaN with lines lc rgb '#777777' lw 1.5 dt 1 title '64-byte line'"
		      ", NaN with lines lc rgb '#bbbbbb' dt 2 title '32-byte boundary'", gp);
	fputc('\n', gp);
}

/*
 * Steps left to right, labelled (or numbered: step K is tic K); the
 * interval as bars, each point in its verdict's colour, a change point
 * ringed; a point's note (a change's size) written above it in the same
 * colour, left of the point in the right half so that it stays on the canvas.
 */
static void plot_steps(FILE *gp, const struct czr_fig *f, const struct lay *l)
{
	size_t n = f->ns ? f->s[0].n : 0;

	fprintf(gp, "set xrange [-0.5:%f]\nset grid ytics\nset xtics %s scale 0\n"
		"set offsets 0, 0, graph 0.14, 0\n", (double)n - 0.5,
		l->numbered ? "norotate" : "rotate by 90 right");
	set_layout(gp, f, l);
	fprintf(gp, "plot $s0 using 0:2 with lines lc rgb '%s' notitle, "
		"$s0 using 0:2:3:4:5:xtic(%s) with yerrorbars pt 7 ps 0.9 lc rgb variable notitle, "
		"$s0 using 0:($6 > 0 ? $2 : NaN) with points pt 6 ps 2.4 lw 2 lc rgb '%s' notitle, "
		"$s0 using 0:($0 < %f ? $7 : NaN):($czr_note[int($0) + 1][2:]):5 with labels left "
		"offset -1, 1 font ',9' tc rgb variable notitle, "
		"$s0 using 0:($0 < %f ? NaN : $7):($czr_note[int($0) + 1][2:]):5 with labels right "
		"offset 1, 1 font ',9' tc rgb variable notitle",
		palette[0], l->numbered ? "sprintf('%d', int($0))" : "$czr_lab[int($0) + 1][2:]",
		C_CHANGE, (double)n / 2, (double)n / 2);
	legend_marks(gp, false);
	legend_marks(gp, true);
	fputc('\n', gp);
}

/* The x range of a sweep (for the cache lines). */
static void x_range(const struct czr_fig *f, double *lo, double *hi)
{
	size_t k, i;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (k = 0; k < f->ns; k++)
		for (i = 0; i < f->s[k].n; i++) {
			*lo = fmin(*lo, f->s[k].p[i].x);
			*hi = fmax(*hi, f->s[k].p[i].x);
		}
}

/* The series' names ($czr_names), the first series' point labels ($czr_lab) and notes ($czr_note). */
static void czr_texts(FILE *gp, const struct czr_fig *f)
{
	size_t k;

	czr_gp_text_begin(gp, "czr_names");
	for (k = 0; k < f->ns; k++)
		czr_gp_text_line(gp, f->s[k].name);
	czr_gp_text_end(gp);
	czr_gp_text_begin(gp, "czr_lab");
	for (k = 0; f->ns && k < f->s[0].n; k++)
		czr_gp_text_line(gp, f->s[0].p[k].label);
	czr_gp_text_end(gp);
	czr_gp_text_begin(gp, "czr_note");
	for (k = 0; f->ns && k < f->s[0].n; k++)
		czr_gp_text_line(gp, f->s[0].p[k].note);
	czr_gp_text_end(gp);
}

/*
 * An SVG says where gnuplot put the plot, in a comment after it: the
 * plot's bounds and the canvas, in pixels, as gnuplot reports them after
 * drawing (GPVAL_TERM_XMIN .. _YMAX; _XSIZE, _YSIZE in terminal units of
 * GPVAL_TERM_SCALE a pixel; gnuplot 5.4 documentation, "gnuplot-defined
 * variables").  Tests read it rather than guess the plot from pixels.
 */
static void plot_bounds(FILE *gp)
{
	fputs("set print '-'\nprint sprintf('<!-- czr-plot xmin=%g xmax=%g ymin=%g ymax=%g "
	      "width=%g height=%g -->', GPVAL_TERM_XMIN, GPVAL_TERM_XMAX, GPVAL_TERM_YMIN, "
	      "GPVAL_TERM_YMAX, GPVAL_TERM_XSIZE / GPVAL_TERM_SCALE, "
	      "GPVAL_TERM_YSIZE / GPVAL_TERM_SCALE)\n", gp);
}

/* The script of f to gnuplot (its terminal and title set), closed: 0 or -errno. */
static int fig_script(const struct czr_fig *f, FILE *gp, const char *file, bool svg)
{
	struct lay l;
	double lo, hi;
	size_t k;

	layout(f, &l);
	fputs("set termoption noenhanced\nset key outside bottom center horizontal\n", gp);
	czr_gp_text(gp, "czr_xlabel", f->xlabel);
	czr_gp_text(gp, "czr_ylabel", f->ylabel);
	fputs("set xlabel $czr_xlabel[1][2:]\nset ylabel $czr_ylabel[1][2:]\n", gp);
	czr_texts(gp, f);
	if (f->cache_lines) {
		x_range(f, &lo, &hi);
		if (isfinite(lo) && lo >= 0) {
			fprintf(gp, "set xrange [%g:%g]\n", lo - 1, hi + 1);
			czr_gp_cache_lines(gp, (unsigned)lo, (unsigned)hi);
		}
	}
	for (k = 0; k < f->ns; k++)
		data_block(gp, f, k);
	if (f->kind == CZR_WHISKER)
		plot_whisker(gp, f, &l);
	else if (f->kind == CZR_STRIP)
		plot_strip(gp, f, &l);
	else if (f->kind == CZR_STEPS)
		plot_steps(gp, f, &l);
	else
		plot_lines(gp, f, &l, f->kind == CZR_BAND);
	fputs("unset output\n", gp);
	if (svg)
		plot_bounds(gp);
	return czr_plot_close(gp, file);
}

static int fig_height(const struct czr_fig *f)
{
	struct lay l;

	layout(f, &l);
	return (int)ceil(l.h);
}

int czr_fig_draw(const struct czr_fig *f, const char *file)
{
	int err;
	FILE *gp = czr_plot_open(file, f->title ? f->title : "", L_WIDTH, fig_height(f), &err);
	const char *kind = czr_plot_kind(file);

	return gp ? fig_script(f, gp, file, kind && !strcmp(kind, "svg")) : err;
}

int czr_fig_draw_fd(const struct czr_fig *f, int out, const char *kind)
{
	int err;
	FILE *gp = czr_plot_open_fd(out, kind, f->title ? f->title : "", L_WIDTH, fig_height(f), &err);

	return gp ? fig_script(f, gp, NULL, kind && !strcmp(kind, "svg")) : err;
}
