/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gnuplot as a child process (Debian: gnuplot-nox): a pipe to its stdin
 * carrying the script and its data (inline data blocks), the terminal
 * chosen by the output file's name.  zbench align --plot and zab's pages
 * draw through it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "czrender.h"
#include "outfile.h"

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

/*
 * Strings never reach gnuplot as commands.  gnuplot substitutes `command`
 * inside double-quoted strings and anywhere on a command line, and @name
 * outside quotes (gnuplot 5.4 documentation, "Substitution"; src/scanner.c,
 * src/misc.c), so no quoting of a name in a command is trusted.  A string is
 * the one line of a data block instead, which gnuplot stores as read, never
 * scanned (src/datablock.c, datablock_command(): "No attempt is made to parse
 * the data at the time it is read in"); the script names it $NAME[k][2:]
 * (a data block indexed is its k-th line, gnuplot 5.2 and later).  A line ends
 * a block only when it starts with the block's end marker, and every line
 * here starts with '|': no string can end its block early.  Bytes that are
 * not printable UTF-8 (controls, newlines, malformed sequences) become '?';
 * a string is cut at CZR_GP_TEXT_MAX bytes.
 */
#define CZR_GP_TEXT_MAX 1000

/* The length of the valid, printable UTF-8 sequence at s (0: not one). */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;
	unsigned c = s[0];

	if (c >= 0x20 && c < 0x7f)
		return 1;
	n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] >= 0xa0) ||  /* overlong, surrogates */
	    (c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] >= 0x90))
		return 0;
	if (n == 2 && c == 0xc2 && s[1] < 0xa0)   /* C1 controls */
		return 0;
	return n;
}

void czr_gp_text_line(FILE *gp, const char *s)
{
	const unsigned char *u = (const unsigned char *)(s ? s : "");
	size_t out = 0, n;

	fputc('|', gp);
	while (*u && out < CZR_GP_TEXT_MAX) {
		n = utf8_len(u);
		if (!n) {
			fputc('?', gp);
			u++;
			out++;
			continue;
		}
		fwrite(u, 1, n, gp);
		u += n;
		out += n;
	}
	if (*u)
		fputs("...", gp);
	fputc('\n', gp);
}

void czr_gp_text_begin(FILE *gp, const char *name)
{
	fprintf(gp, "$%s << CZR_EOT\n", name);
}

void czr_gp_text_end(FILE *gp)
{
	fputs("CZR_EOT\n", gp);
}

void czr_gp_text(FILE *gp, const char *name, const char *s)
{
	czr_gp_text_begin(gp, name);
	czr_gp_text_line(gp, s);
	czr_gp_text_end(gp);
}

/*
 * The title's width estimated at CZR_TITLE_PX pixels a character (sans 11:
 * about 6.2 on average, digits and capitals wider): a title wider than the
 * canvas would be cut at both ends, so it is split at the space nearest its
 * middle and drawn on two lines.
 */
#define CZR_TITLE_PX 7.0

size_t czr_title_split(const char *title, int width)
{
	size_t n = strlen(title), i, best = 0, chars = 0;

	for (i = 0; i < n; i++)
		chars += ((unsigned char)title[i] & 0xc0) != 0x80;
	if ((double)chars * CZR_TITLE_PX <= width - 30)
		return 0;
	for (i = 1; i + 1 < n; i++)
		if (title[i] == ' ' && (!best || labs((long)i - (long)n / 2) < labs((long)best - (long)n / 2)))
			best = i;
	return best;
}

/* The title, as data: one line, or two split at a space (czr_title_split). */
static void czr_title_set(FILE *gp, const char *title, int width)
{
	size_t cut = czr_title_split(title, width);
	char *first;

	if (!cut || !(first = strndup(title, cut))) {
		czr_gp_text(gp, "czr_title", title);
		fputs("set title $czr_title[1][2:] noenhanced\n", gp);
		return;
	}
	czr_gp_text_begin(gp, "czr_title");
	czr_gp_text_line(gp, first);
	czr_gp_text_line(gp, title + cut + 1);
	czr_gp_text_end(gp);
	free(first);
	fputs("set title $czr_title[1][2:].\"\\n\".$czr_title[2][2:] noenhanced\n", gp);
}

