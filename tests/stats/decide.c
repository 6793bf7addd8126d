/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Description: stats/decide.c's three answers on per-session log ratios
 * and on a result's cells: a -10% change with 1% spread is changed, with
 * its interval around -10%; 0.3% spread around zero is the same within
 * 2%; a change at the band's edge and one session are undecided; band 0
 * never says the same; a change in a lower-is-better class is read the
 * other way; the ratios pair each session's means and leave out a session
 * only one cell has.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/decide.h"
#include "../tap.h"

static void logs(double *x, const double *pct, size_t n)
{
	for (size_t i = 0; i < n; i++)
		x[i] = log1p(pct[i] / 100);
}

static void answers(void)
{
	static const double slow[] = { -9, -10, -11, -10.5, -9.5 }, aa[] = { 0.3, -0.2, 0.1, -0.3, 0.2, 0 },
			    edge[] = { -1, -3, -2.5, -1.5 };
	struct czst_decision d;
	double x[8];

	logs(x, slow, 5);
	czst_decide(x, 5, 2, &d);
	tap_ok(d.answer == CZST_CHANGED && d.lo < -10 && d.hi > -10 && d.hi < -2 && d.sessions == 5,
	       "-10%%: %s %+.2f%% [%+.2f..%+.2f]", czst_answer_name(d.answer), d.pct, d.lo, d.hi);
	logs(x, aa, 6);
	czst_decide(x, 6, 2, &d);
	tap_ok(d.answer == CZST_SAME && d.lo > -2 && d.hi < 2, "A/A: %s [%+.2f..%+.2f]",
	       czst_answer_name(d.answer), d.lo, d.hi);
	czst_decide(x, 6, 0, &d);
	tap_ok(d.answer != CZST_SAME, "band 0: never the same (%s)", czst_answer_name(d.answer));
	logs(x, edge, 4);
	czst_decide(x, 4, 2, &d);
	tap_ok(d.answer == CZST_UNDECIDED, "-2%% at the band's edge: %s [%+.2f..%+.2f]",
	       czst_answer_name(d.answer), d.lo, d.hi);
	logs(x, slow, 1);
	czst_decide(x, 1, 2, &d);
	tap_ok(d.answer == CZST_UNDECIDED && isnan(d.lo) && fabs(d.pct + 9) < 1e-9,
	       "one session: undecided, no interval (%+.2f%%)", d.pct);
	czst_decide(NULL, 0, 2, &d);
	tap_ok(d.answer == CZST_UNDECIDED && d.sessions == 0 && isnan(d.pct), "no session: undecided");
}

/* Cell v of r: samples x[] in sessions s[]. */
static void fill(struct czres_result *r, size_t v, const double *x, const unsigned *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		czres_cell_add_session(czres_cell(r, 0, v), x[i], s[i]);
}

static void ratios(void)
{
	static const double a[] = { 100, 102, 200, 198, 50 }, b[] = { 90, 90, 180, 180 };
	static const unsigned sa[] = { 1, 1, 2, 2, 3 }, sb[] = { 1, 1, 2, 2 };
	struct czres_result r;
	double x[8];
	size_t n = 0;

	memset(&r, 0, sizeof(r));
	r.nb = 1;
	r.nv = 2;
	r.b[0].higher = true;
	r.cells = calloc(2, sizeof(*r.cells));
	fill(&r, 0, a, sa, 5);
	fill(&r, 1, b, sb, 4);
	czst_session_ratios(&r, 0, 0, 1, x, &n, 8);
	tap_ok(n == 2 && fabs(x[0] - log(90.0 / 101)) < 1e-12 && fabs(x[1] - log(180.0 / 199)) < 1e-12,
	       "per-session ratios of the means, session 3 (the base's alone) left out: %zu", n);
	r.b[0].higher = false;
	n = 0;
	czst_session_ratios(&r, 0, 0, 1, x, &n, 8);
	tap_ok(n == 2 && x[0] > 0, "lower is better: 10%% less is better (%+.4f)", x[0]);
	n = 7;
	czst_session_ratios(&r, 0, 0, 1, x, &n, 8);
	tap_ok(n == 8, "no more than max: %zu", n);
	for (size_t v = 0; v < 2; v++) {
		free(r.cells[v].x);
		free(r.cells[v].sess);
	}
	free(r.cells);
}

int main(void)
{
	answers();
	ratios();
	return tap_done();
}
