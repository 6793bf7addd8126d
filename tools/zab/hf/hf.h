/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab's hyperfine mode (zab hyperfine ..., or zab CMD...): hyperfine 1.15's
 * command line with hyperfine's meanings (hyperfine(1)), its report on
 * stdout and its --export-json/--export-csv/--export-markdown files.
 */
#ifndef TOOLS_ZAB_HF_HF_H
#define TOOLS_ZAB_HF_HF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define HF_MAX 64
#define HF_MAX_PARAMS 8

/* -L VAR a,b,c or -P VAR MIN MAX [-D STEP]: the values as text */
struct hf_param {
	char *name;
	char **vals;
	size_t n;
};

struct hf_opts {
	const char *cmds[HF_MAX], *names[HF_MAX], *prepare[HF_MAX];
	size_t ncmds, nnames, nprepare;
	const char *setup, *cleanup, *shell;  /* shell NULL: sh; "none": -N */
	unsigned warmup, runs, min_runs, max_runs;
	bool has_runs, has_max, ignore_failure, show_output, quiet;
	struct hf_param params[HF_MAX_PARAMS];
	size_t nparams;
	const char *scan[4];                  /* -P VAR MIN MAX, and -D STEP */
	const char *json, *md, *csv, *unit;   /* unit: NULL, "millisecond" or "second" */
};

/* One benchmarked command: its samples (seconds) and exit codes (-1: a signal). */
struct hf_result {
	char *name, *cmd, *prepare;
	const char *pnames[HF_MAX_PARAMS], *pvals[HF_MAX_PARAMS];
	size_t np;
	double *t, *usr, *sys;
	int *codes;
	size_t n;
	double mean, sd, median, min, max, umean, smean;
};

void zab_hf_usage(FILE *f);
int zab_hf_parse(int argc, char **argv, struct hf_opts *o);
int zab_hf_run(const struct hf_opts *o, struct hf_result *r, size_t nr);
void zab_hf_print_one(const struct hf_opts *o, const struct hf_result *r);
void zab_hf_report(const struct hf_opts *o, const struct hf_result *r, size_t nr);
int zab_hf_export(const struct hf_opts *o, const struct hf_result *r, size_t nr);

#endif
