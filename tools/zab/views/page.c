/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab's figures and report pages (--html FILE, --plot FILE.svg|png
 * [--figure NAME]) for report, compare and history.  This file turns
 * results into render/'s figures (series of points); render/ draws them
 * with gnuplot and writes the page.  Figures, by name:
 *   change     per SUT class, each variant's change vs the base with its
 *              95% interval, coloured by verdict, "k of m SUTs" (report;
 *              compare: new vs old)
 *   runs[-B]   the raw runs per SUT and variant of benchmark B (1-based;
 *              runs = the first)
 *   order[-B]  each run's value against its position, per SUT and variant
 *   layouts[-B] placement random/sweep/rotate: the change per layout
 *   sweep[-B]  placement over offsets: the value per offset with its
 *              interval, 32/64-byte lines
 *   history[-K] the value per step with its interval, flagged steps and
 *              change points marked (K: the SUT class, 1-based)
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "outfile.h"
#include "page.h"
#include "views.h"
#include "czrender.h"
#include "samplestat.h"

#define PG_MAX_BENCH 6     /* benchmarks drawn per figure kind */

/* A new figure of the list; name and title copied. */
struct czr_fig *zab_pg_fig(struct pg *g, enum czr_kind kind, const char *name, char *title)
{
	struct czr_fig *f;

	if (g->n == PG_MAX_FIGS) {
		free(title);
		return NULL;
	}
	f = &g->fig[g->n];
	memset(f, 0, sizeof(*f));
	g->names[g->n] = cz_xstrdup(name);
	g->titles[g->n] = title;
	f->name = g->names[g->n];
	f->title = title;
	f->kind = kind;
	f->ref = NAN;
	g->n++;
	return f;
}

void zab_pg_free(struct pg *g)
{
	size_t i;

	for (i = 0; i < g->n; i++) {
		czr_fig_free(&g->fig[i]);
		free(g->names[i]);
		free(g->titles[i]);
	}
	g->n = 0;
}

/* "runs" for the first benchmark, "runs-2" for the second ... */
char *zab_pg_name(const char *kind, size_t i)
{
	return i ? cz_xasprintf("%s-%zu", kind, i + 1) : cz_xstrdup(kind);
}

/* ---- the SUTs of a report: each file's document as a result, grouped by SUT -------- */

struct pg_sut {
	struct czres_result *res[CZRES_MAX_ITEMS];   /* by "class\037name": one per SUT */
	size_t n;
	const char *name[CZRES_MAX_ITEMS], *cls[CZRES_MAX_ITEMS];
};

static void pg_suts(const json_t *docs, struct pg_sut *ps)
{
	json_t *junk = cz_jarr(), *d;
	size_t i;

	memset(ps, 0, sizeof(*ps));
	json_array_foreach(docs, i, d) {
		const char *name = json_string_value(json_object_get(json_object_get(d, "run"),
								     "sut_name"));
		struct czres_result r;
		char *key;

		if (czres_result_from_json(&r, json_deep_copy(d), "report")) {
			czres_result_free(&r);
			continue;
		}
		key = cz_xasprintf("%s\037%s", r.sut ? r.sut : "?", name && *name ? name : "?");
		if (czres_merge(ps->res, &ps->n, &r, junk, key, NULL))
			czres_result_free(&r);
		free(key);
	}
	for (i = 0; i < ps->n; i++) {
		char *sep = strchr(ps->res[i]->sut, '\037');

		ps->cls[i] = ps->res[i]->sut;
		ps->name[i] = sep ? sep + 1 : ps->res[i]->sut;
		if (sep)
			*sep = '\0';
	}
	json_decref(junk);
}

static void pg_suts_free(struct pg_sut *ps)
{
	size_t i;

	for (i = 0; i < ps->n; i++) {
		czres_result_free(ps->res[i]);
		free(ps->res[i]);
	}
}

/* Of the SUTs of class cls, how many show flag (R -1, I +1, none 0) on (bench, variant). */
static void pg_sut_count(const struct pg_sut *ps, const char *cls, const struct czres_bench *b,
			 const char *v, int flag, size_t *k, size_t *m)
{
	size_t i, bi, vi;
	double pct;

	*k = *m = 0;
	for (i = 0; i < ps->n; i++) {
		if (strcmp(ps->cls[i], cls))
			continue;
		bi = czres_find_bench(ps->res[i], b);
		vi = czres_name_index(ps->res[i]->vname, ps->res[i]->nv, v);
		if (bi == ps->res[i]->nb || vi == ps->res[i]->nv)
			continue;
		(*m)++;
		*k += czst_change(ps->res[i], bi, vi, &pct) == flag;
	}
}

