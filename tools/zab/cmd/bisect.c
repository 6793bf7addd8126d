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
 * The search assumes that once a step changes the figure, the later ones
 * do too (as git bisect assumes of commits); the change hunted is the one
 * the last step shows (bs_like_end).
 *
 * Exit: 0 a first change found, 1 no change (the last step is as the
 * base), 125 could not decide (a probe failed or is missing), 2 usage,
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

#include "cli.h"
#include "cmd.h"
#include "czstore.h"
#include "model/steps.h"

#define BS_FOUND 0
#define BS_NONE 1
#define BS_UNDECIDED 125
#define BS_STOPPED (-1)

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
 * The equivalence band: a probe marked (R)/(I) whose change is smaller
 * than this (per cent, either way) counts as no change.  A sequence's
 * steps are measured in one run against the base, and on a busy machine an
 * A/A step came out -1.18% (R) and a comment-only commit +1.49% (I): marks
 * from the machine's noise, not from the step, which a verdict must not
 * name as the culprit.  --band sets it (0: every mark counts).
 */
#define BS_BAND_PCT 2.0

struct bs_opts {
	const char *file, *seq, *result, *store, *sut, *seed, *cusezero;
	bool stored;
	double band;
};

struct bs {
	struct bs_opts o;
	char *title, *seq;
	long last;                   /* N: the steps after the base */
	json_t *frame;                 /* what a run of the file records (zab_run_frame) */
	struct czs *s;
	struct czres_result *r;        /* the experiment's stored runs (oldest first) */
	size_t nr, refused, told;      /* told: the runs left out the last line counted */
	unsigned ran, reused;
	long probed[CZRES_MAX_ITEMS];  /* the steps compared with the base, in order (this class) */
	size_t nprobed;
	bool paired;                   /* the probes' verdict rule */
	sigset_t sigs;                 /* the signals passed on to a probe's run */
	char *stopped;                 /* stopped by a signal: what became of the probe */
};

/* What a probe said: verdict as czst_change (CZST_CHANGE_NONE: no verdict), its facts. */
struct bs_probe {
	int verdict;
	double pct;
	char label[256], bench[256], uuid[40];
	bool indev, paired;
	bool base_bad, step_bad;     /* the base's / the step's cell failed or has no sample */
	bool banded;                 /* marked, but inside the band: counted as no change */
};

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

/* Step k vs the base in the newest stored run of class cls holding both: true when found. */
static bool bs_stored(const struct bs *b, const char *cls, long k, struct bs_probe *p)
{
	char *v0 = cz_xasprintf("%s@0", b->seq), *vk = cz_xasprintf("%s@%ld", b->seq, k);
	bool found = false;
	size_t i;

	for (i = b->nr; i-- > 0 && !found;) {
		struct czres_result *r = &b->r[i];
		size_t i0 = czres_name_index(r->vname, r->nv, v0), ik = czres_name_index(r->vname, r->nv, vk);
		size_t bi = zab_step_bench(r, b->o.result), base = r->base;
		const json_t *run = json_object_get(r->doc, "run");

		if (strcmp(r->sut, cls) || i0 == r->nv || ik == r->nv || bi == r->nb)
			continue;       /* another class or another step */
		r->base = i0;
		p->verdict = czst_change(r, bi, ik, &p->pct);
		r->base = base;
		snprintf(p->label, sizeof(p->label), "%s", zab_step_label(r, vk));
		snprintf(p->bench, sizeof(p->bench), "%s", r->b[bi].name);
		snprintf(p->uuid, sizeof(p->uuid), "%.8s",
			 json_string_value(json_object_get(run, "uuid")) ?: "?");
		p->indev = r->b[bi].kind != CZRES_RK_CMD;
		p->paired = r->paired;
		p->base_bad = czres_cell(r, bi, i0)->failed || !czres_cell(r, bi, i0)->n;
		p->step_bad = czres_cell(r, bi, ik)->failed || !czres_cell(r, bi, ik)->n;
		found = true;
	}
	free(v0);
	free(vk);
	return found;
}

