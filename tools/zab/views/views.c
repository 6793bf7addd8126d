/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The store's views (report --by sut-class, compare --store, history): their
 * JSON and CSV (one flat object per row: the CSV's columns are its keys),
 * and report --by sut-class's table, one column group per SUT class:
 *
 *   benchmark [unit] / variant  | Neoverse-V2                  | Zen 4
 *                               | base     change      n  CI   | base ...
 *   memset 4KB [GB/s] / erms    | 31.20    +4.1% (I)   9  1.2% | ...
 *
 * The classes are never pooled: each group is that class's own table (its
 * base, its (R)/(I) by the table's rule), side by side.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "views.h"
#include "outfile.h"
#include "samplestat.h"

/* ---- JSON and CSV of a view -------------------------------------------------------- */

static void csv_field(FILE *f, const json_t *v)
{
	if (json_is_string(v))
		czrep_csv_str(f, json_string_value(v));
	else if (json_is_integer(v))
		fprintf(f, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		fprintf(f, "%.17g", json_real_value(v));
	else if (json_is_boolean(v))
		fputs(json_is_true(v) ? "true" : "false", f);
}

static void write_csv(FILE *f, const json_t *rows, const char *const *cols)
{
	const json_t *row;
	size_t i, k;

	for (k = 0; cols[k]; k++)
		fprintf(f, "%s%s", k ? "," : "", cols[k]);
	fputc('\n', f);
	json_array_foreach(rows, i, row) {
		for (k = 0; cols[k]; k++) {
			if (k)
				fputc(',', f);
			csv_field(f, json_object_get(row, cols[k]));
		}
		fputc('\n', f);
	}
}

static int view_write(const char *path, const char *opt, const json_t *doc, const char *const *cols)
{
	bool to_stdout = !strcmp(path, "-");
	struct cz_out out = { .f = stdout };
	int bad;

	/* a fresh file renamed onto path when whole, never through a link (lib/outfile.h) */
	if (!to_stdout && (bad = cz_out_open(&out, path, 0666))) {
		cz_err("%s %s: %s", opt, path, strerror(-bad));
		return -1;
	}
	if (cols)
		write_csv(out.f, json_object_get(doc, "rows"), cols);
	else
		cz_json_dump(out.f, doc, CZ_JSON_PRETTY);
	bad = to_stdout ? cz_stdout_flush() : cz_out_commit(&out);
	if (bad)
		cz_err("%s %s: not written", opt, path);
	return bad ? -1 : 0;
}

FILE *zab_view_text(const char *json, const char *csv)
{
	return (json && !strcmp(json, "-")) || (csv && !strcmp(csv, "-")) ? stderr : stdout;
}

int zab_view_files(FILE *text, const char *json, const char *csv, const json_t *doc,
		   const char *const *cols)
{
	int ret = text == stdout && cz_stdout_flush() ? 1 : 0;

	if ((json && view_write(json, "--json", doc, NULL)) ||
	    (csv && view_write(csv, "--export-csv", doc, cols)))
		ret = 1;
	return ret;
}

/* ---- report --by sut-class ---------------------------------------------------------- */

static const char *const byclass_cols[] = {
	"benchmark", "source", "unit", "higher", "variant", "variant_label", "sut_class", "base_variant",
	"base_mean", "base_n", "mean", "n", "ci_lo", "ci_hi", "change_pct", "flag",
	/* the class's kernel reference (kref.c), empty when its runs recorded none */
	"kernel_ref", "kernel_runs", "kernel_ns_per_chunk", "kernel_like", "kernel_ratio",
	"kernel_thp_ns_per_page", "kernel_path", "kernel_verdict", "kernel_disagrees", NULL
};

/* The rows: every (result class, variant) of any SUT class, the base too when alone. */
struct brow {
	const struct czres_bench *b;
	const char *v;
	const struct czres_result *r;   /* the first class that has it (its step's label) */
	size_t vi;
};

static size_t byclass_rows(struct czres_result *const *r, size_t n, struct brow *rows, size_t max)
{
	size_t i, b, v, k, nr = 0;

	for (i = 0; i < n; i++)
		for (b = 0; b < r[i]->nb; b++)
			for (v = 0; v < r[i]->nv; v++) {
				if (v == r[i]->base && r[i]->nv > 1)
					continue;
				for (k = 0; k < nr && !(czres_same_bench(rows[k].b, &r[i]->b[b]) &&
							!strcmp(rows[k].v, r[i]->vname[v])); k++)
					;
				if (k == nr && nr < max)
					rows[nr++] = (struct brow){ &r[i]->b[b], r[i]->vname[v], r[i], v };
			}
	return nr;
}

/* One row of one SUT class, as JSON; NULL when the class lacks it. */
static json_t *byclass_cell(const struct czres_result *r, const struct brow *row)
{
	size_t b = czres_find_bench(r, row->b), v = czres_name_index(r->vname, r->nv, row->v);
	const struct czres_cell *c, *bc;
	struct cz_summary s, bs;
	json_t *o;
	double pct = NAN;
	int ch;

	if (b == r->nb || v == r->nv)
		return NULL;
	c = czres_cell(r, b, v);
	bc = czres_cell(r, b, r->base);
	cz_summarize(c->x, c->n, &s);
	cz_summarize(bc->x, bc->n, &bs);
	ch = czst_change(r, b, v, &pct);
	o = cz_jobj();
	cz_jset(o, "benchmark", cz_jstr(row->b->name));
	cz_jset(o, "source", cz_jstr(zab_rkinds[row->b->kind].source));
	cz_jset(o, "unit", cz_jstr(row->b->unit ? row->b->unit : ""));
	cz_jset(o, "higher", json_boolean(row->b->higher));
	cz_jset(o, "variant", cz_jstr(row->v));
	/* a sequence step's label (patch subject, kernel version, commit), "" when none */
	cz_jset(o, "variant_label", cz_jstr(r->vlabel[v] ? r->vlabel[v] : ""));
	cz_jset(o, "sut_class", cz_jstr(r->sut));
	cz_jset(o, "base_variant", cz_jstr(r->vname[r->base]));
	cz_jset(o, "base_mean", cz_jnum(bc->n && !bc->failed ? bs.mean : NAN));
	cz_jset(o, "base_n", json_integer((json_int_t)bc->n));
	cz_jset(o, "mean", cz_jnum(c->n && !c->failed ? s.mean : NAN));
	cz_jset(o, "n", json_integer((json_int_t)c->n));
	cz_jset(o, "ci_lo", cz_jnum(c->n > 1 && !c->failed ? s.ci_lo : NAN));
	cz_jset(o, "ci_hi", cz_jnum(c->n > 1 && !c->failed ? s.ci_hi : NAN));
	cz_jset(o, "change_pct", cz_jnum(ch == CZST_CHANGE_NONE ? NAN : pct));
	cz_jset(o, "flag", cz_jstr(ch == -1 ? "R" : ch == 1 ? "I" : ""));
	return o;
}

#define BC_GROUP 34   /* a class's group and its " | " */
#define BC_NAME (BC_GROUP - 3)

/* One class's group of a row: base, change with its mark, n, CI; o NULL: not measured there. */
static void byclass_group_text(char *buf, size_t len, const json_t *o)
{
	const json_t *pct = json_object_get(o, "change_pct"), *base = json_object_get(o, "base_mean");
	const char *flag = json_string_value(json_object_get(o, "flag"));
	double m = json_number_value(json_object_get(o, "mean"));
	double hi = json_number_value(json_object_get(o, "ci_hi"));
	bool higher = json_is_true(json_object_get(o, "higher"));
	char ch[24] = "-", ci[16] = "-";

	if (!o) {
		snprintf(buf, len, "%-*s", BC_NAME, "(not measured)");
		return;
	}
	/* the value's own change (a time that grew reads +), as the report's tables */
	if (json_is_number(pct))
		snprintf(ch, sizeof(ch), "%+.1f%%%s%s", json_number_value(pct) * (higher ? 1 : -1),
			 *flag ? " " : "", *flag ? (*flag == 'R' ? "(R)" : "(I)") : "");
	if (json_is_number(json_object_get(o, "ci_hi")) && m != 0)
		snprintf(ci, sizeof(ci), "%.1f%%", 100 * (hi - m) / fabs(m));
	snprintf(buf, len, "%-9.4g %-11s %3lld %5s", json_is_number(base) ? json_number_value(base) : NAN,
		 ch, (long long)json_integer_value(json_object_get(o, "n")), ci);
}

/* "pread 100KB in-device [GB/s] / straddling": the result class's name (its class
 * already in it), its unit, the variant -- each once -- and a sequence step's label,
 * the whole wrapped at BC_LABEL columns (lines joined by '\n'). */
#define BC_LABEL 64

static char *byclass_label(const struct brow *row)
{
	const char *u = row->b->unit;
	char *vt = czrep_variant_text(row->r, row->vi, false), *s, *w;

	s = cz_xasprintf("%s%s%s%s / %s", row->b->name, u && *u ? " [" : "", u && *u ? u : "",
			 u && *u ? "]" : "", vt);
	free(vt);
	if (!row->r->vlabel[row->vi] || strlen(s) <= BC_LABEL)
		return s;
	w = czrep_wrap(s, BC_LABEL);
	free(s);
	return w;
}

/* The display width of the first n bytes of s. */
static int span_width(const char *s, size_t n)
{
	int w = 0;

	for (; n && *s; s++, n--)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* The display width of the widest line of s. */
static int lines_width(const char *s)
{
	int w = 0, n = 0;

	for (;; s++) {
		if (!*s || *s == '\n') {
			w = n > w ? n : w;
			n = 0;
			if (!*s)
				return w;
		} else {
			n += ((unsigned char)*s & 0xc0) != 0x80;
		}
	}
}

/*
 * Line k of s wrapped at w columns, at blanks (a word longer than w is cut
 * at w): into buf; the number of lines of s.
 */
static size_t wrap_line(const char *s, size_t w, size_t k, char *buf, size_t len)
{
	size_t line = 0, n;

	buf[0] = '\0';
	while (*s) {
		const char *end = s + strlen(s);

		if ((size_t)(end - s) > w) {
			for (end = s + w; end > s && *end != ' '; end--)
				;
			if (end == s)
				end = s + w;
		}
		n = (size_t)(end - s);
		if (line == k)
			snprintf(buf, len, "%.*s", (int)n, s);
		line++;
		for (s = end; *s == ' '; s++)
			;
	}
	return line ? line : 1;
}

/* The header lines of classes i0..i1: each name whole, wrapped at BC_NAME columns. */
static void byclass_head(FILE *f, struct czres_result *const *r, size_t i0, size_t i1, int lw)
{
	size_t i, line, lines = 1, n;
	char part[BC_NAME + 1];

	for (i = i0; i < i1; i++) {
		n = wrap_line(r[i]->sut, BC_NAME, 0, part, sizeof(part));
		lines = n > lines ? n : lines;
	}
	for (line = 0; line < lines; line++) {
		fprintf(f, "%s%-*s", i0 || line ? "\n" : "", lw, "");
		for (i = i0; i < i1; i++) {
			wrap_line(r[i]->sut, BC_NAME, line, part, sizeof(part));
			fprintf(f, " | %-*s", i + 1 < i1 ? BC_NAME : 0, part);
		}
	}
}

/* The text: blocks of as many classes as fit $COLUMNS (132 when unset) beside the labels. */
static void byclass_text(FILE *f, struct czres_result *const *r, size_t n, const struct brow *rows,
			 size_t nr, json_t *const *cells)
{
	const char *cols = getenv("COLUMNS");
	size_t width = cols && atoi(cols) > 40 ? (size_t)atoi(cols) : 132, per, i0, i, k;
	int lw = (int)strlen("benchmark [unit] / variant");
	char **label = cz_xmalloc((nr + 1) * sizeof(*label)), g[BC_GROUP + 8], *l, *nl;

	for (k = 0; k < nr; k++) {
		label[k] = byclass_label(&rows[k]);
		lw = lines_width(label[k]) > lw ? lines_width(label[k]) : lw;
	}
	per = width > (size_t)lw + BC_GROUP ? (width - (size_t)lw) / BC_GROUP : 1;
	for (i0 = 0; i0 < n; i0 += per) {
		if (i0)
			fputc('\n', f);
		byclass_head(f, r, i0, i0 + per < n ? i0 + per : n, lw);
		fprintf(f, "\n%-*s", lw, "benchmark [unit] / variant");
		for (i = i0; i < n && i < i0 + per; i++)
			fprintf(f, " | %-9s %-11s %3s %5s", "base", "change", "n", "CI");
		fputc('\n', f);
		for (k = 0; k < nr; k++) {
			/* a wrapped label's further lines under it, the groups left empty */
			for (l = label[k]; l; l = nl ? nl + 1 : NULL) {
				size_t len;

				nl = strchr(l, '\n');
				len = nl ? (size_t)(nl - l) : strlen(l);
				fprintf(f, "%.*s%*s", (int)len, l, lw - span_width(l, len), "");
				for (i = i0; l == label[k] && i < n && i < i0 + per; i++) {
					byclass_group_text(g, sizeof(g), cells[k * n + i]);
					fprintf(f, " | %s", g);
				}
				for (i = i0; l != label[k] && i < n && i < i0 + per; i++)
					fprintf(f, " |%*s", i + 1 < n && i + 1 < i0 + per ? BC_GROUP - 2 : 0, "");
				fputc('\n', f);
			}
		}
	}
	for (k = 0; k < nr; k++)
		free(label[k]);
	free(label);
	fprintf(f, "\nbase: the base variant's mean; change: the variant vs its own class's base in per cent of\n"
		"the base's value (a time that grew reads +), (R)/(I) by the table's rule; n: the variant's\n"
		"samples; CI: its mean's 95%% half-width.\n");
}

/* The table to text (when not NULL), its rows to doc (when not NULL). */
static void byclass_build(FILE *text, struct czres_result *const *r, size_t n, json_t *doc)
{
	struct brow rows[4 * CZRES_MAX_ITEMS];
	size_t nr = byclass_rows(r, n, rows, 4 * CZRES_MAX_ITEMS), k, i;
	json_t **cells = cz_xmalloc((nr * n + 1) * sizeof(*cells)), *arr = NULL, *cl;

	if (doc) {
		cz_jset(doc, "view", cz_jstr("by-sut-class"));
		cl = cz_jset(doc, "sut_classes", cz_jarr());
		for (i = 0; i < n; i++)
			cz_jpush(cl, cz_jstr(r[i]->sut));
		arr = cz_jset(doc, "rows", cz_jarr());
	}
	for (k = 0; k < nr; k++)
		for (i = 0; i < n; i++) {
			cells[k * n + i] = byclass_cell(r[i], &rows[k]);
			if (cells[k * n + i] && arr)
				cz_jpush(arr, json_incref(cells[k * n + i]));
		}
	if (text)
		byclass_text(text, r, n, rows, nr, cells);
	for (k = 0; k < nr * n; k++)
		json_decref(cells[k]);
	free(cells);
}

void zab_by_class_text(FILE *f, struct czres_result *const *r, size_t n)
{
	byclass_build(f, r, n, NULL);
}

int zab_report_by_class(struct czres_result *const *r, size_t n, const char *json, const char *csv,
			const json_t *kref)
{
	FILE *text = zab_view_text(json, csv);
	json_t *doc = cz_jobj();
	int ret;

	byclass_build(text, r, n, doc);
	zab_kref_rows(doc, kref);
	ret = zab_view_files(text, json, csv, doc, byclass_cols);
	json_decref(doc);
	return ret;
}