/* ---- report figures ------------------------------------------------------------------- */

static const char *pg_unit(const struct czres_bench *b)
{
	return b->unit && *b->unit ? b->unit : "value";
}

static void pg_change_fig(struct pg *g, struct czres_result *const *r, size_t n, const struct pg_sut *ps)
{
	struct czr_fig *f = zab_pg_fig(g, CZR_WHISKER, "change",
				   cz_xstrdup("Change vs the base per SUT class (95% interval)"));
	struct czr_series *s;
	size_t i, b, v, k, m;
	double pct, lo, hi;
	int flag;

	if (!f)
		return;
	f->xlabel = "change of the value vs the base, per cent (bars: 95% interval)";
	f->unit = "change %";
	f->ref = 0;
	f->caption = "Each variant against its class's base; red (R) worse, green (I) better, grey no "
		     "difference by the table's rule; k of m SUTs: the SUTs of the class on which the "
		     "same verdict holds alone.";
	s = czr_series_add(f, "change");
	for (i = 0; i < n; i++)
		for (b = 0; b < r[i]->nb; b++)
			for (v = 0; v < r[i]->nv; v++) {
				char *label, *vt;

				flag = czst_change_ci(r[i], b, v, &pct, &lo, &hi);
				if (flag == CZST_CHANGE_NONE)
					continue;
				pg_sut_count(ps, r[i]->sut, &r[i]->b[b], r[i]->vname[v], flag, &k, &m);
				/* a sequence step named with its label: "s@3 (SUBJECT)" */
				vt = czrep_variant_text(r[i], v, false);
				label = cz_xasprintf("%s: %s%s%s%s / %s (%zu of %zu SUTs)", r[i]->sut,
						     r[i]->b[b].name, *r[i]->b[b].unit ? " [" : "",
						     r[i]->b[b].unit, *r[i]->b[b].unit ? "]" : "",
						     vt, k, m);
				free(vt);
				czr_point_add(s, 0, pct, lo, hi, flag == -1 ? CZR_WORSE :
					      flag == 1 ? CZR_BETTER : CZR_NONE, label);
				free(label);
			}
	if (!s->n) {   /* nothing compared: no figure */
		g->n--;
		czr_fig_free(f);
		free(g->names[g->n]);
		free(g->titles[g->n]);
	}
}

/* The series "CLASS/SUT: variant" of a cell (left out what is the same for all). */
static char *pg_series_name(const struct pg_sut *ps, size_t i, const char *v)
{
	size_t k;

	for (k = 1; k < ps->n && !strcmp(ps->cls[k], ps->cls[0]); k++)
		;
	if (k < ps->n)
		return cz_xasprintf("%s/%s: %s", ps->cls[i], ps->name[i], v);
	return ps->n > 1 ? cz_xasprintf("%s: %s", ps->name[i], v) : cz_xstrdup(v);
}

/* A cell's series in the layout figures: "CLASS: s@3 (LABEL)" (the class when several). */
static char *pg_cell_name(struct czres_result *const *r, size_t n, size_t i, size_t v)
{
	char *vt = czrep_variant_text(r[i], v, false), *sn;

	if (n < 2)
		return vt;
	sn = cz_xasprintf("%s: %s", r[i]->sut, vt);
	free(vt);
	return sn;
}


/*
 * A cell's runs into the strip (sr) and the run order (so); beyond
 * PG_MAX_POINTS runs, every k-th run in the strip and the mean of each k
 * consecutive runs in the order (at the position of the bin's middle).
 */
static void pg_thin(struct czr_series *sr, struct czr_series *so, const struct czres_cell *c)
{
	size_t k = (c->n + PG_MAX_POINTS - 1) / PG_MAX_POINTS, i, j;

	for (i = 0; i < c->n; i += k) {
		double sum = 0;
		size_t m = 0;

		czr_point_add(sr, 0, c->x[i], NAN, NAN, 0, NULL);
		for (j = i; j < i + k && j < c->n; j++, m++)
			sum += c->x[j];
		czr_point_add(so, (double)i + (double)(m + 1) / 2, sum / (double)m, NAN, NAN, 0, NULL);
	}
}

