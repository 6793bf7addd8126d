/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Results of one experiment merged into one: the results files (or stored
 * runs) of a SUT class pooled, the same benchmarks and variants taking
 * each other's samples (sessions renumbered), the others added; a result
 * whose settings differ for the same benchmark or variant is refused with
 * one line naming both files.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "result.h"

/* The same result class: name, kind, unit and direction. */
bool czres_same_bench(const struct czres_bench *a, const struct czres_bench *b)
{
	return !strcmp(a->name, b->name) && a->kind == b->kind && a->higher == b->higher &&
	       !strcmp(a->unit ? a->unit : "", b->unit ? b->unit : "");
}

size_t czres_find_bench(const struct czres_result *r, const struct czres_bench *b)
{
	size_t i;

	for (i = 0; i < r->nb && !czres_same_bench(&r->b[i], b); i++)
		;
	return i;
}

/*
 * Where each of src's benchmarks (bmap) and variants (vmap) lands in dst,
 * numbering the new ones after dst's: 0, or -E2BIG past CZRES_MAX_ITEMS.
 * dst is not touched, so a refused merge leaves it consistent (its names
 * and its cells array agree) for czres_result_free.
 */
static int merge_map(const struct czres_result *dst, const struct czres_result *src,
		     size_t *bmap, size_t *vmap, size_t *nb, size_t *nv)
{
	char *bnames[2 * CZRES_MAX_ITEMS], *vnames[2 * CZRES_MAX_ITEMS];
	size_t b, v;

	for (b = 0; b < dst->nb; b++)
		bnames[b] = dst->b[b].name;
	for (v = 0; v < dst->nv; v++)
		vnames[v] = dst->vname[v];
	*nb = dst->nb;
	*nv = dst->nv;
	for (b = 0; b < src->nb; b++) {
		bmap[b] = czres_name_index(bnames, *nb, src->b[b].name);
		if (bmap[b] == *nb)
			bnames[(*nb)++] = src->b[b].name;
	}
	for (v = 0; v < src->nv; v++) {
		vmap[v] = czres_name_index(vnames, *nv, src->vname[v]);
		if (vmap[v] == *nv)
			vnames[(*nv)++] = src->vname[v];
	}
	return *nb > CZRES_MAX_ITEMS || *nv > CZRES_MAX_ITEMS ? -E2BIG : 0;
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

int czres_pool_check(const struct czres_result *dst, const struct czres_result *src,
		     const char **dfile, char *why, size_t len)
{
	char d[256];
	size_t i, j;

	for (i = 0; i < src->nb; i++) {
		for (j = 0; j < dst->nb && strcmp(dst->b[j].name, src->b[i].name); j++)
			;
		if (j < dst->nb && settings_diff(dst->b[j].settings, src->b[i].settings, d, sizeof(d))) {
			snprintf(why, len, "benchmark '%s' differs in %s", src->b[i].name, d);
			*dfile = dst->b[j].file;
			return -EINVAL;
		}
	}
	for (i = 0; i < src->nv; i++) {
		j = czres_name_index(dst->vname, dst->nv, src->vname[i]);
		if (j < dst->nv && settings_diff(dst->vset[j], src->vset[i], d, sizeof(d))) {
			snprintf(why, len, "variant '%s' differs in %s", src->vname[i], d);
			*dfile = dst->vfile[j];
			return -EINVAL;
		}
	}
	return 0;
}

/* The pooling rule (czres_pool_check) on a merge: 0, or -EINVAL after one line naming both files. */
static int merge_check(const struct czres_result *dst, const struct czres_result *src, const char *file)
{
	const char *dfile = NULL;
	char why[400];

	if (!czres_pool_check(dst, src, &dfile, why, sizeof(why)))
		return 0;
	cz_err("report: %s and %s: %s; not pooled (rename it, or give one file --sut CLASS)", dfile, file, why);
	return -EINVAL;
}

/*
 * Pool the samples of s into d.  A rotating cell (placement = rotate) keeps
 * what its statistics need: each sample's per-layout values when both
 * files rotated over the same offsets, and its session numbered after the
 * sessions already there (runs pair by session).
 */
static void merge_cell(struct czres_cell *d, const struct czres_cell *s, unsigned sess0)
{
	bool same;
	size_t i;

	if (!s->loff) {
		for (i = 0; i < s->n; i++)
			czres_cell_add(d, s->x[i]);
		return;
	}
	if (!d->n)
		czres_cell_set_rotation(d, s->loff, s->nlay);
	same = d->loff && d->nlay == s->nlay && !memcmp(d->loff, s->loff, s->nlay * sizeof(*s->loff));
	for (i = 0; i < s->n; i++) {
		if (s->sess && s->sess[i])
			czres_cell_add_session(d, s->x[i], s->sess[i] + sess0);
		else
			czres_cell_add(d, s->x[i]);
		if (same && s->lay)
			czres_cell_set_layouts(d, d->n - 1, &s->lay[i * s->nlay]);
	}
}

/* Merge src into dst (same SUT class): pool samples of matching cells, add new ones. */
static int merge(struct czres_result *dst, const struct czres_result *src, const char *file)
{
	size_t bmap[CZRES_MAX_ITEMS], vmap[CZRES_MAX_ITEMS], onb = dst->nb, onv = dst->nv, b, v;
	size_t nb, nv;
	struct czres_cell *cells;

	if (merge_map(dst, src, bmap, vmap, &nb, &nv)) {
		cz_err("%s: merging makes more than %d benchmarks or variants", file,
		       CZRES_MAX_ITEMS);
		return -E2BIG;
	}
	if (merge_check(dst, src, file))
		return -EINVAL;
	for (b = 0; b < src->nb; b++) {
		if (bmap[b] < onb)
			continue;
		dst->b[bmap[b]].settings = cz_xstrdup(src->b[b].settings);
		dst->b[bmap[b]].file = src->b[b].file;
		dst->b[bmap[b]].kind = src->b[b].kind;
		dst->b[bmap[b]].name = cz_xstrdup(src->b[b].name);
		dst->b[bmap[b]].group = cz_xstrdup(src->b[b].group);
		dst->b[bmap[b]].unit = cz_xstrdup(src->b[b].unit);
		dst->b[bmap[b]].higher = src->b[b].higher;
	}
	for (v = 0; v < src->nv; v++)
		if (vmap[v] >= onv) {
			dst->vname[vmap[v]] = cz_xstrdup(src->vname[v]);
			dst->vset[vmap[v]] = cz_xstrdup(src->vset[v]);
			dst->vlabel[vmap[v]] = src->vlabel[v] ? cz_xstrdup(src->vlabel[v]) : NULL;
			dst->vfile[vmap[v]] = src->vfile[v];
		} else if (!dst->vlabel[vmap[v]] && src->vlabel[v]) {
			dst->vlabel[vmap[v]] = cz_xstrdup(src->vlabel[v]);
		}
	dst->nb = nb;
	dst->nv = nv;
	cells = cz_xmalloc(dst->nb * dst->nv * sizeof(*cells));
	for (b = 0; b < onb; b++)
		for (v = 0; v < onv; v++)
			cells[b * dst->nv + v] = dst->cells[b * onv + v];
	free(dst->cells);
	dst->cells = cells;
	for (b = 0; b < src->nb; b++)
		for (v = 0; v < src->nv; v++) {
			const struct czres_cell *s = czres_cell(src, b, v);
			struct czres_cell *d = czres_cell(dst, bmap[b], vmap[v]);

			merge_cell(d, s, dst->sessions);
			if (s->failed && !d->failed) {
				d->failed = true;
				d->error = cz_xasprintf("%s: %s", file, s->error ? s->error : "failed");
			}
		}
	/* the footer's counts: the sessions pooled, and whether their runs were alike */
	dst->sessions += src->sessions;
	dst->mixed |= src->mixed || dst->warmups != src->warmups || dst->repeats != src->repeats;
	if (src->paired != dst->paired && !dst->clash)
		dst->clash = file;
	return 0;
}

int czres_merge(struct czres_result **res, size_t *n, struct czres_result *r, json_t *arr,
		const char *sut, const char *file)
{
	size_t i;
	int m;

	if (sut) {
		free(r->sut);
		r->sut = cz_xstrdup(sut);
		cz_jset(r->doc, "sut", cz_jstr(sut));
	}
	cz_jpush(arr, json_deep_copy(r->doc));
	for (i = 0; i < *n && strcmp(res[i]->sut, r->sut); i++)
		;
	if (i < *n) {
		m = merge(res[i], r, file);
		czres_result_free(r);
		return m;
	}
	if (*n == CZRES_MAX_ITEMS) {
		cz_err("report: more than %d SUT classes", CZRES_MAX_ITEMS);
		czres_result_free(r);
		return -E2BIG;
	}
	res[*n] = cz_xmalloc(sizeof(*r));
	*res[(*n)++] = *r;
	return 0;
}
