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
#include "zab.h"
#include "cmd.h"
#include "cli.h"
#include "util.h"

/*
 * Where each of src's benchmarks (bmap) and variants (vmap) lands in dst,
 * numbering the new ones after dst's: 0, or -E2BIG past ZAB_MAX_ITEMS.
 * dst is not touched, so a refused merge leaves it consistent (its names
 * and its cells array agree) for zab_result_free.
 */
static int merge_map(const struct zab_result *dst, const struct zab_result *src,
		     size_t *bmap, size_t *vmap, size_t *nb, size_t *nv)
{
	char *bnames[2 * ZAB_MAX_ITEMS], *vnames[2 * ZAB_MAX_ITEMS];
	size_t b, v;

	for (b = 0; b < dst->nb; b++)
		bnames[b] = dst->b[b].name;
	for (v = 0; v < dst->nv; v++)
		vnames[v] = dst->vname[v];
	*nb = dst->nb;
	*nv = dst->nv;
	for (b = 0; b < src->nb; b++) {
		bmap[b] = zab_name_index(bnames, *nb, src->b[b].name);
		if (bmap[b] == *nb)
			bnames[(*nb)++] = src->b[b].name;
	}
	for (v = 0; v < src->nv; v++) {
		vmap[v] = zab_name_index(vnames, *nv, src->vname[v]);
		if (vmap[v] == *nv)
			vnames[(*nv)++] = src->vname[v];
	}
	return *nb > ZAB_MAX_ITEMS || *nv > ZAB_MAX_ITEMS ? -E2BIG : 0;
}

/* The value of KEY in a settings text ("KEY=VALUE" lines), its length in *len; NULL: absent. */
static const char *setting(const char *text, const char *key, size_t klen, size_t *len)
{
	const char *p = text;

	while (p && *p) {
		size_t n = strcspn(p, "\n");

		if (n > klen && p[klen] == '=' && !strncmp(p, key, klen)) {
			*len = n - klen - 1;
			return p + klen + 1;
		}
		p += n + (p[n] == '\n');
	}
	return NULL;
}

/* The first KEY of a not in b with the same value (or of b not in a): 0, or 1 with the line. */
static int settings_diff(const char *a, const char *b, char *why, size_t len)
{
	const char *t[2] = { a ? a : "", b ? b : "" }, *p, *va, *vb;
	size_t k, klen, la = 0, lb = 0;

	for (k = 0; k < 2; k++)
		for (p = t[k]; *p; p += strcspn(p, "\n"), p += *p == '\n') {
			klen = strcspn(p, "=\n");
			va = setting(t[0], p, klen, &la);
			vb = setting(t[1], p, klen, &lb);
			if (va && vb && la == lb && !strncmp(va, vb, la))
				continue;
			snprintf(why, len, "%.*s: %.*s%s vs %.*s%s", (int)klen, p,
				 va ? (int)(la < 80 ? la : 80) : 8, va ? va : "(absent)", la > 80 ? "..." : "",
				 vb ? (int)(lb < 80 ? lb : 80) : 8, vb ? vb : "(absent)", lb > 80 ? "..." : "");
			return 1;
		}
	return 0;
}

/*
 * Samples are pooled only under one meaning: a benchmark (its command,
 * unit, direction, result class) or a variant (its command, environment,
 * device settings) that differs between the files is refused, naming both
 * files and the first field that differs.  0 or -EINVAL.
 */
static int merge_check(const struct zab_result *dst, const struct zab_result *src,
		       const size_t *bmap, const size_t *vmap, const char *file)
{
	char why[256];
	size_t i;

	for (i = 0; i < src->nb; i++)
		if (bmap[i] < dst->nb &&
		    settings_diff(dst->b[bmap[i]].settings, src->b[i].settings, why, sizeof(why))) {
			cz_err("report: %s and %s: benchmark '%s' differs in %s; not pooled (rename it, or give one file --sut CLASS)",
			       dst->b[bmap[i]].file, file, src->b[i].name, why);
			return -EINVAL;
		}
	for (i = 0; i < src->nv; i++)
		if (vmap[i] < dst->nv && settings_diff(dst->vset[vmap[i]], src->vset[i], why, sizeof(why))) {
			cz_err("report: %s and %s: variant '%s' differs in %s; not pooled (rename it, or give one file --sut CLASS)",
			       dst->vfile[vmap[i]], file, src->vname[i], why);
			return -EINVAL;
		}
	return 0;
}

/*
 * Pool the samples of s into d.  A rotating cell (placement = rotate) keeps
 * what its statistics need: each sample's per-layout values when both
 * files rotated over the same offsets, and its session numbered after the
 * sessions already there (runs pair by session).
 */
