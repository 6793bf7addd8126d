/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab hyperfine: hyperfine 1.15's options (hyperfine --help) parsed with
 * hyperfine's meanings, and the commands expanded over -L/-P values as
 * hyperfine does: the values outer (the first -L varying fastest), the
 * commands inner, {VAR} replaced in commands, names and --prepare.
 */
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "hf/hf.h"
#include "cmd.h"
#include "cli.h"
#include "util.h"

enum { HF_EXPORT_JSON = 300, HF_EXPORT_MD, HF_EXPORT_CSV, HF_STYLE, HF_SHOW_OUTPUT, HF_OUTPUT };

static const struct option hf_opts_long[] = {
	{ "warmup", required_argument, NULL, 'w' },
	{ "min-runs", required_argument, NULL, 'm' },
	{ "max-runs", required_argument, NULL, 'M' },
	{ "runs", required_argument, NULL, 'r' },
	{ "setup", required_argument, NULL, 's' },
	{ "prepare", required_argument, NULL, 'p' },
	{ "cleanup", required_argument, NULL, 'c' },
	{ "parameter-scan", required_argument, NULL, 'P' },
	{ "parameter-step-size", required_argument, NULL, 'D' },
	{ "parameter-list", required_argument, NULL, 'L' },
	{ "style", required_argument, NULL, HF_STYLE },
	{ "shell", required_argument, NULL, 'S' },
	{ "ignore-failure", no_argument, NULL, 'i' },
	{ "time-unit", required_argument, NULL, 'u' },
	{ "export-json", required_argument, NULL, HF_EXPORT_JSON },
	{ "export-markdown", required_argument, NULL, HF_EXPORT_MD },
	{ "export-csv", required_argument, NULL, HF_EXPORT_CSV },
	{ "show-output", no_argument, NULL, HF_SHOW_OUTPUT },
	{ "output", required_argument, NULL, HF_OUTPUT },
	{ "command-name", required_argument, NULL, 'n' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Whether a one-word command names a program in $PATH (else "zab frobnicate" is a typo). */
static bool hf_in_path(const char *word)
{
	const char *path = getenv("PATH"), *p;
	bool found = false;
	char *f;

	if (word[strcspn(word, " \t/;|&$'\"")])
		return true;
	for (p = path ? path : ""; *p && !found; p += *p == ':') {
		size_t n = strcspn(p, ":");

		f = cz_xasprintf("%.*s/%s", (int)n, p, word);
		found = !access(f, X_OK);
		free(f);
		p += n;
	}
	return found;
}

bool zab_hf_mode(const char *word)
{
	struct stat st;

	/* -h, --help and --version are zab's (main.c); any other option is hyperfine's */
	if (word[0] == '-')
		return true;
	return strcmp(word, "run") && strcmp(word, "report") &&
	       strcmp(word, "compare") && strcmp(word, "help") && strcmp(word, "store") &&
	       strcmp(word, "fleet") && strcmp(word, "pack") && stat(word, &st) &&
	       hf_in_path(word);
}

/* Set by an error hyperfine's argument parser reports (exit 2); others exit 1, as hyperfine's. */
static bool hf_usage_error;

/* A count: a bad one exits 1, as hyperfine's does (the message is every count's). */
static int hf_count(const char *opt, const char *s, unsigned min, unsigned *out)
{
	return cz_opt_uint_parse(opt, s, min, 1000000, out);
}

static const char *hf_next(int argc, char **argv, const char *opt)
{
	if (optind < argc)
		return argv[optind++];
	cz_err("%s: missing a value (see zab hyperfine --help)", opt);
	hf_usage_error = true;
	return NULL;
}

static bool hf_ident(const char *s)
{
	return *s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") ==
		     strlen(s);
}

/* -L VAR a,b,c */
static int hf_list(struct hf_opts *o, const char *var, const char *list)
{
	struct hf_param *p = &o->params[o->nparams];

	if (o->nparams == HF_MAX_PARAMS || !hf_ident(var) || !*list) {
		cz_err("--parameter-list '%s' '%s': expected VAR a,b,... (at most %d)", var, list,
			HF_MAX_PARAMS);
		return -1;
	}
	p->name = cz_xstrdup(var);
	p->n = (size_t)zab_param_list(list, true, SIZE_MAX, &p->vals);
	o->nparams++;
	return 0;
}

static int hf_decimals(const char *s)
{
	const char *dot = strchr(s, '.');

	return dot ? (int)strlen(dot + 1) : 0;
}

/* -P VAR MIN MAX [-D STEP]: integers without -D, decimals as written with it. */
static int hf_scan(struct hf_opts *o)
{
	const char *step = o->scan[3] ? o->scan[3] : "1";
	double lo, hi, d, x;
	char *e1, *e2, *e3;
	struct hf_param *p = &o->params[o->nparams];
	int dec = hf_decimals(step) > hf_decimals(o->scan[1]) ? hf_decimals(step) : hf_decimals(o->scan[1]);
	size_t i;

	lo = strtod(o->scan[1], &e1);
	hi = strtod(o->scan[2], &e2);
	d = strtod(step, &e3);
	if (*e1 || *e2 || *e3 || !*o->scan[1] || !*o->scan[2] || !(d > 0) || hi < lo ||
	    (!o->scan[3] && (lo != floor(lo) || hi != floor(hi))) || (hi - lo) / d > 100000 ||
	    !hf_ident(o->scan[0]) || o->nparams == HF_MAX_PARAMS) {
		cz_err("--parameter-scan %s %s %s%s%s: expected VAR MIN MAX, MIN <= MAX (integers without -D)",
			o->scan[0], o->scan[1], o->scan[2], o->scan[3] ? " -D " : "",
			o->scan[3] ? o->scan[3] : "");
		return -1;
	}
	p->name = cz_xstrdup(o->scan[0]);
	p->n = (size_t)floor((hi - lo) / d + 1e-9) + 1;
	p->vals = calloc(p->n, sizeof(*p->vals));
	if (!p->vals)
		cz_die(2, "out of memory");
	for (i = 0; i < p->n; i++) {
		x = lo + (double)i * d;
		p->vals[i] = i ? cz_xasprintf("%.*f", dec, x) : cz_xstrdup(o->scan[1]);
	}
	o->nparams++;
	return 0;
}

static int hf_option(struct hf_opts *o, int c, int argc, char **argv)
{
	const char *a;

	switch (c) {
	case 'w': return hf_count("--warmup", optarg, 0, &o->warmup);
	case 'm': return hf_count("--min-runs", optarg, 1, &o->min_runs);
	case 'M': o->has_max = true; return hf_count("--max-runs", optarg, 1, &o->max_runs);
	case 'r': o->has_runs = true; return hf_count("--runs", optarg, 1, &o->runs);
	case 's': o->setup = optarg; return 0;
	case 'c': o->cleanup = optarg; return 0;
	case 'S': o->shell = optarg; return 0;
	case 'N': o->shell = "none"; return 0;
	case 'i': o->ignore_failure = true; return 0;
	case 'n':
	case 'p':
		if ((c == 'n' ? o->nnames : o->nprepare) == HF_MAX)
			return cz_err("more than %d -%c options", HF_MAX, c), -1;
		if (c == 'n')
			o->names[o->nnames++] = optarg;
		else
			o->prepare[o->nprepare++] = optarg;
		return 0;
	case 'L':
		return (a = hf_next(argc, argv, "--parameter-list")) ? hf_list(o, optarg, a) : -1;
	case 'P':
		o->scan[0] = optarg;
		if (!(o->scan[1] = hf_next(argc, argv, "--parameter-scan")) ||
		    !(o->scan[2] = hf_next(argc, argv, "--parameter-scan")))
			return -1;
		return 0;
	case 'D': o->scan[3] = optarg; return 0;
	case 'u':
		if (!strcmp(optarg, "millisecond") || !strcmp(optarg, "second")) {
			o->unit = optarg;
			return 0;
		}
		hf_usage_error = true;
		return cz_err("--time-unit '%s': expected millisecond or second", optarg), -1;
	case HF_STYLE:
		if (strcmp(optarg, "auto") && strcmp(optarg, "basic") && strcmp(optarg, "full") &&
		    strcmp(optarg, "nocolor") && strcmp(optarg, "color") && strcmp(optarg, "none")) {
			hf_usage_error = true;
			return cz_err("--style '%s': expected auto, basic, full, nocolor, color or none",
				      optarg), -1;
		}
		o->quiet = !strcmp(optarg, "none");
		return 0;
	case HF_SHOW_OUTPUT: o->show_output = true; return 0;
	case HF_OUTPUT:
		if (strcmp(optarg, "null") && strcmp(optarg, "inherit"))
			return cz_err("--output '%s': zab takes null or inherit", optarg), -1;
		o->show_output = !strcmp(optarg, "inherit");
		return 0;
	case HF_EXPORT_JSON: o->json = optarg; return 0;
	case HF_EXPORT_MD: o->md = optarg; return 0;
	case HF_EXPORT_CSV: o->csv = optarg; return 0;
	}
	return -1;
}

static int hf_parse(int argc, char **argv, struct hf_opts *o)
{
	char bad[8];
	int c;

	memset(o, 0, sizeof(*o));
	o->min_runs = 10;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":w:m:M:r:s:p:c:P:D:L:S:Niu:n:h", hf_opts_long, NULL)) != -1) {
		if (c == '?' || c == ':') {
			zab_bad_option(c, argv, bad, sizeof(bad));
			hf_usage_error = true;
			return -1;
		}
		if (c == 'h') {
			zab_hf_usage(stdout);
			return 1;
		}
		if (hf_option(o, c, argc, argv))
			return -1;
	}
	for (; optind < argc; optind++) {
		if (o->ncmds == HF_MAX)
			return cz_err("more than %d commands", HF_MAX), -1;
		o->cmds[o->ncmds++] = argv[optind];
	}
	hf_usage_error = !o->ncmds || (o->scan[3] && !o->scan[0]);
	if (!o->ncmds)
		return cz_err("hyperfine mode: no command to benchmark (see zab hyperfine --help)"), -1;
	if (o->nnames > o->ncmds)
		return cz_err("too many --command-name options: expected %zu at most", o->ncmds), -1;
	if (o->nprepare > 1 && o->nprepare != o->ncmds)
		return cz_err("--prepare given %zu times: expected once or once per command (%zu)",
			      o->nprepare, o->ncmds), -1;
	if (o->has_max && o->max_runs < o->min_runs && !o->has_runs)
		return cz_err("--max-runs %u is below --min-runs %u", o->max_runs, o->min_runs), -1;
	if (o->scan[3] && !o->scan[0])
		return cz_err("--parameter-step-size needs --parameter-scan"), -1;
	if (o->scan[0] && o->nparams)
		return cz_err("--parameter-scan and --parameter-list: give one of them"), -1;
	return o->scan[0] ? hf_scan(o) : 0;
}

