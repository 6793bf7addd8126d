/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The order of variants in a round (run.h), from the run's seed. */
#include <stddef.h>
#include <stdint.h>

#include "run.h"
#include "runner.h"

uint64_t zab_splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void zab_order_round(enum zab_order o, uint64_t seed, unsigned session, unsigned round,
		     size_t nvar, size_t *perm)
{
	uint64_t st = seed ^ ((uint64_t)session << 32) ^ round;
	size_t i, j, t;

	for (i = 0; i < nvar; i++)
		perm[i] = nvar - 1 - i;
	if (o == ZAB_ORDER_ABBA && (session + round) % 2)
		return;         /* abba: every other round reversed, A B, B A, A B ... */
	for (i = 0; i < nvar; i++)
		perm[i] = i;
	if (o != ZAB_ORDER_RANDOM)
		return;
	zab_splitmix64(&st);
	for (i = nvar; i > 1; i--) {
		j = (size_t)(zab_splitmix64(&st) % i);
		t = perm[i - 1];
		perm[i - 1] = perm[j];
		perm[j] = t;
	}
}

