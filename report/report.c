/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tables of a result in their output styles, and its CSV.
 *
 * Per cell: mean, 95% CI (Student t), CV, n, and the verdict against the
 * base variant (stats/cellstat.c): the change shown as the value's own
 * (new / base - 1, so a time that doubled reads +100%; the CSV's
 * change_pct keeps the verdict's orientation, negative worse), the
 * (R)/(I) mark saying which is better.  The detailed view adds the
 * Mann-Whitney U p-value.  Column widths grow with the content; nothing is
 * truncated.  A change sequence's step is named with its label (the
 * patch subject, kernel version or commit) beside NAME@K, a long one
 * wrapped onto continuation lines of its cell.
 * Cells with fewer than ZAB_FEW samples get a warning under the table: a
 * t interval from three or four samples is wide and moves a lot with one
 * outlier.
 */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "czlimits.h"
#include "report.h"
#include "samplestat.h"
#include "stats/cellstat.h"
#include "stats/verdict.h"

#define ZAB_FEW 5

int czrep_style_parse(const char *s, enum czrep_style *st)
{
	static const char *const names[] = { "box", "grid", "plain", "markdown", "detail", "benchstat" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i])) {
			*st = (enum czrep_style)i;
			return 0;
		}
	return -1;
}

size_t czrep_trimmed_len(const char *s)
{
	size_t n;

	if (!s)
		return 1;
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return n;
}

static char *base_text(const struct czres_result *r, size_t b, bool unit)
{
	struct czst_lstat ls;
	struct czst_cstat cs;

	czst_cell_stat(r, b, r->base, &cs);
	if (czres_cell(r, b, r->base)->failed)
		return cz_xstrdup("FAILED");
	if (!cs.ok)
		return cz_xstrdup("-");
	/* placed per run: the base's figure is its mean over layouts (doc/layouts.md) */
	if (czst_layout_stat(czres_cell(r, b, r->base), r->b[b].higher, &ls)) {
		cs.s.mean = ls.grand;
		czst_lstat_free(&ls);
	}
	/* below 1 (a timed command's seconds): three significant digits, not 0.06 */
	if (fabs(cs.s.mean) < 1 && cs.s.mean != 0)
		return cz_xasprintf("%.3g%s%s", cs.s.mean, unit && *r->b[b].unit ? " " : "",
				    unit ? r->b[b].unit : "");
	if (unit && *r->b[b].unit)
		return cz_xasprintf("%.2f %s", cs.s.mean, r->b[b].unit);
	return cz_xasprintf("%.2f", cs.s.mean);
}

static char *change_text(const struct czres_result *r, size_t b, size_t v)
{
	struct czst_cstat cs;

	czst_cell_stat(r, b, v, &cs);
	if (czres_cell(r, b, v)->failed)
		return cz_xstrdup("FAILED");
	if (!cs.cmp)
		return cz_xstrdup(cs.ok ? "n/a" : "-");
	/* the value's own change, as benchstat: a time 5 times the base's reads +400%, never -400% */
	return cz_xasprintf("%s%+.2f%%", cs.flag < 0 ? "(R) " : cs.flag > 0 ? "(I) " : "",
			    r->b[b].higher ? cs.pct : -cs.pct);
}

static char *result_class(const struct czres_bench *b)
{
	return *b->unit ? cz_xasprintf("%s (%s)", b->name, b->unit) : cz_xstrdup(b->name);
}

/* ---- a table of strings ----------------------------------------------------------- */

struct table {
	size_t ncol, nrow;   /* rows exclude the header */
	char *head[CZRES_MAX_ITEMS + 8];
	char align[CZRES_MAX_ITEMS + 8];   /* 'l' or 'r' for the body */
	char **cell;
	size_t width[CZRES_MAX_ITEMS + 8];
};