/* The command line: 0, 1 (--help), -1 (a bad value: exit 1) or -2 (bad usage: exit 2). */
int zab_hf_parse(int argc, char **argv, struct hf_opts *o)
{
	int ret = hf_parse(argc, argv, o);

	return ret < 0 && hf_usage_error ? -2 : ret;
}

/* {VAR} replaced by the values of r's parameters (one pass); any other {...} left as it is. */
static char *hf_subst(const char *s, const struct hf_result *r)
{
	struct zab_kv kv[HF_MAX_PARAMS];
	size_t i;

	for (i = 0; i < r->np; i++) {
		kv[i].key = (char *)r->pnames[i];
		kv[i].val = (char *)r->pvals[i];
	}
	return zab_subst(s, kv, r->np, false, NULL);
}

/* Commands x parameter values, in hyperfine's order; the count. */
static size_t hf_expand(const struct hf_opts *o, struct hf_result **out)
{
	size_t combos = 1, i, k, j, nr = 0, idx;
	struct hf_result *r;

	for (k = 0; k < o->nparams; k++)
		combos *= o->params[k].n;
	r = calloc(combos * o->ncmds, sizeof(*r));
	if (!r)
		cz_die(2, "out of memory");
	for (i = 0; i < combos; i++)
		for (j = 0; j < o->ncmds; j++, nr++) {
			for (k = 0, idx = i; k < o->nparams; k++) {
				r[nr].pnames[k] = o->params[k].name;
				r[nr].pvals[k] = o->params[k].vals[idx % o->params[k].n];
				idx /= o->params[k].n;
			}
			r[nr].np = o->nparams;
			r[nr].cmd = hf_subst(o->cmds[j], &r[nr]);
			r[nr].name = hf_subst(j < o->nnames ? o->names[j] : o->cmds[j], &r[nr]);
			if (o->nprepare)
				r[nr].prepare = hf_subst(o->prepare[o->nprepare > 1 ? j : 0], &r[nr]);
		}
	*out = r;
	return nr;
}

int zab_cmd_hyperfine(int argc, char **argv)
{
	struct hf_opts o;
	struct hf_result *r = NULL;
	size_t nr = 0, i;
	int ret = zab_hf_parse(argc, argv, &o);

	if (ret) {
		ret = ret > 0 ? 0 : ret == -2 ? 2 : 1;
		goto out;
	}
	nr = hf_expand(&o, &r);
	ret = zab_hf_run(&o, r, nr);
	if (!ret) {
		zab_hf_report(&o, r, nr);
		ret = zab_hf_export(&o, r, nr);
	}
	for (i = 0; i < nr; i++) {
		free(r[i].name);
		free(r[i].cmd);
		free(r[i].prepare);
		free(r[i].t);
		free(r[i].usr);
		free(r[i].sys);
		free(r[i].codes);
	}
	free(r);
out:
	for (i = 0; i < o.nparams; i++) {
		size_t k;

		for (k = 0; k < o.params[i].n; k++)
			free(o.params[i].vals[k]);
		free(o.params[i].vals);
		free(o.params[i].name);
	}
	return ret;
}
