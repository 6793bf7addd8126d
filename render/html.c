/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The page: one self-contained HTML file.  Inline CSS, each figure an
 * inline SVG that gnuplot drew (read back from a temporary file), its
 * numbers in a table beside it; nothing the page needs lives elsewhere, no
 * script.  Each figure is <figure class="czr-fig" id="fig-NAME"> (tests and
 * readers find them by that).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "czrender.h"

struct czr_page {
	FILE *f;
	unsigned figs;
};

static const char page_css[] =
	"body{font-family:sans-serif;margin:1.5em auto;max-width:1400px;padding:0 1em;color:#222}"
	"h1{font-size:1.4em}h2{font-size:1.15em;border-bottom:1px solid #ccc;margin-top:2em}"
	"pre{background:#f6f6f6;padding:.6em;overflow-x:auto;white-space:pre-wrap;font-size:.85em}"
	".czr-fig{display:flex;flex-wrap:wrap;gap:1.2em;align-items:flex-start;margin:1em 0}"
	".czr-fig svg{max-width:100%;height:auto;border:1px solid #ddd}"
	".czr-fig figcaption{flex-basis:100%;font-size:.9em;color:#444}"
	"table{border-collapse:collapse;font-size:.82em}"
	"td,th{border:1px solid #ccc;padding:2px 6px;text-align:right;white-space:nowrap}"
	"td:first-child,th:first-child{text-align:left;white-space:normal;max-width:22em}"
	".R{color:#c0392b;font-weight:bold}.I{color:#1e8449;font-weight:bold}.C{color:#e67e22;font-weight:bold}"
	".czr-err{color:#c0392b}";

void czr_html_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else if (*s == '\'')
			fputs("&#39;", f);
		else
			fputc(*s, f);
	}
}

struct czr_page *czr_page_open(FILE *f, const char *title)
{
	struct czr_page *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->f = f;
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", f);
	czr_html_text(f, title);
	fprintf(f, "</title>\n<style>%s</style>\n</head><body>\n<h1>", page_css);
	czr_html_text(f, title);
	fputs("</h1>\n", f);
	return p;
}

void czr_page_h2(struct czr_page *p, const char *text)
{
	fputs("<h2>", p->f);
	czr_html_text(p->f, text);
	fputs("</h2>\n", p->f);
}

void czr_page_p(struct czr_page *p, const char *text)
{
	fputs("<p>", p->f);
	czr_html_text(p->f, text);
	fputs("</p>\n", p->f);
}

void czr_page_pre(struct czr_page *p, const char *text)
{
	fputs("<pre>", p->f);
	czr_html_text(p->f, text);
	fputs("</pre>\n", p->f);
}

/* gnuplot's SVG in in, from <svg on (its XML prolog dropped): 0 or -errno. */
static int inline_svg(FILE *out, FILE *in)
{
	char *buf = NULL, *svg;
	size_t cap = 0, len = 0, n;

	rewind(in);
	do {
		if (len + 65536 + 1 > cap) {
			char *nb = realloc(buf, cap = len + 65536 * 2 + 1);

			if (!nb) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len - 1, in);
		len += n;
	} while (n);
	buf[len] = '\0';
	svg = strstr(buf, "<svg");
	if (svg)
		fputs(svg, out);
	free(buf);
	return svg ? 0 : -EIO;
}

static void cell_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "<td>%.4g</td>", v);
	else
		fputs("<td>-</td>", f);
}

static const char *mark_text(int mark, const char **cls)
{
	int v = czr_mark_verdict(mark);

	if (czr_mark_change(mark)) {
		*cls = "C";
		return v == CZR_WORSE ? "change (R)" : v == CZR_BETTER ? "change (I)" : "change";
	}
	*cls = v == CZR_WORSE ? "R" : v == CZR_BETTER ? "I" : "";
	return v == CZR_WORSE ? "(R)" : v == CZR_BETTER ? "(I)" : "";
}

/* Whisker and steps: a row per point (label, value, interval, mark). */
static void table_points(FILE *f, const struct czr_fig *fig)
{
	const struct czr_series *s = &fig->s[0];
	const char *cls;
	size_t i;

	fprintf(f, "<table><tr><th>%s</th><th>", fig->kind == CZR_STEPS ? "step" : "row");
	czr_html_text(f, fig->unit ? fig->unit : "value");
	fputs("</th><th>95% low</th><th>95% high</th><th></th></tr>\n", f);
	for (i = 0; i < s->n; i++) {
		const char *m = mark_text(s->p[i].mark, &cls);

		fputs("<tr><td>", f);
		czr_html_text(f, s->p[i].label);
		fputs("</td>", f);
		cell_num(f, s->p[i].y);
		cell_num(f, s->p[i].lo);
		cell_num(f, s->p[i].hi);
		fprintf(f, "<td class=\"%s\">%s</td></tr>\n", cls, m);
	}
	fputs("</table>\n", f);
}