/* The display width of the first n bytes of s (UTF-8: one column per character). */
static size_t dwidthn(const char *s, size_t n)
{
	size_t w = 0;

	for (; n && *s; s++, n--)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* Line k of a cell ('\n' separates its lines): its start, its length at *len; "" past the last. */
static const char *line_of(const char *s, size_t k, size_t *len)
{
	for (; k && *s; k--) {
		const char *nl = strchr(s, '\n');

		s = nl ? nl + 1 : s + strlen(s);
	}
	*len = strcspn(s, "\n");
	return s;
}

static size_t nlines(const char *s)
{
	size_t n = 1;

	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

/* The width of a cell: its widest line. */
static size_t dwidth(const char *s)
{
	size_t k, n = nlines(s), w = 0, len, x;
	const char *l;

	for (k = 0; k < n; k++) {
		l = line_of(s, k, &len);
		x = dwidthn(l, len);
		w = x > w ? x : w;
	}
	return w;
}

/* ---- a variant's name and its step's label ---------------------------------------- */

#define LABEL_WRAP 32   /* the columns a labelled variant's heading wraps at */

/* A label is data: its control characters written as \xNN. */
static char *visible(const char *s)
{
	char *out = cz_xmalloc(4 * strlen(s) + 1), *o = out;

	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			o += sprintf(o, "\\x%02x", (unsigned char)*s);
		else
			*o++ = *s;
	*o = 0;
	return out;
}

char *czrep_variant_text(const struct czres_result *r, size_t v, bool base)
{
	char *l, *t;

	if (!r->vlabel[v] || !strcmp(r->vlabel[v], r->vname[v]))
		return base ? cz_xasprintf("%s (base)", r->vname[v]) : cz_xstrdup(r->vname[v]);
	l = visible(r->vlabel[v]);
	if (base && !strcmp(l, "base"))
		t = cz_xasprintf("%s (base)", r->vname[v]);
	else
		t = cz_xasprintf("%s (%s%s)", r->vname[v], base ? "base: " : "", l);
	free(l);
	return t;
}

char *czrep_wrap(const char *s, size_t w)
{
	char *out = cz_xmalloc(2 * strlen(s) + 1), *o = out;
	size_t col = 0, n, ww;

	while (*s) {
		n = strcspn(s, " ");
		ww = dwidthn(s, n);
		if (col && col + 1 + ww > w) {
			*o++ = '\n';
			col = 0;
		} else if (col) {
			*o++ = ' ';
			col++;
		}
		/* a word wider than w: continued on the next lines, never cut */
		for (; n; n--, s++) {
			if (col == w && ((unsigned char)*s & 0xc0) != 0x80) {
				*o++ = '\n';
				col = 0;
			}
			col += ((unsigned char)*s & 0xc0) != 0x80;
			*o++ = *s;
		}
		while (*s == ' ')
			s++;
	}
	*o = 0;
	return out;
}

/* A variant's heading: its name, and its step's label wrapped at LABEL_WRAP (unless flat). */
static char *vhead(const struct czres_result *r, size_t v, bool base, const char *pre,
		   const char *post, bool flat)
{
	char *t = czrep_variant_text(r, v, base), *h = cz_xasprintf("%s%s%s", pre, t, post), *w;
	size_t nw;

	free(t);
	if (flat || !r->vlabel[v])
		return h;
	/* never narrower than the heading's words up to the name (kept on the first line) */
	t = cz_xasprintf("%s%s%s", pre, r->vname[v], post);
	nw = dwidth(t) + 2;
	free(t);
	w = czrep_wrap(h, nw > LABEL_WRAP ? nw : LABEL_WRAP);
	free(h);
	return w;
}

static void t_init(struct table *t, size_t ncol, size_t nrow)
{
	memset(t, 0, sizeof(*t));
	t->ncol = ncol;
	t->nrow = nrow;
	t->cell = cz_xmalloc((nrow ? nrow : 1) * ncol * sizeof(char *));
}

static char **t_at(struct table *t, size_t row, size_t col)
{
	return &t->cell[row * t->ncol + col];
}

static void t_widths(struct table *t)
{
	size_t c, r, w;

	for (c = 0; c < t->ncol; c++) {
		t->width[c] = dwidth(t->head[c]);
		for (r = 0; r < t->nrow; r++) {
			w = dwidth(*t_at(t, r, c) ? *t_at(t, r, c) : "");
			if (w > t->width[c])
				t->width[c] = w;
		}
	}
}

static void t_free(struct table *t)
{
	size_t i;

	for (i = 0; i < t->ncol; i++)
		free(t->head[i]);
	for (i = 0; i < t->nrow * t->ncol; i++)
		free(t->cell[i]);
	free(t->cell);
}

static void pad(FILE *f, size_t n)
{
	while (n--)
		fputc(' ', f);
}

static void put_aligned(FILE *f, const char *s, size_t len, size_t w, char align)
{
	size_t n = dwidthn(s, len), l;

	if (align == 'r') {
		pad(f, w - n);
		fwrite(s, 1, len, f);
	} else if (align == 'c') {
		l = (w - n) / 2;
		pad(f, l);
		fwrite(s, 1, len, f);
		pad(f, w - n - l);
	} else {
		fwrite(s, 1, len, f);
		pad(f, w - n);
	}
}

/* The lines of a row: its tallest cell's. */
static size_t row_lines(const struct table *t, char *const *cells)
{
	size_t c, n = 1, k;

	for (c = 0; c < t->ncol; c++) {
		k = nlines(cells[c]);
		n = k > n ? k : n;
	}
	return n;
}

static void rule(FILE *f, const struct table *t, const char *l, const char *fill, const char *mid,
		 const char *r)
{
	size_t c, i;

	fputs(l, f);
	for (c = 0; c < t->ncol; c++) {
		for (i = 0; i < t->width[c] + 2; i++)
			fputs(fill, f);
		fputs(c + 1 < t->ncol ? mid : r, f);
	}
	fputc('\n', f);
}

static void row(FILE *f, const struct table *t, char *const *cells, const char *sep,
		const char *head_align)
{
	size_t c, k, n = row_lines(t, cells), len;
	const char *l;

	for (k = 0; k < n; k++) {
		fputs(sep, f);
		for (c = 0; c < t->ncol; c++) {
			l = line_of(cells[c] ? cells[c] : "", k, &len);
			fputc(' ', f);
			put_aligned(f, l, len, t->width[c], head_align ? head_align[c] : t->align[c]);
			fputc(' ', f);
			fputs(sep, f);
		}
		fputc('\n', f);
	}
}

static void render_box(FILE *f, struct table *t, bool unicode)
{
	char halign[CZRES_MAX_ITEMS + 8];
	size_t r, c;

	for (c = 0; c < t->ncol; c++)
		halign[c] = unicode && t->align[c] == 'r' ? 'c' : 'l';
	if (unicode) {
		rule(f, t, "╭", "─", "┬", "╮");
		row(f, t, t->head, "│", halign);
		rule(f, t, "├", "─", "┼", "┤");
		for (r = 0; r < t->nrow; r++)
			row(f, t, t_at(t, r, 0), "│", NULL);
		rule(f, t, "╰", "─", "┴", "╯");
	} else {
		rule(f, t, "+", "-", "+", "+");
		row(f, t, t->head, "|", halign);
		rule(f, t, "+", "=", "+", "+");
		for (r = 0; r < t->nrow; r++)
			row(f, t, t_at(t, r, 0), "|", NULL);
		rule(f, t, "+", "-", "+", "+");
	}
}

static void render_markdown(FILE *f, struct table *t)
{
	size_t r, c, i;

	row(f, t, t->head, "|", NULL);
	fputc('|', f);
	for (c = 0; c < t->ncol; c++) {
		fputc(t->align[c] == 'l' ? ':' : '-', f);
		for (i = 0; i < t->width[c]; i++)
			fputc('-', f);
		fputc(t->align[c] == 'r' ? ':' : '-', f);
		fputc('|', f);
	}
	fputc('\n', f);
	for (r = 0; r < t->nrow; r++)
		row(f, t, t_at(t, r, 0), "|", NULL);
}

static void render_plain(FILE *f, struct table *t)
{
	size_t r, c, k, n, len;
	const char *l;

	for (r = 0; r <= t->nrow; r++) {
		char **cells = r ? t_at(t, r - 1, 0) : t->head;

		for (k = 0, n = row_lines(t, cells); k < n; k++) {
			size_t last = t->ncol;

			/* a continuation line ends after its last cell that goes on */
			while (k && last > 1 && !*line_of(cells[last - 1] ? cells[last - 1] : "", k, &len))
				last--;
			fputs("  ", f);
			for (c = 0; c < last; c++) {
				l = line_of(cells[c] ? cells[c] : "", k, &len);
				if (c + 1 == last && t->align[c] == 'l')
					fwrite(l, 1, len, f);   /* no trailing blanks */
				else
					put_aligned(f, l, len, t->width[c], t->align[c]);
				if (c + 1 < last)
					fputs("   ", f);
			}
			fputc('\n', f);
		}
	}
}

/*
 * Markdown: a cell is one line, its text data: the characters that would
 * end the cell or become markup escaped with a backslash (CommonMark:
 * any ASCII punctuation may be), a line break a blank.
 */
static char *md_text(const char *s)
{
	char *out = cz_xmalloc(2 * strlen(s) + 1), *o = out;

	for (; *s; s++) {
		if (strchr("\\|<>&*`[]", *s))
			*o++ = '\\';
		*o++ = *s == '\n' ? ' ' : *s;
	}
	*o = 0;
	return out;
}

static void t_markdown(struct table *t)
{
	size_t i;
	char *x;

	for (i = 0; i < t->ncol; i++) {
		x = md_text(t->head[i]);
		free(t->head[i]);
		t->head[i] = x;
	}
	for (i = 0; i < t->nrow * t->ncol; i++)
		if (t->cell[i]) {
			x = md_text(t->cell[i]);
			free(t->cell[i]);
			t->cell[i] = x;
		}
}

/* ---- the main table --------------------------------------------------------------- */

static void main_table(const struct czres_result *r, struct table *t, enum czrep_style st)
{
	size_t b, v, c, ncol = 2 + r->nv;
	const char *prev = NULL;

	t_init(t, ncol, r->nb);
	t->head[0] = cz_xstrdup("Benchmark");
	t->head[1] = cz_xstrdup("Result Class");
	t->align[0] = t->align[1] = 'l';
	c = 2;
	t->head[c] = vhead(r, r->base, st != CZREP_STYLE_GRID, "", "", st == CZREP_STYLE_MARKDOWN);
	t->align[c++] = 'r';
	for (v = 0; v < r->nv; v++)
		if (v != r->base) {
			t->head[c] = vhead(r, v, false, "", "", st == CZREP_STYLE_MARKDOWN);
			t->align[c++] = 'r';
		}
	for (b = 0; b < r->nb; b++) {
		/* the group name only where it changes, as in the seed tables */
		bool same = prev && !strcmp(prev, r->b[b].group) && st != CZREP_STYLE_MARKDOWN;

		*t_at(t, b, 0) = cz_xstrdup(same ? "" : r->b[b].group);
		prev = r->b[b].group;
		*t_at(t, b, 1) = result_class(&r->b[b]);
		*t_at(t, b, 2) = base_text(r, b, false);
		c = 3;
		for (v = 0; v < r->nv; v++)
			if (v != r->base)
				*t_at(t, b, c++) = change_text(r, b, v);
	}
	if (st == CZREP_STYLE_MARKDOWN)
		t_markdown(t);
	t_widths(t);
}

static void plain_table(const struct czres_result *r, struct table *t)
{
	size_t b, v, c;
	bool same_unit = true;

	for (b = 1; b < r->nb; b++)
		same_unit = same_unit && !strcmp(r->b[b].unit, r->b[0].unit);
	t_init(t, 1 + r->nv, r->nb);
	t->head[0] = cz_xstrdup("Benchmark");
	t->align[0] = 'l';
	t->head[1] = same_unit && *r->b[0].unit ? cz_xasprintf("Base %s", r->b[0].unit) :
		     cz_xstrdup("Base");
	t->align[1] = 'l';
	c = 2;
	for (v = 0; v < r->nv; v++)
		if (v != r->base) {
			t->head[c] = vhead(r, v, false, "Change with ", "", false);
			t->align[c++] = 'r';
		}
	for (b = 0; b < r->nb; b++) {
		*t_at(t, b, 0) = cz_xstrdup(r->b[b].name);
		*t_at(t, b, 1) = base_text(r, b, !same_unit);
		c = 2;
		for (v = 0; v < r->nv; v++)
			if (v != r->base)
				*t_at(t, b, c++) = change_text(r, b, v);
	}
	t_widths(t);
}

static void detail_table(const struct czres_result *r, size_t b, struct table *t)
{
	static const char *const heads[] = {
		"Variant", "n", "Mean", "95% CI", "CV", "Median", "Change", "U-test p",
	};
	const struct czres_cell *base = czres_cell(r, b, r->base);
	size_t v, c, i;

	t_init(t, sizeof(heads) / sizeof(heads[0]), r->nv);
	for (c = 0; c < t->ncol; c++) {
		t->head[c] = cz_xstrdup(heads[c]);
		t->align[c] = c ? 'r' : 'l';
	}
	for (i = 0; i < r->nv; i++) {
		/* the base first, then the others in their order */
		struct czst_cstat cs;
		const struct czres_cell *cell;

		v = i == 0 ? r->base : (i <= r->base ? i - 1 : i);
		cell = czres_cell(r, b, v);
		czst_cell_stat(r, b, v, &cs);
		*t_at(t, i, 0) = vhead(r, v, v == r->base, "", "", false);
		*t_at(t, i, 1) = cz_xasprintf("%zu", cell->n);
		if (cell->failed || !cs.ok) {
			*t_at(t, i, 2) = cz_xstrdup(cell->failed ? "FAILED" : "-");
			for (c = 3; c < t->ncol; c++)
				*t_at(t, i, c) = cz_xstrdup("-");
			continue;
		}
		*t_at(t, i, 2) = cz_xasprintf("%.2f", cs.s.mean);
		*t_at(t, i, 3) = cz_xasprintf("%.2f .. %.2f", cs.s.ci_lo, cs.s.ci_hi);
		*t_at(t, i, 4) = cz_xasprintf("%.2f%%", cs.s.cv * 100);
		*t_at(t, i, 5) = cz_xasprintf("%.2f", cs.s.median);
		if (v == r->base) {
			*t_at(t, i, 6) = cz_xstrdup("base");
			*t_at(t, i, 7) = cz_xstrdup("-");
		} else {
			*t_at(t, i, 6) = change_text(r, b, v);
			double p = cs.cmp ? cz_mann_whitney_p(base->x, base->n, cell->x, cell->n) : NAN;

			*t_at(t, i, 7) = isnan(p) ? cz_xstrdup("-") :
					 p < 0.001 ? cz_xstrdup("<0.001") : cz_xasprintf("%.3f", p);
		}
	}
	t_widths(t);
}

/* "Warning: fewer than 5 samples in 2 cells (pread / a: 3, ...)". */
static void few_samples(FILE *f, const struct czres_result *r, const char *bullet)
{
	size_t b, v, nfew = 0, shown = 0;

	for (b = 0; b < r->nb; b++)
		for (v = 0; v < r->nv; v++)
			nfew += czres_cell(r, b, v)->n > 0 && czres_cell(r, b, v)->n < ZAB_FEW;
	if (!nfew)
		return;
	fprintf(f, "%sWarning: fewer than %d samples in %zu cell%s (", bullet, ZAB_FEW, nfew,
		nfew == 1 ? "" : "s");
	for (b = 0; b < r->nb; b++)
		for (v = 0; v < r->nv; v++) {
			const struct czres_cell *c = czres_cell(r, b, v);

			if (!c->n || c->n >= ZAB_FEW)
				continue;
			if (shown < 4)
				fprintf(f, "%s%s / %s: %zu", shown ? ", " : "", r->b[b].name, r->vname[v], c->n);
			else if (shown == 4)
				fprintf(f, ", ...");
			shown++;
		}
	fprintf(f, "): their confidence intervals are wide and their (R)/(I) fragile; add sessions or repeats.\n");
}

/*
 * The in-device classes are the median request of each run; the share of
 * requests that looked preempted says how busy the machine was beside it
 * (a median holds until half of them are).
 */
static void preempted_note(FILE *f, const struct czres_result *r, const char *bullet)
{
	size_t b, v, i, n;
	double sum, max;
	bool first = true;

	for (b = 0; b < r->nb; b++) {
		if (r->b[b].kind != CZRES_RK_DEV_RATE)
			continue;
		for (v = 0; v < r->nv; v++) {
			const struct czres_cell *c = czres_cell(r, b, v);

			for (i = n = 0, sum = max = 0; c->pre && i < c->n; i++)
				if (!isnan(c->pre[i])) {
					sum += c->pre[i];
					max = c->pre[i] > max ? c->pre[i] : max;
					n++;
				}
			if (!n)
				continue;
			if (first)
				fprintf(f, "%sIn device: the median request of each run; requests "
					"that looked preempted (over %.0fx the run's median), mean "
					"(worst run):", bullet, CZ_PREEMPT_FACTOR);
			fprintf(f, "%s %s / %s %.2f%% (%.2f%%)", first ? "" : ";", r->b[b].group,
				r->vname[v], sum / (double)n * 100, max * 100);
			first = false;
		}
	}
	if (!first)
		fprintf(f, ".\n");
}

/*
 * Variants running a kernel path (source = kpath:PATH with kernel = ...):
 * what each release ran on this CPU and why, as zab expand resolved it.
 */
static void kpath_note(FILE *f, const struct czres_result *r, const char *bullet)
{
	const json_t *x;
	bool first = true;
	size_t i;

	json_array_foreach(json_object_get(r->doc, "variants"), i, x) {
		const json_t *rs = json_object_get(x, "routine_source");
		const char *kind = json_string_value(json_object_get(rs, "kind"));
		const char *res = json_string_value(json_object_get(rs, "resolved"));

		if (first && kind && !strcmp(kind, "kernel path") && res)
			fputs(bullet, f);
		if (!kind || strcmp(kind, "kernel path") || !res)
			continue;
		fprintf(f, "%s %s: %s", first ? "Ran:" : ";", json_string_value(json_object_get(x, "name")),
			res);
		first = false;
	}
	if (!first)
		fprintf(f, ".\n");
}

/* A pair's change and interval as the value's own change (the table's sign). */
static void value_pct(struct czst_lpair *p, bool higher)
{
	double lo = p->ci_lo;

	if (higher)
		return;
	p->pct = -p->pct;
	p->ci_lo = -p->ci_hi;
	p->ci_hi = -lo;
}

/*
 * placement = rotate, a class without per-layout values (the command's):
 * "pread: layouts rotating within each run (no sensitivity); b vs a ...".
 */
static void rotate_row_note(FILE *f, const struct czres_result *r, size_t b, const char *bullet)
{
	struct czst_lpair p;
	size_t v;

	fprintf(f, "%s%s: layouts rotating within each run (no sensitivity)", bullet, r->b[b].name);
	for (v = 0; v < r->nv; v++) {
		if (v == r->base)
			continue;
		if (!czst_rotate_pair(czres_cell(r, b, r->base), czres_cell(r, b, v), r->b[b].higher, &p)) {
			fprintf(f, "; %s vs %s: fewer than 2 paired runs", r->vname[v], r->vname[r->base]);
			continue;
		}
		value_pct(&p, r->b[b].higher);
		fprintf(f, "; %s vs %s, %zu runs paired: %s%+.2f%% (95%% CI %+.2f..%+.2f)",
				r->vname[v], r->vname[r->base], p.runs, p.flag ? "" : "no difference, ",
				p.pct, p.ci_lo, p.ci_hi);
	}
	fprintf(f, ".\n");
}

/* "pread: layout: a 14%* / b 3% ...; b vs a: no difference over 16 layouts (...)". */
static void layout_row_note(FILE *f, const struct czres_result *r, size_t b, const char *bullet)
{
	struct czst_lstat ls[CZRES_MAX_ITEMS];
	struct czst_lpair p;
	bool hi = r->b[b].higher;
	size_t v;

	for (v = 0; v < r->nv; v++)
		czst_layout_stat(czres_cell(r, b, v), hi, &ls[v]);
	if (ls[r->base].rotate)
		fprintf(f, "%s%s: layouts rotating within each run (best vs worst layout mean; * layout matters, two-way layout x run F test p < 0.05):",
			bullet, r->b[b].name);
	else
		fprintf(f, "%s%s: layout (best vs worst layout mean; * layout matters, ANOVA p < 0.05):", bullet, r->b[b].name);
	for (v = 0; v < r->nv; v++)
		if (ls[v].nl)
			fprintf(f, "%s %s %.1f%%%s", v ? " /" : "", r->vname[v], ls[v].sens_pct,
				ls[v].sens_sig ? "*" : "");
	fprintf(f, "; share of the variance from layout:");
	for (v = 0; v < r->nv; v++)
		if (ls[v].nl && isnan(ls[v].share))
			fprintf(f, "%s %s n/a", v ? " /" : "", r->vname[v]);
		else if (ls[v].nl)
			fprintf(f, "%s %s %.0f%%", v ? " /" : "", r->vname[v], ls[v].share * 100);
	for (v = 0; v < r->nv; v++) {
		if (v == r->base || !ls[v].nl || !ls[r->base].nl)
			continue;
		if (!czst_layout_pair(&ls[r->base], &ls[v], hi, &p)) {
			fprintf(f, "; %s vs %s: fewer than 2 common %s", r->vname[v],
				r->vname[r->base], ls[v].rotate ? "runs" : "layouts");
			continue;
		}
		value_pct(&p, hi);
		if (ls[v].rotate)
			fprintf(f, "; %s vs %s, %zu runs paired: %s%+.2f%% (95%% CI %+.2f..%+.2f), %s better at "
				"%zu/%zu layouts, worse at %zu/%zu", r->vname[v], r->vname[r->base], p.runs,
				p.flag ? "" : "no difference, ", p.pct, p.ci_lo, p.ci_hi, r->vname[v],
				p.better, p.nl, p.worse, p.nl);
		else
			fprintf(f, "; %s vs %s over %zu layouts: %s%+.2f%% (95%% CI %+.2f..%+.2f), %s better at "
			"%zu/%zu layouts, worse at %zu/%zu", r->vname[v], r->vname[r->base], p.nl,
			p.flag ? "" : "no difference, ", p.pct, p.ci_lo, p.ci_hi, r->vname[v],
			p.better, p.nl, p.worse, p.nl);
	}
	fprintf(f, ".\n");
	for (v = 0; v < r->nv; v++)
		czst_lstat_free(&ls[v]);
}

static void layout_notes(FILE *f, const struct czres_result *r, const char *bullet)
{
	size_t b;

	for (b = 0; b < r->nb; b++) {
		const struct czres_cell *c = czres_cell(r, b, r->base);

		if (c->off || (c->loff && c->lay))
			layout_row_note(f, r, b, bullet);
		else if (c->loff)
			rotate_row_note(f, r, b, bullet);
	}
}

/*
 * A run measured on emulated hardware (environment.emulated, lib/emul.h):
 * its figures time the emulator, and it holds no kernel reference.
 */
static void emulated_note(FILE *f, const struct czres_result *r, const char *bullet)
{
	const json_t *env = json_object_get(r->doc, "environment");
	const char *why = json_string_value(json_object_get(env, "emulated_why"));

	if (!json_is_true(json_object_get(env, "emulated")))
		return;
	fprintf(f, "%sEmulated: %s: the figures time the emulator, not the hardware "
		"(no kernel reference taken).\n", bullet, why ? why : "?");
}

static void footer(FILE *f, const struct czres_result *r, enum czrep_style st)
{
	size_t b, v;
	const char *bullet = st == CZREP_STYLE_MARKDOWN ? "- " : "";

	size_t lo = SIZE_MAX, hi = 0;

	/* the runs the cells hold (pooled files: the sum), not what one file planned */
	for (b = 0; b < r->nb * r->nv; b++)
		if (r->cells[b].n) {
			lo = r->cells[b].n < lo ? r->cells[b].n : lo;
			hi = r->cells[b].n > hi ? r->cells[b].n : hi;
		}
	if (r->mixed)
		fprintf(f, "\n%s%u sessions (their warm-ups or repeats differ between the files)",
			bullet, r->sessions);
	else
		fprintf(f, "\n%s%u session%s x (%u warm-up%s + %u repeat%s)", bullet, r->sessions,
			r->sessions == 1 ? "" : "s", r->warmups, r->warmups == 1 ? "" : "s",
			r->repeats, r->repeats == 1 ? "" : "s");
	if (lo == hi || !hi)
		fprintf(f, " = %zu measured runs per cell.", hi ? hi : (size_t)r->sessions * r->repeats);
	else
		fprintf(f, " = %zu to %zu measured runs per cell.", lo, hi);
	if (czres_cell(r, 0, r->base)->loff)
		fprintf(f, " Change vs %s with the layouts rotating within each run (the mean per-run change), in per cent of the base's value (a time that grew reads +); (R)/(I): regression/improvement, its 95%% interval, runs of one slot paired, excludes 0.\n",
			r->vname[r->base]);
	else if (czres_cell(r, 0, r->base)->off)
		fprintf(f, " Change vs %s over layouts (mean per-layout change), in per cent of the base's value (a time that grew reads +); (R)/(I): regression/improvement, its 95%% interval, paired by layout, excludes 0.\n",
			r->vname[r->base]);
	else if (r->paired)
		fprintf(f, " Change vs %s (the mean per-slot change), in per cent of the base's value (a time that grew reads +); (R)/(I): regression/improvement, its 95%% interval, runs of one slot paired, excludes 0.\n",
			r->vname[r->base]);
	else
		fprintf(f, " Change vs %s, in per cent of the base's value (a time that grew reads +); (R)/(I): regression/improvement, the 95%% confidence intervals do not overlap.\n",
			r->vname[r->base]);
	few_samples(f, r, bullet);
	layout_notes(f, r, bullet);
	preempted_note(f, r, bullet);
	emulated_note(f, r, bullet);
	kpath_note(f, r, bullet);
	for (b = 0; b < r->nb; b++)
		for (v = 0; v < r->nv; v++) {
			const struct czres_cell *c = czres_cell(r, b, v);

			if (c->failed)
				fprintf(f, "%sFAILED %s / %s: %s\n", bullet, r->b[b].name, r->vname[v],
					c->error ? c->error : "(no reason recorded)");
		}
}

/* ---- benchstat's layout -------------------------------------------------------------- */

#define BS_ALPHA 0.05

/* "5530 ± 3%": the mean and its 95% interval's half-width in per cent (benchstat's "±"). */
static char *bs_value(const struct czres_cell *c, struct cz_summary *s)
{
	cz_summarize(c->x, c->n, s);
	if (c->failed || !c->n)
		return cz_xstrdup(c->failed ? "FAILED" : "-");
	if (s->n < 2 || s->mean == 0)
		return cz_xasprintf("%.4g", s->mean);
	return cz_xasprintf("%.4g ± %.0f%%", s->mean, 100.0 * (s->ci_hi - s->mean) / fabs(s->mean));
}

/* One row's delta: "+10.00% (p=0.002 n=6+6)" or "~ (p=0.400 n=6+6)"; *ok when both have numbers. */
static char *bs_delta(const struct czres_cell *o, const struct czres_cell *n, const struct cz_summary *so,
		      const struct cz_summary *sn, bool *ok)
{
	double p;

	*ok = !o->failed && !n->failed && o->n && n->n;
	if (o->failed || n->failed || !o->n || !n->n)
		return cz_xstrdup("-");
	p = cz_mann_whitney_p(o->x, o->n, n->x, n->n);
	if (p < BS_ALPHA && so->mean != 0)
		return cz_xasprintf("%+.2f%% (p=%.3f n=%zu+%zu)", 100.0 * (sn->mean / so->mean - 1),
				    p, o->n, n->n);
	return cz_xasprintf("~ (p=%.3f n=%zu+%zu)", p, o->n, n->n);
}

/* The geomean row of the rows of unit u (benchstat's, per unit); false when fewer than two. */
static bool bs_geomean(const struct czres_result *r, size_t v, const char *u, char **cells)
{
	double lo = 0, ln = 0;
	size_t b, k = 0;

	for (b = 0; b < r->nb; b++) {
		const struct czres_cell *o = czres_cell(r, b, r->base), *n = czres_cell(r, b, v);
		struct cz_summary so, sn;

		if (strcmp(r->b[b].unit, u) || o->failed || n->failed || !o->n || !n->n)
			continue;
		cz_summarize(o->x, o->n, &so);
		cz_summarize(n->x, n->n, &sn);
		if (so.mean <= 0 || sn.mean <= 0)
			continue;
		lo += log(so.mean);
		ln += log(sn.mean);
		k++;
	}
	if (k < 2)
		return false;
	cells[0] = *u ? cz_xasprintf("geomean (%s)", u) : cz_xstrdup("geomean");
	cells[1] = cz_xasprintf("%.4g", exp(lo / (double)k));
	cells[2] = cz_xasprintf("%.4g", exp(ln / (double)k));
	cells[3] = cz_xasprintf("%+.2f%%", (exp((ln - lo) / (double)k) - 1) * 100);
	return true;
}

/* The variant v against the base, one row per result class, then a geomean per unit. */
static void bs_table(const struct czres_result *r, size_t v, struct table *t)
{
	size_t b, k, rows;

	t_init(t, 4, 2 * r->nb);
	t->head[0] = cz_xstrdup("name");
	t->head[1] = vhead(r, r->base, false, "old (", ")", false);
	t->head[2] = vhead(r, v, false, "new (", ")", false);
	t->head[3] = cz_xstrdup("delta");
	t->align[0] = t->align[3] = 'l';
	t->align[1] = t->align[2] = 'r';
	for (b = 0; b < r->nb; b++) {
		struct cz_summary so, sn;
		bool ok;

		*t_at(t, b, 0) = result_class(&r->b[b]);
		*t_at(t, b, 1) = bs_value(czres_cell(r, b, r->base), &so);
		*t_at(t, b, 2) = bs_value(czres_cell(r, b, v), &sn);
		*t_at(t, b, 3) = bs_delta(czres_cell(r, b, r->base), czres_cell(r, b, v), &so, &sn, &ok);
	}
	rows = r->nb;
	for (b = 0; b < r->nb; b++) {
		for (k = 0; k < b && strcmp(r->b[k].unit, r->b[b].unit); k++)
			;
		if (k == b && bs_geomean(r, v, r->b[b].unit, t_at(t, rows, 0)))
			rows++;
	}
	for (k = rows * t->ncol; k < t->nrow * t->ncol; k++)
		t->cell[k] = NULL;
	t->nrow = rows;
	t_widths(t);
}

static void render_benchstat(FILE *f, const struct czres_result *r)
{
	struct table t;
	size_t v;

	fprintf(f, "SUT class: %s\n", r->sut);
	for (v = 0; v < r->nv; v++) {
		if (v == r->base)
			continue;
		fputc('\n', f);
		bs_table(r, v, &t);
		render_plain(f, &t);
		t_free(&t);
	}
	fprintf(f, "\n± the mean's 95%% interval; delta: the mean's own change (new / old - 1) when the "
		"two-sided Mann-Whitney p < %.2f, else ~ (as benchstat); geomean per unit of two rows or more.\n",
		BS_ALPHA);
	few_samples(f, r, "");
}

static void render_one(FILE *f, const struct czres_result *r, enum czrep_style st)
{
	struct table t;
	json_t *env;
	size_t b;

	switch (st) {
	case CZREP_STYLE_BOX:
		fprintf(f, "Results for SUT Class %s:\n", r->sut);
		main_table(r, &t, st);
		render_box(f, &t, true);
		t_free(&t);
		footer(f, r, st);
		break;
	case CZREP_STYLE_GRID:
		fprintf(f, "Results for SUT Class %s:\n\n", r->sut);
		main_table(r, &t, st);
		render_box(f, &t, false);
		t_free(&t);
		footer(f, r, st);
		break;
	case CZREP_STYLE_MARKDOWN:
		fprintf(f, "### Results for SUT Class %s\n\n", r->sut);
		main_table(r, &t, st);
		render_markdown(f, &t);
		t_free(&t);
		footer(f, r, st);
		break;
	case CZREP_STYLE_PLAIN:
		fprintf(f, "%s:\n", r->sut);
		plain_table(r, &t);
		render_plain(f, &t);
		t_free(&t);
		few_samples(f, r, "");
		layout_notes(f, r, "");
		break;
	case CZREP_STYLE_BENCHSTAT:
		render_benchstat(f, r);
		break;
	case CZREP_STYLE_DETAIL:
		fprintf(f, "Results for SUT Class %s:\n", r->sut);
		env = json_object_get(r->doc, "environment");
		if (env)
			fprintf(f, "CPU: %.*s; kernel: %s (%s)\n",
				(int)czrep_trimmed_len(json_string_value(json_object_get(env, "cpu"))),
				json_string_value(json_object_get(env, "cpu")) ? json_string_value(json_object_get(env, "cpu")) : "?",
				json_string_value(json_object_get(env, "kernel")) ? json_string_value(json_object_get(env, "kernel")) : "?",
				json_string_value(json_object_get(env, "machine")) ? json_string_value(json_object_get(env, "machine")) : "?");
		for (b = 0; b < r->nb; b++) {
			char *rc = result_class(&r->b[b]);

			fprintf(f, "\n%s%s%s, %s is better\n", r->b[b].group, *r->b[b].group ? ": " : "", rc,
				r->b[b].higher ? "higher" : "lower");
			free(rc);
			detail_table(r, b, &t);
			render_box(f, &t, false);
			t_free(&t);
		}
		footer(f, r, st);
		break;
	}
}

void czrep_render(FILE *f, struct czres_result *const *r, size_t n, enum czrep_style st)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (i)
			fputc('\n', f);
		render_one(f, r[i], st);
	}
}

