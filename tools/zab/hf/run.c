/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab hyperfine: run each command as hyperfine 1.15 does (setup once,
 * warm-ups, then measured runs each after --prepare, cleanup once; output to
 * /dev/null unless --show-output; runs: --runs, else as many as fit in 3 s
 * from the first run's time, at least --min-runs (10) and at most
 * --max-runs), print hyperfine's report and write hyperfine's export files
 * (the fields of hyperfine's src/export/{json,csv,markdown}.rs).  Times are
 * wall-clock (CLOCK_MONOTONIC) and the child's user/system CPU (wait4);
 * unlike hyperfine, the shell's start-up time is not subtracted.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "child.h"
#include "hf.h"
#include "model/model.h"
#include "cli.h"
#include "jsonout.h"
#include "samplestat.h"

/*
 * Words of s (shell-like: '...', "...", \x), NULL-terminated, the text in
 * *store; two more slots for the shell's "-c CMD".
 */
static char **hf_words(const char *s, char **store)
{
	size_t n = 0, len = strlen(s);
	char **argv = calloc(len / 2 + 4, sizeof(*argv)), *o = *store = malloc(len + 1);
	char q = 0;

	if (!argv || !o)
		cz_die(2, "out of memory");
	while (*s) {
		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (!*s)
			break;
		argv[n++] = o;
		for (; *s && (q || (*s != ' ' && *s != '\t' && *s != '\n')); s++) {
			if (q ? *s == q : (*s == '\'' || *s == '"'))
				q = q ? 0 : *s;
			else if (*s == '\\' && q != '\'' && s[1])
				*o++ = *++s;
			else
				*o++ = *s;
		}
		*o++ = 0;
	}
	argv[n] = NULL;
	return argv;
}

/* Run cmd (lib/child.h); its wall time, CPU times and exit code (-1: killed by a signal). */
static int hf_exec(const struct hf_opts *o, const char *cmd, double *t, double *u, double *sy,
		   int *code)
{
	struct cz_child c = { .flags = CZ_CHILD_NULL_IN | (o->show_output ? 0 : CZ_CHILD_NULL_OUT) };
	struct timespec a, b;
	char *store, **argv;
	int st;
	size_t n = 0;
	bool none = o->shell && !strcmp(o->shell, "none");

	argv = hf_words(none ? cmd : o->shell ? o->shell : "sh", &store);
	if (!argv[0]) {
		free(argv);
		free(store);
		return cz_err("empty command"), -1;
	}
	while (argv[n])
		n++;
	if (!none) {
		argv[n++] = (char *)"-c";
		argv[n++] = (char *)cmd;
		argv[n] = NULL;
	}
	c.argv = (const char *const *)argv;
	fflush(NULL);
	clock_gettime(CLOCK_MONOTONIC, &a);
	st = cz_child_run(&c);
	clock_gettime(CLOCK_MONOTONIC, &b);
	free(argv);
	free(store);
	if (st < 0)
		return cz_err("fork: %s", strerror(-st)), -1;
	*t = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
	*u = (double)c.ru.ru_utime.tv_sec + (double)c.ru.ru_utime.tv_usec * 1e-6;
	*sy = (double)c.ru.ru_stime.tv_sec + (double)c.ru.ru_stime.tv_usec * 1e-6;
	*code = WIFEXITED(c.wstatus) ? WEXITSTATUS(c.wstatus) : -1;
	return 0;
}

/* A setup/prepare/cleanup command: 0, or -1 after hyperfine's message. */
static int hf_aux(const struct hf_opts *o, const char *what, const char *cmd)
{
	double t, u, s;
	int code;

	if (!cmd)
		return 0;
	if (hf_exec(o, cmd, &t, &u, &s, &code))
		return -1;
	if (!code)
		return 0;
	cz_err("the %s command '%s' terminated with a non-zero exit code. Append ' || true' to the command if you are sure that this can be ignored.",
		what, cmd);
	return -1;
}

/* One run of r (after its --prepare): 0, or -1 after an error. */
static int hf_one(const struct hf_opts *o, struct hf_result *r, double *t, double *u, double *s,
		  int *code)
{
	if (hf_aux(o, "preparation", r->prepare) || hf_exec(o, r->cmd, t, u, s, code))
		return -1;
	if (*code && !o->ignore_failure) {
		cz_err("'%s': command terminated with %s %d. Use the '-i'/'--ignore-failure' option if you want to ignore this. Alternatively, use the '--show-output' option to debug what went wrong.",
			r->name, *code < 0 ? "a signal, exit code" : "non-zero exit code:", *code);
		return -1;
	}
	return 0;
}

static void hf_push(struct hf_result *r, size_t *cap, double t, double u, double s, int code)
{
	if (r->n == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		r->t = cz_xrealloc(r->t, *cap * sizeof(double));
		r->usr = cz_xrealloc(r->usr, *cap * sizeof(double));
		r->sys = cz_xrealloc(r->sys, *cap * sizeof(double));
		r->codes = cz_xrealloc(r->codes, *cap * sizeof(int));
	}
	r->t[r->n] = t;
	r->usr[r->n] = u;
	r->sys[r->n] = s;
	r->codes[r->n++] = code;
}

static void hf_stats(struct hf_result *r)
{
	struct cz_summary s;
	size_t i;

	cz_summarize(r->t, r->n, &s);
	r->mean = s.mean;
	r->sd = s.sd;
	r->median = s.median;
	r->min = s.min;
	r->max = s.max;
	r->umean = r->smean = 0;
	for (i = 0; i < r->n; i++) {
		r->umean += r->usr[i] / (double)r->n;
		r->smean += r->sys[i] / (double)r->n;
	}
}

/* Setup, warm-ups, the measured runs, cleanup of one command. */
static int hf_bench(const struct hf_opts *o, struct hf_result *r)
{
	double t, u, s;
	size_t cap = 0, want;
	unsigned i;
	int code;

	if (hf_aux(o, "setup", o->setup))
		return -1;
	for (i = 0; i < o->warmup; i++)
		if (hf_one(o, r, &t, &u, &s, &code))
			return -1;
	if (hf_one(o, r, &t, &u, &s, &code))
		return -1;
	hf_push(r, &cap, t, u, s, code);
	if (o->has_runs) {
		want = o->runs;
	} else {
		want = t > 0 ? (size_t)fmin(3.0 / t, 1e6) : 1000000;
		if (want < o->min_runs)
			want = o->min_runs;
		if (o->has_max && want > o->max_runs)
			want = o->max_runs;
	}
	while (r->n < want) {
		if (hf_one(o, r, &t, &u, &s, &code))
			return -1;
		hf_push(r, &cap, t, u, s, code);
	}
	hf_stats(r);
	return hf_aux(o, "cleanup", o->cleanup);
}

int zab_hf_run(const struct hf_opts *o, struct hf_result *r, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		if (!o->quiet)
			printf("Benchmark %zu: %s\n", i + 1, r[i].name);
		if (hf_bench(o, &r[i]))
			return 1;
		if (!o->quiet)
			zab_hf_print_one(o, &r[i]);
	}
	return 0;
}