/* zab run EXPERIMENT --only-variants NAME@0,NAME@k, recorded; its table on stderr: 0 or -1. */
static int bs_run(struct bs *b, const char *cls, long k)
{
	char *only = cz_xasprintf("%s@0,%s@%ld", b->seq, b->seq, k), *base = cz_xasprintf("%s@0", b->seq);
	const char *argv[24];
	int n = 0, st;
	sigset_t old;
	pid_t pid, w = -1;

	argv[n++] = "zab";
	argv[n++] = "run";
	argv[n++] = "--only-variants";
	argv[n++] = only;
	argv[n++] = "--base";
	argv[n++] = base;
	argv[n++] = "--sut";
	argv[n++] = cls;
	argv[n++] = "--no-progress";
	if (b->o.store) {
		argv[n++] = "--store";
		argv[n++] = b->o.store;
	}
	if (b->o.seed) {
		argv[n++] = "--seed";
		argv[n++] = b->o.seed;
	}
	if (b->o.cusezero) {
		argv[n++] = "--cusezero";
		argv[n++] = b->o.cusezero;
	}
	argv[n++] = b->o.file;
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
	free(base);
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
			     cz_xasprintf("; the probe of step %ld/%ld stopped, its run not stored", k, b->last) :
			     cz_xasprintf("; the probe of step %ld/%ld had ended first (zab run exit %d)", k,
					  b->last, WEXITSTATUS(st));
	return WIFEXITED(st) && WEXITSTATUS(st) <= 1 && !bs_signal ? 0 : -1;
}

/* One probe: 1 changed, 0 not, -1 no verdict (failed, not stored, not comparable). */
static int bs_probe(struct bs *b, const char *cls, long k, struct bs_probe *p)
{
	bool have = bs_stored(b, cls, k, p), fresh = false;

	if (have) {
		b->reused++;
	} else if (!b->o.stored) {
		if (bs_run(b, cls, k) || bs_signal || bs_load(b, b->o.stored ? NULL : cls))
			return -1;
		b->ran++;
		fresh = true;
		have = bs_stored(b, cls, k, p);
	}
	if (!have) {
		cz_err("bisect: %s: step %ld/%ld: %s", cls, k, b->last,
		       b->o.stored ? "no stored run holds it and the base" : "the run holds no verdict");
		return -1;
	}
	b->probed[b->nprobed++ % CZRES_MAX_ITEMS] = k;
	b->paired = p->paired;
	if (p->verdict == CZST_CHANGE_NONE) {
		cz_err("bisect: %s: step %ld/%ld %s: no verdict (%s)", cls, k, b->last, p->label,
		       p->base_bad ? "the base failed or has no samples: nothing to compare with" :
		       p->step_bad ? "the step failed or has no samples" : "too few samples to compare");
		return -1;
	}
	cz_err("bisect: %s: step %ld/%ld %s vs the base: %+.2f%%%s (%s run %s)", cls, k, b->last,
	       p->label, p->pct, p->verdict < 0 ? " (R)" : p->verdict > 0 ? " (I)" : ", no change",
	       fresh ? "new" : "stored", p->uuid);
	if (p->verdict && fabs(p->pct) < b->o.band) {
		cz_err("bisect: %s: step %ld/%ld: %+.2f%% is inside the +-%.1f%% band: counted as no change",
		       cls, k, b->last, p->pct, b->o.band);
		p->verdict = 0;
		p->banded = true;
	}
	return p->verdict != 0;
}

static void bs_first(const struct bs *b, const char *cls, long k, const struct bs_probe *p)
{
	printf("first change: step %ld/%ld %s: %+.2f%% (%s) in %s on %s\n", k, b->last, p->label, p->pct,
	       p->verdict < 0 ? "R" : "I", p->indev ? "device" : p->bench, cls);
}

/*
 * A probe that says "changed" still counts as the base when its change is
 * nearer the base's figure than the last step's, or of the other sign: the
 * change hunted is the one the last step shows (a 9% blip of a noisy
 * probe is not the -85% the search is after; history --by series shows
 * every change point).
 */
static bool bs_like_end(const struct bs_probe *p, const struct bs_probe *end)
{
	return p->verdict == end->verdict && fabs(p->pct) >= fabs(p->pct - end->pct);
}

/* Which comparisons the answer of class cls rests on (history --by series makes others). */
static void bs_compared(const struct bs *b, const char *cls, int first)
{
	size_t i;

	if (!b->nprobed || first > 0)
		return;         /* a change at step N: the search goes on, told at its end */
	fprintf(stderr, "zab: bisect: %s: compared step", cls);
	for (i = 0; i < b->nprobed && i < CZRES_MAX_ITEMS; i++)
		fprintf(stderr, "%s%ld", i ? ", " : " ", b->probed[i]);
	fprintf(stderr, " each with the base %s@0 within one run (verdict %s); history --by series pools every run's sessions per step instead\n",
		b->seq, b->paired ? "paired" : "overlap");
}

