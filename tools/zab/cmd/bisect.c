/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab bisect: the first step of a change sequence (NAME@0 .. NAME@N,
 * steps.h) whose figure differs from the base's, by binary search.  Each
 * probe is an A/B of step k against the base judged by the project's
 * verdict rule (czst_change: the experiment's verdict = overlap | paired),
 * on the in-device result class by default.  A probe is a stored run
 * holding both variants (a full sweep, an earlier probe) when there is
 * one, else `zab run EXPERIMENT --only-variants NAME@0,NAME@k` recorded in
 * the store: zab's own runner, so a later history or sweep reuses it.  A
 * stored run is matched by experiment name, SUT class and the variants'
 * names, and used only when report would pool it with a run of this file
 * (czres_pool_check against zab_run_frame: the benchmark's command, the
 * variants' settings, labels and routine sources -- a git range's carry
 * the commit); the runs left out are counted in one line.
 * Each probe ends as changed, same (within the equivalence band) or
 * undecided (stats/decide.h: per-session ratios, 95% interval); an
 * undecided one gets more sessions, doubling, up to --max-sessions and
 * --budget-seconds.  The ends are decided first (step N vs the base), the
 * search assumes that once a step changes the figure the later ones do
 * too (as git bisect assumes of commits), and the culprit is verified
 * (bisectverify.c): against its parent in fresh runs in ABBA order and,
 * for a patch series, by the last step without its patch.
 *
 * Exit: 0 a first change found and verified, 1 no change (the last step
 * the same as the base within the band), 3 a change found but a check of
 * the culprit failed (a range printed), 125 undecided (a probe undecided
 * within the budget, failed or missing), 2 usage,
 * 128 + the signal when SIGTERM, SIGINT or SIGHUP stopped it: the signal
 * goes on to the probe's zab run, which stops its daemons and stores
 * nothing, and bisect waits for it before it exits.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bisect.h"
#include "cli.h"
#include "cmd.h"
#include "model/steps.h"

static volatile sig_atomic_t bs_signal;
static volatile pid_t bs_child;    /* the probe's zab run while it runs */

/* SIGTERM (timeout's), SIGINT, SIGHUP: noted, and passed on to the probe's run. */
static void bs_on_signal(int sig)
{
	bs_signal = sig;
	if (bs_child > 0)
		kill(bs_child, sig);
}

static const int bs_sigs[] = { SIGTERM, SIGINT, SIGHUP };
static struct sigaction bs_sig_was[3];   /* as bisect found them: the probe's again */

/* Caught, but for one ignored when bisect started (nohup): ignored it stays. */
static void bs_signals(sigset_t *set)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = bs_on_signal;
	sigemptyset(set);
	for (i = 0; i < 3; i++) {
		sigaction(bs_sigs[i], NULL, &bs_sig_was[i]);
		if (bs_sig_was[i].sa_handler == SIG_IGN)
			continue;
		sigaction(bs_sigs[i], &sa, NULL);
		sigaddset(set, bs_sigs[i]);
	}
}

/*
 * The equivalence band: a change smaller than this (per cent, either way)
 * is the same.  On a busy machine an A/A step came out -1.18% and a
 * comment-only commit +1.49% against the base: the machine's noise, not
 * the step.  --band sets it.
 */
#define BS_BAND_PCT 2.0

static void bs_free_results(struct bs *b)
{
	size_t i;

	for (i = 0; i < b->nr; i++)
		czres_result_free(&b->r[i]);
	free(b->r);
	b->r = NULL;
	b->nr = 0;
}

/*
 * Whether run r pools with a run of this file by report's rule: 0, or 1
 * with why.  A benchmark whose measure its first run decides takes the
 * run's decision (timed: seconds, lower is better).
 */
static int bs_foreign(const struct bs *b, const struct czres_result *r, char *why, size_t len)
{
	json_t *doc = json_deep_copy(b->frame), *o, *x;
	struct czres_result ref;
	const char *dfile;
	size_t i, j;
	int ret;

	json_array_foreach(json_object_get(doc, "benchmarks"), i, o) {
		if (strcmp(json_string_value(json_object_get(o, "measure")) ?: "", "auto"))
			continue;
		json_object_del(o, "measure");
		json_array_foreach(json_object_get(r->doc, "benchmarks"), j, x)
			if (json_equal(json_object_get(x, "name"), json_object_get(o, "name")) &&
			    json_is_string(json_object_get(x, "measure"))) {
				cz_jset(o, "measure", json_deep_copy(json_object_get(x, "measure")));
				cz_jset(o, "unit", json_deep_copy(json_object_get(x, "unit")));
				cz_jset(o, "better", json_deep_copy(json_object_get(x, "better")));
			}
	}
	memset(&ref, 0, sizeof(ref));
	if (czres_result_from_json(&ref, doc, b->o.file)) {
		snprintf(why, len, "this file's frame unreadable");
		ret = 1;
	} else {
		ret = czres_pool_check(&ref, r, &dfile, why, len) ? 1 : 0;
	}
	czres_result_free(&ref);
	return ret;
}

