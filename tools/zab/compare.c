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
#include "stats.h"
#include "zab.h"

#define ZC_ALPHA	0.05

/* The first result of FILE (a zab run's JSON, or report --json's first). */
static int zc_load(const char *path, struct zab_result *r)
{
	json_t *doc = zab_json_load(path, "compare: "), *list;

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
	return zab_result_from_json(r, doc, path) ? -1 : 0;
}

static bool zc_same_bench(const struct zab_rbench *a, const struct zab_rbench *b)
{
	return !strcmp(a->name, b->name) && a->kind == b->kind && a->higher == b->higher &&
	       !strcmp(a->unit ? a->unit : "", b->unit ? b->unit : "");
}

static size_t zc_find_bench(const struct zab_result *r, const struct zab_rbench *b)
{
	size_t i;

	for (i = 0; i < r->nb; i++)
		if (zc_same_bench(&r->b[i], b))
			return i;
	return (size_t)-1;
}

/* "5530 ± 3%": the mean and its CI's half-width in percent. */
static void zc_cell_text(const struct zab_cell *c, struct cz_summary *s, char *buf, size_t len)
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

/* One row: old and new of one benchmark and variant; 1 when significant. */
static int zc_row(const char *label, const struct zab_cell *o, const struct zab_cell *n)
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
	printf("%-52s %16s %16s  %s\n", label, ot, nt, delta);
	return sig;
}

/* Every benchmark of new found in old, one block per benchmark. */
static void zc_compare(const struct zab_result *old, const struct zab_result *new,
		       unsigned *rows, unsigned *sig)
{
	char label[160];
	size_t b, ob, v, ov;

	for (b = 0; b < new->nb; b++) {
		const struct zab_rbench *rb = &new->b[b];

		ob = zc_find_bench(old, rb);
		if (ob == (size_t)-1)
			continue;
		printf("\n%-52s %16s %16s  delta (%s is better)\n", "name", "old", "new",
		       rb->higher ? "higher" : "lower");
		for (v = 0; v < new->nv; v++) {
			ov = zab_name_index(old->vname, old->nv, new->vname[v]);
			if (ov == old->nv)
				continue;
			snprintf(label, sizeof(label), "%s / %s [%s]", rb->name,
				 new->vname[v], rb->unit ? rb->unit : "");
			*sig += (unsigned)zc_row(label, zab_cell(old, ob, ov), zab_cell(new, b, v));
			(*rows)++;
		}
	}
}

/* What only one of the files has: named, so nothing is silently dropped. */
static void zc_unmatched(const struct zab_result *a, const struct zab_result *b, const char *which)
{
	size_t i;

	for (i = 0; i < a->nb; i++)
		if (zc_find_bench(b, &a->b[i]) == (size_t)-1)
			printf("only in %s: %s [%s, %s is better]\n", which, a->b[i].name,
			       a->b[i].unit ? a->b[i].unit : "",
			       a->b[i].higher ? "higher" : "lower");
	for (i = 0; i < a->nv; i++)
		if (zab_name_index(b->vname, b->nv, a->vname[i]) == b->nv)
			printf("only in %s: variant %s\n", which, a->vname[i]);
}

int zab_cmd_compare(int argc, char **argv)
{
	struct zab_result old, new;
	unsigned rows = 0, sig = 0;
	int ret = CZ_EXIT_FAILURE;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("Usage: zab compare OLD.json NEW.json\n"
		       "benchstat-style: per benchmark, result class and variant in both files,\n"
		       "old and new mean ± 95%% CI, the change when Mann-Whitney p < %.2f, else ~.\n",
		       ZC_ALPHA);
		return fflush(stdout) ? CZ_EXIT_FAILURE : CZ_EXIT_OK;
	}
	for (int i = 1; i < argc; i++)
		if (argv[i][0] == '-' && argv[i][1]) {
			cz_err_unknown_option(argv[i]);
			return CZ_EXIT_USAGE;
		}
	if (argc != 3) {
		cz_err("compare: expected OLD.json NEW.json (see zab compare --help)");
		return CZ_EXIT_USAGE;
	}
	memset(&old, 0, sizeof(old));
	memset(&new, 0, sizeof(new));
	if (zc_load(argv[1], &old) || zc_load(argv[2], &new))
		goto out;
	printf("old: %s (%s)\nnew: %s (%s)\n", argv[1], old.sut, argv[2], new.sut);
	zc_compare(&old, &new, &rows, &sig);
	printf("\n");
	zc_unmatched(&old, &new, "old");
	zc_unmatched(&new, &old, "new");
	if (!rows) {
		cz_err("compare: no benchmark and variant in both files (same name, unit and class)");
		goto out;
	}
	printf("%u rows compared, %u with p < %.2f\n", rows, sig, ZC_ALPHA);
	ret = fflush(stdout) ? CZ_EXIT_FAILURE : CZ_EXIT_OK;
out:
	zab_result_free(&old);
	zab_result_free(&new);
	return ret;
}
