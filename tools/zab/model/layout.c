/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Placement as an experiment factor: which code offset each run uses
 * (doc/layouts.md has the design; the statistics over layouts are
 * stats/verdict.c's).
 *
 * A run's offset depends only on the seed, its session and its measured
 * round -- never on the variant -- so A and B of the same slot run at the
 * same offset (paired): the layout's effect cancels in their comparison.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "zeroing.h"

/*
 * The default set: the 64 offsets of one cache line.  The effects layout
 * has on a loop (fetch blocks, decoded-instruction windows, a loop split
 * across lines) repeat with the line, so a line's offsets cover them with
 * few enough layouts that each gets several runs.
 */
#define ZAB_PLACE_DEFAULT_SET "0..63"

/* The set syntax and its rule are zeroing's (zero_place_parse_set()). */
static int parse_set(const char *spec, struct zab_placement *p)
{
	p->set = cz_xmalloc((ZERO_PLACE_MAX_OFFSET + 1) * sizeof(*p->set));
	return zero_place_parse_set(spec, p->set, &p->nset);
}

int zab_placement_parse(const char *s, struct zab_placement *p)
{
	const char *colon = strchr(s, ':'), *at;
	char *set;
	size_t len = strcspn(s, ":@");
	int ret;

	zab_placement_free(p);
	if (len == 5 && !strncmp(s, "fixed", 5) && !colon) {
		p->spec = cz_xstrdup(s);
		return 0;
	}
	if (len == 6 && !strncmp(s, "random", 6))
		p->mode = ZAB_PLACE_RANDOM;
	else if (len == 5 && !strncmp(s, "sweep", 5))
		p->mode = ZAB_PLACE_SWEEP;
	else if (len == 6 && !strncmp(s, "rotate", 6))
		p->mode = ZAB_PLACE_ROTATE;
	else
		return -EINVAL;
	if (colon && !colon[1])
		return -EINVAL;         /* "random:" names no set */
	if (s[len] == '@')              /* "random@entry": the default set */
		set = cz_xasprintf("%s%s", ZAB_PLACE_DEFAULT_SET, s + len);
	else
		set = cz_xstrdup(colon ? colon + 1 : ZAB_PLACE_DEFAULT_SET);
	at = strchr(set, '@');
	ret = 0;
	if (at) {
		p->entry = !strcmp(at + 1, "entry");
		if (!p->entry && strcmp(at + 1, "loop"))
			ret = -EINVAL;
		set[at - set] = '\0';
		if (!*set) {
			free(set);
			set = cz_xstrdup(ZAB_PLACE_DEFAULT_SET);
		}
	}
	if (!ret)
		ret = parse_set(set, p);
	free(set);
	if (ret) {
		zab_placement_free(p);
		return -EINVAL;
	}
	p->spec = cz_xstrdup(s);
	return 0;
}

void zab_placement_free(struct zab_placement *p)
{
	free(p->set);
	free(p->spec);
	memset(p, 0, sizeof(*p));
}

const struct zab_placement *zab_var_placement(const struct zab_experiment *e, size_t v)
{
	return e->var[v].placement.spec ? &e->var[v].placement : &e->placement;
}

static uint64_t mix(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * random: the layouts of an experiment are a random sample of the set, each
 * measured twice.  Of N = sessions x repeats measured runs, J = ceil(N / 2)
 * layouts are drawn without replacement (all of the set if it is smaller)
 * and laid over the runs in order, twice: run k (session-major) gets layout
 * k mod J.  With two sessions or more J >= repeats, so a layout's two runs
 * fall in different sessions (blocks); each session then shuffles its own
 * runs, so no layout keeps a position in the session.  The draws depend on
 * the seed only: the same for every variant of a slot.  Two runs per layout
 * is the trade between the two questions asked of it: the A/B verdict over
 * layouts is a t interval over the J per-layout changes (more layouts, more
 * degrees of freedom), and "does layout matter?" needs runs repeated within
 * a layout (an F test whose error term is the within-layout spread; i.i.d.
 * draws left most layouts with one run and that test without power).  One
 * measured run in all: one layout, drawn by the slot's hash.
 */
static void shuffle(unsigned *a, size_t n, uint64_t h)
{
	size_t i, k;
	unsigned t;

	for (i = n; i > 1; i--) {
		k = (size_t)(mix(h + i) % i);
		t = a[i - 1];
		a[i - 1] = a[k];
		a[k] = t;
	}
}

static unsigned twice_draw(const struct zab_placement *p, uint64_t seed, unsigned sessions,
			   unsigned session, unsigned repeats, unsigned measured)
{
	unsigned idx[ZERO_PLACE_MAX_OFFSET + 1], pos = measured;
	uint64_t nruns = (uint64_t)sessions * repeats, run;
	size_t n = p->nset, j = (size_t)((nruns + 1) / 2), i;
	uint64_t h = mix(seed ^ 0x6c61796f757473ull);   /* "layouts" */

	if (j > n)
		j = n;
	for (i = 0; i < n; i++)
		idx[i] = (unsigned)i;
	shuffle(idx, n, h);                   /* the first j: the drawn layouts */
	if (repeats <= ZERO_PLACE_MAX_OFFSET + 1) {
		unsigned round[ZERO_PLACE_MAX_OFFSET + 1];

		for (i = 0; i < repeats; i++)
			round[i] = (unsigned)i;
		shuffle(round, repeats, mix(h ^ mix((uint64_t)session + 1)));
		pos = round[measured];
	}
	run = (uint64_t)session * repeats + pos;
	return p->set[idx[run % j]];
}

int zab_placement_offset(const struct zab_placement *p, uint64_t seed, unsigned sessions,
			 unsigned session, unsigned repeats, unsigned measured)
{
	uint64_t slot = (uint64_t)session * repeats + measured, nruns = (uint64_t)sessions * repeats;

	if (p->mode == ZAB_PLACE_FIXED || p->mode == ZAB_PLACE_ROTATE || !p->nset)
		return -1;      /* rotate: every offset in every run, none per run */
	if (p->mode == ZAB_PLACE_SWEEP)
		return (int)p->set[slot % p->nset];
	if (nruns > 1 && p->nset > 1)
		return (int)twice_draw(p, seed, sessions, session, repeats, measured);
	/* a hash of (seed, slot): the same draw for every variant of the slot */
	return (int)p->set[mix(mix(seed) ^ (slot + 0x5bd1e995u)) % p->nset];
}
