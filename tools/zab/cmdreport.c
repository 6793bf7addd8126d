/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab report: result files read, checked and merged (same benchmarks and
 * variants pooled), then shown as one table.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "zab.h"
#include "cmd.h"
#include "cli.h"
#include "util.h"


static size_t find_name(char *const *names, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return i;
	return n;
}

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
		bmap[b] = find_name(bnames, *nb, src->b[b].name);
		if (bmap[b] == *nb)
			bnames[(*nb)++] = src->b[b].name;
	}
	for (v = 0; v < src->nv; v++) {
		vmap[v] = find_name(vnames, *nv, src->vname[v]);
		if (vmap[v] == *nv)
			vnames[(*nv)++] = src->vname[v];
	}
	return *nb > ZAB_MAX_ITEMS || *nv > ZAB_MAX_ITEMS ? -E2BIG : 0;
}

/* Merge src into dst (same SUT class): pool samples of matching cells, add new ones. */
static int merge(struct zab_result *dst, const struct zab_result *src, const char *file)
{
	size_t bmap[ZAB_MAX_ITEMS], vmap[ZAB_MAX_ITEMS], onb = dst->nb, onv = dst->nv, b, v, i;
	size_t nb, nv;
	struct zab_cell *cells;

	if (merge_map(dst, src, bmap, vmap, &nb, &nv)) {
		cz_err("%s: merging makes more than %d benchmarks or variants", file,
		       ZAB_MAX_ITEMS);
		return -E2BIG;
	}
	for (b = 0; b < src->nb; b++) {
		if (bmap[b] < onb)
			continue;
		dst->b[bmap[b]].name = zab_xstrdup(src->b[b].name);
		dst->b[bmap[b]].group = zab_xstrdup(src->b[b].group);
		dst->b[bmap[b]].unit = zab_xstrdup(src->b[b].unit);
		dst->b[bmap[b]].higher = src->b[b].higher;
	}
	for (v = 0; v < src->nv; v++)
		if (vmap[v] >= onv)
			dst->vname[vmap[v]] = zab_xstrdup(src->vname[v]);
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

			for (i = 0; i < s->n; i++)
				zab_cell_add(d, s->x[i]);
			if (s->failed && !d->failed) {
				d->failed = true;
				d->error = zab_xasprintf("%s: %s", file, s->error ? s->error : "failed");
			}
		}
	if (dst->warmups == src->warmups && dst->repeats == src->repeats)
		dst->sessions += src->sessions;
	return 0;
}

static int add_result(struct zab_result **res, size_t *n, struct zab_result *r, json_t *arr,
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
		if (add_result(res, n, &r, arr, sut, path)) {
			if (many)
				json_decref(doc);
			return -1;
		}
	}
	if (many)
		json_decref(doc);
	return 0;
}

int zab_cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "style", required_argument, NULL, 's' },
		{ "detail", no_argument, NULL, OPT_DETAIL },
		{ "json", required_argument, NULL, 'j' },
		{ "export-json", required_argument, NULL, 'j' },
		{ "export-markdown", required_argument, NULL, OPT_EXPORT_MD },
		{ "export-csv", required_argument, NULL, OPT_EXPORT_CSV },
		{ "sut", required_argument, NULL, OPT_SUT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct zab_result *res[ZAB_MAX_ITEMS];
	json_t *all = cz_jobj(), *arr;
	const char *sut = NULL;
	struct out_opts oo;
	size_t n = 0, i;
	int c, k, ret = 2;

	zab_out_init(&oo);
	cz_jset(all, "zab", cz_jnum(1));
	arr = cz_jset(all, "results", cz_jarr());
	/* "-" first: files and --sut are processed in order (--sut applies to the files after it) */
	while ((c = getopt_long(argc, argv, "-s:j:h", opts, NULL)) != -1) {
		k = zab_output_option(c, optarg, &oo);
		if (k < 0)
			goto out;
		if (k)
			continue;
		if (c == OPT_SUT) {
			sut = optarg;
		} else if (c == 'h') {
			zab_usage(stdout);
			ret = 0;
			goto out;
		} else if (c == 1) {
			if (report_file(optarg, sut, res, &n, arr))
				goto out;
		} else {
			zab_usage(stderr);
			goto out;
		}
	}
	if (!n) {
		cz_err("report: no FILE.json given");
		goto out;
	}
	if (zab_outputs_open(&oo))
		goto out;
	ret = zab_output(res, n, all, &oo);
out:
	for (i = 0; i < n; i++) {
		zab_result_free(res[i]);
		free(res[i]);
	}
	json_decref(all);
	return ret;
}
