/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Description: lib/samplestat.c's distributions against published values:
 * Student's t 97.5% quantiles (NIST/SEMATECH e-Handbook, table 1.3.6.7.2:
 * df 1, 2, 5, 10, 30, 35, 40, 60, 100 and the normal limit), which a
 * table with linear interpolation between rows misses at df 35 (2.0315
 * against 2.0301) and 100 (1.9867 against 1.9840); and the F upper tail at
 * the table's 5% points (table 1.3.6.7.3: F(0.95; 2, 10) = 4.103,
 * F(0.95; 5, 20) = 2.711).
 */
#include <math.h>
#include <stdio.h>

#include "samplestat.h"
#include "../tap.h"

int main(void)
{
	static const struct { size_t df; double t; } tq[] = {
		{ 1, 12.706 }, { 2, 4.303 }, { 5, 2.571 }, { 10, 2.228 }, { 30, 2.042 },
		{ 35, 2.030 }, { 40, 2.021 }, { 60, 2.000 }, { 100, 1.984 }, { 100000, 1.960 },
	};
	size_t i;
	double q;

	for (i = 0; i < sizeof(tq) / sizeof(tq[0]); i++) {
		q = cz_t975(tq[i].df);
		tap_ok(fabs(q - tq[i].t) < 0.0006, "t975(%zu) = %.4f (table: %.3f)", tq[i].df, q,
		       tq[i].t);
	}
	tap_ok(isnan(cz_t975(0)), "t975(0) is NAN: no interval from one sample");
	q = cz_f_sf(4.103, 2, 10);
	tap_ok(fabs(q - 0.05) < 0.0005, "P(F(2, 10) > 4.103) = %.4f (0.05)", q);
	q = cz_f_sf(2.711, 5, 20);
	tap_ok(fabs(q - 0.05) < 0.0005, "P(F(5, 20) > 2.711) = %.4f (0.05)", q);
	tap_ok(cz_f_sf(0, 2, 10) == 1, "P(F > 0) = 1");
	return tap_done();
}
