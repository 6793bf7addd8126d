/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab's outputs: the table on stdout (or stderr when an export goes to stdout)
 * and the --export-zab/--export-json/--export-markdown/--export-csv files, for run and
 * report.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "views.h"
#include "cli.h"
#include "util.h"

/* --style for run and report: 0, or -1 after one line naming the bad value. */
static int style_option(const char *arg, enum czrep_style *st)
{
	if (!czrep_style_parse(arg, st))
		return 0;
	cz_err("--style '%s': expected box, grid, plain, markdown, detail or benchstat", arg);
	return -1;
}

/* ---- output files ------------------------------------------------------------------ */

void zab_out_init(struct out_opts *oo)
{
	memset(oo, 0, sizeof(*oo));
	oo->style = CZREP_STYLE_BOX;
	oo->json.opt = "--export-zab";
	oo->md.opt = "--export-markdown";
	oo->csv.opt = "--export-csv";
	oo->hf.opt = "--export-json";
}

/*
 * Start an output file before anything runs: a typo in a path must not
 * cost an experiment's worth of runs.  A fresh file beside it, renamed
 * onto it when written whole (lib/outfile.h): never through a link, and
 * the old content stays until the new is complete.
 */
static int out_open(struct out_file *of)
{
	int err;

	if (!of->path || !strcmp(of->path, "-"))
		return 0;
	err = cz_out_open(&of->out, of->path, 0666);
	if (err) {
		cz_err("%s %s: %s", of->opt, of->path, strerror(-err));
		return -1;
	}
	return 0;
}

static void out_discard(struct out_file *of)
{
	if (of->out.f)
		cz_out_discard(&of->out);
}

static bool out_stdout(const struct out_opts *oo)
{
	return (oo->json.path && !strcmp(oo->json.path, "-")) ||
	       (oo->md.path && !strcmp(oo->md.path, "-")) ||
	       (oo->csv.path && !strcmp(oo->csv.path, "-")) ||
	       (oo->hf.path && !strcmp(oo->hf.path, "-"));
}

int zab_outputs_open(struct out_opts *oo)
{
	if (out_open(&oo->json) || out_open(&oo->md) || out_open(&oo->csv) || out_open(&oo->hf)) {
		out_discard(&oo->hf);
		out_discard(&oo->json);
		out_discard(&oo->md);
		out_discard(&oo->csv);
		return -1;
	}
	return 0;
}

void zab_outputs_discard(struct out_opts *oo)
{
	out_discard(&oo->hf);
	out_discard(&oo->json);
	out_discard(&oo->md);
	out_discard(&oo->csv);
}

struct out_what {
	struct czres_result *const *r;
	size_t n;
	const json_t *doc;
};

static void write_one(const struct out_file *of, FILE *f, const struct out_what *w,
		      const struct out_opts *oo)
{
	if (of == &oo->json)
		cz_json_dump(f, w->doc, CZ_JSON_FLAGS);
	else if (of == &oo->md)
		czrep_render(f, w->r, w->n, CZREP_STYLE_MARKDOWN);
	else if (of == &oo->hf)
		czrep_hyperfine(f, w->r, w->n);
	else
		czrep_csv(f, w->r, w->n);
}

/*
 * The output into the file started by out_open, renamed onto its name
 * (a pipe, FIFO or device is written as it is): 0, or -1 after one line.
 */
static int out_write(struct out_file *of, const struct out_what *w, const struct out_opts *oo)
{
	int err;

	if (!of->path)
		return 0;
	if (!of->out.f) {
		write_one(of, stdout, w, oo);
		return cz_stdout_flush();
	}
	write_one(of, of->out.f, w, oo);
	err = cz_out_commit(&of->out);
	if (!err)
		return 0;
	cz_err("%s %s: %s", of->opt, of->path, strerror(-err));
	return -1;
}

/* The table (stdout, or stderr when an export goes to stdout), then the files: 0, or 1
 * when any of them was not written (a result not written is a failure). */
int zab_output(struct czres_result *const *r, size_t n, const json_t *doc, struct out_opts *oo)
{
	FILE *f = out_stdout(oo) ? stderr : stdout;
	const struct out_what w = { r, n, doc };
	int ret = 0;

	czrep_render(f, r, n, oo->style);
	if (oo->detail && oo->style != CZREP_STYLE_DETAIL) {
		fputc('\n', f);
		czrep_render(f, r, n, CZREP_STYLE_DETAIL);
	}
	if (f == stdout && cz_stdout_flush())
		ret = 1;
	fflush(f);
	if (out_write(&oo->json, &w, oo) | out_write(&oo->md, &w, oo) | out_write(&oo->csv, &w, oo) |
	    out_write(&oo->hf, &w, oo))
		ret = 1;
	return ret;
}
/* An output option shared by run and report: 1 if opt was one, 0 if not, -1 on a bad value. */
int zab_output_option(int c, const char *arg, struct out_opts *oo)
{
	switch (c) {
	case 's':
		return style_option(arg, &oo->style) ? -1 : 1;
	case OPT_DETAIL:
		oo->detail = true;
		return 1;
	case 'j':
		oo->json.path = arg;
		return 1;
	case OPT_EXPORT_MD:
		oo->md.path = arg;
		return 1;
	case OPT_EXPORT_CSV:
		oo->csv.path = arg;
		return 1;
	case OPT_EXPORT_HF:
		oo->hf.path = arg;
		return 1;
	}
	return 0;
}

/* What the command line says; CLI values override the file's, whatever the order. */
