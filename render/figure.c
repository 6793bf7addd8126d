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
	s->p[s->n++] = (struct czr_point){ x, y, lo, hi, mark, label ? xstrdup(label) : NULL };
}

void czr_fig_free(struct czr_fig *f)
{
	size_t i, k;

	for (i = 0; i < f->ns; i++) {
		for (k = 0; k < f->s[i].n; k++)
			free((char *)f->s[i].p[k].label);
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

/* Series k as data block $sK: x y lo hi colour change (labels: $czr_lab, names: $czr_names). */
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
		fprintf(gp, " %ld %d\n", strtol(mark_colour(p->mark) + 1, NULL, 16),
			czr_mark_change(p->mark));
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
 * The whisker's layout, in pixels: rows of W_ROW, the title above, the x
 * axis, its label and the legend below; row labels longer than W_SHORT
 * bytes are numbered, their names listed under the figure (a line of
 * W_KEY each, cut at W_KEYCUT bytes), so no label takes the plot's width.
 */
#define W_WIDTH 760
#define W_ROW 34
#define W_TOP 40
#define W_AXIS 80
#define W_KEY 16
#define W_SHORT 30
#define W_KEYCUT 110

static size_t whisker_longest(const struct czr_fig *f)
{
	size_t i, m = 0, n = f->ns ? f->s[0].n : 0;

	for (i = 0; i < n; i++)
		if (f->s[0].p[i].label && strlen(f->s[0].p[i].label) > m)
			m = strlen(f->s[0].p[i].label);
	return m;
}

static int whisker_height(const struct czr_fig *f, bool numbered)
{
	int n = (int)(f->ns ? f->s[0].n : 1);

	return W_TOP + (n * W_ROW < 120 ? 120 : n * W_ROW) + W_AXIS + (numbered ? W_KEY * n + 8 : 0);
}

/*
 * Rows top to bottom: y = -index, the row's label (or number) as its tic.
 * The plot keeps at least 2/3 of the width whatever the labels: the left
 * margin is the labels' width up to a third.
 */
static void plot_whisker(FILE *gp, const struct czr_fig *f)
{
	size_t n = f->ns ? f->s[0].n : 0, longest = whisker_longest(f);
	bool numbered = longest > W_SHORT;
	double h = whisker_height(f, numbered), key = numbered ? (double)(W_KEY * n + 8) : 0;
	double left = numbered ? 40 : 6.6 * (double)longest + 24;

	if (left > W_WIDTH / 3.0)
		left = W_WIDTH / 3.0;
	fprintf(gp, "set yrange [%f:0.7]\nset grid xtics\nunset ytics\nset ytics scale 0\n",
		-(double)n + 0.3);
	fprintf(gp, "set lmargin at screen %.4f\nset rmargin at screen %.4f\n"
		"set tmargin at screen %.4f\nset bmargin at screen %.4f\n",
		left / W_WIDTH, 1 - 24.0 / W_WIDTH, 1 - W_TOP / h, (W_AXIS + key) / h);
	/* the legend centred on the canvas, under the axis label; the numbered names below it */
	fprintf(gp, "set key at screen 0.5, screen %.4f center bottom horizontal\n", (key + 4) / h);
	if (numbered)
		fprintf(gp, "do for [k = 1:%zu] { set label 1000 + k sprintf('%%d  %%s', k, "
			"$czr_lab[k][2:%d]) at screen %.4f, screen (%.1f - (k - 0.5) * %d) / %.1f left "
			"font ',9' noenhanced }\n", n, W_KEYCUT, 12.0 / W_WIDTH, key, W_KEY, h);
	/* the reference (no change) always in sight: a change is read against it */
	if (isfinite(f->ref))
		fprintf(gp, "set xrange [*<%g:%g<*]\n", f->ref, f->ref);
	if (isfinite(f->ref))
		fprintf(gp, "set arrow from %g, graph 0 to %g, graph 1 nohead lc rgb '#444444' dt 2\n",
			f->ref, f->ref);
	fprintf(gp, "plot $s0 using 2:(-$0):3:4:5:ytic(%s) with xerrorbars pt 7 ps 1.1 lw 2 "
		"lc rgb variable notitle", numbered ? "sprintf('%d', int($0) + 1)" :
		"$czr_lab[int($0) + 1][2:]");
	legend_marks(gp, false);
	fputc('\n', gp);
}

static void plot_strip(FILE *gp, const struct czr_fig *f)
{
	size_t k;

	fprintf(gp, "set xrange [-0.6:%f]\nset grid ytics\nset xtics rotate by -25 scale 0\n"
		"set style boxplot nooutliers\nset style fill empty\nset boxwidth 0.5\n",
		(double)f->ns - 0.4);
	fprintf(gp, "set xtics ()\ndo for [k = 1:%zu] { set xtics add ($czr_names[k][2:] k - 1) }\n", f->ns);
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

static void plot_lines(FILE *gp, const struct czr_fig *f, bool band)
{
	size_t k;

	fputs("set grid ytics\nset style fill transparent solid 0.18 noborder\n", gp);
	fputs("plot ", gp);
	for (k = 0; k < f->ns; k++) {
		const char *c = palette[k % NPAL];

		fputs(k ? ", " : "", gp);
		if (band)
			fprintf(gp, "$s%zu using 1:3:4 with filledcurves lc rgb '%s' notitle, ", k, c);
		fprintf(gp, "$s%zu using 1:2 with linespoints pt 7 ps 0.5 lc rgb '%s' title $czr_names[%zu][2:]",
			k, c, k + 1);
	}
	if (f->cache_lines)
		fputs(", NaN with lines lc rgb '#777777' lw 1.5 dt 1 title '64-byte line'"
		      ", NaN with lines lc rgb '#bbbbbb' dt 2 title '32-byte boundary'", gp);
	fputc('\n', gp);
}

/* Steps left to right, labelled; the interval as bars, marked steps coloured. */
static void plot_steps(FILE *gp, const struct czr_fig *f)
{
	size_t n = f->ns ? f->s[0].n : 0;

	fprintf(gp, "set xrange [-0.5:%f]\nset grid ytics\nset xtics rotate by -30 scale 0\n",
		(double)n - 0.5);
	fprintf(gp, "plot $s0 using 0:2 with lines lc rgb '%s' notitle, "
		"$s0 using 0:2:3:4:5:xtic($czr_lab[int($0) + 1][2:]) with yerrorbars pt 7 ps 0.9 lc rgb variable notitle, "
		"$s0 using 0:($6 > 0 ? $2 : NaN) with points pt 6 ps 2.4 lw 2 lc rgb '%s' notitle",
		palette[0], C_CHANGE);
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

/* The series' names ($czr_names, a line each) and the first series' point labels ($czr_lab). */
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
}

static int fig_height(const struct czr_fig *f)
{
	return f->kind == CZR_WHISKER ? whisker_height(f, whisker_longest(f) > W_SHORT) : 400;
}

/* The script of f to gnuplot (its terminal and title set), closed: 0 or -errno. */
static int fig_script(const struct czr_fig *f, FILE *gp, const char *file)
{
	double lo, hi;
	size_t k;

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
		plot_whisker(gp, f);
	else if (f->kind == CZR_STRIP)
		plot_strip(gp, f);
	else if (f->kind == CZR_STEPS)
		plot_steps(gp, f);
	else
		plot_lines(gp, f, f->kind == CZR_BAND);
	fputs("unset output\n", gp);
	return czr_plot_close(gp, file);
}

int czr_fig_draw(const struct czr_fig *f, const char *file)
{
	int err;
	FILE *gp = czr_plot_open(file, f->title ? f->title : "", W_WIDTH, fig_height(f), &err);

	return gp ? fig_script(f, gp, file) : err;
}

int czr_fig_draw_fd(const struct czr_fig *f, int out, const char *kind)
{
	int err;
	FILE *gp = czr_plot_open_fd(out, kind, f->title ? f->title : "", W_WIDTH, fig_height(f), &err);

	return gp ? fig_script(f, gp, NULL) : err;
}
