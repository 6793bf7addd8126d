/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab history: one benchmark's value over kernel releases (the run's
 * environment.kernel, in version order), cusezero versions (version order)
 * or the routine's source and patch (variants[].routine_source, in the
 * order of the runs' starts), one history per SUT class.  The runs of a
 * step are pooled by report's merge rules; a step is flagged (R)/(I) when
 * the two-sided Mann-Whitney p against the step before is below 0.05, as
 * zab compare.  --by series: a change sequence's steps and its change points
 * over the whole sequence (histseries.c).
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "czstore.h"
#include "samplestat.h"
#include "model/steps.h"

#define ZH_ALPHA 0.05
#define ZH_MAX_STEPS 1024

enum zh_by { ZH_KERNEL, ZH_CUSEZERO, ZH_PATCH, ZH_SERIES };

struct zh_step {
	char *cls;               /* SUT class */
	char *key;               /* kernel release, version or routine */
	char *started;           /* its first run's start (patch order) */
	struct czres_result *res[1];
	size_t nres, runs;
};

struct zh_opts {
	const char *store, *benchmark, *variant, *json, *csv;
	struct zab_page_opts po;
	enum zh_by by;
	bool has_by;
	struct czs_filter f;
};

/* o[key] as a string, "" when absent. */
static const char *zh_str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

/* The routine variant v ran: its source file and hash (and its patch's), or the built-in's name. */
static char *zh_routine(const json_t *doc, const char *v)
{
	const json_t *vs = json_object_get(doc, "variants"), *x, *src = NULL;
	const char *fs, *ps;
	size_t i;

	json_array_foreach(vs, i, x)
		if (!strcmp(zh_str(x, "name"), v))
			src = json_object_get(x, "routine_source");
	if (!json_is_object(src))
		return cz_xstrdup("(unknown)");
	fs = zh_str(src, "file_sha256");
	ps = zh_str(src, "patch_sha256");
	if (!*fs)
		return cz_xasprintf("built-in %s", zh_str(src, "name"));
	return cz_xasprintf("%s@%.12s%s%.12s", zh_str(src, "file"), fs, *ps ? " patch@" : "", ps);
}

/* The step a run belongs to. */
static char *zh_key(const struct czres_result *r, enum zh_by by, const char *variant)
{
	const json_t *env = json_object_get(r->doc, "environment");

	if (by == ZH_KERNEL)
		return cz_xstrdup(*zh_str(env, "kernel") ? zh_str(env, "kernel") : "(unknown)");
	if (by == ZH_CUSEZERO)
		return cz_xstrdup(*zh_str(env, "cusezero_version") ? zh_str(env, "cusezero_version") :
				  "(unknown)");
	return zh_routine(r->doc, variant ? variant : r->vname[r->base]);
}

static enum zh_by zh_sort_by;

static int zh_cmp(const void *pa, const void *pb)
{
	const struct zh_step *a = pa, *b = pb;
	int c = strcmp(a->cls, b->cls);

	if (c)
		return c;
	if (zh_sort_by == ZH_PATCH)
		return strcmp(a->started, b->started);
	return strverscmp(a->key, b->key);
}

/* Every run into its (class, step) (*pns of them), pooled by report's rules: 0 or -1. */
static int zh_steps(struct czres_result *r, size_t nr, const struct zh_opts *o, struct zh_step *st,
		    size_t *pns)
{
	json_t *junk = cz_jarr();
	size_t i, k, ns = 0;
	int ret = 0;

	for (i = 0; i < nr; i++) {
		char *key = ret ? NULL : zh_key(&r[i], o->by, o->variant);
		const char *started = zh_str(json_object_get(r[i].doc, "run"), "started");

		for (k = 0; key && k < ns && (strcmp(st[k].cls, r[i].sut) || strcmp(st[k].key, key)); k++)
			;
		if (key && k == ns && ns == ZH_MAX_STEPS) {
			cz_err("history: more than %d steps", ZH_MAX_STEPS);
			ret = -1;
		} else if (key && k == ns) {
			memset(&st[ns], 0, sizeof(st[ns]));
			st[ns].cls = cz_xstrdup(r[i].sut);
			st[ns].key = key;
			st[ns++].started = cz_xstrdup(started);
			key = NULL;
		} else if (key && strcmp(started, st[k].started) < 0) {
			free(st[k].started);
			st[k].started = cz_xstrdup(started);
		}
		free(key);
		if (ret) {
			czres_result_free(&r[i]);
			continue;
		}
		st[k].runs++;
		if (czres_merge(st[k].res, &st[k].nres, &r[i], junk, NULL, r[i].vfile[0]))
			ret = -1;
	}
	json_decref(junk);
	*pns = ns;
	return ret;
}

