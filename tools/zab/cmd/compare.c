/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab compare OLD.json NEW.json: benchstat's view of two result files, e.g.
 * before and after a change, or two machines.  One row per benchmark,
 * result class and variant present in both files:
 *
 *   name                    old MB/s     new MB/s     delta
 *   pread 100KB / base      5530 ± 3%    5710 ± 2%    +3.25% (p=0.008 n=5+5)
 *
 * mean ± the half-width of its 95% Student-t CI in percent of the mean; the
 * delta of the means when the two-sided Mann-Whitney p is below 0.05 (as
 * benchstat), "~" otherwise.  Rows are matched by benchmark name, result
 * class (the command's number, in-device rate, in-device ns per chunk),
 * unit and variant name: a benchmark whose unit or direction differs
 * between the files is a different measurement, so it is listed as
 * unmatched, never compared.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "czstore.h"
#include "samplestat.h"

#define ZC_ALPHA	0.05

/* The first result of FILE (a zab run's JSON, or report --json's first). */
static int zc_load(const char *path, struct czres_result *r)
{
	json_t *doc = czres_json_load(path, "compare: "), *list;

	if (!doc)
		return -1;
	list = json_object_get(doc, "results");
	if (json_is_array(list)) {
		json_t *one = json_array_size(list) ? json_deep_copy(json_array_get(list, 0)) : NULL;

		json_decref(doc);
		if (!one) {
			cz_err("compare: %s: no result in it", path);
			return -1;
		}
		doc = one;
	}
	return czres_result_from_json(r, doc, path) ? -1 : 0;
}

/* "5530 ± 3%": the mean and its CI's half-width in percent. */
static void zc_cell_text(const struct czres_cell *c, struct cz_summary *s, char *buf, size_t len)
{
	cz_summarize(c->x, c->n, s);
	if (!c->n || c->failed)
		snprintf(buf, len, "%s", c->failed ? "failed" : "-");
	else if (s->n < 2 || s->mean == 0)
		snprintf(buf, len, "%.4g", s->mean);
	else
		snprintf(buf, len, "%.4g ± %.0f%%", s->mean,
			 100.0 * (s->ci_hi - s->mean) / fabs(s->mean));
}

static const char *const zc_cols[] = { "benchmark", "source", "unit", "higher", "variant",
				       "old_n", "old_mean", "old_ci_lo", "old_ci_hi", "new_n",
				       "new_mean", "new_ci_lo", "new_ci_hi", "delta_pct", "p",
				       "significant", NULL };

/* The row's JSON: the result class, variant, both summaries, the delta and p. */
static json_t *zc_json(const struct czres_bench *b, const char *v, const struct cz_summary *so,
		       const struct cz_summary *sn, double p, int sig)
{
	const struct cz_summary *s[2] = { so, sn };
	static const char *const k[2][4] = { { "old_n", "old_mean", "old_ci_lo", "old_ci_hi" },
					     { "new_n", "new_mean", "new_ci_lo", "new_ci_hi" } };
	json_t *o = cz_jobj();
	size_t i;

	cz_jset(o, "benchmark", cz_jstr(b->name));
	cz_jset(o, "source", cz_jstr(zab_rkinds[b->kind].source));
	cz_jset(o, "unit", cz_jstr(b->unit ? b->unit : ""));
	cz_jset(o, "higher", json_boolean(b->higher));
	cz_jset(o, "variant", cz_jstr(v));
	for (i = 0; i < 2; i++) {
		cz_jset(o, k[i][0], json_integer((json_int_t)s[i]->n));
		cz_jset(o, k[i][1], cz_jnum(s[i]->n ? s[i]->mean : NAN));
		cz_jset(o, k[i][2], cz_jnum(s[i]->n > 1 ? s[i]->ci_lo : NAN));
		cz_jset(o, k[i][3], cz_jnum(s[i]->n > 1 ? s[i]->ci_hi : NAN));
	}
	cz_jset(o, "delta_pct", cz_jnum(so->n && sn->n && so->mean != 0 ?
					100.0 * (sn->mean - so->mean) / fabs(so->mean) : NAN));
	cz_jset(o, "p", cz_jnum(p));
	cz_jset(o, "significant", json_boolean(sig));
	return o;
}

/* One row: old and new of one benchmark and variant (its JSON to rows); 1 when significant. */
static int zc_row(FILE *f, const char *label, const struct czres_cell *o, const struct czres_cell *n,
		  const struct czres_bench *b, const char *v, json_t *rows)
{
	struct cz_summary so, sn;
	char ot[48], nt[48], delta[64];
	double p = 1.0;
	int sig = 0;

	zc_cell_text(o, &so, ot, sizeof(ot));
	zc_cell_text(n, &sn, nt, sizeof(nt));
	if (o->n && n->n && !o->failed && !n->failed)
		p = cz_mann_whitney_p(o->x, o->n, n->x, n->n);
	if (p < ZC_ALPHA && so.mean != 0) {
		snprintf(delta, sizeof(delta), "%+.2f%% (p=%.3f n=%zu+%zu)",
			 100.0 * (sn.mean - so.mean) / fabs(so.mean), p, o->n, n->n);
		sig = 1;
	} else {
		snprintf(delta, sizeof(delta), "~ (p=%.3f n=%zu+%zu)", p, o->n, n->n);
	}
	fprintf(f, "%-52s %16s %16s  %s\n", label, ot, nt, delta);
	cz_jpush(rows, zc_json(b, v, &so, &sn, p, sig));
	return sig;
}

/* Every benchmark of new found in old, one block per benchmark. */
static void zc_compare(FILE *f, const struct czres_result *old, const struct czres_result *new,
		       unsigned *rows, unsigned *sig, json_t *arr)
{
	char label[160];
	size_t b, ob, v, ov;

	for (b = 0; b < new->nb; b++) {
		const struct czres_bench *rb = &new->b[b];

		ob = czres_find_bench(old, rb);
		if (ob == old->nb)
			continue;
		fprintf(f, "\n%-52s %16s %16s  delta (%s is better)\n", "name", "old", "new",
		       rb->higher ? "higher" : "lower");
		for (v = 0; v < new->nv; v++) {
			ov = czres_name_index(old->vname, old->nv, new->vname[v]);
			if (ov == old->nv)
				continue;
			snprintf(label, sizeof(label), "%s / %s [%s]", rb->name,
				 new->vname[v], rb->unit ? rb->unit : "");
			*sig += (unsigned)zc_row(f, label, czres_cell(old, ob, ov), czres_cell(new, b, v), rb,
						 new->vname[v], arr);
			(*rows)++;
		}
	}
}

/* What only one of the files has: named, so nothing is silently dropped. */
static void zc_unmatched(FILE *f, const struct czres_result *a, const struct czres_result *b, const char *which)
{
	size_t i;

	for (i = 0; i < a->nb; i++)
		if (czres_find_bench(b, &a->b[i]) == b->nb)
			fprintf(f, "only in %s: %s [%s, %s is better]\n", which, a->b[i].name,
			       a->b[i].unit ? a->b[i].unit : "",
			       a->b[i].higher ? "higher" : "lower");
	for (i = 0; i < a->nv; i++)
		if (czres_name_index(b->vname, b->nv, a->vname[i]) == b->nv)
			fprintf(f, "only in %s: variant %s\n", which, a->vname[i]);
}

/*
 * A selector's runs (compare --store), pooled by report's merge rules into
 * one result: 0, or the exit status after one line (2: a selector that is
 * bad, names no run, or spans SUT classes, which are never pooled).
 */
static int zc_select(struct czs *s, const char *sel, struct czres_result *out)
{
	struct czres_result *r = NULL, *res[CZRES_MAX_ITEMS];
	struct czs_filter f;
	char err[1024], *w = cz_xstrdup(sel);
	json_t *junk = cz_jarr();
	size_t nr = 0, n = 0, i;
	int ret = czs_select(s, w, &f, err, sizeof(err));

	if (ret)
		ret = ret == -EINVAL ? CZ_EXIT_USAGE : CZ_EXIT_FAILURE;
	else if (czs_load_results(s, &f, &r, &nr, err, sizeof(err)))
		ret = CZ_EXIT_FAILURE;
	else if (!nr)
		snprintf(err, sizeof(err), "selector '%s': no run in %s", sel, czs_name(s));
	for (i = 0; i < nr; i++)
		if (ret || czres_merge(res, &n, &r[i], junk, NULL, r[i].vfile[0])) {
			if (!ret)
				ret = CZ_EXIT_FAILURE;
			else
				czres_result_free(&r[i]);
			err[0] = 0;
		}
	if (!ret && n > 1) {
		snprintf(err, sizeof(err), "selector '%s': its runs are of %zu SUT classes (%s, %s%s); "
			 "add sut-class:C, classes are never pooled", sel, n, res[0]->sut, res[1]->sut,
			 n > 2 ? ", ..." : "");
		ret = CZ_EXIT_USAGE;
	}
	if (!ret && !nr)
		ret = CZ_EXIT_USAGE;
	if (ret && err[0])
		cz_err("compare: %s", err);
	for (i = 0; i < n; i++) {
		if (!ret && !i)
			*out = *res[0];
		else
			czres_result_free(res[i]);
		free(res[i]);
	}
	free(r);
	free(w);
	json_decref(junk);
	return ret;
}

struct zc_opts {
	const char *store, *json, *csv, *arg[2];
	struct zab_page_opts po;
	bool has_store;
};

/* 0, 1 (--help shown) or the exit status after one line. */
static int zc_parse(int argc, char **argv, struct zc_opts *o)
{
	int i, n = 0;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			printf("Usage: zab compare OLD.json NEW.json\n"
			       "       zab compare --store URL OLD NEW   (selectors: a run UUID or 8+ of its\n"
			       "         characters, campaign:ID, sut-class:C, sut:NAME, experiment:NAME; a,b = both)\n"
			       "       [-j|--json FILE] [--export-csv FILE]\n"
			       "       [--html FILE] [--plot FILE.svg|png [--figure change|runs]]\n"
			       "benchstat-style: per benchmark, result class and variant in both,\n"
			       "old and new mean ± 95%% CI, the change when Mann-Whitney p < %.2f, else ~.\n",
			       ZC_ALPHA);
			zab_help_end(stdout, "compare");
			return 1;
		}
		if (a[0] == '-' && a[1] && !next) {
			cz_err("compare: option %s needs a value", a);
			return CZ_EXIT_USAGE;
		}
		if (!strcmp(a, "--store")) {
			o->store = argv[++i];
			o->has_store = true;
		} else if (!strcmp(a, "-j") || !strcmp(a, "--json")) {
			o->json = argv[++i];
		} else if (!strcmp(a, "--export-csv")) {
			o->csv = argv[++i];
		} else if (!strcmp(a, "--html") || !strcmp(a, "--plot") || !strcmp(a, "--figure")) {
			if (zab_page_option(a[2] == 'h' ? OPT_HTML : a[2] == 'p' ? OPT_PLOT : OPT_FIGURE,
					    argv[++i], &o->po) < 0)
				return CZ_EXIT_USAGE;
		} else if (a[0] == '-' && a[1]) {
			cz_err_unknown_option(a);
			return CZ_EXIT_USAGE;
		} else if (n < 2) {
			o->arg[n++] = a;
		} else {
			n = 3;
		}
	}
	if (n != 2) {
		cz_err("compare: expected OLD NEW: two files, or two selectors with --store (see zab compare --help)");
		return CZ_EXIT_USAGE;
	}
	return zab_page_check(&o->po) ? CZ_EXIT_USAGE : 0;
}