static void merge_cell(struct zab_cell *d, const struct zab_cell *s, unsigned sess0)
{
	bool same;
	size_t i;

	if (!s->loff) {
		for (i = 0; i < s->n; i++)
			zab_cell_add(d, s->x[i]);
		return;
	}
	if (!d->n)
		zab_cell_set_rotation(d, s->loff, s->nlay);
	same = d->loff && d->nlay == s->nlay && !memcmp(d->loff, s->loff, s->nlay * sizeof(*s->loff));
	for (i = 0; i < s->n; i++) {
		if (s->sess && s->sess[i])
			zab_cell_add_session(d, s->x[i], s->sess[i] + sess0);
		else
			zab_cell_add(d, s->x[i]);
		if (same && s->lay)
			zab_cell_set_layouts(d, d->n - 1, &s->lay[i * s->nlay]);
	}
}

/* Merge src into dst (same SUT class): pool samples of matching cells, add new ones. */
static int merge(struct zab_result *dst, const struct zab_result *src, const char *file)
{
	size_t bmap[ZAB_MAX_ITEMS], vmap[ZAB_MAX_ITEMS], onb = dst->nb, onv = dst->nv, b, v;
	size_t nb, nv;
	struct zab_cell *cells;

	if (merge_map(dst, src, bmap, vmap, &nb, &nv)) {
		cz_err("%s: merging makes more than %d benchmarks or variants", file,
		       ZAB_MAX_ITEMS);
		return -E2BIG;
	}
	if (merge_check(dst, src, bmap, vmap, file))
		return -EINVAL;
	for (b = 0; b < src->nb; b++) {
		if (bmap[b] < onb)
			continue;
		dst->b[bmap[b]].settings = zab_xstrdup(src->b[b].settings);
		dst->b[bmap[b]].file = src->b[b].file;
		dst->b[bmap[b]].kind = src->b[b].kind;
		dst->b[bmap[b]].name = zab_xstrdup(src->b[b].name);
		dst->b[bmap[b]].group = zab_xstrdup(src->b[b].group);
		dst->b[bmap[b]].unit = zab_xstrdup(src->b[b].unit);
		dst->b[bmap[b]].higher = src->b[b].higher;
	}
	for (v = 0; v < src->nv; v++)
		if (vmap[v] >= onv) {
			dst->vname[vmap[v]] = zab_xstrdup(src->vname[v]);
			dst->vset[vmap[v]] = zab_xstrdup(src->vset[v]);
			dst->vfile[vmap[v]] = src->vfile[v];
		}
	dst->nb = nb;
	dst->nv = nv;
	cells = zab_xmalloc(dst->nb * dst->nv * sizeof(*cells));
	for (b = 0; b < onb; b++)
		for (v = 0; v < onv; v++)
			cells[b * dst->nv + v] = dst->cells[b * onv + v];
	free(dst->cells);
	dst->cells = cells;
	for (b = 0; b < src->nb; b++)
		for (v = 0; v < src->nv; v++) {
			const struct zab_cell *s = zab_cell(src, b, v);
			struct zab_cell *d = zab_cell(dst, bmap[b], vmap[v]);

			merge_cell(d, s, dst->sessions);
			if (s->failed && !d->failed) {
				d->failed = true;
				d->error = zab_xasprintf("%s: %s", file, s->error ? s->error : "failed");
			}
		}
	/* the footer's counts: the sessions pooled, and whether their runs were alike */
	dst->sessions += src->sessions;
	dst->mixed |= src->mixed || dst->warmups != src->warmups || dst->repeats != src->repeats;
	if (src->paired != dst->paired && !dst->clash)
		dst->clash = file;
	return 0;
}

int zab_report_add(struct zab_result **res, size_t *n, struct zab_result *r, json_t *arr,
		   const char *sut, const char *file)
{
	size_t i;
	int m;

	if (sut) {
		free(r->sut);
		r->sut = zab_xstrdup(sut);
		cz_jset(r->doc, "sut", cz_jstr(sut));
	}
	cz_jpush(arr, json_deep_copy(r->doc));
	for (i = 0; i < *n && strcmp(res[i]->sut, r->sut); i++)
		;
	if (i < *n) {
		m = merge(res[i], r, file);
		zab_result_free(r);
		return m;
	}
	if (*n == ZAB_MAX_ITEMS) {
		cz_err("report: more than %d SUT classes", ZAB_MAX_ITEMS);
		zab_result_free(r);
		return -E2BIG;
	}
	res[*n] = zab_xmalloc(sizeof(*r));
	*res[(*n)++] = *r;
	return 0;
}