static const char *const zh_cols[] = { "sut_class", "step", "runs", "benchmark", "variant", "unit",
				       "higher", "n", "mean", "ci_lo", "ci_hi", "change_pct", "p",
				       "flag", NULL };

/* The cell of the step: the benchmark's row (the command's class first) and the variant. */
static const struct czres_cell *zh_cell(const struct czres_result *r, const struct zh_opts *o,
					const struct czres_bench **b, const char **v)
{
	size_t i, k;

	for (i = 0; i < r->nb && o->benchmark && strcmp(r->b[i].name, o->benchmark); i++)
		;
	k = o->variant ? czres_name_index(r->vname, r->nv, o->variant) : r->base;
	if (i == r->nb || k == r->nv)
		return NULL;
	*b = &r->b[i];
	*v = r->vname[k];
	return czres_cell(r, i, k);
}

/* One step's row, against the step before it in its class (prev, NULL: first). */
static json_t *zh_row(const struct zh_step *st, const struct zh_opts *o, const struct czres_cell *prev,
		      const struct czres_cell **cur)
{
	const struct czres_bench *b = NULL;
	const char *v = NULL;
	const struct czres_cell *c = zh_cell(st->res[0], o, &b, &v);
	struct cz_summary s, ps;
	json_t *row;
	double p = NAN, pct = NAN;

	*cur = c && c->n && !c->failed ? c : NULL;
	if (!c)
		return NULL;
	cz_summarize(c->x, c->n, &s);
	row = cz_jobj();
	cz_jset(row, "sut_class", cz_jstr(st->cls));
	cz_jset(row, "step", cz_jstr(st->key));
	cz_jset(row, "runs", json_integer((json_int_t)st->runs));
	cz_jset(row, "benchmark", cz_jstr(b->name));
	cz_jset(row, "variant", cz_jstr(v));
	cz_jset(row, "unit", cz_jstr(b->unit ? b->unit : ""));
	cz_jset(row, "higher", json_boolean(b->higher));
	cz_jset(row, "n", json_integer((json_int_t)c->n));
	cz_jset(row, "mean", cz_jnum(*cur ? s.mean : NAN));
	cz_jset(row, "ci_lo", cz_jnum(*cur && s.n > 1 ? s.ci_lo : NAN));
	cz_jset(row, "ci_hi", cz_jnum(*cur && s.n > 1 ? s.ci_hi : NAN));
	if (prev && *cur) {
		cz_summarize(prev->x, prev->n, &ps);
		p = cz_mann_whitney_p(prev->x, prev->n, c->x, c->n);
		if (ps.mean != 0)
			pct = 100.0 * (s.mean - ps.mean) / fabs(ps.mean);
	}
	cz_jset(row, "change_pct", cz_jnum(pct));
	cz_jset(row, "p", cz_jnum(p));
	cz_jset(row, "flag", cz_jstr(!(p < ZH_ALPHA) || isnan(pct) ? "" :
				     (pct > 0) == b->higher ? "I" : "R"));
	return row;
}

