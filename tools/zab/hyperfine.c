/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --export-hyperfine: the cells in the layout of hyperfine's --export-json
 * (sharkdp/hyperfine, src/benchmark/benchmark_result.rs: "results", one
 * object per command with "command", "mean", "stddev" (null for one run),
 * "median", "min", "max", "times", "exit_codes" and "parameters"), so
 * scripts written for hyperfine read zab's results.  One entry per cell
 * that holds samples and did not fail: "command" is "BENCHMARK / VARIANT"
 * (the SUT class first when there are several), "parameters" the variant's
 * {NAME} values (--parameter-list, var.NAME), "times" the samples in the
 * benchmark's "unit" (seconds when timed, as hyperfine's); "user" and
 * "system" are not measured, so not written.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "zab.h"

static void hf_string(FILE *f, const char *s, size_t len)
{
	fputc('"', f);
	for (size_t i = 0; i < len && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* "NAME=VALUE" lines as a JSON object. */
static void hf_parameters(FILE *f, const char *lines)
{
	const char *p = lines ? lines : "";
	bool first = true;

	fputc('{', f);
	while (*p) {
		size_t n = strcspn(p, "\n"), k = strcspn(p, "=\n");

		if (k < n) {
			fputs(first ? "" : ", ", f);
			hf_string(f, p, k);
			fputs(": ", f);
			hf_string(f, p + k + 1, n - k - 1);
			first = false;
		}
		p += n + (p[n] == '\n');
	}
	fputc('}', f);
}

static void hf_cell(FILE *f, const struct zab_result *r, size_t b, size_t v, bool sut)
{
	const struct zab_cell *c = zab_cell(r, b, v);
	struct cz_summary s;
	char *cmd;
	size_t i;

	cz_summarize(c->x, c->n, &s);
	cmd = zab_xasprintf("%s%s%s / %s", sut ? r->sut : "", sut ? ": " : "", r->b[b].name,
			    r->vname[v]);
	fputs("    {\n      \"command\": ", f);
	hf_string(f, cmd, strlen(cmd));
	free(cmd);
	fprintf(f, ",\n      \"mean\": %.17g,\n      \"stddev\": ", s.mean);
	if (c->n < 2)
		fputs("null", f);
	else
		fprintf(f, "%.17g", s.sd);
	fprintf(f, ",\n      \"median\": %.17g,\n      \"min\": %.17g,\n      \"max\": %.17g,\n"
		"      \"times\": [", s.median, s.min, s.max);
	for (i = 0; i < c->n; i++)
		fprintf(f, "%s%.17g", i ? ", " : "", c->x[i]);
	fputs("],\n      \"exit_codes\": [", f);
	for (i = 0; i < c->n; i++)
		fprintf(f, "%s0", i ? ", " : "");
	fputs("],\n      \"parameters\": ", f);
	hf_parameters(f, r->vparams[v]);
	fputs(",\n      \"unit\": ", f);
	hf_string(f, r->b[b].unit ? r->b[b].unit : "", strlen(r->b[b].unit ? r->b[b].unit : ""));
	fputs("\n    }", f);
}

void zab_render_hyperfine(FILE *f, struct zab_result *const *r, size_t n)
{
	bool first = true;
	size_t k, b, v;

	fputs("{\n  \"results\": [\n", f);
	for (k = 0; k < n; k++)
		for (b = 0; b < r[k]->nb; b++)
			for (v = 0; v < r[k]->nv; v++) {
				const struct zab_cell *c = zab_cell(r[k], b, v);

				if (!c->n || c->failed)
					continue;
				fputs(first ? "" : ",\n", f);
				hf_cell(f, r[k], b, v, n > 1);
				first = false;
			}
	fputs("\n  ]\n}\n", f);
}
