/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A result's cells: the samples of one benchmark x variant, per session
 * and layout (their JSON: report/cellsjson.c, which adds the figures over
 * layouts).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "cells.h"

void zab_cell_add(struct zab_cell *c, double x)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		c->x = zab_xrealloc(c->x, c->cap * sizeof(*c->x));
		if (c->sess)
			c->sess = zab_xrealloc(c->sess, c->cap * sizeof(*c->sess));
		if (c->pre)
			c->pre = zab_xrealloc(c->pre, c->cap * sizeof(*c->pre));
		if (c->off)
			c->off = zab_xrealloc(c->off, c->cap * sizeof(*c->off));
		if (c->lay)
			c->lay = zab_xrealloc(c->lay, c->cap * c->nlay * sizeof(*c->lay));
	}
	if (c->sess)
		c->sess[c->n] = 0;      /* unknown until zab_cell_add_session sets it */
	if (c->pre)
		c->pre[c->n] = NAN;
	if (c->off)
		c->off[c->n] = -1;
	for (size_t j = 0; c->lay && j < c->nlay; j++)
		c->lay[c->n * c->nlay + j] = NAN;
	c->x[c->n++] = x;
}

void zab_cell_set_rotation(struct zab_cell *c, const unsigned *off, size_t n)
{
	if (c->loff || !n)
		return;
	c->loff = zab_xmalloc(n * sizeof(*c->loff));
	memcpy(c->loff, off, n * sizeof(*off));
	c->nlay = n;
}

void zab_cell_set_layouts(struct zab_cell *c, size_t sample, const double *val)
{
	size_t i;

	if (sample >= c->n || !c->loff)
		return;
	if (!c->lay) {
		c->lay = zab_xmalloc(c->cap * c->nlay * sizeof(*c->lay));
		for (i = 0; i < c->cap * c->nlay; i++)
			c->lay[i] = NAN;
	}
	memcpy(&c->lay[sample * c->nlay], val, c->nlay * sizeof(*val));
}

void zab_cell_set_pre(struct zab_cell *c, double share)
{
	size_t i;

	if (!c->n)
		return;
	if (!c->pre) {
		c->pre = zab_xmalloc(c->cap * sizeof(*c->pre));
		for (i = 0; i < c->n; i++)
			c->pre[i] = NAN;
	}
	c->pre[c->n - 1] = share;
}

void zab_cell_set_off(struct zab_cell *c, int offset)
{
	size_t i;

	if (!c->n)
		return;
	if (!c->off) {
		c->off = zab_xmalloc(c->cap * sizeof(*c->off));
		for (i = 0; i < c->n; i++)
			c->off[i] = -1;
	}
	c->off[c->n - 1] = offset;
}

void zab_cell_add_session(struct zab_cell *c, double x, unsigned session)
{
	if (!c->sess && c->n) {
		zab_cell_add(c, x);   /* mixed: keep samples, forget sessions */
		return;
	}
	if (!c->sess)
		c->sess = zab_xmalloc((c->cap ? c->cap : 16) * sizeof(*c->sess));
	zab_cell_add(c, x);
	if (c->n > 0)
		c->sess[c->n - 1] = session;
}
