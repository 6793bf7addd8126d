/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab bisect's decided comparisons and the checks of its culprit.
 *
 * A comparison (bs_compare) pools the per-session ratios of every run
 * that holds both variants -- stored runs that pool with the file's
 * (bisect.c), or the JSON files of its own runs -- and decides changed,
 * same or undecided (stats/decide.h).  Undecided, it runs as many
 * sessions again as it has (Pinpoint's "unknown" that asks for more
 * repeats), until it decides, the sessions reach --max-sessions or the
 * bisect's --budget-seconds have passed.
 *
 * The culprit K is then checked, as Pinpoint re-measures the commits
 * around a culprit and KernelCI reverts it on top of the tree:
 *   parent   step K vs step K-1 in fresh runs, order abba (A B B A ...),
 *            must change as step K changed against the base;
 *   revert   a patch series only: the last step without patch K, against
 *            the base, must be the same within the band (or the patches
 *            after K need it: that is said).
 * A check that fails turns the answer into the range the bisect vouches
 * for (exit BS_UNVERIFIED).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bisect.h"
#include "cli.h"
#include "model/steps.h"

void bs_cmp_init(struct bs_cmp *c, const char *file, const char *a, const char *v)
{
	memset(c, 0, sizeof(*c));
	c->file = file;
	snprintf(c->a, sizeof(c->a), "%s", a);
	snprintf(c->v, sizeof(c->v), "%s", v);
	snprintf(c->label, sizeof(c->label), "%s", v);
	czst_decide(NULL, 0, 0, &c->d);
}

const char *bs_cmp_text(const struct bs_cmp *c, char *buf, size_t len)
{
	if (!c->d.sessions)
		snprintf(buf, len, "no session of both");
	else if (isnan(c->d.lo))
		snprintf(buf, len, "%+.2f%%, 1 session: no interval", c->d.pct);
	else
		snprintf(buf, len, "%+.2f%% [95%% %+.2f..%+.2f%%], %zu sessions", c->d.pct, c->d.lo,
			 c->d.hi, c->d.sessions);
	return buf;
}

/* One result's sessions of c->v vs c->a into x; its facts into c. */
static void bs_take(const struct bs *b, struct bs_cmp *c, const struct czres_result *r, double *x,
		    size_t *n)
{
	size_t ia = czres_name_index(r->vname, r->nv, c->a), iv = czres_name_index(r->vname, r->nv, c->v);
	size_t bi = zab_step_bench(r, b->o.result);
	const struct czres_cell *ca, *cv;

	if (ia == r->nv || iv == r->nv || bi == r->nb)
		return;
	ca = czres_cell(r, bi, ia);
	cv = czres_cell(r, bi, iv);
	if (ca->failed || !ca->n || cv->failed || !cv->n) {
		const struct czres_cell *bad = ca->failed || !ca->n ? ca : cv;
		const char *e = bad->error ? bad->error : "no sample";

		c->failed = true;
		snprintf(c->err, sizeof(c->err), "%s failed: %.*s", bad == ca ? c->a : c->v,
			 (int)strcspn(e, "\n"), e);
		return;
	}
	czst_session_ratios(r, bi, ia, iv, x, n, BS_MAXX);
	snprintf(c->label, sizeof(c->label), "%s", zab_step_label(r, c->v));
	snprintf(c->bench, sizeof(c->bench), "%s", r->b[bi].name);
	snprintf(c->uuid, sizeof(c->uuid), "%.8s",
		 json_string_value(json_object_get(json_object_get(r->doc, "run"), "uuid")) ?: "?");
	c->indev = r->b[bi].kind != CZRES_RK_CMD;
}

/* Every run of c so far: the per-session ratios in x[0..*n). */
static void bs_gather(const struct bs *b, const char *cls, struct bs_cmp *c, double *x, size_t *n)
{
	size_t i;
	unsigned j;

	*n = 0;
	c->failed = false;
	if (c->json) {
		for (j = 0; j < c->njson; j++) {
			char *path = cz_xasprintf("%s.%u", c->json, j);
			json_t *doc = czres_json_load(path, "bisect");
			struct czres_result r;

			memset(&r, 0, sizeof(r));
			if (doc && !czres_result_from_json(&r, doc, path))
				bs_take(b, c, &r, x, n);
			czres_result_free(&r);
			free(path);
		}
		return;
	}
	c->reused = 0;
	for (i = c->from; i < b->nr; i++) {
		size_t before = *n;

		if (strcmp(b->r[i].sut, cls))
			continue;
		bs_take(b, c, &b->r[i], x, n);
		c->reused += *n > before;
	}
	c->reused -= c->reused > c->ran ? c->ran : c->reused;
}

