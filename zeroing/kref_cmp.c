/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A figure against the kernel's, and the resolved routine's verdict
 * (kref.h): distance and direction in per cent, inside the kernel's 95%
 * interval or not, and whether another routine explains the kernel better.
 */
#include <math.h>
#include <stdio.h>

#include "kref.h"

void zero_kref_compare(const struct zero_kref_est *kernel, const struct zero_kref_est *x,
		       struct zero_kref_cmp *c)
{
	c->ok = kernel->ok && x->ok && kernel->ns > 0 && x->ns > 0;
	c->pct = c->ok ? (x->ns / kernel->ns - 1) * 100 : NAN;
	c->inside = c->ok && kernel->lo <= x->ns && x->ns <= kernel->hi;
}

void zero_kref_cmp_text(const struct zero_kref_cmp *c, char *buf, size_t len)
{
	if (!c->ok) {
		snprintf(buf, len, "not measured");
		return;
	}
	snprintf(buf, len, "%.1f%% %s than the kernel; %s the kernel's 95%% interval", fabs(c->pct),
		 c->pct < 0 ? "faster" : "slower", c->inside ? "inside" : "outside");
}

/*
 * The routine nearest the kernel among those between the resolved figure
 * and the kernel's (see kref.h) and told apart from the resolved routine
 * (their 95% intervals disjoint); NULL: none.
 */
static const struct zero_kref_routine *nearer_one(const struct zero_kref *k,
						  const struct zero_kref_routine *res, bool clear_user)
{
	const struct zero_kref_routine *best = NULL;
	double lo = fmin(res->est.ns, k->kernel.ns), hi = fmax(res->est.ns, k->kernel.ns);
	double d = INFINITY;
	size_t i;

	for (i = 0; i < k->nroutines; i++) {
		const struct zero_kref_routine *r = &k->routines[i];

		if (!r->est.ok || (clear_user && !(r->r->flags & ZERO_F_CLEAR_USER)))
			continue;
		if (!(r->est.hi < res->est.lo || r->est.lo > res->est.hi))
			continue;	/* not told apart from the resolved routine */
		if (r->est.ns <= lo || r->est.ns > hi)
			continue;	/* not between the resolved figure and the kernel's */
		if (fabs(r->est.ns - k->kernel.ns) < d) {
			d = fabs(r->est.ns - k->kernel.ns);
			best = r;
		}
	}
	return best;
}

enum zero_kref_verdict zero_kref_verdict(const struct zero_kref *k, const struct zero_kref_routine **nearer)
{
	return zero_kref_verdict_of(k, &k->resolved, nearer);
}

enum zero_kref_verdict zero_kref_verdict_of(const struct zero_kref *k, const struct zero_kref_routine *x,
					    const struct zero_kref_routine **nearer)
{
	struct zero_kref_cmp c;
	bool any_cu = false;
	size_t i;

	*nearer = NULL;
	if (!x->r)
		return ZERO_KREF_UNKNOWN;
	zero_kref_compare(&k->kernel, &x->est, &c);
	if (!c.ok)
		return ZERO_KREF_UNKNOWN;
	if (c.inside)
		return ZERO_KREF_AGREES_INSIDE;
	for (i = 0; i < k->nroutines; i++)
		any_cu |= k->routines[i].est.ok && (k->routines[i].r->flags & ZERO_F_CLEAR_USER);
	*nearer = nearer_one(k, x, any_cu);
	return *nearer ? ZERO_KREF_DISAGREES : ZERO_KREF_AGREES_NEAREST;
}

const char *zero_kref_verdict_name(enum zero_kref_verdict v)
{
	switch (v) {
	case ZERO_KREF_AGREES_INSIDE:
	case ZERO_KREF_AGREES_NEAREST:
		return "agrees";
	case ZERO_KREF_DISAGREES:
		return "disagrees";
	default:
		return "unknown";
	}
}

void zero_kref_verdict_text(const struct zero_kref *k, const struct zero_kref_routine *x, char *buf,
			    size_t len)
{
	const struct zero_kref_routine *nearer;
	struct zero_kref_cmp c;
	char text[256], ntext[256];

	zero_kref_compare(&k->kernel, &x->est, &c);
	zero_kref_cmp_text(&c, text, sizeof(text));
	switch (zero_kref_verdict_of(k, x, &nearer)) {
	case ZERO_KREF_AGREES_INSIDE:
		snprintf(buf, len, "%s; agrees with the kernel (within its 95%% interval)", text);
		break;
	case ZERO_KREF_AGREES_NEAREST:
		snprintf(buf, len, "%s; agrees with the kernel (no routine told apart from it lies "
			 "between them)", text);
		break;
	case ZERO_KREF_DISAGREES:
		zero_kref_compare(&k->kernel, &nearer->est, &c);
		zero_kref_cmp_text(&c, ntext, sizeof(ntext));
		snprintf(buf, len, "%s; DISAGREES: %s, told apart from it, lies between it and the "
			 "kernel (%s): the emulation is not to be trusted here", text, nearer->r->name, ntext);
		break;
	default:
		snprintf(buf, len, "%s; no verdict: %s", text, x->est.ok ? "a figure is missing" : x->est.why);
	}
}
