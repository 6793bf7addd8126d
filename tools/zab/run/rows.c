/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The result classes of an experiment (run.h): each benchmark, and its in-device classes. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "run.h"

static bool all_device(const struct zab_experiment *e)
{
	size_t v;

	for (v = 0; v < e->nvar; v++)
		if (!e->var[v].device)
			return false;
	return e->nvar > 0;
}

static bool wants_in_device(const struct zab_experiment *e, size_t b)
{
	return e->bench[b].in_device == ZAB_INDEV_YES ||
	       (e->bench[b].in_device == ZAB_INDEV_AUTO && all_device(e));
}

static int add_row(struct czres_result *r, const struct zab_bench *b, size_t src, enum czres_rkind k)
{
	const struct zab_rkind_info *ki = &zab_rkinds[k];
	struct czres_bench *rb;

	if (r->nb == CZRES_MAX_ITEMS) {
		cz_err("more than %d result classes (benchmarks and their in-device classes)",
			CZRES_MAX_ITEMS);
		return -E2BIG;
	}
	rb = &r->b[r->nb++];
	rb->group = cz_xstrdup(b->group);
	rb->kind = k;
	rb->src = src;
	rb->name = cz_xasprintf("%s%s", b->name, ki->suffix);
	rb->unit = cz_xstrdup(ki->unit ? ki->unit : b->unit);
	rb->higher = ki->higher < 0 ? b->higher : ki->higher > 0;
	return 0;
}

int zab_result_rows(struct czres_result *r, const struct zab_experiment *e)
{
	size_t b;

	int k;

	for (b = 0; b < e->nbench; b++)
		for (k = 0; k < CZRES_RK_COUNT; k++)
			if ((!zab_rkinds[k].take || wants_in_device(e, b)) &&
			    add_row(r, &e->bench[b], b, (enum czres_rkind)k))
				return -E2BIG;
	return 0;
}

/* ---- the run loop ---------------------------------------------------------------------- */