static int dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Strip and lines: a row per series (n, min, median, max; first and last for lines). */
static void table_series(FILE *f, const struct czr_fig *fig)
{
	size_t k, i, m;

	fprintf(f, "<table><tr><th>series</th><th>n</th><th>min</th><th>median</th><th>max</th>%s</tr>\n",
		fig->kind == CZR_STRIP ? "" : "<th>first</th><th>last</th>");
	for (k = 0; k < fig->ns; k++) {
		const struct czr_series *s = &fig->s[k];
		double *v = malloc((s->n + 1) * sizeof(*v));

		for (i = m = 0; v && i < s->n; i++)
			if (isfinite(s->p[i].y))
				v[m++] = s->p[i].y;
		if (v)
			qsort(v, m, sizeof(*v), dcmp);
		fputs("<tr><td>", f);
		czr_html_text(f, s->name);
		fprintf(f, "</td><td>%zu</td>", m);
		cell_num(f, m ? v[0] : NAN);
		cell_num(f, m ? (m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2) : NAN);
		cell_num(f, m ? v[m - 1] : NAN);
		if (fig->kind != CZR_STRIP) {
			cell_num(f, s->n ? s->p[0].y : NAN);
			cell_num(f, s->n ? s->p[s->n - 1].y : NAN);
		}
		fputs("</tr>\n", f);
		free(v);
	}
	fputs("</table>\n", f);
}

/* Band: a row per x, a column pair (value, interval) per series. */
static void table_band(FILE *f, const struct czr_fig *fig)
{
	size_t k, i;

	fputs("<table><tr><th>x</th>", f);
	for (k = 0; k < fig->ns; k++) {
		fputs("<th>", f);
		czr_html_text(f, fig->s[k].name);
		fputs("</th><th>95% interval</th>", f);
	}
	fputs("</tr>\n", f);
	for (i = 0; fig->ns && i < fig->s[0].n; i++) {
		fprintf(f, "<tr><td>%g</td>", fig->s[0].p[i].x);
		for (k = 0; k < fig->ns; k++) {
			const struct czr_point *p = i < fig->s[k].n ? &fig->s[k].p[i] : NULL;

			cell_num(f, p ? p->y : NAN);
			if (p && isfinite(p->lo))
				fprintf(f, "<td>%.4g..%.4g</td>", p->lo, p->hi);
			else
				fputs("<td>-</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

int czr_page_figure(struct czr_page *p, const struct czr_fig *fig)
{
	/* gnuplot writes to a file of no name, read back */
	FILE *svg = tmpfile();
	int err;

	if (!svg)
		return -errno;
	fputs("<figure class=\"czr-fig\" id=\"fig-", p->f);
	czr_html_text(p->f, fig->name);
	fputs("\" data-figure=\"", p->f);
	czr_html_text(p->f, fig->name);
	fputs("\">\n", p->f);
	err = czr_fig_draw_fd(fig, fileno(svg), "svg");
	if (!err)
		err = inline_svg(p->f, svg);
	fclose(svg);
	if (err)
		fprintf(p->f, "<p class=\"czr-err\">figure not drawn: gnuplot failed (%s)</p>\n",
			strerror(-err));
	if (fig->kind == CZR_WHISKER || fig->kind == CZR_STEPS)
		table_points(p->f, fig);
	else if (fig->kind == CZR_BAND)
		table_band(p->f, fig);
	else
		table_series(p->f, fig);
	if (fig->caption) {
		fputs("<figcaption>", p->f);
		czr_html_text(p->f, fig->caption);
		fputs("</figcaption>\n", p->f);
	}
	fputs("</figure>\n", p->f);
	p->figs++;
	return err;
}

int czr_page_close(struct czr_page *p)
{
	int bad;

	fputs("<p style=\"font-size:.8em;color:#666\">Figures drawn by gnuplot; "
	      "the tables beside them hold the numbers drawn.</p>\n</body></html>\n", p->f);
	bad = fflush(p->f) || ferror(p->f);
	free(p);
	return bad ? -1 : 0;
}
