/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --export-hyperfine: the cells in the layout of hyperfine's --export-json
 * (sharkdp/hyperfine, src/benchmark/benchmark_result.rs: "results", one
 * object per command with "command", "mean", "stddev" (null for one run),
 * "median", "min", "max", "times", "exit_codes" and "parameters"), so
 * scripts written for hyperfine read zab's results.  One entry per cell
 * that holds samples and did not fail: "command" is "BENCHMARK / VARIANT"
 * (the SUT class first when there are several; a sequence step's label after
 * its name, "x / s@3 (LABEL)", as hyperfine's plotting scripts show "command"), "parameters" the variant's
 * {NAME} values (--parameter-list, var.NAME), "times" the samples in the
 * benchmark's "unit" (seconds when timed, as hyperfine's); "user" and
 * "system" are not measured, so not written.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "samplestat.h"
#include "report.h"

/* "NAME=VALUE" lines as a JSON object. */
static json_t *hf_parameters(const char *lines)
{
	const char *p = lines ? lines : "";
	json_t *o = cz_jobj();

	while (*p) {
		size_t n = strcspn(p, "\n"), k = strcspn(p, "=\n");

		if (k < n) {
			char *key = cz_xasprintf("%.*s", (int)k, p);
			char *val = cz_xasprintf("%.*s", (int)(n - k - 1), p + k + 1);

			cz_jset(o, key, cz_jstr(val));
			free(key);
			free(val);
		}
		p += n + (p[n] == '\n');
	}
	return o;
}

static json_t *hf_cell(const struct czres_result *r, size_t b, size_t v, bool sut)
{
	const struct czres_cell *c = czres_cell(r, b, v);
	json_t *o = cz_jobj(), *times, *codes;
	struct cz_summary s;
	char *cmd, *vt = czrep_variant_text(r, v, false);
	size_t i;

	cz_summarize(c->x, c->n, &s);
	cmd = cz_xasprintf("%s%s%s / %s", sut ? r->sut : "", sut ? ": " : "", r->b[b].name, vt);
	cz_jset(o, "command", cz_jstr(cmd));
	free(cmd);
	free(vt);
	cz_jset(o, "mean", cz_jnum(s.mean));
	cz_jset(o, "stddev", c->n < 2 ? json_null() : cz_jnum(s.sd));
	cz_jset(o, "median", cz_jnum(s.median));
	cz_jset(o, "min", cz_jnum(s.min));
	cz_jset(o, "max", cz_jnum(s.max));
	times = cz_jset(o, "times", cz_jarr());
	codes = cz_jset(o, "exit_codes", cz_jarr());
	for (i = 0; i < c->n; i++) {
		cz_jpush(times, cz_jnum(c->x[i]));
		cz_jpush(codes, cz_jnum(0));
	}
	cz_jset(o, "parameters", hf_parameters(r->vparams[v]));
	cz_jset(o, "unit", cz_jstr(r->b[b].unit ? r->b[b].unit : ""));
	return o;
}

void czrep_hyperfine(FILE *f, struct czres_result *const *r, size_t n)
{
	json_t *doc = cz_jobj(), *arr = cz_jset(doc, "results", cz_jarr());
	size_t k, b, v;

	for (k = 0; k < n; k++)
		for (b = 0; b < r[k]->nb; b++)
			for (v = 0; v < r[k]->nv; v++) {
				const struct czres_cell *c = czres_cell(r[k], b, v);

				if (c->n && !c->failed)
					cz_jpush(arr, hf_cell(r[k], b, v, n > 1));
			}
	cz_json_dump(f, doc, CZ_JSON_FLAGS);
	json_decref(doc);
}
