/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab report: result files read, checked and merged (same benchmarks and
 * variants pooled), then shown as one table per SUT class, or with --by
 * sut-class as one table of a column group per class (views.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "czstore.h"
#include "cmd.h"
#include "cli.h"
#include "util.h"

/* One FILE.json of report (a "zab report --json" document holds several results). 0 or -1. */
static int report_file(const char *path, const char *sut, struct czres_result **res, size_t *n,
		       json_t *arr)
{
	json_t *doc = czres_json_load(path, ""), *list, *one;
	struct czres_result r;
	size_t k, nk;
	bool many;

	if (!doc)
		return -1;
	list = json_object_get(doc, "results");
	many = json_is_array(list);
	nk = many ? json_array_size(list) : 1;
	for (k = 0; k < nk; k++) {
		one = many ? json_deep_copy(json_array_get(list, k)) : doc;
		if (czres_result_from_json(&r, one, path)) {
			czres_result_free(&r);
			if (many)
				json_decref(doc);
			return -1;
		}
		if (czres_merge(res, n, &r, arr, sut, path)) {
			if (many)
				json_decref(doc);
			return -1;
		}
	}
	if (many)
		json_decref(doc);
	return 0;
}

/*
 * The runs of an experiment in the store, each added as a file would be;
 * each run's document with its samples pushed to sutdocs when not NULL
 * (the page's figures per SUT).  0 or -1.
 */
static int report_store(const char *url, const struct czs_filter *f, bool docs,
			struct czres_result **res, size_t *n, json_t *arr, json_t *sutdocs)
{
	struct czres_result *r = NULL;
	json_t *full = NULL;
	struct czs *s;
	char err[1024];
	size_t nr = 0, i;
	int ret = 0;

	/* --experiment, --campaign or --sut-class alone: the default store */
	if (!url && !f->experiment && !f->campaign && !f->sut_class)
		return 0;
	if (!f->experiment) {
		cz_err("report --store: name the experiment (--experiment NAME; zab store ls experiments)");
		return -1;
	}
	s = zab_store_read(url, f->experiment);
	if (!s)
		return -1;
	if (czs_load_results(s, f, &r, &nr, err, sizeof(err)) ||
	    (docs && czs_export(s, f, &full, err, sizeof(err)))) {
		cz_err("report: %s", err);
		ret = -1;
	} else if (!nr) {
		cz_err("report: no run of experiment '%s'%s%s in %s", f->experiment,
		       f->campaign ? " in campaign " : "", f->campaign ? f->campaign : "", czs_name(s));
		ret = -1;
	}
	/* the JSON copies (--export-json) with their samples: the documents as recorded */
	for (i = 0; full && !ret && i < nr && i < json_array_size(full); i++) {
		json_decref(r[i].doc);
		r[i].doc = json_incref(json_array_get(full, i));
	}
	json_decref(full);
	for (i = 0; sutdocs && !ret && i < nr; i++) {
		/* from memory, not a second query: the document and its cells as zab run wrote them */
		json_t *d = json_deep_copy(r[i].doc);

		czrep_cells_json(d, &r[i]);
		json_array_append_new(sutdocs, d);
	}
	for (i = 0; i < nr; i++)
		if (!ret && czres_merge(res, n, &r[i], arr, NULL, r[i].vfile[0]))
			ret = -1;
		else if (ret)
			czres_result_free(&r[i]);
	free(r);
	czs_close(s);
	return ret;
}

/*
 * The rule the files recorded, or the one asked for (all files, and the
 * JSON copies): 0, or -1 after one line when pooled files disagree.
 */
static int apply_verdict(struct czres_result **res, size_t n, json_t *arr, bool has_verdict,
			 bool paired)
{
	size_t i;

	for (i = 0; !has_verdict && i < n; i++)
		if (res[i]->clash) {
			cz_err("report: %s says verdict %s, %s says %s; give --verdict overlap or --verdict paired to pool them",
			       res[i]->vfile[0], res[i]->paired ? "paired" : "overlap", res[i]->clash,
			       res[i]->paired ? "overlap" : "paired");
			return -1;
		}
	for (i = 0; has_verdict && i < n; i++)
		res[i]->paired = paired;
	for (i = 0; has_verdict && i < json_array_size(arr); i++) {
		json_t *ex = json_object_get(json_array_get(arr, i), "experiment");

		if (json_is_object(ex))
			cz_jset(ex, "verdict", cz_jstr(paired ? "paired" : "overlap"));
	}
	return 0;
}

/* report's store options: 1 taken, 0 not one, -1 after one line. */
static int store_option(int c, const char *arg, struct czs_filter *f, const char **store, bool *by,
			size_t *min_class)
{
	if (zab_store_option(c, arg, store))
		return 1;
	switch (c) {
	case OPT_MIN_PER_CLASS:
		*min_class = cz_opt_uint("--min-per-class", arg, 1, 100000);
		return 1;
	case OPT_EXPERIMENT_NAME:
		f->experiment = arg;
		return 1;
	case OPT_CAMPAIGN_ID:
		f->campaign = arg;
		return 1;
	case OPT_SUT_CLASS:
		f->sut_class = arg;
		return 1;
	case OPT_BY:
		/* one column group per SUT class, side by side */
		if (strcmp(arg, "sut-class")) {
			cz_err("--by '%s': expected sut-class", arg);
			return -1;
		}
		*by = true;
		return 1;
	}
	return 0;
}

/* --html / --plot: the tables as text (by-class's when by) and the figures; 0 or 1. */
static int report_page(const struct zab_page_opts *po, struct czres_result **res, size_t n,
		       const json_t *all, const json_t *sutdocs, const struct out_opts *oo, bool by)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m;
	int ret;

	if (!po->html && !po->plot)
		return 0;
	m = open_memstream(&text, &len);
	if (!m) {
		cz_err("report: %m");
		return 1;
	}
	if (by)
		zab_by_class_text(m, res, n);
	else
		czrep_render(m, res, n, oo->style);
	fclose(m);
	ret = zab_page_report(po, res, n, sutdocs && json_array_size(sutdocs) ? sutdocs :
			      json_object_get(all, "results"), text);
	free(text);
	return ret;
}