/* The text's last line, then the JSON and CSV of a comparison: the exit status. */
static int zc_outputs(FILE *f, const struct zc_opts *o, const struct czres_result *old,
		      const struct czres_result *new, json_t *rows, unsigned sig)
{
	const struct czres_result *r[2] = { old, new };
	json_t *doc = cz_jobj(), *x;
	int ret;

	fprintf(f, "%zu rows compared, %u with p < %.2f\n", json_array_size(rows), sig, ZC_ALPHA);
	cz_jset(doc, "view", cz_jstr("compare"));
	cz_jset(doc, "alpha", cz_jnum(ZC_ALPHA));
	for (int i = 0; i < 2; i++) {
		x = cz_jset(doc, i ? "new" : "old", cz_jobj());
		cz_jset(x, o->has_store ? "selector" : "file", cz_jstr(o->arg[i]));
		cz_jset(x, "sut_class", cz_jstr(r[i]->sut));
	}
	cz_jset(doc, "rows", json_incref(rows));
	ret = zab_view_files(f, o->json, o->csv, doc, zc_cols) ? CZ_EXIT_FAILURE : CZ_EXIT_OK;
	json_decref(doc);
	return ret;
}

static int zc_load_both(const struct zc_opts *o, struct czres_result *old, struct czres_result *new)
{
	struct czs *s;
	int ret;

	if (!o->has_store)
		return zc_load(o->arg[0], old) || zc_load(o->arg[1], new) ? CZ_EXIT_FAILURE : 0;
	s = zab_store_read(o->store, NULL);
	if (!s)
		return CZ_EXIT_FAILURE;
	ret = zc_select(s, o->arg[0], old);
	if (!ret)
		ret = zc_select(s, o->arg[1], new);
	czs_close(s);
	return ret;
}