/* The gnuplot children: their pipe, pid and the file they write to. */
#define CZR_MAX_PLOTS 4
static struct {
	FILE *gp;
	pid_t pid;
	struct cz_out out;   /* czr_plot_open's file (out.f NULL: czr_plot_open_fd's) */
} plots[CZR_MAX_PLOTS];

/* gnuplot with its stdin a pipe (returned) and its stdout out; NULL with *err. */
static FILE *spawn(int out, int *err)
{
	int p[2], slot;
	pid_t pid;
	FILE *gp;

	for (slot = 0; slot < CZR_MAX_PLOTS && plots[slot].gp; slot++)
		;
	*err = -EMFILE;
	if (slot == CZR_MAX_PLOTS)
		return NULL;
	if (pipe2(p, O_CLOEXEC)) {
		*err = -errno;
		return NULL;
	}
	pid = fork();
	if (pid == 0) {
		/* no init file (~/.gnuplot) either: the script alone decides */
		if (dup2(p[0], 0) == 0 && dup2(out, 1) == 1)
			execlp("gnuplot", "gnuplot", "--default-settings", (char *)NULL);
		_exit(127);
	}
	*err = -errno;
	close(p[0]);
	if (pid < 0 || !(gp = fdopen(p[1], "w"))) {
		if (pid < 0)
			close(p[1]);
		else
			*err = -ENOMEM, close(p[1]), waitpid(pid, NULL, 0);
		return NULL;
	}
	plots[slot].gp = gp;
	plots[slot].pid = pid;
	memset(&plots[slot].out, 0, sizeof(plots[slot].out));
	return gp;
}

FILE *czr_plot_open_fd(int out, const char *kind, const char *title, int width, int height,
		       int *err)
{
	FILE *gp;

	*err = -EINVAL;
	if (!kind || (strcmp(kind, "svg") && strcmp(kind, "png")))
		return NULL;
	/* its messages go to our stderr; its output only to out */
	gp = spawn(out, err);
	if (!gp)
		return NULL;
	if (!strcmp(kind, "svg"))
		fprintf(gp, "set terminal svg size %d,%d enhanced font 'sans,11' background rgb 'white'\n",
			width, height);
	else
		fprintf(gp, "set terminal pngcairo size %d,%d enhanced font 'sans,10'\n", width, height);
	czr_title_set(gp, title ? title : "", width);
	return gp;
}

FILE *czr_plot_open(const char *file, const char *title, int width, int height, int *err)
{
	const char *kind = czr_plot_kind(file);
	struct cz_out out;
	FILE *gp;
	int i;

	*err = -EINVAL;
	if (!kind)
		return NULL;
	/* a fresh file renamed onto file when whole, never through a link (lib/outfile.h) */
	*err = cz_out_open(&out, file, 0666);
	if (*err)
		return NULL;
	gp = czr_plot_open_fd(fileno(out.f), kind, title, width, height, err);
	for (i = 0; gp && i < CZR_MAX_PLOTS; i++)
		if (plots[i].gp == gp)
			plots[i].out = out;
	if (!gp)
		cz_out_discard(&out);
	return gp;
}

int czr_plot_close(FILE *gp, const char *file)
{
	struct cz_out out;
	struct stat st;
	int i, status, ret = 0;
	pid_t pid;

	(void)file;
	for (i = 0; i < CZR_MAX_PLOTS && plots[i].gp != gp; i++)
		;
	if (i == CZR_MAX_PLOTS)
		return -EINVAL;
	pid = plots[i].pid;
	out = plots[i].out;
	plots[i].gp = NULL;
	if (fclose(gp))
		ret = -EIO;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			ret = -errno;
			break;
		}
	if (!ret && (!WIFEXITED(status) || WEXITSTATUS(status)))
		ret = -EIO;
	if (!out.f)
		return ret;
	/* gnuplot wrote through its own descriptor: the size is the file's */
	if (!ret && (fstat(fileno(out.f), &st) || (S_ISREG(st.st_mode) && st.st_size == 0)))
		ret = -EIO;
	if (!ret)
		return cz_out_commit(&out);
	cz_out_discard(&out);
	return ret;
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