/* The stored runs of class cls (NULL: all) that pool with this file's; those left out in one line. */
static int bs_load(struct bs *b, const char *cls)
{
	struct czs_filter f = { .experiment = b->title, .sut_class = cls };
	char err[1024], why[400], first[480] = "";
	size_t i, n = 0;

	bs_free_results(b);
	if (czs_load_results(b->s, &f, &b->r, &b->nr, err, sizeof(err))) {
		cz_err("bisect: %s", err);
		return -1;
	}
	b->refused = 0;
	for (i = 0; i < b->nr; i++) {
		if (!bs_foreign(b, &b->r[i], why, sizeof(why))) {
			b->r[n++] = b->r[i];
			continue;
		}
		if (!b->refused++)
			snprintf(first, sizeof(first), "%s run %.8s: %s", b->r[i].sut,
				 json_string_value(json_object_get(json_object_get(b->r[i].doc, "run"),
								   "uuid")) ?: "?", why);
		czres_result_free(&b->r[i]);
	}
	b->nr = n;
	if (b->refused && b->refused != b->told)
		cz_err("bisect: %zu stored run%s of '%s' not used: zab report would not pool %s with a run of %s (%s)",
		       b->refused, b->refused == 1 ? "" : "s", b->title, b->refused == 1 ? "it" : "them",
		       b->o.file, first);
	b->told = b->refused;
	return 0;
}

/*
 * zab run FILE --only-variants A,V --base A for comparison c: recorded in
 * the store, or with c->json to its next JSON file; sessions 0: the
 * file's; its table on stderr: 0 or -1.
 */