/* One FILE.json of report (a "zab report --json" document holds several results). 0 or -1. */
static int report_file(const char *path, const char *sut, struct zab_result **res, size_t *n,
		       json_t *arr)
{
	json_t *doc = zab_json_load(path, ""), *list, *one;
	struct zab_result r;
	size_t k, nk;
	bool many;

	if (!doc)
		return -1;
	list = json_object_get(doc, "results");
	many = json_is_array(list);
	nk = many ? json_array_size(list) : 1;
	for (k = 0; k < nk; k++) {
		one = many ? json_deep_copy(json_array_get(list, k)) : doc;
		if (zab_result_from_json(&r, one, path)) {
			zab_result_free(&r);
			if (many)
				json_decref(doc);
			return -1;
		}
		if (zab_report_add(res, n, &r, arr, sut, path)) {
			if (many)
				json_decref(doc);
			return -1;
		}
	}
	if (many)
		json_decref(doc);
	return 0;
}

/* The runs of an experiment in the store, each added as a file would be. 0 or -1. */
static int report_store(const char *url, const struct czs_filter *f, bool docs,
			struct zab_result **res, size_t *n, json_t *arr)
{
	struct zab_result *r = NULL;
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
	s = zab_store_open(url);
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
	for (i = 0; i < nr; i++)
		if (!ret && zab_report_add(res, n, &r[i], arr, NULL, r[i].vfile[0]))
			ret = -1;
		else if (ret)
			zab_result_free(&r[i]);
	free(r);
	czs_close(s);
	return ret;
}

/*
 * The rule the files recorded, or the one asked for (all files, and the
 * JSON copies): 0, or -1 after one line when pooled files disagree.
 */
static int apply_verdict(struct zab_result **res, size_t n, json_t *arr, bool has_verdict,
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
static int store_option(int c, const char *arg, struct czs_filter *f, const char **store, bool *by)
{
	switch (c) {
	case OPT_STORE_URL:
		*store = arg;
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

/* The table (or --by sut-class's column groups) and the files: the exit status. */
static int report_show(struct zab_result **res, size_t n, const json_t *all, struct out_opts *oo,
		       bool loc, bool by)
{
	int ret;

	if (by && (loc || oo->md.path || oo->hf.path)) {
		cz_err("report --by sut-class: its outputs are the table, --json and --export-csv");
		return 2;
	}
	if (by)
		return zab_report_by_class(res, n, oo->json.path, oo->csv.path);
	if (zab_outputs_open(oo))
		return 2;
	ret = zab_output(res, n, all, oo);
	if (loc && zab_render_layout_or_code(oo->json.path && !strcmp(oo->json.path, "-") ? stderr : stdout,
					     res[0], res[1]))
		ret = 2;
	return ret;
}

int zab_cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		ZAB_OUTPUT_LONGOPTS,
		{ "sut", required_argument, NULL, OPT_SUT },
		{ "layout-or-code", no_argument, NULL, OPT_LAYOUT_OR_CODE },
		{ "verdict", required_argument, NULL, OPT_VERDICT },
		{ "store", required_argument, NULL, OPT_STORE_URL },
		{ "experiment", required_argument, NULL, OPT_EXPERIMENT_NAME },
		{ "campaign", required_argument, NULL, OPT_CAMPAIGN_ID },
		{ "sut-class", required_argument, NULL, OPT_SUT_CLASS },
		{ "by", required_argument, NULL, OPT_BY },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct czs_filter f = { 0 };
	const char *store = NULL;
	struct zab_result *res[ZAB_MAX_ITEMS];
	json_t *all = cz_jobj(), *arr;
	const char *sut = NULL;
	bool loc = false, has_verdict = false, paired = false, by = false;
	struct out_opts oo;
	size_t n = 0, i;
	int c, k, ret = 2;
	char bad[8];

	zab_out_init(&oo);
	cz_jset(all, "zab", cz_jnum(1));
	arr = cz_jset(all, "results", cz_jarr());
	/* "-" first: files and --sut are processed in order (--sut applies to the files after it) */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "-:s:j:h", opts, NULL)) != -1) {
		if (c == '?' || c == ':') {
			zab_bad_option(c, argv, bad, sizeof(bad));
			goto out;
		}
		k = zab_output_option(c, optarg, &oo);
		if (k < 0)
			goto out;
		if (k)
			continue;
		if (c == OPT_SUT) {
			sut = optarg;
		} else if (c == OPT_LAYOUT_OR_CODE) {
			loc = true;
		} else if (c == OPT_VERDICT) {
			if (zab_verdict_parse(optarg, &paired)) {
				cz_err("--verdict '%s': expected overlap or paired", optarg);
				goto out;
			}
			has_verdict = true;
		} else if ((k = store_option(c, optarg, &f, &store, &by)) != 0) {
			if (k < 0)
				goto out;
		} else if (c == 'h') {
			zab_usage(stdout);
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
	if (report_store(store, &f, oo.json.path && !by, res, &n, arr))
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
	ret = report_show(res, n, all, &oo, loc, by);
out:
	for (i = 0; i < n; i++) {
		zab_result_free(res[i]);
		free(res[i]);
	}
	json_decref(all);
	return ret;
}
