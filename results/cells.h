/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A result's cell: the samples of one benchmark x variant and their facts
 * (session, preempted share, placement offset, per-layout values), kept
 * in arrays that grow as samples are added (cells.c).  Knows no result:
 * the result (result.h) holds its cells.
 */
#ifndef RESULTS_CELLS_H
#define RESULTS_CELLS_H

#include <stdbool.h>
#include <stddef.h>

struct czres_cell {
	double *x;
	unsigned *sess;      /* session (1-based) of each sample; NULL when unknown */
	size_t n, cap;
	bool failed;
	char *error;         /* why it failed (command and output) */
	double *pre;         /* per sample: share of its run's requests that looked
			      * preempted (in-device classes), NaN unknown; NULL: none */
	int *off;            /* per sample: its run's placement offset (placement
			      * random/sweep), -1 unknown; NULL: fixed placement */
	/* placement = rotate: the offsets every run rotated over (loff NULL: not rotating) */
	unsigned *loff;      /* [nlay] as the daemon reported them */
	size_t nlay;
	double *lay;         /* [sample * nlay + layout]: the layout's value in that run,
			      * NaN: no request there; NULL: none (the command's class) */
};

void czres_cell_add(struct czres_cell *c, double x);
void czres_cell_add_session(struct czres_cell *c, double x, unsigned session);
/* Facts of the sample just added (allocating the array on first use). */
void czres_cell_set_pre(struct czres_cell *c, double share);
void czres_cell_set_off(struct czres_cell *c, int offset);
/* The layouts of a rotating cell (once), and the per-layout values of a sample (nlay of them). */
void czres_cell_set_rotation(struct czres_cell *c, const unsigned *off, size_t n);
void czres_cell_set_layouts(struct czres_cell *c, size_t sample, const double *val);

#endif