/* The bisect's seconds so far. */
static double bs_elapsed(const struct bs *b)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - b->t0.tv_sec) + (t.tv_nsec - b->t0.tv_nsec) / 1e9;
}

int bs_compare(struct bs *b, const char *cls, struct bs_cmp *c)
{
	static double x[BS_MAXX];
	size_t n = 0, had = (size_t)-1;
	unsigned add;

	for (;;) {
		bs_gather(b, cls, c, x, &n);
		czst_decide(x, n, b->o.band, &c->d);
		if (c->d.answer != CZST_UNDECIDED || b->o.stored || c->failed || n == had)
			return 0;
		/* the first run always; more while the budget lasts */
		if (n && (n >= b->o.max_sessions || (b->o.budget > 0 && bs_elapsed(b) >= b->o.budget))) {
			c->capped = true;
			return 0;
		}
		/* as many sessions again (the file's at first), not past the maximum */
		add = n ? (unsigned)(n < b->o.max_sessions - n ? n : b->o.max_sessions - n) : 0;
		had = n;
		if (b->run(b, cls, c, add))
			return -1;
		c->ran++;
		b->ran++;
		if (c->json)
			c->njson++;
		else if (b->load(b, cls))
			return -1;
	}
}

/* zab expand FILE -o OUT, waited for: 0 or -1. */
static int bs_expand(const char *file, const char *out)
{
	const char *argv[] = { "zab", "expand", file, "-o", out, NULL };
	pid_t pid, w;
	int st;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		execv("/proc/self/exe", (char *const *)argv);
		_exit(127);
	}
	while (pid > 0 && (w = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
		;
	return pid > 0 && w == pid && WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -1;
}

/* A provenance key of a step (the revert check's variants are no steps), or (!step) base=. */
static bool bs_provenance(const char *line, bool step)
{
	static const char *const keys[] = { "sequence", "sequence-kind", "step", "steps", "label",
					    "kernel-version", "git-commit", "base" };
	size_t i, len = strcspn(line, " \t=");

	for (i = step ? 0 : 7; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strlen(keys[i]) == len && !strncmp(line, keys[i], len) && line[len + strspn(line + len, " \t")] == '=')
			return true;
	return false;
}

/* "patch = P1 .. PN" without word k (1-based) to out. */
static void bs_patch_line(FILE *out, const char *line, long k)
{
	const char *p = strchr(line, '=') + 1;
	long i = 0;
	size_t len;

	fputs("patch =", out);
	for (p += strspn(p, " \t\n"); *p; p += len, p += strspn(p, " \t\n"))
		if (len = strcspn(p, " \t\n"), ++i != k)
			fprintf(out, " %.*s", (int)len, p);
	fputc('\n', out);
}

/*
 * The revert check's experiment: the expanded file's sections but the
 * variants, NAME@0 as "base" and NAME@N as "without-patch-K" with patch K
 * left out of its patch= list.  0 or -1.
 */
static int bs_revert_file(const struct bs *b, long k, const char *expanded, const char *out)
{
	char *s0 = cz_xasprintf("[variant %s@0]", b->seq), *sn = cz_xasprintf("[variant %s@%ld]", b->seq, b->last);
	char line[8192];
	FILE *in = fopen(expanded, "r"), *o = fopen(out, "w");
	int keep = 1, ret = -1;         /* 0 dropped, 1 as is, 2 the base, 3 the step without k */

	if (in && o) {
		while (fgets(line, sizeof(line), in)) {
			const char *t = line + strspn(line, " \t");

			if (*t == '[') {
				keep = !strncmp(t, s0, strlen(s0)) ? 2 : !strncmp(t, sn, strlen(sn)) ? 3 :
				       strncmp(t, "[variant", 8) ? 1 : 0;
				if (keep == 2)
					fputs("[variant base]\n", o);
				else if (keep == 3)
					fprintf(o, "[variant without-patch-%ld]\n", k);
				else if (keep)
					fputs(line, o);
				continue;
			}
			if (!keep || bs_provenance(t, keep > 1))
				continue;
			if (keep == 3 && !strncmp(t, "patch", 5) && strchr(t, '='))
				bs_patch_line(o, t, k);
			else
				fputs(line, o);
		}
		ret = ferror(in) ? -1 : 0;
	}
	if (o && fclose(o))
		ret = -1;
	if (in)
		fclose(in);
	free(s0);
	free(sn);
	return ret;
}

/*
 * Step v vs step a in fresh runs in ABBA order: true when the answer is
 * want (and, changed, of first's sign).  The parent check (a = k - 1,
 * changed) and, for a sequence that is no series, the tail check (step N
 * vs step k, the same: nothing after k adds to the change).
 */
static bool bs_fresh(struct bs *b, const char *cls, long a, long v, enum czst_answer want,
		     const struct bs_cmp *first, const char *what)
{
	char sa[160], sv[160], txt[200];
	struct bs_cmp c;
	bool ok;

	snprintf(sa, sizeof(sa), "%s@%ld", b->seq, a);
	snprintf(sv, sizeof(sv), "%s@%ld", b->seq, v);
	bs_cmp_init(&c, b->o.file, sa, sv);
	c.from = b->nr;         /* runs of this check only */
	c.order = "abba";
	if (bs_compare(b, cls, &c) || *b->signal)
		return false;
	ok = c.d.answer == want && (want != CZST_CHANGED || (c.d.pct < 0) == (first->d.pct < 0));
	printf("  check %s: step %ld/%ld vs step %ld/%ld in fresh runs (order abba): %s: %s%s -- %s\n",
	       what, v, b->last, a, b->last, c.d.sessions || !c.failed ? bs_cmp_text(&c, txt, sizeof(txt)) : c.err,
	       czst_answer_name(c.d.answer), c.capped ? " within the budget" : "", ok ? "verified" : "FAILED");
	return ok;
}

/* The revert check: 1 verified, 0 failed, -1 not checked (said why). */
static int bs_revert(struct bs *b, const char *cls, long k)
{
	char *dir = cz_xasprintf("%s/zab-bisect.XXXXXX", getenv("TMPDIR") ?: "/tmp"), *exp, *rev, *json;
	char what[64], txt[200];
	struct bs_cmp c;
	int ret = -1;
	unsigned j;

	memset(&c, 0, sizeof(c));
	if (!mkdtemp(dir)) {
		printf("  check without patch %ld: not checked: cannot make a folder: %s\n", k, strerror(errno));
		free(dir);
		return -1;
	}
	exp = cz_xasprintf("%s/expanded.ini", dir);
	rev = cz_xasprintf("%s/revert.ini", dir);
	json = cz_xasprintf("%s/run", dir);
	snprintf(what, sizeof(what), "without-patch-%ld", k);
	if (bs_expand(b->o.file, exp) || bs_revert_file(b, k, exp, rev)) {
		printf("  check without patch %ld: not checked: the experiment could not be rewritten\n", k);
		goto out;
	}
	bs_cmp_init(&c, rev, "base", what);
	c.json = json;
	if (bs_compare(b, cls, &c) || *b->signal)
		goto out;
	if (c.failed && !c.d.sessions) {
		printf("  check without patch %ld: not checked: step %ld/%ld without patch %ld does not run "
		       "(the later patches may not apply without it): %s\n", k, b->last, b->last, k, c.err);
		goto out;
	}
	ret = c.d.answer == CZST_SAME;
	printf("  check without patch %ld: step %ld/%ld with every patch but %ld vs the base: %s: %s%s -- %s\n",
	       k, b->last, b->last, k, bs_cmp_text(&c, txt, sizeof(txt)), czst_answer_name(c.d.answer),
	       c.capped ? " within the budget" : "", ret ? "verified" : "FAILED");
out:
	for (j = 0; j <= c.njson; j++) {      /* and a failed run's file */
		char *p = cz_xasprintf("%s.%u", json, j);

		unlink(p);
		free(p);
	}
	unlink(exp);
	unlink(rev);
	rmdir(dir);
	free(dir);
	free(exp);
	free(rev);
	free(json);
	return ret;
}

int bs_verify(struct bs *b, const char *cls, long k, long lo, const struct bs_cmp *first)
{
	bool parent = bs_fresh(b, cls, k - 1, k, CZST_CHANGED, first, "vs its parent");
	int rev = 1;

	if (*b->signal)
		return BS_STOPPED;
	if (parent && b->series)
		rev = bs_revert(b, cls, k);
	else if (parent && k < b->last)
		rev = bs_fresh(b, cls, k, b->last, CZST_SAME, first, "of the last step against it");
	if (*b->signal)
		return BS_STOPPED;
	if (!parent) {
		printf("unverified on %s: the figure changes between step %ld/%ld and step 0 (the base), "
		       "but step %ld alone does not account for it: the change is in steps 1..%ld "
		       "(the search's same steps up to %ld are each within the band only)\n",
		       cls, k, b->last, k, k, lo);
		return BS_UNVERIFIED;
	}
	if (!rev) {
		printf("unverified on %s: step %ld/%ld changes the figure, but %s: the change is in steps "
		       "%ld..%ld, not step %ld alone\n", cls, k, b->last, b->series ?
		       "the last step without it is not the base's" : "the last step differs from it", k,
		       b->last, k);
		return BS_UNVERIFIED;
	}
	return BS_FOUND;
}