/* ---- CSV export --------------------------------------------------------------------- */

void czrep_csv_str(FILE *f, const char *s)
{
	if (!s)
		s = "";
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_num(FILE *f, double x)
{
	if (isfinite(x))
		fprintf(f, ",%.6g", x);
	else
		fputc(',', f);
}

static const char *csv_verdict(const struct czres_result *r, size_t b, size_t v, const struct czst_cstat *cs)
{
	if (czres_cell(r, b, v)->failed)
		return "failed";
	if (v == r->base)
		return "base";
	if (!cs->cmp)
		return "n/a";
	return !cs->flag ? "none" : cs->flag < 0 ? "R" : "I";
}

/*
 * The layout columns (empty for fixed placement): layouts, sensitivity,
 * share, best and worst offsets, layouts better / worse than the base, and
 * the per-layout cells as "OFFSET:RUNS:MEAN" separated by ';', and whether
 * layout matters (the ANOVA's F test at 5%: yes/no).
 */
static void csv_layouts(FILE *f, const struct czres_result *r, size_t b, size_t v)
{
	struct czst_lstat ls, lb;
	struct czst_lpair p = { 0 };
	bool paired = false;
	size_t j;

	if (!czst_layout_stat(czres_cell(r, b, v), r->b[b].higher, &ls)) {
		fputs(",,,,,,,,,", f);
		return;
	}
	if (v != r->base && czst_layout_stat(czres_cell(r, b, r->base), r->b[b].higher, &lb)) {
		paired = czst_layout_pair(&lb, &ls, r->b[b].higher, &p);
		czst_lstat_free(&lb);
	}
	fprintf(f, ",%zu", ls.nl);
	csv_num(f, ls.sens_pct);
	csv_num(f, ls.share);
	fprintf(f, ",%u,%u", ls.off[ls.best], ls.off[ls.worst]);
	if (paired)
		fprintf(f, ",%zu,%zu,", p.better, p.worse);
	else
		fputs(",,,", f);
	for (j = 0; j < ls.nl; j++)
		fprintf(f, "%s%u:%zu:%.6g", j ? ";" : "", ls.off[j], ls.n[j], ls.mean[j]);
	fprintf(f, ",%s", ls.sens_sig ? "yes" : "no");
	czst_lstat_free(&ls);
}

static void csv_cell(FILE *f, const struct czres_result *r, size_t b, size_t v)
{
	const struct czres_cell *c = czres_cell(r, b, v), *base = czres_cell(r, b, r->base);
	struct czst_cstat cs;
	double p = NAN;

	czst_cell_stat(r, b, v, &cs);
	czrep_csv_str(f, r->sut);
	fputc(',', f);
	czrep_csv_str(f, r->b[b].group);
	fputc(',', f);
	czrep_csv_str(f, r->b[b].name);
	fputc(',', f);
	czrep_csv_str(f, r->b[b].unit);
	fprintf(f, ",%s,", r->b[b].higher ? "higher" : "lower");
	czrep_csv_str(f, r->vname[v]);
	fputc(',', f);
	czrep_csv_str(f, r->vname[r->base]);
	fprintf(f, ",%zu", c->n);
	if (cs.ok) {
		csv_num(f, cs.s.mean);
		csv_num(f, cs.s.sd);
		csv_num(f, cs.s.ci_lo);
		csv_num(f, cs.s.ci_hi);
		csv_num(f, cs.s.cv);
		csv_num(f, cs.s.median);
		csv_num(f, cs.s.min);
		csv_num(f, cs.s.max);
	} else {
		fputs(",,,,,,,,", f);
	}
	csv_num(f, cs.cmp ? cs.pct : NAN);
	fprintf(f, ",%s", csv_verdict(r, b, v, &cs));
	if (cs.cmp)
		p = cz_mann_whitney_p(base->x, base->n, c->x, c->n);
	csv_num(f, p);
	csv_layouts(f, r, b, v);
	/* last, so the columns before keep their places: a sequence step's label */
	fputc(',', f);
	czrep_csv_str(f, r->vlabel[v]);
	fputc('\n', f);
}

void czrep_csv(FILE *f, struct czres_result *const *r, size_t n)
{
	size_t i, b, v;

	fputs("sut,group,result_class,unit,better,variant,base,n,mean,stddev,ci_low,ci_high,cv,"
	      "median,min,max,change_pct,verdict,mann_whitney_p,layouts,layout_sensitivity_pct,"
	      "layout_share,layout_best_offset,layout_worst_offset,better_layouts,worse_layouts,"
	      "layout_means,layout_sensitive,variant_label\n", f);
	for (i = 0; i < n; i++)
		for (b = 0; b < r[i]->nb; b++)
			for (v = 0; v < r[i]->nv; v++)
				csv_cell(f, r[i], b, v);
}
