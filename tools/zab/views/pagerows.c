/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The compare and history pages (--html, --plot), drawn from the rows
 * their commands computed: compare's change figure, history's value per
 * step (page.c has the report's figures and the figure list).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "page.h"
#include "samplestat.h"
#include "views.h"

/* ---- compare and history: from their rows ---------------------------------------------- */

static double pg_num(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *pg_str(const json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : "";
}

int zab_page_compare(const struct zab_page_opts *po, const struct czres_result *old,
		     const struct czres_result *new, const json_t *rows, const char *text)
{
	struct pg g = { 0 };
	struct czr_fig *f, *fr;
	struct czr_series *s;
	const json_t *row;
	size_t i, b, v, ob, ov, k;
	int ret;

	if (!po->html && !po->plot)
		return 0;
	f = zab_pg_fig(&g, CZR_WHISKER, "change", cz_xstrdup("New vs old (95% interval of the means' ratio)"));
	f->xlabel = "change of the mean, new vs old, per cent";
	f->unit = "change %";
	f->ref = 0;
	f->caption = "Coloured where Mann-Whitney p < 0.05 (as the table's delta): red worse, green "
		     "better by the benchmark's direction; grey ~.";
	s = czr_series_add(f, "change");
	json_array_foreach(rows, i, row) {
		double om = pg_num(row, "old_mean"), nm = pg_num(row, "new_mean");
		double oh = pg_num(row, "old_ci_hi") - om, nh = pg_num(row, "new_ci_hi") - nm;
		double d = pg_num(row, "delta_pct"), half = NAN;
		bool sig = json_is_true(json_object_get(row, "significant"));
		bool better = (d > 0) == json_is_true(json_object_get(row, "higher"));
		char *label = cz_xasprintf("%s [%s] / %s", pg_str(row, "benchmark"), pg_str(row, "unit"),
					   pg_str(row, "variant"));

		/* the ratio's interval from the two means' (first order) */
		if (om != 0 && nm != 0 && isfinite(oh) && isfinite(nh))
			half = 100 * (nm / om) * sqrt(pow(oh / om, 2) + pow(nh / nm, 2));
		czr_point_add(s, 0, d, d - half, d + half, !sig ? CZR_NONE : better ? CZR_BETTER : CZR_WORSE,
			      label);
		free(label);
	}
	fr = zab_pg_fig(&g, CZR_STRIP, "runs", cz_xstrdup("Runs, old and new"));
	fr->ylabel = "value (each row's unit)";
	fr->caption = "Every run of the first rows compared, old then new.";
	for (b = 0, k = 0; b < new->nb && k < 12; b++)
		for (v = 0; v < new->nv && k < 12; v++) {
			ob = czres_find_bench(old, &new->b[b]);
			ov = czres_name_index(old->vname, old->nv, new->vname[v]);
			if (ob == old->nb || ov == old->nv)
				continue;
			for (int w = 0; w < 2; w++) {
				const struct czres_cell *c = w ? czres_cell(new, b, v) : czres_cell(old, ob, ov);
				char *nm = cz_xasprintf("%s %s / %s", w ? "new" : "old", new->b[b].name,
							new->vname[v]);
				struct czr_series *sr = czr_series_add(fr, nm);

				free(nm);
				/* every k-th beyond PG_MAX_POINTS, as the report's runs */
				for (i = 0; !c->failed && i < c->n; i += (c->n + PG_MAX_POINTS - 1) / PG_MAX_POINTS)
					czr_point_add(sr, 0, c->x[i], NAN, NAN, 0, NULL);
			}
			k++;
		}
	ret = zab_pg_emit(po, &g, "zab compare", NULL, text);
	zab_pg_free(&g);
	return ret;
}

/* What a step is, for the x axis: a sequence's by its kind, else what history groups by. */
static const char *pg_step_word(const struct zab_page_hist *h)
{
	const char *k = h->kind ? h->kind : "";

	if (!strcmp(h->by, "series"))
		return !strcmp(k, "kernel") ? "release" : !strcmp(k, "series") ? "patch" :
		       !strcmp(k, "git") ? "commit" : "step";
	return !strcmp(h->by, "kernel") ? "kernel release" : !strcmp(h->by, "cusezero") ?
	       "cusezero version" : h->by;
}

static bool pg_per_chunk(const struct zab_page_hist *h, const char *cls)
{
	const json_t *c;
	size_t i;

	json_array_foreach(h->per_chunk, i, c)
		if (json_is_string(c) && !strcmp(json_string_value(c), cls))
			return true;
	return false;
}

/*
 * In-device results are bytes per second of routine time; reviewers read
 * the time per 4 KiB chunk, 4096 / rate seconds, in ns: lower is better.
 * A change of the rate by pct per cent is one of the time by
 * 100 / (1 + pct / 100) - 100 per cent, an interval's ends swapped.
 */
static double pg_chunk_ns(double rate)
{
	return rate > 0 ? 4096e9 / rate : NAN;
}

static double pg_chunk_pct(double pct)
{
	return pct > -100 ? -100 * pct / (100 + pct) : NAN;
}

/*
 * A flagged step's change written at it: its size, the 95% interval and
 * the verdict.  A row without the change's interval (history against the
 * step before: prev) gets the first-order one of the two means' ratio
 * from their intervals, as the compare page's.
 */
static char *pg_step_note(const json_t *row, const json_t *prev, bool chunk)
{
	const char *flag = pg_str(row, "flag");
	double p = pg_num(row, "change_pct"), lo = pg_num(row, "change_ci_lo");
	double hi = pg_num(row, "change_ci_hi"), t;
	double m = pg_num(row, "mean"), pm = prev ? pg_num(prev, "mean") : NAN;
	double h = pg_num(row, "ci_hi") - m, ph = prev ? pg_num(prev, "ci_hi") - pm : NAN;

	if (!*flag || !isfinite(p))
		return NULL;
	if (!isfinite(lo) && m != 0 && pm != 0 && isfinite(h) && isfinite(ph)) {
		t = 100 * fabs(m / pm) * sqrt(pow(ph / pm, 2) + pow(h / m, 2));
		lo = p - t;
		hi = p + t;
	}
	if (chunk) {
		t = lo;
		p = pg_chunk_pct(p);
		lo = pg_chunk_pct(hi);
		hi = pg_chunk_pct(t);
	}
	if (isfinite(lo) && isfinite(hi))
		return cz_xasprintf("%+.1f%% [%+.1f, %+.1f] (%s)", p, lo, hi, flag);
	return cz_xasprintf("%+.1f%% (%s)", p, flag);
}

/* A class's figure: named by the sequence (--by series) or the variant, its axes by what a step is. */
static struct czr_series *pg_hist_fig(struct pg *g, const json_t *row, const struct zab_page_hist *h,
				      size_t k, bool chunk)
{
	const char *c = pg_str(row, "sut_class"), *unit = pg_str(row, "unit");
	char *name = zab_pg_name("history", k);
	struct czr_fig *f;

	f = zab_pg_fig(g, CZR_STEPS, name, cz_xasprintf("%s: %s / %s, by %s", c, pg_str(row, "benchmark"),
		   h->seq ? h->seq : pg_str(row, "variant"), pg_step_word(h)));
	free(name);
	if (!f)
		return NULL;
	f->xlabel = pg_step_word(h);
	if (chunk) {
		f->ylabel = "ns per 4 KiB chunk of routine time (lower is better)";
		f->unit = "ns per 4 KiB";
	} else {
		f->ylabel = *unit ? unit : "value";
		f->unit = f->ylabel;
	}
	f->caption = chunk ?
		"The mean per step with its 95% interval, as the time per 4 KiB chunk (4096 / the "
		"bytes/sec of routine time measured; lower is better); a ring: a change point; a "
		"changed step in its verdict's colour (red (R) worse, green (I) better), its change "
		"of the time with the 95% interval written at it." :
		"The mean per step with its 95% interval; a ring: a change point; a changed step in "
		"its verdict's colour (red (R) worse, green (I) better), its change with the 95% "
		"interval written at it (against the step before: the first-order interval of the "
		"two means' ratio where the method gives none).";
	return czr_series_add(f, c);
}

/*
 * history: one figure per SUT class.  A row's "flag" (R/I) colours its
 * step and writes its change at it; a row whose "change_point" is true (a
 * change-point method over the whole series sets it, with an optional
 * "change_label") is ringed as a change point.
 */
int zab_page_history(const struct zab_page_opts *po, const json_t *rows, const char *text,
		     const struct zab_page_hist *h)
{
	struct pg g = { 0 };
	struct czr_series *s = NULL;
	const char *cls = NULL;
	const json_t *row, *prev = NULL;
	size_t i, nc = 0;
	bool chunk = false;
	char *title;
	int ret;

	if (!po->html && !po->plot)
		return 0;
	json_array_foreach(rows, i, row) {
		const char *c = pg_str(row, "sut_class"), *flag = pg_str(row, "flag");
		bool cp = json_is_true(json_object_get(row, "change_point"));
		const char *cl = pg_str(row, "change_label"), *st;
		double m = pg_num(row, "mean"), lo = pg_num(row, "ci_lo"), hi = pg_num(row, "ci_hi");
		char *label, *note;
		/* a change point keeps its step's (R)/(I): the colour the legend gives it */
		int mark = *flag == 'R' ? (cp ? CZR_CHANGE_WORSE : CZR_WORSE) :
			   *flag == 'I' ? (cp ? CZR_CHANGE_BETTER : CZR_BETTER) : cp ? CZR_CHANGE : CZR_NONE;

		if (!cls || strcmp(cls, c)) {
			chunk = pg_per_chunk(h, c);
			if (!(s = pg_hist_fig(&g, row, h, nc++, chunk)))
				break;
			cls = c;
			prev = NULL;
		}
		if (chunk) {
			m = pg_chunk_ns(m);
			lo = pg_chunk_ns(pg_num(row, "ci_hi"));
			hi = pg_chunk_ns(pg_num(row, "ci_lo"));
		}
		/* a series row's step is its index: its label (subject, version, commit) names it */
		st = *pg_str(row, "label") ? pg_str(row, "label") : pg_str(row, "step");
		label = *cl ? cz_xasprintf("%s (%s)", st, cl) : cz_xstrdup(st);
		czr_point_add(s, (double)s->n, m, lo, hi, mark, label);
		note = pg_step_note(row, prev, chunk);
		prev = row;
		czr_point_note(s, note);
		free(note);
		free(label);
	}
	title = h->seq ? cz_xasprintf("zab history of sequence %s, by %s", h->seq, pg_step_word(h)) :
		cz_xasprintf("zab history by %s", h->by);
	ret = zab_pg_emit(po, &g, title, NULL, text);
	free(title);
	zab_pg_free(&g);
	return ret;
}