static void zh_text(FILE *f, const json_t *rows, const char *by)
{
	const char *cls = NULL;
	const json_t *row;
	char ch[40], *w, *nl;
	size_t i;

	json_array_foreach(rows, i, row) {
		const char *c = zh_str(row, "sut_class"), *flag = zh_str(row, "flag");
		double m = json_number_value(json_object_get(row, "mean"));
		double hi = json_number_value(json_object_get(row, "ci_hi"));

		if (!cls || strcmp(cls, c)) {
			/* CI: the 95% interval's half-width in per cent of the mean; no unit: none shown */
			fprintf(f, "%sSUT class %s: %s / %s [%s%s%s is better]\n%-40s %5s %5s %12s  ±CI95%%  %s\n",
				cls ? "\n" : "", c, zh_str(row, "benchmark"), zh_str(row, "variant"),
				zh_str(row, "unit"), *zh_str(row, "unit") ? ", " : "",
				json_is_true(json_object_get(row, "higher")) ? "higher" : "lower", by, "runs", "n",
				"mean", "change vs the step before");
			cls = c;
			ch[0] = 0;
		} else if (json_is_number(json_object_get(row, "p"))) {
			snprintf(ch, sizeof(ch), "%+.2f%% %s(p=%.3f)",
				 json_number_value(json_object_get(row, "change_pct")),
				 *flag == 'R' ? "(R) " : *flag == 'I' ? "(I) " : "~ ",
				 json_number_value(json_object_get(row, "p")));
		} else {
			snprintf(ch, sizeof(ch), "-");
		}
		/* a step wider than its column wrapped onto lines of its own, never cut */
		w = czrep_wrap(zh_str(row, "step"), 40);
		nl = strchr(w, '\n');
		fprintf(f, "%-40.*s %5lld %5lld %12.5g %6.1f%%  %s\n", nl ? (int)(nl - w) : (int)strlen(w), w,
			(long long)json_integer_value(json_object_get(row, "runs")),
			(long long)json_integer_value(json_object_get(row, "n")), m,
			m != 0 && json_is_number(json_object_get(row, "ci_hi")) ? 100 * (hi - m) / fabs(m) : 0.0,
			ch);
		if (nl)
			fprintf(f, "%s\n", nl + 1);
		free(w);
	}
	fprintf(f, "\n(R)/(I): two-sided Mann-Whitney p < %.2f against the step before (as zab compare)\n",
		ZH_ALPHA);
}

/* The options: 0, 1 (--help shown) or -1 after one line. */
static int zh_parse(int argc, char **argv, struct zh_opts *o)
{
	static const struct option opts[] = {
		{ "store", required_argument, NULL, 'S' },
		{ "experiment", required_argument, NULL, 'e' },
		{ "benchmark", required_argument, NULL, 'b' },
		{ "variant", required_argument, NULL, 'v' },
		{ "sut-class", required_argument, NULL, 'c' },
		{ "by", required_argument, NULL, 'B' },
		{ "json", required_argument, NULL, 'j' },
		{ "export-csv", required_argument, NULL, 'C' },
		ZAB_PAGE_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const bys[] = { "kernel", "cusezero", "patch", "series" };
	char bad[8];
	int c, k;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":j:h", opts, NULL)) != -1) {
		switch (c) {
		case 'S': o->store = optarg; break;
		case 'e': o->f.experiment = optarg; break;
		case 'b': o->benchmark = optarg; break;
		case 'v': o->variant = optarg; break;
		case 'c': o->f.sut_class = optarg; break;
		case 'j': o->json = optarg; break;
		case 'C': o->csv = optarg; break;
		case OPT_HTML: case OPT_PLOT: case OPT_FIGURE:
			if (zab_page_option(c, optarg, &o->po) < 0)
				return -1;
			break;
		case 'h':
			printf("Usage: zab history [--store URL] --experiment NAME --by kernel|cusezero|patch|series\n"
			       "         [--benchmark B] [--variant V] [--sut-class C] [-j FILE] [--export-csv FILE]\n"
			       "         [--html FILE] [--plot FILE.svg|png [--figure history[-K]]]\n"
			       "One benchmark's value per kernel release, cusezero version or routine source,\n"
			       "one history per SUT class; (R)/(I): Mann-Whitney p < %.2f against the step before.\n"
			       "--by series: a change sequence's steps (--variant NAME: NAME@0..NAME@K, default\n"
			       "the first), change points over the whole sequence by E-Divisive means.\n",
			       ZH_ALPHA);
			zab_help_end(stdout, "history");
			return 1;
		case 'B':
			for (k = 0; k < 4 && strcmp(optarg, bys[k]); k++)
				;
			if (k == 4) {
				cz_err("--by '%s': expected kernel, cusezero, patch or series", optarg);
				return -1;
			}
			o->by = (enum zh_by)k;
			o->has_by = true;
			break;
		default:
			zab_bad_option(c, argv, bad, sizeof(bad));
			return -1;
		}
	}
	if (optind < argc) {
		cz_err("history: unexpected argument '%s'", argv[optind]);
		return -1;
	}
	if (!o->f.experiment || !o->has_by) {
		cz_err("history: give --experiment NAME and --by kernel|cusezero|patch|series");
		return -1;
	}
	return zab_page_check(&o->po);
}

/* The name s into the array a, unless it is there. */
static void zh_add_once(json_t *a, const char *s)
{
	const json_t *x;
	size_t i;

	json_array_foreach(a, i, x)
		if (!strcmp(json_string_value(x), s))
			return;
	cz_jpush(a, cz_jstr(s));
}