static int bs_zabrun(struct bs *b, const char *cls, const struct bs_cmp *c, unsigned sessions)
{
	char *only = cz_xasprintf("%s,%s", c->a, c->v), *ns = cz_xasprintf("%u", sessions);
	char *json = c->json ? cz_xasprintf("%s.%u", c->json, c->njson) : NULL, *seed = NULL;
	const char *argv[32];
	int n = 0, st;
	sigset_t old;
	pid_t pid, w = -1;

	argv[n++] = "zab";
	argv[n++] = "run";
	argv[n++] = "--only-variants";
	argv[n++] = only;
	argv[n++] = "--base";
	argv[n++] = c->a;
	argv[n++] = "--sut";
	argv[n++] = cls;
	argv[n++] = "--no-progress";
	if (sessions) {
		argv[n++] = "--sessions";
		argv[n++] = ns;
	}
	if (c->order) {
		argv[n++] = "--order";
		argv[n++] = c->order;
	}
	if (json) {
		argv[n++] = "--no-store";
		argv[n++] = "--json";
		argv[n++] = json;
	} else if (b->o.store) {
		argv[n++] = "--store";
		argv[n++] = b->o.store;
	}
	if (b->o.seed) {        /* the sessions added: seeds of their own */
		seed = cz_xasprintf("%llu", strtoull(b->o.seed, NULL, 10) + c->ran);
		argv[n++] = "--seed";
		argv[n++] = seed;
	}
	if (b->o.cusezero) {
		argv[n++] = "--cusezero";
		argv[n++] = b->o.cusezero;
	}
	argv[n++] = c->file;
	argv[n] = NULL;
	fflush(NULL);
	/* a signal from here until bs_child is set waits, then goes on to the child */
	sigprocmask(SIG_BLOCK, &b->sigs, &old);
	pid = bs_signal ? -2 : fork();
	if (pid == 0) {
		for (size_t i = 0; i < 3; i++)
			sigaction(bs_sigs[i], &bs_sig_was[i], NULL);
		sigprocmask(SIG_SETMASK, &old, NULL);
		dup2(2, 1);
		execv("/proc/self/exe", (char *const *)argv);
		cz_err("bisect: cannot run zab run: %s", strerror(errno));
		_exit(127);
	}
	bs_child = pid;
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(only);
	free(ns);
	free(json);
	free(seed);
	if (pid == -2) {
		bs_child = 0;
		return -1;
	}
	while (pid > 0 && (w = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
		;
	bs_child = 0;
	if (pid < 0 || w < 0) {
		cz_err("bisect: cannot run zab run: %s", strerror(errno));
		return -1;
	}
	if (bs_signal)
		b->stopped = WIFSIGNALED(st) ?
			     cz_xasprintf("; the probe of %s stopped, its run not stored", c->v) :
			     cz_xasprintf("; the probe of %s had ended first (zab run exit %d)", c->v,
					  WEXITSTATUS(st));
	return WIFEXITED(st) && WEXITSTATUS(st) <= 1 && !bs_signal ? 0 : -1;
}

/* Step k vs the base, decided: its answer, or -1 (failed, not stored, stopped). */
static int bs_probe(struct bs *b, const char *cls, long k, struct bs_cmp *c)
{
	char a[160], v[160], txt[200];

	snprintf(a, sizeof(a), "%s@0", b->seq);
	snprintf(v, sizeof(v), "%s@%ld", b->seq, k);
	bs_cmp_init(c, b->o.file, a, v);
	if (bs_compare(b, cls, c) || bs_signal)
		return -1;
	b->reused += c->reused;
	if (!c->d.sessions) {
		cz_err("bisect: %s: step %ld/%ld: %s", cls, k, b->last,
		       c->failed ? c->err : b->o.stored ? "no stored run holds it and the base" :
		       "the run holds no session of both");
		return -1;
	}
	cz_err("bisect: %s: step %ld/%ld %s vs the base: %s: %s%s (%u run%s new, %u stored)", cls, k,
	       b->last, c->label, bs_cmp_text(c, txt, sizeof(txt)), czst_answer_name(c->d.answer),
	       c->capped ? " within the budget" : "", c->ran, c->ran == 1 ? "" : "s", c->reused);
	return (int)c->d.answer;
}

/* "undecided on CLASS: step k/N ...", the range still open when lo >= 0. */
static void bs_undecided(const struct bs *b, const char *cls, long k, const struct bs_cmp *c, long lo,
			 long hi)
{
	char txt[200];

	if (!c->d.sessions)
		printf("could not decide on %s: step %ld/%ld has no session to compare with the base%s%s", cls,
		       k, b->last, c->failed ? ": " : "", c->failed ? c->err : "");
	else
		printf("undecided on %s: step %ld/%ld %s vs the base: %s, neither beyond nor within +-%.1f%%%s",
		       cls, k, b->last, c->label, bs_cmp_text(c, txt, sizeof(txt)), b->o.band,
		       c->capped ? " (the budget ran out)" : "");
	if (c->d.sessions && c->failed)
		printf("; a run failed: %s", c->err);
	if (lo >= 0)
		printf("; the first change is in steps %ld..%ld", lo + 1, hi);
	putchar('\n');
}

/* The ends, the search and the checks over class cls: a BS_ exit code. */
static int bs_search(struct bs *b, const char *cls)
{
	struct bs_cmp end, p, first;
	long lo = 0, hi = b->last, mid;
	char txt[200];
	int c;

	c = bs_probe(b, cls, hi, &end);
	if (bs_signal)
		return BS_STOPPED;
	if (c != CZST_CHANGED && c != CZST_SAME) {
		bs_undecided(b, cls, hi, &end, -1, 0);
		return BS_UNDECIDED;
	}
	if (c == CZST_SAME) {
		printf("no change on %s: step %ld/%ld %s is the same as the base within +-%.1f%% in %s: %s\n",
		       cls, hi, b->last, end.label, b->o.band, end.indev ? "device" : end.bench,
		       bs_cmp_text(&end, txt, sizeof(txt)));
		return BS_NONE;
	}
	first = end;
	/* the base (lo) is the same, step hi changed: narrow down to adjacent steps */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		c = bs_probe(b, cls, mid, &p);
		if (bs_signal)
			return BS_STOPPED;
		if (c != CZST_CHANGED && c != CZST_SAME) {
			bs_undecided(b, cls, mid, &p, lo, hi);
			return BS_UNDECIDED;
		}
		if (c == CZST_CHANGED) {
			hi = mid;
			first = p;
		} else {
			lo = mid;
		}
	}
	printf("first change: step %ld/%ld %s: %+.2f%% (%s) in %s on %s\n", hi, b->last, first.label,
	       first.d.pct, first.d.pct < 0 ? "R" : "I", first.indev ? "device" : first.bench, cls);
	printf("  vs the base: %s\n", bs_cmp_text(&first, txt, sizeof(txt)));
	if (b->o.stored)
		printf("  not verified: --stored runs nothing (bisect without it checks the culprit)\n");
	return b->o.stored ? BS_FOUND : bs_verify(b, cls, hi, lo, &first);
}

/* The sequence of the experiment file: its name, N, and every step present. */
static int bs_sequence(struct bs *b)
{
	struct zab_experiment e = { .sessions = 1 };
	size_t v, len;
	long k, seen = 0;
	int ret = -1;

	/* the check expands the experiment's sequences into their steps */
	if (zab_experiment_load(&e, zab_find_experiment(b->o.file)) || zab_experiment_check(&e))
		goto out;
	b->title = cz_xstrdup(e.name ? e.name : b->o.file);
	for (v = 0; v < e.nvar && !b->seq; v++)
		if (b->o.seq ? zab_step_of(e.var[v].name, b->o.seq, NULL) >= 0 :
		    zab_step_of(e.var[v].name, NULL, &len) >= 0)
			b->seq = b->o.seq ? cz_xstrdup(b->o.seq) : cz_xasprintf("%.*s", (int)len, e.var[v].name);
	b->last = -1;
	for (v = 0; b->seq && v < e.nvar; v++) {
		k = zab_step_of(e.var[v].name, b->seq, NULL);
		if (k >= 0 && k < 63) {
			seen |= 1L << k;
			if (k > b->last)
				b->last = k;
		}
	}
	for (v = 0; b->seq && v < e.nvar; v++)
		if (zab_step_of(e.var[v].name, b->seq, NULL) == b->last && e.var[v].seq_kind)
			b->series = !strcmp(e.var[v].seq_kind, "series");
	if (!b->seq)
		cz_err("bisect: %s has no sequence%s%s (variants NAME@0, NAME@1 ...)", b->o.file,
		       b->o.seq ? " named " : "", b->o.seq ? b->o.seq : "");
	else if (b->last < 1 || seen != (1L << (b->last + 1)) - 1)
		cz_err("bisect: sequence %s of %s: expected steps %s@0..%s@N, N >= 1, none missing", b->seq,
		       b->o.file, b->seq, b->seq);
	else if ((b->frame = zab_run_frame(b->o.file)))
		ret = 0;
out:
	zab_experiment_free(&e);
	return ret;
}

/* --band PCT, --max-sessions N, --budget-seconds S: 0, or -1 after one line. */
static int bs_number(int c, const char *arg, struct bs_opts *o)
{
	const char *name = c == 'b' ? "--band" : c == 'm' ? "--max-sessions" : "--budget-seconds";
	char *end;
	double x;

	errno = 0;
	x = strtod(arg, &end);
	if (errno || end == arg || *end || !(x >= 0) || (c == 'b' && !(x < 100)) ||
	    (c == 'm' && (x < 2 || x > BS_MAXX || x != floor(x))) || (c == 'B' && !(x < 1e9))) {
		cz_err("bisect: %s %s: %s", name, arg, c == 'b' ? "not a per cent from 0 to 100" :
		       c == 'm' ? "not a whole number of sessions from 2 to 1024" : "not a number of seconds");
		return -1;
	}
	if (c == 'b')
		o->band = x;
	else if (c == 'm')
		o->max_sessions = (unsigned)x;
	else
		o->budget = x;
	return 0;
}

/* The options: 0, 1 (--help shown) or -1 after one line. */
static int bs_parse(int argc, char **argv, struct bs_opts *o)
{
	static const struct option opts[] = {
		{ "variant", required_argument, NULL, 'v' },
		{ "result", required_argument, NULL, 'r' },
		{ "store", required_argument, NULL, 'S' },
		{ "sut", required_argument, NULL, 'c' },
		{ "seed", required_argument, NULL, 's' },
		{ "cusezero", required_argument, NULL, 'z' },
		{ "stored", no_argument, NULL, 'o' },
		{ "band", required_argument, NULL, 'b' },
		{ "max-sessions", required_argument, NULL, 'm' },
		{ "budget-seconds", required_argument, NULL, 'B' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char bad[8];
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":v:r:h", opts, NULL)) != -1) {
		switch (c) {
		case 'v': o->seq = optarg; break;
		case 'r': o->result = optarg; break;
		case 'S': o->store = optarg; break;
		case 'c': o->sut = optarg; break;
		case 's': o->seed = optarg; break;
		case 'z': o->cusezero = optarg; break;
		case 'o': o->stored = true; break;
		case 'b':
		case 'm':
		case 'B':
			if (bs_number(c, optarg, o))
				return -1;
			break;
		case 'h':
			printf("Usage: zab bisect EXPERIMENT_FILE [--variant NAME] [--result CLASS] [--store URL]\n"
			       "         [--sut CLASS] [--seed N] [--cusezero PATH] [--stored] [--band PCT]\n"
			       "         [--max-sessions N] [--budget-seconds S]\n"
			       "The first step of sequence NAME (NAME@0 the base .. NAME@N) whose figure differs\n"
			       "from the base's, by binary search; each probe step k vs the base over sessions\n"
			       "(stored runs when there are, else run and stored): changed (its 95%% interval\n"
			       "beyond +-PCT), same (inside) or undecided, which gets more sessions, doubling.\n"
			       "The culprit is checked against its parent (ABBA) and, for a series, by the\n"
			       "last step without its patch.\n"
			       "--stored: no new runs, one answer per SUT class in the store, unverified.\n"
			       "--band PCT: the equivalence band, per cent (default 2).\n"
			       "--max-sessions N: per comparison (default 32); --budget-seconds S: no sessions\n"
			       "added after S seconds (default 540, 0: none).\n"
			       "Exit: 0 a change found and verified, 1 none, 3 a check of the culprit failed\n"
			       "(a range printed), 125 undecided, 2 usage,\n"
			       "128 + the signal (143 SIGTERM, 130 SIGINT): the probe's run stopped, waited for.\n");
			zab_help_end(stdout, "bisect");
			return 1;
		default:
			zab_bad_option(c, argv, bad, sizeof(bad));
			return -1;
		}
	}
	if (optind + 1 != argc) {
		cz_err(optind < argc ? "bisect: one experiment file, not '%s' too" :
		       "bisect: give the experiment file%s", optind < argc ? argv[optind + 1] : "");
		return -1;
	}
	if (o->seed && strspn(o->seed, "0123456789") != strlen(o->seed)) {
		cz_err("--seed '%s': expected a non-negative integer", o->seed);
		return -1;
	}
	o->file = argv[optind];
	return 0;
}

