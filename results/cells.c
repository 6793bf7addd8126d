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

void czres_cell_add(struct czres_cell *c, double x)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		c->x = cz_xrealloc(c->x, c->cap * sizeof(*c->x));
		if (c->sess)
			c->sess = cz_xrealloc(c->sess, c->cap * sizeof(*c->sess));
		if (c->pre)
			c->pre = cz_xrealloc(c->pre, c->cap * sizeof(*c->pre));
		if (c->off)
			c->off = cz_xrealloc(c->off, c->cap * sizeof(*c->off));
		if (c->lay)
			c->lay = cz_xrealloc(c->lay, c->cap * c->nlay * sizeof(*c->lay));
	}
	if (c->sess)
		c->sess[c->n] = 0;      /* unknown until czres_cell_add_session sets it */
	if (c->pre)
		c->pre[c->n] = NAN;
	if (c->off)
		c->off[c->n] = -1;
	for (size_t j = 0; c->lay && j < c->nlay; j++)
		c->lay[c->n * c->nlay + j] = NAN;
	c->x[c->n++] = x;
}

void czres_cell_set_rotation(struct czres_cell *c, const unsigned *off, size_t n)
{
	if (c->loff || !n)
		return;
	c->loff = cz_xmalloc(n * sizeof(*c->loff));
	memcpy(c->loff, off, n * sizeof(*off));
	c->nlay = n;
}

void czres_cell_set_layouts(struct czres_cell *c, size_t sample, const double *val)
{
	size_t i;

	if (sample >= c->n || !c->loff)
		return;
	if (!c->lay) {
		c->lay = cz_xmalloc(c->cap * c->nlay * sizeof(*c->lay));
		for (i = 0; i < c->cap * c->nlay; i++)
			c->lay[i] = NAN;
	}
	memcpy(&c->lay[sample * c->nlay], val, c->nlay * sizeof(*val));
}

void czres_cell_set_pre(struct czres_cell *c, double share)
{
	size_t i;

	if (!c->n)
		return;
	if (!c->pre) {
		c->pre = cz_xmalloc(c->cap * sizeof(*c->pre));
		for (i = 0; i < c->n; i++)
			c->pre[i] = NAN;
	}
	c->pre[c->n - 1] = share;
}

void czres_cell_set_off(struct czres_cell *c, int offset)
{
	size_t i;

	if (!c->n)
		return;
	if (!c->off) {
		c->off = cz_xmalloc(c->cap * sizeof(*c->off));
		for (i = 0; i < c->n; i++)
			c->off[i] = -1;
	}
	c->off[c->n - 1] = offset;
}

void czres_cell_add_session(struct czres_cell *c, double x, unsigned session)
{
	if (!c->sess && c->n) {
		czres_cell_add(c, x);   /* mixed: keep samples, forget sessions */
		return;
	}
	if (!c->sess)
		c->sess = cz_xmalloc((c->cap ? c->cap : 16) * sizeof(*c->sess));
	czres_cell_add(c, x);
	if (c->n > 0)
		c->sess[c->n - 1] = session;
}