/*
 * The rows of every step, in order; each step compared with the one before
 * in its class.  The classes whose row is bytes/sec of routine time into
 * chunk (the page draws them as time per chunk).
 */
static json_t *zh_rows(struct zh_step *st, size_t ns, const struct zh_opts *o, json_t *chunk)
{
	const struct czres_cell *prev = NULL, *cur;
	const struct czres_bench *b;
	json_t *rows = cz_jarr(), *row;
	const char *v;
	size_t k;

	zh_sort_by = o->by;
	qsort(st, ns, sizeof(*st), zh_cmp);
	for (k = 0; k < ns; k++) {
		if (k && strcmp(st[k].cls, st[k - 1].cls))
			prev = NULL;
		row = st[k].nres ? zh_row(&st[k], o, prev, &cur) : NULL;
		if (row) {
			cz_jpush(rows, row);
			prev = cur;
			if (zh_cell(st[k].res[0], o, &b, &v) && b->kind == CZRES_RK_DEV_RATE)
				zh_add_once(chunk, st[k].cls);
		}
	}
	return rows;
}

static int zh_output(json_t *rows, const json_t *chunk, const struct zh_opts *o)
{
	static const char *const bys[] = { "kernel", "cusezero", "patch" };
	const struct zab_page_hist ph = { bys[o->by], NULL, NULL, chunk };
	FILE *text = zab_view_text(o->json, o->csv);
	json_t *doc = cz_jobj();
	int ret;

	cz_jset(doc, "view", cz_jstr("history"));
	cz_jset(doc, "experiment", cz_jstr(o->f.experiment));
	cz_jset(doc, "by", cz_jstr(bys[o->by]));
	cz_jset(doc, "alpha", cz_jnum(ZH_ALPHA));
	cz_jset(doc, "rows", json_incref(rows));
	zh_text(text, rows, bys[o->by]);
	ret = zab_view_files(text, o->json, o->csv, doc, zh_cols);
	if (o->po.html || o->po.plot) {
		char *t = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&t, &len);

		if (m) {
			zh_text(m, rows, bys[o->by]);
			fclose(m);
		}
		if (zab_page_history(&o->po, rows, t, &ph))
			ret = 1;
		free(t);
	}
	json_decref(doc);
	return ret;
}

int zab_cmd_history(int argc, char **argv)
{
	struct zh_opts o = { 0 };
	struct zh_step *st = NULL;
	struct czres_result *r = NULL;
	json_t *rows = NULL, *chunk = NULL;
	struct czs *s;
	char err[1024];
	size_t nr = 0, k, ns = 0;
	int ret = 2;

	ret = zh_parse(argc, argv, &o);
	if (ret)
		return ret == 1 ? 0 : 2;
	ret = 2;
	s = zab_store_read(o.store, o.f.experiment);
	if (!s)
		return 1;
	if (czs_load_results(s, &o.f, &r, &nr, err, sizeof(err))) {
		cz_err("history: %s", err);
		for (k = 0; k < nr; k++)
			czres_result_free(&r[k]);
		goto out;
	}
	if (!nr) {
		cz_err("history: no run of experiment '%s'%s%s in %s", o.f.experiment,
		       o.f.sut_class ? " on SUT class " : "", o.f.sut_class ? o.f.sut_class : "", czs_name(s));
		goto out;
	}
	if (o.by == ZH_SERIES) {
		struct zab_series_opts so = { o.f.experiment, o.benchmark, o.variant, o.json, o.csv, &o.po };

		ret = zab_history_series(r, nr, &so);
		goto out;
	}
	st = cz_xmalloc(ZH_MAX_STEPS * sizeof(*st));
	if (zh_steps(r, nr, &o, st, &ns))
		goto out;
	chunk = cz_jarr();
	rows = zh_rows(st, ns, &o, chunk);
	if (!json_array_size(rows))
		cz_err("history: no run of experiment '%s' has benchmark '%s' and variant '%s'",
		       o.f.experiment, o.benchmark ? o.benchmark : "(the first)",
		       o.variant ? o.variant : "(the base)");
	else
		ret = zh_output(rows, chunk, &o);
out:
	for (k = 0; k < ns; k++) {
		if (st[k].nres) {
			czres_result_free(st[k].res[0]);
			free(st[k].res[0]);
		}
		free(st[k].cls);
		free(st[k].key);
		free(st[k].started);
	}
	free(st);
	free(r);
	json_decref(rows);
	json_decref(chunk);
	czs_close(s);
	return ret;
}
