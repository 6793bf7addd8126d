/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zbench align --plot: throughput against code offset, drawn by gnuplot
 * (render/: the child process and its terminal), with 64-byte cache-line
 * and 32-byte boundaries marked -- the two granularities at which fetch and
 * the uop cache (Intel's JCC erratum) change behaviour.
 */
#include <stdio.h>

#include "czrender.h"
#include "zbench.h"

int zb_plot(const char *file, const char *title, const unsigned *offsets,
	    const double *median, const double *min, const double *max, size_t n)
{
	unsigned lo = offsets[0], hi = offsets[0];
	FILE *gp;
	size_t i;
	int err;

	for (i = 0; i < n; i++) {
		lo = offsets[i] < lo ? offsets[i] : lo;
		hi = offsets[i] > hi ? offsets[i] : hi;
	}
	gp = czr_plot_open(file, title, 960, 540, &err);
	if (!gp)
		return err;
	fprintf(gp, "set xlabel 'code offset (address mod 4096), bytes'\n"
		"set ylabel 'GB/s (2^{30} bytes/s): median, min..max'\n"
		"set xrange [%d:%u]\nset key outside bottom center horizontal\nset grid ytics\n",
		(int)lo - 1, hi + 1);
	czr_gp_cache_lines(gp, lo, hi);
	fprintf(gp, "$d << EOD\n");
	for (i = 0; i < n; i++)
		fprintf(gp, "%u %.6f %.6f %.6f\n", offsets[i], median[i], min[i], max[i]);
	fprintf(gp, "EOD\n"
		"plot $d using 1:2:3:4 with yerrorbars pt 7 ps 0.6 lc rgb '#1f4e9c' title 'median (bars: min..max)', \\\n"
		"     $d using 1:2 with lines lc rgb '#1f4e9c' notitle, \\\n"
		"     NaN with lines lc rgb '#777777' lw 1.5 dt 1 title '64-byte cache-line boundary', \\\n"
		"     NaN with lines lc rgb '#bbbbbb' dt 2 title '32-byte boundary'\n"
		"set output\n");
	return czr_plot_close(gp, file);
}
