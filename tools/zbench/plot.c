/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zbench align --plot: throughput against code offset, drawn by gnuplot
 * (Debian: gnuplot-nox), with 64-byte cache-line and 32-byte boundaries
 * marked -- the two granularities at which fetch and the uop cache (Intel's
 * JCC erratum) change behaviour.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "zbench.h"

bool zb_have_gnuplot(void)
{
	const char *path = getenv("PATH");
	char dir[4096], file[4200];
	const char *p, *colon;

	for (p = path ? path : "/usr/bin:/bin"; *p; p = *colon ? colon + 1 : colon) {
		size_t n;

		colon = strchr(p, ':');
		if (!colon)
			colon = p + strlen(p);
		n = (size_t)(colon - p);
		if (n == 0 || n >= sizeof(dir))
			continue;
		memcpy(dir, p, n);
		dir[n] = '\0';
		snprintf(file, sizeof(file), "%s/gnuplot", dir);
		if (!access(file, X_OK))
			return true;
	}
	return false;
}

/* "svg" / "png" from the file name, NULL if neither. */
const char *zb_plot_kind(const char *file)
{
	const char *dot = strrchr(file, '.');

	if (dot && !strcmp(dot, ".svg"))
		return "svg";
	if (dot && !strcmp(dot, ".png"))
		return "png";
	return NULL;
}

static void gp_quoted(FILE *gp, const char *s)
{
	fputc('"', gp);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', gp);
		fputc(*s, gp);
	}
	fputc('"', gp);
}

FILE *zb_plot_open(const char *file, const char *title, int *err)
{
	const char *kind = zb_plot_kind(file);
	FILE *gp;

	*err = -EINVAL;
	if (!kind)
		return NULL;
	gp = popen("gnuplot", "w");
	*err = -errno;
	if (!gp)
		return NULL;
	if (!strcmp(kind, "svg"))
		fprintf(gp, "set terminal svg size 960,540 dynamic enhanced background rgb 'white'\n");
	else
		fprintf(gp, "set terminal pngcairo size 960,540 enhanced\n");
	fprintf(gp, "set output ");
	gp_quoted(gp, file);
	fprintf(gp, "\nset title ");
	gp_quoted(gp, title);
	fprintf(gp, " noenhanced\n");
	return gp;
}

int zb_plot_close(FILE *gp, const char *file)
{
	struct stat st;
	int status = pclose(gp);

	if (status == -1)
		return -errno;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return -EIO;
	if (stat(file, &st) || st.st_size == 0)
		return -EIO;
	return 0;
}

int zb_plot(const char *file, const char *title, const unsigned *offsets,
	    const double *median, const double *min, const double *max, size_t n)
{
	unsigned lo = offsets[0], hi = offsets[0], x;
	FILE *gp;
	size_t i;
	int err;

	for (i = 0; i < n; i++) {
		lo = offsets[i] < lo ? offsets[i] : lo;
		hi = offsets[i] > hi ? offsets[i] : hi;
	}
	gp = zb_plot_open(file, title, &err);
	if (!gp)
		return err;
	fprintf(gp, "set xlabel 'code offset (address mod 4096), bytes'\n"
		"set ylabel 'GB/s (2^{30} bytes/s): median, min..max'\n"
		"set xrange [%d:%u]\nset key outside bottom center horizontal\nset grid ytics\n",
		(int)lo - 1, hi + 1);
	for (x = (lo + 31) / 32 * 32; x <= hi; x += 32) {
		if (x % 64 == 0)
			fprintf(gp, "set arrow from %u, graph 0 to %u, graph 1 nohead lc rgb '#777777' lw 1.5 dt 1\n", x, x);
		else
			fprintf(gp, "set arrow from %u, graph 0 to %u, graph 1 nohead lc rgb '#bbbbbb' lw 1 dt 2\n", x, x);
	}
	fprintf(gp, "$d << EOD\n");
	for (i = 0; i < n; i++)
		fprintf(gp, "%u %.6f %.6f %.6f\n", offsets[i], median[i], min[i], max[i]);
	fprintf(gp, "EOD\n"
		"plot $d using 1:2:3:4 with yerrorbars pt 7 ps 0.6 lc rgb '#1f4e9c' title 'median (bars: min..max)', \\\n"
		"     $d using 1:2 with lines lc rgb '#1f4e9c' notitle, \\\n"
		"     NaN with lines lc rgb '#777777' lw 1.5 dt 1 title '64-byte cache-line boundary', \\\n"
		"     NaN with lines lc rgb '#bbbbbb' dt 2 title '32-byte boundary'\n"
		"set output\n");
	return zb_plot_close(gp, file);
}