/* --stored: every class in the store answered from its stored runs alone. */
static int bs_all_stored(struct bs *b)
{
	char *cls[64];
	size_t i, j, nc = 0;
	int ret = BS_NONE, r;

	if (bs_load(b, b->o.sut))
		return 2;
	for (i = 0; i < b->nr; i++) {
		for (j = 0; j < nc && strcmp(cls[j], b->r[i].sut); j++)
			;
		if (j == nc && nc < 64)
			cls[nc++] = cz_xstrdup(b->r[i].sut);
	}
	if (!nc) {      /* nothing to test: as a git bisect run script that cannot */
		printf("could not decide: no stored run of experiment '%s'%s%s%s in %s\n", b->title,
		       b->refused ? " that pools with this file's" : "", b->o.sut ? " on SUT class " : "",
		       b->o.sut ? b->o.sut : "", czs_name(b->s));
		return BS_UNDECIDED;
	}
	for (i = 0; i < nc; i++) {
		r = bs_signal ? BS_STOPPED : bs_search(b, cls[i]);
		if (r == BS_STOPPED || (ret != BS_STOPPED && (r == BS_FOUND ||
		    (r == BS_UNDECIDED && ret == BS_NONE))))
			ret = r;
		free(cls[i]);
	}
	return ret;
}