int zab_cmd_compare(int argc, char **argv)
{
	struct zc_opts o = { 0 };
	struct czres_result old, new;
	unsigned rows = 0, sig = 0;
	json_t *arr = cz_jarr();
	int ret = zc_parse(argc, argv, &o);
	char *text = NULL;
	size_t len = 0;
	FILE *f, *m;

	if (ret) {
		json_decref(arr);
		return ret == 1 ? (fflush(stdout) ? CZ_EXIT_FAILURE : CZ_EXIT_OK) : ret;
	}
	memset(&old, 0, sizeof(old));
	memset(&new, 0, sizeof(new));
	ret = zc_load_both(&o, &old, &new);
	if (ret)
		goto out;
	ret = CZ_EXIT_FAILURE;
	f = zab_view_text(o.json, o.csv);
	/* the text to a buffer first: the page shows it too */
	m = open_memstream(&text, &len);
	if (!m) {
		cz_err("compare: %m");
		goto out;
	}
	fprintf(m, "old: %s (%s)\nnew: %s (%s)\n", o.arg[0], old.sut, o.arg[1], new.sut);
	zc_compare(m, &old, &new, &rows, &sig, arr);
	fprintf(m, "\n");
	zc_unmatched(m, &old, &new, "old");
	zc_unmatched(m, &new, &old, "new");
	fclose(m);
	fputs(text, f);
	if (!rows) {
		cz_err("compare: no benchmark and variant in both (same name, unit and class)");
		goto out;
	}
	ret = zc_outputs(f, &o, &old, &new, arr, sig);
	if (zab_page_compare(&o.po, &old, &new, arr, text) && ret == CZ_EXIT_OK)
		ret = CZ_EXIT_FAILURE;
out:
	czres_result_free(&old);
	czres_result_free(&new);
	json_decref(arr);
	free(text);
	return ret;
}