/* runs-B (strip) and order-B (lines) of benchmark b of the first class that has it. */
static void pg_runs_figs(struct pg *g, const struct pg_sut *ps, const struct czres_bench *rb, size_t bi)
{
	char *nr = zab_pg_name("runs", bi), *no = zab_pg_name("order", bi);
	struct czr_fig *fr = zab_pg_fig(g, CZR_STRIP, nr, cz_xasprintf("Runs: %s", rb->name));
	struct czr_fig *fo = zab_pg_fig(g, CZR_LINES, no, cz_xasprintf("Run order: %s", rb->name));
	size_t i, v, b;

	free(nr);
	free(no);
	if (!fr || !fo)
		return;
	fr->ylabel = fo->ylabel = pg_unit(rb);
	fr->unit = fo->unit = pg_unit(rb);
	fo->xlabel = "measured run, in the order run";
	fr->caption = "Every measured run per SUT and variant, its box (quartiles) behind: two "
		      "clusters are a bimodal benchmark, a lone point an outlier.  Over 1000 runs, "
		      "every k-th run is drawn (and counted in the table).";
	fo->caption = "Each run's value against its position: a slope is drift or warm-up, a step "
		      "a change of machine state.  Over 1000 runs, the mean of each k consecutive runs.";
	for (i = 0; i < ps->n; i++) {
		const struct czres_result *r = ps->res[i];

		b = czres_find_bench(r, rb);
		for (v = 0; b < r->nb && v < r->nv; v++) {
			const struct czres_cell *c = czres_cell(r, b, v);
			char *vt = czrep_variant_text(r, v, false), *name = pg_series_name(ps, i, vt);
			struct czr_series *sr = czr_series_add(fr, name), *so = czr_series_add(fo, name);

			free(name);
			free(vt);
			if (!c->failed)
				pg_thin(sr, so, c);
		}
	}
}

/* The per-layout means of a cell (random/sweep: by offset; rotate: per-layout values). */
static size_t pg_layout_means(const struct czres_cell *c, unsigned *off, double *mean, size_t max)
{
	size_t k, j, nl = 0, i;

	if (c->loff && c->lay) {
		for (j = 0; j < c->nlay && nl < max; j++) {
			double sum = 0;
			size_t cnt = 0;

			for (k = 0; k < c->n; k++)
				if (isfinite(c->lay[k * c->nlay + j])) {
					sum += c->lay[k * c->nlay + j];
					cnt++;
				}
			if (cnt) {
				off[nl] = c->loff[j];
				mean[nl++] = sum / (double)cnt;
			}
		}
		return nl;
	}
	for (k = 0; c->off && k < c->n; k++) {
		if (c->off[k] < 0)
			continue;
		for (i = 0; i < nl && off[i] != (unsigned)c->off[k]; i++)
			;
		if (i == nl && nl == max)
			continue;
		if (i == nl) {
			off[nl] = (unsigned)c->off[k];
			mean[nl++] = 0;
		}
		mean[i] += c->x[k];
	}
	for (i = 0; i < nl; i++) {
		size_t cnt = 0;

		for (k = 0; k < c->n; k++)
			cnt += c->off[k] >= 0 && (unsigned)c->off[k] == off[i];
		mean[i] /= (double)cnt;
	}
	return nl;
}

#define PG_MAX_LAYOUTS 4096

