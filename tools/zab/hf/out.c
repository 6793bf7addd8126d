/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab hyperfine's outputs, in hyperfine 1.15's layout: per command "Time
 * (mean ± σ)" and "Range (min … max)", then the summary "'A' ran X ± Y times
 * faster than 'B'" (the ratio of means, its error propagated from both
 * standard deviations); --export-json {"results": [{command, mean, stddev,
 * median, user, system, min, max, times, exit_codes, parameters}]}
 * (parameters only when -L/-P), --export-csv and --export-markdown.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hf.h"
#include "model/model.h"
#include "cli.h"
#include "jsonout.h"
#include "outfile.h"

/* hyperfine's unit: --time-unit, else ms below one second */
static double hf_scale(const struct hf_opts *o, double mean, const char **unit)
{
	bool ms = o->unit ? !strcmp(o->unit, "millisecond") : mean < 1.0;

	*unit = ms ? "ms" : "s";
	return ms ? 1e3 : 1.0;
}

void zab_hf_print_one(const struct hf_opts *o, const struct hf_result *r)
{
	const char *u;
	double k = hf_scale(o, r->mean, &u);

	if (r->n < 2)
		printf("  Time (abs \u2261):        %8.3f %s    [User: %.3f %s, System: %.3f %s]\n",
		       r->mean * k, u, r->umean * k, u, r->smean * k, u);
	else
		printf("  Time (mean \u00b1 \u03c3):     %8.3f %s \u00b1 %6.3f %s    [User: %.3f %s, System: %.3f %s]\n",
		       r->mean * k, u, r->sd * k, u, r->umean * k, u, r->smean * k, u);
	printf("  Range (min \u2026 max):   %8.3f %s \u2026 %6.3f %s    %zu runs\n\n", r->min * k, u,
	       r->max * k, u, r->n);
}

static size_t hf_fastest(const struct hf_result *r, size_t nr)
{
	size_t i, f = 0;

	for (i = 1; i < nr; i++)
		if (r[i].mean < r[f].mean)
			f = i;
	return f;
}

/* mean_i / mean_f and its standard error (relative errors added in quadrature) */
static double hf_ratio(const struct hf_result *a, const struct hf_result *f, double *err)
{
	double q = a->mean / f->mean;

	*err = a->n > 1 && f->n > 1 ?
	       q * sqrt(pow(a->sd / a->mean, 2) + pow(f->sd / f->mean, 2)) : NAN;
	return q;
}

void zab_hf_report(const struct hf_opts *o, const struct hf_result *r, size_t nr)
{
	size_t f = hf_fastest(r, nr), i;
	double q, e;

	if (o->quiet || nr < 2)
		return;
	printf("Summary\n  '%s' ran\n", r[f].name);
	for (i = 0; i < nr; i++) {
		if (i == f)
			continue;
		q = hf_ratio(&r[i], &r[f], &e);
		if (isnan(e))
			printf("  %8.2f times faster than '%s'\n", q, r[i].name);
		else
			printf("  %8.2f \u00b1 %.2f times faster than '%s'\n", q, e, r[i].name);
	}
}

static json_t *hf_json_one(const struct hf_result *r)
{
	json_t *o = cz_jobj(), *t, *c, *p;
	size_t i;

	cz_jset(o, "command", cz_jstr(r->name));
	cz_jset(o, "mean", cz_jnum(r->mean));
	cz_jset(o, "stddev", r->n < 2 ? json_null() : cz_jnum(r->sd));
	cz_jset(o, "median", cz_jnum(r->median));
	cz_jset(o, "user", cz_jnum(r->umean));
	cz_jset(o, "system", cz_jnum(r->smean));
	cz_jset(o, "min", cz_jnum(r->min));
	cz_jset(o, "max", cz_jnum(r->max));
	t = cz_jset(o, "times", cz_jarr());
	c = cz_jset(o, "exit_codes", cz_jarr());
	for (i = 0; i < r->n; i++) {
		cz_jpush(t, cz_jnum(r->t[i]));
		cz_jpush(c, r->codes[i] < 0 ? json_null() : cz_jnum(r->codes[i]));
	}
	if (r->np) {
		p = cz_jset(o, "parameters", cz_jobj());
		for (i = 0; i < r->np; i++)
			cz_jset(p, r->pnames[i], cz_jstr(r->pvals[i]));
	}
	return o;
}