/* The table (or --by sut-class's column groups) and the files: the exit status. */
static int report_show(struct czres_result **res, size_t n, const json_t *all, struct out_opts *oo,
		       bool loc, bool by, const struct zab_page_opts *po, const json_t *sutdocs)
{
	int ret;

	if (by && (loc || oo->md.path || oo->hf.path)) {
		cz_err("report --by sut-class: its outputs are the table, --json and --export-csv");
		return 2;
	}
	if (by) {
		json_t *kref = zab_kref_classes(res, n, json_object_get(all, "results"));

		ret = zab_report_by_class(res, n, oo->json.path, oo->csv.path, kref);
		zab_kref_by_class(zab_view_text(oo->json.path, oo->csv.path), kref);
		json_decref(kref);
		return report_page(po, res, n, all, sutdocs, oo, by) && !ret ? 1 : ret;
	}
	if (zab_outputs_open(oo))
		return 2;
	ret = zab_output(res, n, all, oo);
	if (report_page(po, res, n, all, sutdocs, oo, by) && !ret)
		ret = 1;
	if (loc && czrep_layout_or_code(oo->json.path && !strcmp(oo->json.path, "-") ? stderr : stdout,
					res[0], res[1]))
		ret = 2;
	return ret;
}

/* zab report's options (the output and page ones are shared with run, compare, history). */
static const struct option report_opts[] = {
	ZAB_OUTPUT_LONGOPTS,
	ZAB_PAGE_LONGOPTS,
	{ "sut", required_argument, NULL, OPT_SUT },
	{ "layout-or-code", no_argument, NULL, OPT_LAYOUT_OR_CODE },
	{ "verdict", required_argument, NULL, OPT_VERDICT },
	ZAB_STORE_LONGOPTS,
	{ "experiment", required_argument, NULL, OPT_EXPERIMENT_NAME },
	{ "campaign", required_argument, NULL, OPT_CAMPAIGN_ID },
	{ "sut-class", required_argument, NULL, OPT_SUT_CLASS },
	{ "by", required_argument, NULL, OPT_BY },
	{ "min-per-class", required_argument, NULL, OPT_MIN_PER_CLASS },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int zab_cmd_report(int argc, char **argv)
{
	struct czs_filter f = { 0 };
	const char *store = NULL;
	struct czres_result *res[CZRES_MAX_ITEMS];
	json_t *all = cz_jobj(), *arr, *sutdocs = cz_jarr();
	const char *sut = NULL;
	bool loc = false, has_verdict = false, paired = false, by = false;
	struct out_opts oo;
	struct zab_page_opts po = { 0 };
	size_t n = 0, i, min_class = 0;
	int c, k, ret = 2;
	char bad[8];

	zab_out_init(&oo);
	cz_jset(all, "zab", cz_jnum(1));
	arr = cz_jset(all, "results", cz_jarr());
	/* "-" first: files and --sut are processed in order (--sut applies to the files after it) */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "-:s:j:h", report_opts, NULL)) != -1) {
		if (c == '?' || c == ':') {
			zab_bad_option(c, argv, bad, sizeof(bad));
			goto out;
		}
		k = zab_output_option(c, optarg, &oo);
		if (!k)
			k = zab_page_option(c, optarg, &po);
		if (k < 0)
			goto out;
		if (k)
			continue;
		if (c == OPT_SUT) {
			sut = optarg;
		} else if (c == OPT_LAYOUT_OR_CODE) {
			loc = true;
		} else if (c == OPT_VERDICT) {
			if (czres_verdict_parse(optarg, &paired)) {
				cz_err("--verdict '%s': expected overlap or paired", optarg);
				goto out;
			}
			has_verdict = true;
		} else if ((k = store_option(c, optarg, &f, &store, &by, &min_class)) != 0) {
			if (k < 0)
				goto out;
		} else if (c == 'h') {
			zab_usage_of(stdout, "report");
			ret = 0;
			goto out;
		} else if (c == 1) {
			/* layout or code: the first file is the own placements, the second over layouts */
			if (loc && n >= 2) {
				cz_err("report --layout-or-code: give exactly two files (own placements, then over layouts)");
				goto out;
			}
			if (report_file(optarg, loc ? (n ? "over layouts" : "own placements") : sut,
					res, &n, arr))
				goto out;
		} else {
			goto out;
		}
	}
	if (zab_page_check(&po) || (min_class && !f.campaign &&
				    (cz_err("report --min-per-class: give the fleet's --campaign ID"), 1)))
		goto out;
	if (report_store(store, &f, oo.json.path && !by, res, &n, arr,
			 po.html || po.plot ? sutdocs : NULL))
		goto out;
	if (!n) {
		cz_err("report: no FILE.json given");
		goto out;
	}
	if (loc && n != 2) {
		cz_err("report --layout-or-code: give exactly two files (own placements, then over layouts)");
		goto out;
	}
	if (apply_verdict(res, n, arr, has_verdict, paired))
		goto out;
	ret = report_show(res, n, all, &oo, loc, by, &po, sutdocs);
	/* what zab fleet recorded of the campaign's SUTs, failures included */
	if (f.campaign && zab_report_fleet(zab_view_text(oo.json.path, oo.csv.path), store, f.experiment,
					   f.campaign, min_class) && !ret)
		ret = 1;
out:
	for (i = 0; i < n; i++) {
		czres_result_free(res[i]);
		free(res[i]);
	}
	json_decref(all);
	json_decref(sutdocs);
	return ret;
}