/* layouts-B: per class and variant, the change vs the base at each layout both measured. */
static void pg_layouts_fig(struct pg *g, struct czres_result *const *r, size_t n,
			   const struct czres_bench *rb, size_t bi)
{
	unsigned *ob = cz_xmalloc(PG_MAX_LAYOUTS * sizeof(*ob)), *ov = cz_xmalloc(PG_MAX_LAYOUTS * sizeof(*ov));
	double *mb = cz_xmalloc(PG_MAX_LAYOUTS * sizeof(*mb)), *mv = cz_xmalloc(PG_MAX_LAYOUTS * sizeof(*mv));
	char *name = zab_pg_name("layouts", bi);
	struct czr_fig *f = NULL;
	size_t i, b, v, nb, nv, j, k;

	for (i = 0; i < n; i++) {
		b = czres_find_bench(r[i], rb);
		if (b == r[i]->nb)
			continue;
		nb = pg_layout_means(czres_cell(r[i], b, r[i]->base), ob, mb, PG_MAX_LAYOUTS);
		for (v = 0; nb > 1 && v < r[i]->nv; v++) {
			struct czr_series *s;
			char *sn;

			if (v == r[i]->base)
				continue;
			nv = pg_layout_means(czres_cell(r[i], b, v), ov, mv, PG_MAX_LAYOUTS);
			if (!f && !(f = zab_pg_fig(g, CZR_STRIP, name, cz_xasprintf("Change over layouts: %s", rb->name))))
				goto out;
			f->ylabel = "change vs the base at the same layout, per cent";
			f->unit = "change %";
			f->ref = 0;
			f->caption = "One point per layout (code offset) both variants ran at: the "
				     "spread is how much the verdict depends on placement.";
			sn = pg_cell_name(r, n, i, v);
			s = czr_series_add(f, sn);
			free(sn);
			for (j = 0; j < nb; j++)
				for (k = 0; k < nv; k++)
					if (ob[j] == ov[k] && mb[j] != 0)
						czr_point_add(s, ob[j], (mv[k] / mb[j] - 1) * 100, NAN, NAN, 0, NULL);
		}
	}
out:
	free(name);
	free(ob);
	free(ov);
	free(mb);
	free(mv);
}

/* sweep-B: placement per run over offsets: the value per offset with its 95% interval. */
static void pg_sweep_fig(struct pg *g, struct czres_result *const *r, size_t n,
			 const struct czres_bench *rb, size_t bi)
{
	double *x = cz_xmalloc(PG_MAX_LAYOUTS * sizeof(*x));
	char *name = zab_pg_name("sweep", bi);
	struct czr_fig *f = NULL;
	size_t i, b, v, k, j, m, nl;
	unsigned *off = cz_xmalloc(PG_MAX_LAYOUTS * sizeof(*off));
	double *mean = cz_xmalloc(PG_MAX_LAYOUTS * sizeof(*mean));

	for (i = 0; i < n; i++) {
		b = czres_find_bench(r[i], rb);
		for (v = 0; b < r[i]->nb && v < r[i]->nv; v++) {
			const struct czres_cell *c = czres_cell(r[i], b, v);
			struct czr_series *s;
			char *sn;

			if (!c->off || (nl = pg_layout_means(c, off, mean, PG_MAX_LAYOUTS)) < 3)
				continue;
			if (!f && !(f = zab_pg_fig(g, CZR_BAND, name, cz_xasprintf("Alignment sweep: %s", rb->name))))
				goto out;
			f->xlabel = "code offset (address mod 4096), bytes";
			f->ylabel = pg_unit(rb);
			f->unit = pg_unit(rb);
			f->cache_lines = true;
			f->caption = "Mean per offset with its 95% interval (band); solid lines: 64-byte "
				     "cache lines, dashed: 32-byte boundaries.";
			sn = pg_cell_name(r, n, i, v);
			s = czr_series_add(f, sn);
			free(sn);
			/* offsets in order: the band is drawn left to right */
			for (j = 0; j < 4096; j++)
				for (k = 0; k < nl; k++) {
					struct cz_summary st;

					if (off[k] != j)
						continue;
					for (m = 0, st.n = 0; m < c->n; m++)
						if (c->off[m] == (int)j)
							x[st.n++] = c->x[m];
					cz_summarize(x, st.n, &st);
					czr_point_add(s, j, st.mean, st.n > 1 ? st.ci_lo : NAN,
						      st.n > 1 ? st.ci_hi : NAN, 0, NULL);
				}
		}
	}
out:
	free(name);
	free(x);
	free(off);
	free(mean);
}

/* ---- the outputs ------------------------------------------------------------------------ */

int zab_page_option(int c, const char *arg, struct zab_page_opts *po)
{
	switch (c) {
	case OPT_HTML:
		/* the tables go to stdout: the page needs a file of its own */
		if (!strcmp(arg, "-") || !*arg) {
			cz_err("--html '%s': give a file name (the tables go to standard output)", arg);
			return -1;
		}
		po->html = arg;
		return 1;
	case OPT_PLOT:
		if (!czr_plot_kind(arg)) {
			cz_err("--plot '%s': the file name must end in .svg or .png", arg);
			return -1;
		}
		po->plot = arg;
		return 1;
	case OPT_FIGURE:
		po->figure = arg;
		return 1;
	}
	return 0;
}