static void hf_json(FILE *f, const struct hf_result *r, size_t nr)
{
	json_t *doc = cz_jobj(), *a = cz_jset(doc, "results", cz_jarr());
	size_t i;

	for (i = 0; i < nr; i++)
		cz_jpush(a, hf_json_one(&r[i]));
	cz_json_dump(f, doc, CZ_JSON_FLAGS);
	json_decref(doc);
}

static void hf_csv(FILE *f, const struct hf_result *r, size_t nr)
{
	size_t i, k;

	fputs("command,mean,stddev,median,user,system,min,max", f);
	for (k = 0; nr && k < r[0].np; k++)
		fprintf(f, ",parameter_%s", r[0].pnames[k]);
	fputc('\n', f);
	for (i = 0; i < nr; i++) {
		czrep_csv_str(f, r[i].name);
		fprintf(f, ",%.17g,", r[i].mean);
		if (r[i].n > 1)
			fprintf(f, "%.17g", r[i].sd);
		fprintf(f, ",%.17g,%.17g,%.17g,%.17g,%.17g", r[i].median, r[i].umean, r[i].smean,
			r[i].min, r[i].max);
		for (k = 0; k < r[i].np; k++) {
			fputc(',', f);
			czrep_csv_str(f, r[i].pvals[k]);
		}
		fputc('\n', f);
	}
}

static void hf_markdown(FILE *f, const struct hf_opts *o, const struct hf_result *r, size_t nr)
{
	const char *u;
	double k = hf_scale(o, nr ? r[0].mean : 0, &u), q, e;
	size_t i, fa = hf_fastest(r, nr);

	fprintf(f, "| Command | Mean [%s] | Min [%s] | Max [%s] | Relative |\n", u, u, u);
	fputs("|:---|---:|---:|---:|---:|\n", f);
	for (i = 0; i < nr; i++) {
		fprintf(f, "| `%s` | %.1f", r[i].name, r[i].mean * k);
		if (r[i].n > 1)
			fprintf(f, " \u00b1 %.1f", r[i].sd * k);
		fprintf(f, " | %.1f | %.1f | ", r[i].min * k, r[i].max * k);
		q = hf_ratio(&r[i], &r[fa], &e);
		if (i == fa || isnan(e))
			fprintf(f, "%.2f |\n", q);
		else
			fprintf(f, "%.2f \u00b1 %.2f |\n", q, e);
	}
}

static int hf_write(const char *opt, const char *path, const struct hf_opts *o,
		    const struct hf_result *r, size_t nr)
{
	struct cz_out out = { .f = stdout };
	FILE *f = stdout;
	int bad;

	/* a fresh file renamed onto path when whole, never through a link (lib/outfile.h) */
	if (strcmp(path, "-") && (bad = cz_out_open(&out, path, 0666)))
		return cz_err("%s %s: %s", opt, path, strerror(-bad)), 1;
	f = out.f;
	if (!strcmp(opt, "--export-json"))
		hf_json(f, r, nr);
	else if (!strcmp(opt, "--export-csv"))
		hf_csv(f, r, nr);
	else
		hf_markdown(f, o, r, nr);
	bad = f == stdout ? (fflush(f) ? -errno : 0) : cz_out_commit(&out);
	if (bad)
		cz_err("%s %s: %s", opt, path, strerror(-bad));
	return bad ? 1 : 0;
}

int zab_hf_export(const struct hf_opts *o, const struct hf_result *r, size_t nr)
{
	int ret = 0;

	if (o->json)
		ret |= hf_write("--export-json", o->json, o, r, nr);
	if (o->csv)
		ret |= hf_write("--export-csv", o->csv, o, r, nr);
	if (o->md)
		ret |= hf_write("--export-markdown", o->md, o, r, nr);
	return ret;
}
