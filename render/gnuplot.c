/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gnuplot as a child process (Debian: gnuplot-nox): a pipe to its stdin
 * carrying the script and its data (inline data blocks), the terminal
 * chosen by the output file's name.  zbench align --plot and zab's pages
 * draw through it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "czrender.h"

bool czr_have_gnuplot(void)
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

const char *czr_plot_kind(const char *file)
{
	const char *dot = strrchr(file, '.');

	if (dot && !strcmp(dot, ".svg"))
		return "svg";
	if (dot && !strcmp(dot, ".png"))
		return "png";
	return NULL;
}

void czr_gp_str(FILE *gp, const char *s)
{
	fputc('"', gp);
	for (; s && *s; s++) {
		if (*s == '\n')
			continue;
		if (*s == '"' || *s == '\\')
			fputc('\\', gp);
		fputc(*s, gp);
	}
	fputc('"', gp);
}

FILE *czr_plot_open(const char *file, const char *title, int width, int height, int *err)
{
	const char *kind = czr_plot_kind(file);
	FILE *gp;

	*err = -EINVAL;
	if (!kind)
		return NULL;
	/* its messages go to our stderr; its output only to the file */
	gp = popen("exec gnuplot", "w");
	*err = -errno;
	if (!gp)
		return NULL;
	if (!strcmp(kind, "svg"))
		fprintf(gp, "set terminal svg size %d,%d enhanced font 'sans,11' background rgb 'white'\n",
			width, height);
	else
		fprintf(gp, "set terminal pngcairo size %d,%d enhanced font 'sans,10'\n", width, height);
	fprintf(gp, "set output ");
	czr_gp_str(gp, file);
	fprintf(gp, "\nset title ");
	czr_gp_str(gp, title);
	fprintf(gp, " noenhanced\n");
	return gp;
}

int czr_plot_close(FILE *gp, const char *file)
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

void czr_gp_cache_lines(FILE *gp, unsigned lo, unsigned hi)
{
	unsigned x;

	for (x = (lo + 31) / 32 * 32; x <= hi; x += 32) {
		if (x % 64 == 0)
			fprintf(gp, "set arrow from %u, graph 0 to %u, graph 1 nohead lc rgb '#777777' lw 1.5 dt 1\n", x, x);
		else
			fprintf(gp, "set arrow from %u, graph 0 to %u, graph 1 nohead lc rgb '#bbbbbb' lw 1 dt 2\n", x, x);
	}
}