int zab_cmd_bisect(int argc, char **argv)
{
	struct bs b;
	struct timespec t0, t1;
	char *cls = NULL;
	int ret;

	memset(&b, 0, sizeof(b));
	b.o.band = BS_BAND_PCT;
	b.o.max_sessions = BS_MAX_SESSIONS;
	b.signal = &bs_signal;
	b.load = bs_load;
	b.run = bs_zabrun;
	b.o.budget = BS_BUDGET_S;
	ret = bs_parse(argc, argv, &b.o);
	if (ret)
		return ret > 0 ? 0 : 2;
	bs_signals(&b.sigs);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	b.t0 = t0;
	ret = 2;
	if (bs_sequence(&b) || !(b.s = zab_store_open(b.o.store)))
		goto out;
	if (b.o.stored) {
		ret = bs_all_stored(&b);
	} else {
		cls = b.o.sut ? cz_xstrdup(b.o.sut) : zab_default_sut();
		if (!bs_load(&b, cls))
			ret = bs_search(&b, cls);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (bs_signal) {
		cz_err("bisect: stopped by signal %d%s", (int)bs_signal, b.stopped ? b.stopped : "");
		ret = 128 + bs_signal;
	} else if (ret != 2)
		cz_err("bisect: %u run%s made, %u stored run%s pooled, %.1f s", b.ran, b.ran == 1 ? "" : "s",
		       b.reused, b.reused == 1 ? "" : "s", (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
out:
	fflush(stdout);
	bs_free_results(&b);
	czs_close(b.s);
	free(cls);
	free(b.title);
	free(b.seq);
	json_decref(b.frame);
	free(b.stopped);
	return ret;
}
