/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * "Layout or code?" -- the question of the 2025 arm64 clear_user report: an
 * unrelated change moved __arch_clear_user and pread of /dev/zero got 30%
 * slower with no instruction of its loop changed.  Given one experiment run
 * twice -- at the variants' own placements (placement = fixed) and with the
 * code moved per run (placement = random) or within each run (rotate) --
 * each pair's difference is classified:
 *   flagged at own placements and over layouts   a code effect
 *   flagged at own placements only               a layout effect (it does
 *                                                not survive moving the code)
 *   flagged over layouts only                    a code effect the own
 *                                                layouts hid or undid
 *   flagged in neither                           no difference seen
 * A flag is the table's: (R)/(I) at own placements from the runs' 95%
 * intervals, over layouts from the paired per-layout changes' interval
 * (rotate: the paired per-run changes').
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "report.h"
#include "verdict.h"

static size_t find(char *const *names, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return i;
	return n;
}

static size_t find_row(const struct zab_result *r, const struct zab_rbench *b)
{
	size_t i;

	for (i = 0; i < r->nb; i++)
		if (!strcmp(r->b[i].name, b->name) && r->b[i].kind == b->kind)
			return i;
	return r->nb;
}

static const char *verdict(int own, int lay)
{
	if (own == ZAB_CHANGE_NONE || lay == ZAB_CHANGE_NONE)
		return "not compared (a cell failed or is empty)";
	if (own && lay)
		return own == lay ? "code: survives moving the code" :
		       "code, reversed over layouts (own placements favoured one)";
	if (own)
		return "layout: gone when the code moves";
	if (lay)
		return "code: hidden at the own placements";
	return "no difference at either";
}

static void change(char *buf, size_t len, int flag, double pct)
{
	if (flag == ZAB_CHANGE_NONE)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%s%+.2f%%", flag < 0 ? "(R) " : flag > 0 ? "(I) " : "", pct);
}

/* One pair on one row: v vs w of own, against the same names in lay. */
static void pair(FILE *f, const struct zab_result *own, const struct zab_result *lay, size_t b,
		 size_t lb, size_t w, size_t v)
{
	struct zab_result o = *own, l = *lay;  /* shallow copies: w as the base */
	size_t lw = find(lay->vname, lay->nv, own->vname[w]), lv = find(lay->vname, lay->nv, own->vname[v]);
	double po = 0, pl = 0;
	char a[32], c[32];
	int fo, fl;

	if (lw == lay->nv || lv == lay->nv)
		return;
	o.base = w;
	l.base = lw;
	fo = zab_change(&o, b, v, &po);
	fl = zab_change(&l, lb, lv, &pl);
	/* the value's own change, as the tables show it (a time that grew reads +) */
	if (!own->b[b].higher) {
		po = -po;
		pl = -pl;
	}
	change(a, sizeof(a), fo, po);
	change(c, sizeof(c), fl, pl);
	fprintf(f, "  %s%s%s%s, %s vs %s: %s -> %s: %s\n", own->b[b].name,
		*own->b[b].unit ? " (" : "", own->b[b].unit, *own->b[b].unit ? ")" : "",
		own->vname[v], own->vname[w], a, c, verdict(fo, fl));
}

int zab_render_layout_or_code(FILE *f, const struct zab_result *own, const struct zab_result *lay)
{
	size_t b, lb, v, w;

	if (own->nv != lay->nv) {
		cz_err("layout or code: the two results have %zu and %zu variants", own->nv, lay->nv);
		return -1;
	}
	for (v = 0; v < own->nv; v++)
		if (find(lay->vname, lay->nv, own->vname[v]) == lay->nv) {
			cz_err("layout or code: variant '%s' is in the first result only", own->vname[v]);
			return -1;
		}
	fprintf(f, "\nLayout or code?  Each pair: change at the own placements -> over layouts\n");
	for (b = 0; b < own->nb; b++) {
		lb = find_row(lay, &own->b[b]);
		if (lb == lay->nb)
			continue;
		for (w = 0; w < own->nv; w++)
			for (v = w + 1; v < own->nv; v++)
				pair(f, own, lay, b, lb, w, v);
	}
	return 0;
}
