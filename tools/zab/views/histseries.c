/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab history --by series: a change sequence's steps (NAME@0 .. NAME@K,
 * steps.h) per SUT class, every stored run's samples of a step pooled,
 * and the change points over the whole sequence by E-Divisive means
 * (stats/changepoint.h): each named by its step, sized against the
 * segment before with a 95% interval, and gathered over the classes, so
 * one line says where a step changed things and where it did not.  A
 * class pools only runs that report would pool (czres_pool_check): the
 * newest run of a class decides, an older one that differs from it (the
 * benchmark's command, a step's settings or routine source) is left out,
 * and the runs left out are counted in one line.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "views.h"
#include "samplestat.h"
#include "stats/changepoint.h"
#include "model/steps.h"

#define HS_CLASSES 256

/* The display width of the first n bytes of s (UTF-8). */
static size_t hs_width(const char *s, size_t n)
{
	size_t w = 0;

	for (; n && *s; s++, n--)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

struct hs_step {
	double *x;           /* the observations: one per session of a run (its mean) */
	size_t n, cap, runs, samples;
	size_t failed;       /* runs whose cell of the step failed or has no sample */
	char *label;
};

struct hs_class {
	char *cls, *bench, *unit;
	bool higher;
	bool chunk;          /* bytes/sec of routine time: the page draws time per chunk */
	struct hs_step st[CZRES_MAX_ITEMS];
	struct czst_change ch[CZST_CP_MAX];
	size_t nch;
	/* what the test cannot reach: steps where a change could not get below alpha */
	size_t undec[CZRES_MAX_ITEMS], nundec, fewest;   /* fewest: sessions of the thinnest step */
	double floor;        /* the largest smallest-p among them */
	unsigned needed;     /* sessions per step every step needs (0: cannot say) */
};

struct hs {
	struct hs_class c[HS_CLASSES];
	size_t nc;
	long last;           /* the highest step seen */
	bool full;           /* a class left out (HS_CLASSES) */
	char *seq;
	const char *kind;    /* the sequence's kind (kernel, series, git), NULL: not said */
};

/* The most measured steps of any class. */
static size_t hs_measured(const struct hs *h)
{
	size_t i, k, n, most = 0;

	for (i = 0; i < h->nc; i++) {
		for (n = 0, k = 0; k < CZRES_MAX_ITEMS; k++)
			n += h->c[i].st[k].n > 0;
		most = n > most ? n : most;
	}
	return most;
}

static const char *hs_uuid(const struct czres_result *r)
{
	const char *u = json_string_value(json_object_get(json_object_get(r->doc, "run"), "uuid"));

	return u ? u : "?";
}

static struct hs_class *hs_class(struct hs *h, const struct czres_result *r, size_t b)
{
	size_t i;

	for (i = 0; i < h->nc && strcmp(h->c[i].cls, r->sut); i++)
		;
	if (i < h->nc)
		return &h->c[i];
	if (h->nc == HS_CLASSES) {
		if (!h->full)
			cz_err("history: more than %d SUT classes: '%s' and later ones left out",
			       HS_CLASSES, r->sut);
		h->full = true;
		return NULL;
	}
	memset(&h->c[i], 0, sizeof(h->c[i]));
	h->c[i].cls = cz_xstrdup(r->sut);
	h->c[i].bench = cz_xstrdup(r->b[b].name);
	h->c[i].unit = cz_xstrdup(r->b[b].unit ? r->b[b].unit : "");
	h->c[i].higher = r->b[b].higher;
	h->c[i].chunk = r->b[b].kind == CZRES_RK_DEV_RATE;
	h->nc++;
	return &h->c[i];
}

/*
 * A cell's session means into step s: the observations are sessions, not
 * samples, as each session ran the step in a daemon of its own (its
 * memory, its placement); samples of one daemon are no independent
 * replicates of the step, and taking them so flags A/A steps.
 */
static void hs_session_means(const struct czres_cell *cell, struct hs_step *s)
{
	size_t i, j, n;
	double sum;

	for (i = 0; i < cell->n; i++) {
		for (j = 0; j < i && cell->sess[j] != cell->sess[i]; j++)
			;
		if (j < i)
			continue;       /* its session done already */
		for (sum = 0, n = 0, j = i; j < cell->n; j++)
			if (cell->sess[j] == cell->sess[i]) {
				sum += cell->x[j];
				n++;
			}
		s->x[s->n++] = sum / (double)n;
	}
}

/* The kind of the sequence variant vname of r is a step of ("sequence_kind"), NULL: not said. */
static const char *hs_kind(const struct czres_result *r, const char *vname)
{
	static const char *const kinds[] = { "kernel", "series", "git" };
	const json_t *x;
	size_t i, k;

	json_array_foreach(json_object_get(r->doc, "variants"), i, x) {
		const char *n = json_string_value(json_object_get(x, "name"));
		const char *s = json_string_value(json_object_get(x, "sequence_kind"));

		for (k = 0; n && s && !strcmp(n, vname) && k < 3; k++)
			if (!strcmp(s, kinds[k]))
				return kinds[k];
	}
	return NULL;
}

/* The run's steps' samples into their class. */
static void hs_add(struct hs *h, const struct czres_result *r, const char *bench)
{
	size_t b = zab_step_bench(r, bench), v, i;
	struct hs_class *c;

	if (b == r->nb || !(c = hs_class(h, r, b)))
		return;
	for (v = 0; v < r->nv; v++) {
		long k = zab_step_of(r->vname[v], h->seq, NULL);
		const struct czres_cell *cell = czres_cell(r, b, v);
		struct hs_step *s;

		if (k < 0 || k >= CZRES_MAX_ITEMS)
			continue;
		s = &c->st[k];
		if (!s->label)
			s->label = cz_xstrdup(zab_step_label(r, r->vname[v]));
		if (!h->kind)
			h->kind = hs_kind(r, r->vname[v]);
		if (k > h->last)
			h->last = k;
		if (cell->failed || !cell->n) {
			s->failed++;    /* listed as failed, not taken for "no change" */
			continue;
		}
		if (s->n + cell->n > s->cap) {
			s->cap = (s->n + cell->n) * 2;
			s->x = cz_xrealloc(s->x, s->cap * sizeof(*s->x));
		}
		s->samples += cell->n;
		if (!cell->sess)
			for (i = 0; i < cell->n; i++)
				s->x[s->n++] = cell->x[i];
		else
			hs_session_means(cell, s);
		s->runs++;
	}
}

static const struct czst_change *hs_change_at(const struct hs_class *c, size_t k);

/* The change points of one class over its measured steps (steps with no sample left out). */
static void hs_find(struct hs_class *c)
{
	size_t k, i, n = 0, ns = 0, start[CZRES_MAX_ITEMS + 1], idx[CZRES_MAX_ITEMS];
	double *x;

	for (k = 0; k < CZRES_MAX_ITEMS; k++)
		n += c->st[k].n;
	x = cz_xmalloc((n ? n : 1) * sizeof(*x));
	n = 0;
	for (k = 0; k < CZRES_MAX_ITEMS; k++) {
		if (!c->st[k].n)
			continue;
		idx[ns] = k;
		start[ns++] = n;
		for (i = 0; i < c->st[k].n; i++)
			x[n++] = c->st[k].x[i];
	}
	start[ns] = n;
	c->nch = czst_edivisive(x, start, ns, NULL, c->ch, CZST_CP_MAX);
	for (i = 0; i < c->nch; i++)
		c->ch[i].step = idx[c->ch[i].step];
	/* before reading "no change": could a change at each step have reached alpha at all? */
	c->nundec = 0;
	c->floor = 0;
	c->fewest = ns ? c->st[idx[0]].n : 0;
	for (i = 0; i < ns; i++)
		if (c->st[idx[i]].n < c->fewest)
			c->fewest = c->st[idx[i]].n;
	for (i = 1; i < ns; i++) {
		double f = czst_cp_floor(start, ns, i);

		if (f > CZST_CP_REACH * CZST_CP_ALPHA && !hs_change_at(c, idx[i])) {
			c->undec[c->nundec++] = idx[i];
			c->floor = fmax(c->floor, f);
		}
	}
	c->needed = czst_cp_needed(ns, CZST_CP_ALPHA);
	free(x);
}

static const struct czst_change *hs_change_at(const struct hs_class *c, size_t k)
{
	size_t i;

	for (i = 0; i < c->nch; i++)
		if (c->ch[i].step == k)
			return &c->ch[i];
	return NULL;
}

/* A change at step k could not have been told in c: its base has no sample, or the test cannot reach alpha there. */
static bool hs_undecided_at(const struct hs_class *c, size_t k)
{
	size_t i;

	if (!c->st[0].n)
		return true;
	for (i = 0; i < c->nundec; i++)
		if (c->undec[i] == k)
			return true;
	return false;
}

/* Every class could tell a change at every step, and none lacks a step: "none" may be said. */
static bool hs_all_decided(const struct hs *h)
{
	size_t i, k;

	for (i = 0; i < h->nc; i++)
		for (k = 0; k <= (size_t)h->last; k++)
			if (!h->c[i].st[k].n || (k && hs_undecided_at(&h->c[i], k)))
				return false;
	return true;
}

static const char *hs_flag(const struct hs_class *c, const struct czst_change *ch)
{
	return !ch ? "" : (ch->pct > 0) == c->higher ? "I" : "R";
}

static json_t *hs_row(const struct hs *h, const struct hs_class *c, size_t k)
{
	const struct czst_change *ch = hs_change_at(c, k);
	const struct hs_step *s = &c->st[k];
	json_t *row = cz_jobj();
	struct cz_summary sm;
	char *v = cz_xasprintf("%s@%zu", h->seq, k);

	cz_summarize(s->x, s->n, &sm);
	cz_jset(row, "sut_class", cz_jstr(c->cls));
	cz_jset(row, "step", json_integer((json_int_t)k));
	cz_jset(row, "steps", json_integer((json_int_t)h->last));
	cz_jset(row, "label", cz_jstr(s->label));
	cz_jset(row, "variant", cz_jstr(v));
	cz_jset(row, "runs", json_integer((json_int_t)s->runs));
	cz_jset(row, "benchmark", cz_jstr(c->bench));
	cz_jset(row, "unit", cz_jstr(c->unit));
	cz_jset(row, "higher", json_boolean(c->higher));
	cz_jset(row, "n", json_integer((json_int_t)s->n));
	cz_jset(row, "samples", json_integer((json_int_t)s->samples));
	cz_jset(row, "mean", cz_jnum(sm.mean));
	cz_jset(row, "ci_lo", cz_jnum(s->n > 1 ? sm.ci_lo : NAN));
	cz_jset(row, "ci_hi", cz_jnum(s->n > 1 ? sm.ci_hi : NAN));
	cz_jset(row, "change_pct", cz_jnum(ch ? ch->pct : NAN));
	cz_jset(row, "change_ci_lo", cz_jnum(ch ? ch->ci_lo : NAN));
	cz_jset(row, "change_ci_hi", cz_jnum(ch ? ch->ci_hi : NAN));
	cz_jset(row, "p", cz_jnum(ch ? ch->p : NAN));
	cz_jset(row, "flag", cz_jstr(hs_flag(c, ch)));
	cz_jset(row, "change_point", json_boolean(ch != NULL));
	free(v);
	return row;
}

/* The change points gathered by step: where each holds (pct, interval) and where it does not. */
static json_t *hs_changes(const struct hs *h)
{
	json_t *out = cz_jarr();
	size_t k, i;

	for (k = 1; k <= (size_t)h->last; k++) {
		json_t *in = cz_jarr(), *not = cz_jarr(), *und = cz_jarr(), *o;
		const char *label = NULL;

		for (i = 0; i < h->nc; i++) {
			const struct czst_change *ch = hs_change_at(&h->c[i], k);
			json_t *x;

			if (!ch) {
				if (h->c[i].st[k].n)
					cz_jpush(hs_undecided_at(&h->c[i], k) ? und : not, cz_jstr(h->c[i].cls));
				continue;
			}
			label = h->c[i].st[k].label;
			x = cz_jobj();
			cz_jset(x, "sut_class", cz_jstr(h->c[i].cls));
			cz_jset(x, "pct", cz_jnum(ch->pct));
			cz_jset(x, "ci_lo", cz_jnum(ch->ci_lo));
			cz_jset(x, "ci_hi", cz_jnum(ch->ci_hi));
			cz_jset(x, "p", cz_jnum(ch->p));
			cz_jset(x, "flag", cz_jstr(hs_flag(&h->c[i], ch)));
			cz_jpush(in, x);
		}
		if (!json_array_size(in)) {
			json_decref(in);
			json_decref(not);
			json_decref(und);
			continue;
		}
		o = cz_jobj();
		cz_jset(o, "step", json_integer((json_int_t)k));
		cz_jset(o, "label", cz_jstr(label));
		cz_jset(o, "classes", in);
		cz_jset(o, "unchanged_classes", not);
		cz_jset(o, "undecided_classes", und);
		cz_jpush(out, o);
	}
	return out;
}

/* A step's line; a label wider than its column wrapped onto lines of its own under it. */
static void hs_text_step(FILE *f, const char *at, const struct hs_step *s, const struct cz_summary *sm,
			 const char *ch)
{
	char *w = czrep_wrap(s->label, 36), *l = w, *nl = strchr(w, '\n');
	int len = nl ? (int)(nl - l) : (int)strlen(l);

	fprintf(f, "%-7s %.*s%*s %4zu %5zu %12.5g %6.1f%%  %s\n", at, len, l, 36 - (int)hs_width(l, (size_t)len),
		"", s->runs, s->n, sm->mean,
		s->n > 1 && sm->mean != 0 ? 100 * (sm->ci_hi - sm->mean) / fabs(sm->mean) : 0.0, ch);
	for (l = nl; l; l = nl) {
		l++;
		nl = strchr(l, '\n');
		fprintf(f, "%-7s %.*s\n", "", nl ? (int)(nl - l) : (int)strlen(l), l);
	}
	free(w);
}

static void hs_text_class(FILE *f, const struct hs *h, const struct hs_class *c)
{
	size_t k;
	char at[16], ch[96];

	/* CI: the 95% interval's half-width in per cent of the mean; no unit: none shown */
	fprintf(f, "SUT class %s: %s / %s@K [%s%s%s is better]\n%-7s %-36s %4s %5s %12s  ±CI95%%  %s\n",
		c->cls, c->bench, h->seq, c->unit, *c->unit ? ", " : "", c->higher ? "higher" : "lower",
		"step", "label", "runs", "sess", "mean", "change point");
	for (k = 0; k <= (size_t)h->last; k++) {
		const struct hs_step *s = &c->st[k];
		const struct czst_change *x = hs_change_at(c, k);
		struct cz_summary sm;

		snprintf(at, sizeof(at), "%zu/%ld", k, h->last);
		if (!s->n) {
			fprintf(f, "%-7s %-36.36s %4zu %5s %12s %7s  %s\n", at, s->label ? s->label : "", s->failed,
				"-", "-", "-", s->failed ? "failed: no sample" : "missing: not run");
			continue;
		}
		cz_summarize(s->x, s->n, &sm);
		ch[0] = 0;
		if (x)
			snprintf(ch, sizeof(ch), "%+.2f%% (%s) 95%% CI %+.2f..%+.2f%%, p=%.3f", x->pct,
				 hs_flag(c, x), x->ci_lo, x->ci_hi, x->p);
		hs_text_step(f, at, s, &sm, ch);
	}
	fputc('\n', f);
}

/* "k/N, k/N ..." of up to 8 steps, then how many more. */
static void hs_steps_text(FILE *f, const struct hs *h, const size_t *k, size_t n)
{
	size_t i;

	for (i = 0; i < n && i < 8; i++)
		fprintf(f, "%s%zu/%ld", i ? ", " : "", k[i], h->last);
	if (n > 8)
		fprintf(f, " and %zu more", n - 8);
}

/*
 * What "none" cannot be said of: per class, the steps that failed or were
 * never run (a failed base: nothing compared with it), the steps where no
 * change could have reached alpha, and the sessions per step that would.
 */
static void hs_text_trust(FILE *f, const struct hs *h, bool any)
{
	size_t i, k, fl[CZRES_MAX_ITEMS], ms[CZRES_MAX_ITEMS], nf, nm;

	for (i = 0; i < h->nc; i++) {
		const struct hs_class *c = &h->c[i];

		for (nf = nm = 0, k = 0; k <= (size_t)h->last; k++)
			if (!c->st[k].n && c->st[k].failed)
				fl[nf++] = k;
			else if (!c->st[k].n)
				ms[nm++] = k;
		if (!c->st[0].n) {
			fprintf(f, "  undecided on %s: the base step 0/%ld %s: no step compared with it\n", c->cls,
				h->last, c->st[0].failed ? "failed" : "was not run");
		} else if (c->nundec) {
			fprintf(f, "  undecided on %s: needs >= %u sessions per step (with %zu, a change at step ",
				c->cls, c->needed, c->fewest);
			hs_steps_text(f, h, c->undec, c->nundec);
			fprintf(f, " cannot reach p < %.2f: its smallest p is %.3f)\n", CZST_CP_ALPHA, c->floor);
		} else if (!any && !hs_all_decided(h) && !c->nch) {
			fprintf(f, "  none on %s: no measured step changes anything\n", c->cls);
		}
		if (nf) {
			fprintf(f, "  failed on %s: step ", c->cls);
			hs_steps_text(f, h, fl, nf);
			fprintf(f, " (no sample in any run)\n");
		}
		if (nm) {
			fprintf(f, "  missing on %s: step ", c->cls);
			hs_steps_text(f, h, ms, nm);
			fprintf(f, " (no run holds it)\n");
		}
	}
}

static void hs_text(FILE *f, const struct hs *h, const json_t *changes)
{
	const json_t *o, *x;
	size_t i, j, k;

	for (i = 0; i < h->nc; i++)
		hs_text_class(f, h, &h->c[i]);
	fprintf(f, "Change points: E-Divisive means (Matteson & James 2014), %u permutations, seed %u, alpha %.2f\n",
		CZST_CP_PERMS, CZST_CP_SEED, CZST_CP_ALPHA);
	fprintf(f, "Compared: per class, the session means of every pooled run's steps, each segment of steps\n"
		"against the one before it (zab bisect instead compares one step with the base in one run)\n");
	if (!json_array_size(changes) && hs_all_decided(h))
		fprintf(f, "  none: no step changes anything on any of %zu SUT class%s (%ld step%s after the base)\n",
			h->nc, h->nc == 1 ? "" : "es", h->last, h->last == 1 ? "" : "s");
	json_array_foreach(changes, i, o) {
		fprintf(f, "  step %lld/%ld %s:", (long long)json_integer_value(json_object_get(o, "step")),
			h->last, json_string_value(json_object_get(o, "label")));
		json_array_foreach(json_object_get(o, "classes"), j, x)
			fprintf(f, "%s %+.2f%% (%s) 95%% CI %+.2f..%+.2f%% on %s", j ? ";" : "",
				json_number_value(json_object_get(x, "pct")),
				json_string_value(json_object_get(x, "flag")),
				json_number_value(json_object_get(x, "ci_lo")),
				json_number_value(json_object_get(x, "ci_hi")),
				json_string_value(json_object_get(x, "sut_class")));
		json_array_foreach(json_object_get(o, "unchanged_classes"), k, x)
			fprintf(f, "%s%s", k ? ", " : "; no change on ", json_string_value(x));
		json_array_foreach(json_object_get(o, "undecided_classes"), k, x)
			fprintf(f, "%s%s", k ? ", " : "; undecided on ", json_string_value(x));
		fputc('\n', f);
	}
	hs_text_trust(f, h, json_array_size(changes) > 0);
}

/* Per class what its answer rests on: the base, the steps it could not decide, failed or missing. */
static json_t *hs_classes_json(const struct hs *h)
{
	json_t *out = cz_jarr();
	size_t i, k;

	for (i = 0; i < h->nc; i++) {
		const struct hs_class *c = &h->c[i];
		json_t *o = cz_jpush(out, cz_jobj()), *u = cz_jarr(), *fl = cz_jarr(), *ms = cz_jarr();

		for (k = 0; k < c->nundec; k++)
			cz_jpush(u, json_integer((json_int_t)c->undec[k]));
		for (k = 0; k <= (size_t)h->last; k++)
			if (!c->st[k].n)
				cz_jpush(c->st[k].failed ? fl : ms, json_integer((json_int_t)k));
		cz_jset(o, "sut_class", cz_jstr(c->cls));
		cz_jset(o, "base", cz_jstr(c->st[0].n ? "measured" : c->st[0].failed ? "failed" : "missing"));
		cz_jset(o, "undecided_steps", u);
		cz_jset(o, "smallest_p", cz_jnum(c->nundec ? c->floor : NAN));
		cz_jset(o, "sessions", json_integer((json_int_t)c->fewest));
		cz_jset(o, "sessions_needed", json_integer((json_int_t)c->needed));
		cz_jset(o, "failed_steps", fl);
		cz_jset(o, "missing_steps", ms);
	}
	return out;
}

static const char *const hs_cols[] = { "sut_class", "step", "steps", "label", "variant", "runs",
				       "benchmark", "unit", "higher", "n", "samples", "mean", "ci_lo", "ci_hi",
				       "change_pct", "change_ci_lo", "change_ci_hi", "p", "change_point", "flag", NULL };

static int hs_output(const struct hs *h, const struct zab_series_opts *o)
{
	FILE *text = zab_view_text(o->json, o->csv);
	json_t *doc = cz_jobj(), *rows = cz_jarr(), *m = cz_jobj(), *changes = hs_changes(h);
	size_t i, k;
	int ret;

	for (i = 0; i < h->nc; i++)
		for (k = 0; k <= (size_t)h->last; k++)
			if (h->c[i].st[k].n)
				cz_jpush(rows, hs_row(h, &h->c[i], k));
	cz_jset(m, "name", cz_jstr("e-divisive means"));
	cz_jset(m, "permutations", json_integer(CZST_CP_PERMS));
	cz_jset(m, "seed", json_integer(CZST_CP_SEED));
	cz_jset(m, "alpha", cz_jnum(CZST_CP_ALPHA));
	cz_jset(doc, "view", cz_jstr("history"));
	cz_jset(doc, "experiment", cz_jstr(o->experiment));
	cz_jset(doc, "by", cz_jstr("series"));
	cz_jset(doc, "sequence", cz_jstr(h->seq));
	cz_jset(doc, "method", m);
	cz_jset(doc, "changes", changes);
	cz_jset(doc, "classes", hs_classes_json(h));
	cz_jset(doc, "rows", rows);
	hs_text(text, h, changes);
	ret = zab_view_files(text, o->json, o->csv, doc, hs_cols);
	if (o->po && (o->po->html || o->po->plot)) {
		char *t = NULL;
		size_t len = 0;
		FILE *ms = open_memstream(&t, &len);

		if (ms) {
			hs_text(ms, h, changes);
			fclose(ms);
		}
		json_t *chunk = cz_jarr();
		struct zab_page_hist ph = { "series", h->seq, h->kind, chunk };

		for (i = 0; i < h->nc; i++)
			if (h->c[i].chunk)
				cz_jpush(chunk, cz_jstr(h->c[i].cls));
		if (zab_page_history(o->po, rows, t, &ph))
			ret = 1;
		json_decref(chunk);
		free(t);
	}
	json_decref(doc);
	return ret;
}

/*
 * Which runs pool (use[i]), by report's rule: in each class the newest run
 * first, an older one kept when it pools with every run kept before it.
 * The runs left out in one line.
 */
static void hs_poolable(const struct czres_result *r, size_t nr, bool *use)
{
	char why[400], first[480] = "";
	const char *dfile;
	size_t i, j, left = 0;

	for (i = nr; i-- > 0;) {
		use[i] = true;
		for (j = i + 1; j < nr && use[i]; j++) {
			if (!use[j] || strcmp(r[i].sut, r[j].sut) ||
			    !czres_pool_check(&r[j], &r[i], &dfile, why, sizeof(why)))
				continue;
			use[i] = false;
			if (!left++)
				snprintf(first, sizeof(first), "%s run %.8s: %s", r[i].sut,
					 hs_uuid(&r[i]), why);
		}
	}
	if (left)
		cz_err("history: %zu of %zu stored runs left out: zab report would not pool %s with a newer run of %s class (%s)",
		       left, nr, left == 1 ? "it" : "them", left == 1 ? "its" : "their", first);
}

int zab_history_series(struct czres_result *r, size_t nr, const struct zab_series_opts *o)
{
	struct hs *h = cz_xmalloc(sizeof(*h));
	bool *use = cz_xmalloc((nr ? nr : 1) * sizeof(*use));
	size_t i, k;
	int ret = 2;

	h->nc = 0;
	h->full = false;
	h->last = -1;
	h->seq = o->seq ? cz_xstrdup(o->seq) : NULL;
	h->kind = NULL;
	for (i = 0; i < nr && !h->seq; i++)
		h->seq = zab_step_seq(&r[i]);
	hs_poolable(r, nr, use);
	for (i = 0; h->seq && i < nr; i++)
		if (use[i])
			hs_add(h, &r[i], o->benchmark);
	if (!h->seq)
		cz_err("history: no run of experiment '%s' has a sequence (variants NAME@0, NAME@1 ...)",
		       o->experiment);
	else if (hs_measured(h) < 2)
		cz_err("history: no run of experiment '%s' has two measured steps of %s%s%s", o->experiment,
		       h->seq, o->benchmark ? " in " : "", o->benchmark ? o->benchmark : "");
	else {
		for (i = 0; i < h->nc; i++)
			hs_find(&h->c[i]);
		ret = hs_output(h, o);
	}
	for (i = 0; i < nr; i++)
		czres_result_free(&r[i]);
	for (i = 0; i < h->nc; i++) {
		for (k = 0; k < CZRES_MAX_ITEMS; k++) {
			free(h->c[i].st[k].x);
			free(h->c[i].st[k].label);
		}
		free(h->c[i].cls);
		free(h->c[i].bench);
		free(h->c[i].unit);
	}
	free(h->seq);
	free(h);
	free(use);
	return ret;
}