int zab_page_check(const struct zab_page_opts *po)
{
	if (po->figure && !po->plot) {
		cz_err("--figure %s: it names the figure --plot draws; give --plot FILE.svg|png", po->figure);
		return -1;
	}
	if ((po->html || po->plot) && !czr_have_gnuplot()) {
		cz_err("%s: the figures need gnuplot, which is not in PATH (Debian: apt-get install gnuplot-nox)",
		       po->html ? "--html" : "--plot");
		return -1;
	}
	return 0;
}

/* --plot: the figure named (or the first); --html: the page.  0, or 1 after one line. */
int zab_pg_emit(const struct zab_page_opts *po, struct pg *g, const char *title,
		const char *intro, const char *text)
{
	struct czr_page *p;
	struct cz_out out;
	size_t i;
	int err, bad = 0;

	if (po->plot) {
		for (i = 0; i < g->n && po->figure && strcmp(g->fig[i].name, po->figure); i++)
			;
		if (i == g->n) {
			char names[1024] = "";

			for (i = 0; i < g->n && strlen(names) + strlen(g->fig[i].name) + 3 < sizeof(names); i++)
				strcat(strcat(names, i ? ", " : ""), g->fig[i].name);
			cz_err("--figure %s: no such figure here (%s%s)", po->figure ? po->figure : "(the first)",
			       g->n ? "figures: " : "nothing to draw", names);
			return 1;
		}
		err = czr_fig_draw(&g->fig[i], po->plot);
		if (err) {
			cz_err("--plot %s: gnuplot failed (%s)", po->plot, strerror(-err));
			return 1;
		}
	}
	if (!po->html)
		return 0;
	/* a fresh file renamed onto the name when whole, never through a link (lib/outfile.h) */
	err = cz_out_open(&out, po->html, 0666);
	if (err) {
		cz_err("--html %s: %s", po->html, strerror(-err));
		return 1;
	}
	p = czr_page_open(out.f, title);
	if (!p) {
		cz_out_discard(&out);
		cz_err("--html %s: out of memory", po->html);
		return 1;
	}
	if (intro)
		czr_page_p(p, intro);
	czr_page_h2(p, "Tables");
	czr_page_pre(p, text ? text : "");
	czr_page_h2(p, "Figures");
	for (i = 0; i < g->n; i++)
		if (czr_page_figure(p, &g->fig[i]))
			bad = 1;
	if (czr_page_close(p))
		bad = 1;
	if (bad)
		cz_out_discard(&out);
	else if (cz_out_commit(&out))
		bad = 1;
	if (bad)
		cz_err("--html %s: not written whole (a figure failed or the file could not be written)",
		       po->html);
	return bad;
}

int zab_page_report(const struct zab_page_opts *po, struct czres_result *const *r, size_t n,
		    const json_t *docs, const char *text)
{
	const struct czres_bench *seen[CZRES_MAX_ITEMS];
	struct pg_sut ps;
	struct pg g = { 0 };
	size_t i, b, k, nseen = 0;
	char *title;
	int ret;

	if (!po->html && !po->plot)
		return 0;
	pg_suts(docs, &ps);
	pg_change_fig(&g, r, n, &ps);
	for (i = 0; i < n; i++)
		for (b = 0; b < r[i]->nb && nseen < PG_MAX_BENCH; b++) {
			for (k = 0; k < nseen && !czres_same_bench(seen[k], &r[i]->b[b]); k++)
				;
			if (k < nseen)
				continue;
			seen[nseen] = &r[i]->b[b];
			pg_runs_figs(&g, &ps, seen[nseen], nseen);
			pg_layouts_fig(&g, r, n, seen[nseen], nseen);
			pg_sweep_fig(&g, r, n, seen[nseen], nseen);
			nseen++;
		}
	title = cz_xasprintf("zab report: %s", n && r[0]->title ? r[0]->title : "results");
	ret = zab_pg_emit(po, &g, title, n > 1 ? "One section of the tables per SUT class; the "
		      "classes are never pooled." : NULL, text);
	free(title);
	zab_pg_free(&g);
	pg_suts_free(&ps);
	return ret;
}