/* "has no verdict", and why when it is the base's. */
static void bs_no_verdict(const struct bs *b, const char *cls, long k, const struct bs_probe *p, long lo,
			  long hi)
{
	printf("could not decide on %s: step %ld/%ld has no verdict%s", cls, k, b->last,
	       p->base_bad ? ": the base failed (no sample to compare with)" :
	       p->step_bad ? ": the step failed" : "");
	if (lo >= 0)
		printf(" (first change in %ld..%ld)", lo + 1, hi);
	putchar('\n');
}

/* The binary search over class cls: BS_FOUND, BS_NONE or BS_UNDECIDED. */
static int bs_search(struct bs *b, const char *cls)
{
	struct bs_probe p, end, first;
	long lo = 0, hi = b->last, mid;
	int c;

	memset(&p, 0, sizeof(p));
	memset(&end, 0, sizeof(end));
	b->nprobed = 0;
	c = bs_probe(b, cls, hi, &end);
	if (bs_signal)
		return BS_STOPPED;
	bs_compared(b, cls, c);
	if (c < 0) {
		bs_no_verdict(b, cls, hi, &end, -1, 0);
		return BS_UNDECIDED;
	}
	if (!c) {
		if (end.banded)
			printf("no change on %s: step %ld/%ld %s is as the base (%+.2f%%, inside the +-%.1f%% "
			       "band in %s)\n", cls, hi, b->last, end.label, end.pct, b->o.band,
			       end.indev ? "device" : end.bench);
		else
			printf("no change on %s: step %ld/%ld %s is as the base (%+.2f%%, no (R)/(I) in %s)\n",
			       cls, hi, b->last, end.label, end.pct, end.indev ? "device" : end.bench);
		return BS_NONE;
	}
	first = end;
	/* the base (lo) is unchanged, step hi changed: narrow down to adjacent steps */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		c = bs_probe(b, cls, mid, &p);
		if (bs_signal)
			return BS_STOPPED;
		if (c < 0) {
			bs_compared(b, cls, -1);
			bs_no_verdict(b, cls, mid, &p, lo, hi);
			return BS_UNDECIDED;
		}
		if (c && !bs_like_end(&p, &end)) {
			cz_err("bisect: %s: step %ld/%ld is nearer the base than step %ld/%ld (%+.2f%%): counted as the base",
			       cls, mid, b->last, b->last, b->last, end.pct);
			c = 0;
		}
		if (c) {
			hi = mid;
			first = p;
		} else {
			lo = mid;
		}
	}
	bs_compared(b, cls, -1);
	bs_first(b, cls, hi, &first);
	return BS_FOUND;
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
		case 'b': {
			char *end;

			errno = 0;
			o->band = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(o->band >= 0 && o->band < 100)) {
				cz_err("bisect: --band %s: not a per cent from 0 to 100", optarg);
				return -1;
			}
			break;
		}
		case 'h':
			printf("Usage: zab bisect EXPERIMENT_FILE [--variant NAME] [--result CLASS] [--store URL]\n"
			       "         [--sut CLASS] [--seed N] [--cusezero PATH] [--stored] [--band PCT]\n"
			       "The first step of sequence NAME (NAME@0 the base .. NAME@N) whose figure differs\n"
			       "from the base's by the experiment's verdict rule, by binary search; each probe an\n"
			       "A/B of step k vs the base, a stored run when there is one, else run and stored.\n"
			       "--stored: no new runs, one answer per SUT class in the store.\n"
			       "--band PCT: a marked change smaller than PCT per cent is no change (default 2).\n"
			       "Exit: 0 a change found, 1 none, 125 could not decide, 2 usage,\n"
			       "128 + the signal (143 SIGTERM, 130 SIGINT): the probe's run stopped, waited for.\n");
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
	ret = bs_parse(argc, argv, &b.o);
	if (ret)
		return ret > 0 ? 0 : 2;
	bs_signals(&b.sigs);
	clock_gettime(CLOCK_MONOTONIC, &t0);
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
		cz_err("bisect: %u probe%s run, %u from the store, %.1f s", b.ran, b.ran == 1 ? "" : "s",
		       b.reused, (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
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
