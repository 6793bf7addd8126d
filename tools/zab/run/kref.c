/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The running kernel as reference (zeroing/kref.h, zbench kernel) in zab:
 * measured once per run into environment.kernel_ref, and shown per SUT
 * class under report --by sut-class's table -- how far an emulated
 * routine's figure carries to the kernel on that CPU:
 *
 *   kernel reference (environment.kernel_ref):
 *     Zen 4: kernel clear_user 35.1 ns/4 KiB [34.9, 35.6]; closest: rep_stosb, 0.3% faster
 *       than the kernel; inside the kernel's 95% interval; THP fault 61.2 ns/page
 *     Zen 4: kernel path 6.12.118 (6.12.118's own tree): inline rep stosb (FSRS on): 0.5% ...;
 *       agrees with the kernel (within its 95% interval)
 *     Zen 4: variant 'off' (6.12 call rep_stos_alternative (FSRS off)): 98.1% slower than
 *       the kernel; ...; DISAGREES: rep_stosb, told apart from it, lies between ...
 *
 * The kernel path is what the running kernel's release runs for clear_user
 * on this CPU (zeroing/kpath.h), resolved with its own tree when one is at
 * hand (the experiment's kpath trees, $CUSEZERO_KERNEL_SOURCES,
 * /var/cache/cusezero-ksrc), else the nearest release below, said so; it is
 * timed beside the kernel as the routines are, as is every clear_user kernel
 * path variant of the experiment of the same release, with its alt= assumed:
 * each agrees with the kernel or says DISAGREES.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "cli.h"
#include "emul.h"
#include "kpath.h"
#include "kref.h"
#include "samplestat.h"
#include "util.h"
#include "run.h"

/*
 * zab's measurement: 21 rounds of samples of 256 KiB (a 256 KiB pread, 16 of
 * 16 KiB) keep the interval narrow (a few tenths of a ns here) at about 40
 * ms natively -- and a second, not ten, where zab runs under qemu-user.
 */
#define ZAB_KREF_ROUNDS       21
#define ZAB_KREF_SAMPLE_BYTES (256u << 10)

/* Where scripts/kernel-sources.sh keeps the trees (VERSION/linux-source-*). */
#define ZAB_KREF_TREES "/var/cache/cusezero-ksrc"
#define ZAB_KREF_MAX_DIRS (CZRES_MAX_ITEMS + 16)

/* The kernel paths of a run: the running kernel's, and the experiment's checked beside it. */
struct kref_paths {
	struct utsname u;
	struct zero_kpath_pick pick;
	struct zero_kpath_res res;
	const struct zero_routine *resolved;
	char why[1024];                                /* resolved NULL: why not */
	const struct zero_routine *checks[CZRES_MAX_ITEMS];
	size_t check_var[CZRES_MAX_ITEMS];             /* the variant of each check */
	char check_brief[CZRES_MAX_ITEMS][240];        /* "6.12.118 call rep_stos_alternative (FSRS off)" */
	struct zero_kpath_res cres;                    /* a check's, while loaded */
	size_t nchecks;
	json_t *not_checked;                           /* [{variant, why}] */
};

/* A variant's --source=kpath:TREE:PATH: the tree into root, the path; false when none. */
static bool var_kpath(const struct zab_variant *x, char *root, size_t len, const char **path)
{
	const char *src, *colon;

	if (zab_devarg_find(x, "--source=", &src) != 1 || strncmp(src, "kpath:", 6) ||
	    !(colon = strrchr(src + 6, ':')))
		return false;
	snprintf(root, len, "%.*s", (int)(colon - src - 6), src + 6);
	*path = colon + 1;
	return true;
}

/* The folders trees are picked from: the experiment's kpath trees, $CUSEZERO_KERNEL_SOURCES, ZAB_KREF_TREES. */
static size_t tree_dirs(const struct zab_experiment *e, char **dirs, char *where, size_t wlen)
{
	const char *env = getenv("CUSEZERO_KERNEL_SOURCES"), *path;
	char root[4096], *copy = cz_xstrdup(env ? env : ""), *w, *save = NULL;
	size_t n = 0, v, ne = 0;

	for (v = 0; e && v < e->nvar && n < ZAB_KREF_MAX_DIRS - 1; v++)
		if (var_kpath(&e->var[v], root, sizeof(root), &path)) {
			dirs[n++] = cz_xstrdup(root);
			ne++;
		}
	for (w = strtok_r(copy, " \t\n:", &save); w && n < ZAB_KREF_MAX_DIRS - 1;
	     w = strtok_r(NULL, " \t\n:", &save))
		dirs[n++] = cz_xstrdup(w);
	dirs[n++] = cz_xstrdup(ZAB_KREF_TREES);
	snprintf(where, wlen, "%s%s%s", ne ? "the experiment's trees, " : "",
		 env && *env ? "$CUSEZERO_KERNEL_SOURCES, " : "", ZAB_KREF_TREES);
	free(copy);
	return n;
}

/* The running kernel's clear_user on this CPU: p->resolved, or p->why. */
static void resolve_running(const struct zab_experiment *e, struct kref_paths *p)
{
	char *dirs[ZAB_KREF_MAX_DIRS], where[256], err[1024];
	struct zero_kpath_cpu cpu;
	size_t n, i;
	int ret;

	if (uname(&p->u)) {
		snprintf(p->why, sizeof(p->why), "uname: %s", strerror(errno));
		return;
	}
	n = tree_dirs(e, dirs, where, sizeof(where));
	ret = zero_kpath_cpu_host(&cpu, err, sizeof(err));
	if (!ret)
		ret = zero_kpath_pick_dirs((const char *const *)dirs, n, where, p->u.release, &p->pick,
					   err, sizeof(err));
	if (!ret)
		ret = zero_kpath_resolve(p->pick.tree, ZERO_KPATH_CLEAR_USER, &cpu, &p->res, err,
					 sizeof(err));
	if (!ret)
		ret = zero_kpath_load_as(&p->res, NULL, 0, NULL, &p->resolved, err, sizeof(err));
	if (ret)
		snprintf(p->why, sizeof(p->why), "%s", err);
	for (i = 0; i < n; i++)
		free(dirs[i]);
}

static void not_checked(struct kref_paths *p, const struct zab_variant *x, const char *why)
{
	json_t *o = cz_jpush(p->not_checked, cz_jobj());

	cz_jset(o, "variant", cz_jstr(x->name));
	cz_jset(o, "why", cz_jstr(why));
}

/*
 * One kpath variant: checked (its routine loaded, as the daemon would, with
 * its alt= on this CPU) when its path is clear_user and its tree's release
 * is the running kernel's picked one (the same MAJOR.MINOR); else why not.
 */
static void check_variant(struct kref_paths *p, const struct zab_variant *x, size_t v)
{
	const char *alts[ZERO_KPATH_MAX_FORCED], *path;
	char root[4096], rel[32], err[1024], name[64];
	unsigned a[3], b[3], na = 0;
	struct zero_kpath_cpu cpu;
	size_t i;
	int ret;

	if (!var_kpath(x, root, sizeof(root), &path))
		return;
	if (strcmp(path, "clear_user")) {
		snprintf(err, sizeof(err), "kpath:%s: /dev/zero times the kernel's clear_user only", path);
		not_checked(p, x, err);
		return;
	}
	if (zero_kpath_release(root, rel, sizeof(rel), err, sizeof(err))) {
		not_checked(p, x, err);
		return;
	}
	if (!zero_kpath_version(rel, a) || !zero_kpath_version(p->pick.release, b) || a[0] != b[0] ||
	    a[1] != b[1]) {
		snprintf(err, sizeof(err), "release %s: the running kernel's path is %s's", rel,
			 p->pick.release);
		not_checked(p, x, err);
		return;
	}
	ret = zero_kpath_cpu_host(&cpu, err, sizeof(err));
	for (i = 0; !ret && i < x->ndev; i++)
		if (!strncmp(x->dev_argv[i], "--alt=", 6) && na < ZERO_KPATH_MAX_FORCED) {
			alts[na++] = x->dev_argv[i] + 6;
			/* a feature no path reads is the file's alone */
			if (zero_kpath_force(&cpu, x->dev_argv[i] + 6, err, sizeof(err)) == -E2BIG)
				ret = -E2BIG;
		}
	snprintf(name, sizeof(name), "%s:clear_user#%zu", rel, v + 1);
	if (!ret)
		ret = zero_kpath_resolve(root, ZERO_KPATH_CLEAR_USER, &cpu, &p->cres, err, sizeof(err));
	if (!ret)
		ret = zero_kpath_load_as(&p->cres, alts, na, name, &p->checks[p->nchecks], err, sizeof(err));
	if (ret) {
		not_checked(p, x, err);
		return;
	}
	snprintf(p->check_brief[p->nchecks], sizeof(p->check_brief[0]), "%s %s", rel, p->cres.brief);
	p->check_var[p->nchecks++] = v;
}

/* The kernel path's and the checks' JSON into the reference j. */
static void paths_json(json_t *j, const struct kref_paths *p, const struct zab_experiment *e)
{
	json_t *o = cz_jset(j, "kpath", cz_jobj()), *c;
	size_t i;

	if (p->pick.tree[0])
		cz_jset(o, "how", cz_jstr(p->pick.how));
	if (!p->resolved) {
		cz_jset(o, "skipped", cz_jstr(p->why));
	} else {
		cz_jset(o, "tree", cz_jstr(p->pick.tree));
		cz_jset(o, "release", cz_jstr(p->pick.release));
		cz_jset(o, "own_release", json_boolean(p->pick.own));
		cz_jset(o, "summary", cz_jstr(p->res.summary));
		cz_jset(o, "brief", cz_jstr(p->res.brief));
	}
	if (p->u.release[0])
		cz_jset(o, "running", cz_jstr(p->u.release));
	c = json_object_get(j, "checks");
	for (i = 0; c && i < p->nchecks && i < json_array_size(c); i++) {
		const struct zab_variant *x = &e->var[p->check_var[i]];

		cz_jset(json_array_get(c, i), "variant", cz_jstr(x->name));
		cz_jset(json_array_get(c, i), "label", cz_jstr(x->label ? x->label : p->check_brief[i]));
	}
	if (json_array_size(p->not_checked))
		cz_jset(j, "not_checked", json_incref(p->not_checked));
}

json_t *zab_kernel_ref(const struct zab_experiment *e)
{
	struct zero_kref_opts o = { .rounds = ZAB_KREF_ROUNDS, .sample_bytes = ZAB_KREF_SAMPLE_BYTES };
	struct kref_paths *p = calloc(1, sizeof(*p));
	struct zero_kref k;
	char err[512], line[2048];
	const char *why;
	json_t *j, *lines, *l;
	size_t v, i;

	if (!p)
		abort();
	if (cz_emulated(&why)) {
		/* the kernel runs on the host's hardware, the routines in the emulator */
		snprintf(err, sizeof(err), "not taken on emulated hardware (%s)", why);
		cz_err("kernel reference %s", err);
		j = cz_jobj();
		cz_jset(j, "error", cz_jstr(err));
		cz_jset(j, "emulated", json_true());
		free(p);
		return j;
	}
	p->not_checked = cz_jarr();
	resolve_running(e, p);
	for (v = 0; p->resolved && e && v < e->nvar; v++)
		check_variant(p, &e->var[v], v);
	o.resolved = p->resolved;
	o.checks = p->checks;
	o.nchecks = p->nchecks;
	if (zero_kref_measure(&o, &k, err, sizeof(err))) {
		cz_err("kernel reference not measured: %s", err);
		j = cz_jobj();
		cz_jset(j, "error", cz_jstr(err));
	} else {
		j = zero_kref_json(&k);
		paths_json(j, p, e);
		zab_kref_text(line, sizeof(line), j);
		cz_err("kernel reference: %s", line);
		lines = zab_kref_verdicts(j);
		json_array_foreach(lines, i, l)
			cz_err("kernel reference: %s", json_string_value(l));
		json_decref(lines);
	}
	zero_kref_free(&k);
	json_decref(p->not_checked);
	free(p);
	return j;
}

static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *str(const json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));

	return v ? v : "";
}

/* "1.0% faster than the kernel; inside the kernel's 95% interval" from pct and inside. */
static void pct_text(char *buf, size_t len, double pct, bool inside)
{
	snprintf(buf, len, "%.1f%% %s than the kernel; %s the kernel's 95%% interval", fabs(pct),
		 pct < 0 ? "faster" : "slower", inside ? "inside" : "outside");
}

void zab_kref_text(char *buf, size_t len, const json_t *kref)
{
	const json_t *k = json_object_get(kref, "kernel"), *thp = json_object_get(kref, "thp");
	const char *closest = json_string_value(json_object_get(kref, "closest"));
	const char *err = json_string_value(json_object_get(kref, "error"));
	char cmp[160];
	size_t n;

	if (err || !json_is_number(json_object_get(k, "ns_per_chunk"))) {
		snprintf(buf, len, "kernel clear_user not measured: %s", err ? err :
			 json_string_value(json_object_get(k, "failed")) ?
			 json_string_value(json_object_get(k, "failed")) : "no figure");
		return;
	}
	snprintf(buf, len, "kernel clear_user %.1f ns/4 KiB [%.1f, %.1f]", num(k, "ns_per_chunk"),
		 num(k, "ci_lo"), num(k, "ci_hi"));
	n = strlen(buf);
	if (closest && json_is_number(json_object_get(kref, "closest_pct"))) {
		pct_text(cmp, sizeof(cmp), num(kref, "closest_pct"),
			 json_is_true(json_object_get(kref, "closest_inside")));
		snprintf(buf + n, len - n, "; closest: %s, %s", closest, cmp);
	} else if (closest) {
		snprintf(buf + n, len - n, "; closest: %s (%.2fx)", closest, num(kref, "ratio"));
	}
	n = strlen(buf);
	if (json_is_number(json_object_get(thp, "ns_per_page")))
		snprintf(buf + n, len - n, "; THP fault %.1f ns/page", num(thp, "ns_per_page"));
}

/* The verdict of a resolved routine or check (its JSON), as a phrase. */
static void verdict_phrase(char *buf, size_t len, const json_t *o)
{
	const char *t = json_string_value(json_object_get(o, "verdict_text"));

	if (t)
		snprintf(buf, len, "%s", t);
	else if (json_string_value(json_object_get(o, "failed")))
		snprintf(buf, len, "not measured: %s", json_string_value(json_object_get(o, "failed")));
	else
		snprintf(buf, len, "%s", json_string_value(json_object_get(o, "verdict")) ?
			 json_string_value(json_object_get(o, "verdict")) : "no verdict");
}

/* One subject of the reference's verdicts: {key, verdict, line} into a. */
static void item(json_t *a, const char *key, const char *verdict, const char *line)
{
	json_t *o = cz_jpush(a, cz_jobj());

	cz_jset(o, "key", cz_jstr(key));
	cz_jset(o, "verdict", cz_jstr(verdict ? verdict : "unknown"));
	cz_jset(o, "line", cz_jstr(line));
}

/* The kernel path and each check of a reference: [{key, verdict, line}] (empty for older runs). */
static json_t *verdict_items(const json_t *kref)
{
	const json_t *kp = json_object_get(kref, "kpath"), *res = json_object_get(kref, "resolved"), *c;
	json_t *a = cz_jarr();
	char line[2400], ph[1200], key[200];
	size_t i;

	if (kp && json_object_get(kp, "skipped")) {
		snprintf(line, sizeof(line), "kernel path: not resolved: %s", str(kp, "skipped"));
		item(a, "kernel path", "unknown", line);
	} else if (kp && res) {
		verdict_phrase(ph, sizeof(ph), res);
		snprintf(line, sizeof(line), "kernel path: %s: %s: %s", str(kp, "how"), str(kp, "brief"), ph);
		item(a, "kernel path", str(res, "verdict"), line);
	}
	json_array_foreach(json_object_get(kref, "checks"), i, c) {
		verdict_phrase(ph, sizeof(ph), c);
		snprintf(key, sizeof(key), "variant '%s'", str(c, "variant"));
		snprintf(line, sizeof(line), "%s (%s): %s", key,
			 json_object_get(c, "label") ? str(c, "label") : str(c, "routine"), ph);
		item(a, key, str(c, "verdict"), line);
	}
	return a;
}

json_t *zab_kref_verdicts(const json_t *kref)
{
	json_t *items = verdict_items(kref), *a = cz_jarr(), *o;
	size_t i;

	json_array_foreach(items, i, o)
		cz_jpush(a, json_incref(json_object_get(o, "line")));
	json_decref(items);
	return a;
}

/* The reference of several runs of one class into o: medians, the range, the routine most found. */
static void class_summary(json_t *o, const json_t **refs, size_t n)
{
	double *ns = calloc(4 * n, sizeof(*ns)), *ratio = ns + n, *thp = ratio + n, *pct = thp + n;
	const char *best = NULL;
	size_t i, j, m = 0, nt = 0, nb = 0, c;
	struct cz_summary s;

	if (!ns)
		abort();
	for (i = 0; i < n; i++) {
		const char *ci = json_string_value(json_object_get(refs[i], "closest"));

		ns[i] = num(json_object_get(refs[i], "kernel"), "ns_per_chunk");
		if (json_is_number(json_object_get(json_object_get(refs[i], "thp"), "ns_per_page")))
			thp[nt++] = num(json_object_get(refs[i], "thp"), "ns_per_page");
		for (j = c = 0; ci && j < n; j++)
			c += !strcmp(ci, str(refs[j], "closest"));
		if (ci && c > nb) {
			nb = c;
			best = ci;
		}
	}
	for (i = 0; best && i < n; i++)
		if (!strcmp(best, str(refs[i], "closest"))) {
			pct[m] = num(refs[i], "closest_pct");
			ratio[m++] = num(refs[i], "ratio");
		}
	cz_summarize(ns, n, &s);
	cz_jset(o, "kernel_ns_per_chunk", cz_jnum(s.median));
	cz_jset(o, "kernel_ns_min", cz_jnum(s.min));
	cz_jset(o, "kernel_ns_max", cz_jnum(s.max));
	if (best) {
		cz_jset(o, "kernel_like", cz_jstr(best));
		cz_jset(o, "kernel_like_runs", json_integer((json_int_t)nb));
		cz_jset(o, "kernel_ratio", cz_jnum(cz_median(ratio, m)));
		if (!isnan(cz_median(pct, m)))
			cz_jset(o, "kernel_like_pct", cz_jnum(cz_median(pct, m)));
	}
	if (nt)
		cz_jset(o, "kernel_thp_ns_per_page", cz_jnum(cz_median(thp, nt)));
	free(ns);
}

/* One run's reference into o, as class_summary() gives several. */
static void run_summary(json_t *o, const json_t *kref)
{
	const json_t *k = json_object_get(kref, "kernel"), *thp = json_object_get(kref, "thp");
	const char *closest = json_string_value(json_object_get(kref, "closest"));

	cz_jset(o, "kernel_ns_per_chunk", cz_jnum(num(k, "ns_per_chunk")));
	cz_jset(o, "kernel_ci_lo", cz_jnum(num(k, "ci_lo")));
	cz_jset(o, "kernel_ci_hi", cz_jnum(num(k, "ci_hi")));
	if (closest) {
		cz_jset(o, "kernel_like", cz_jstr(closest));
		cz_jset(o, "kernel_like_runs", json_integer(1));
		cz_jset(o, "kernel_ratio", cz_jnum(num(kref, "ratio")));
		if (json_is_number(json_object_get(kref, "closest_pct")))
			cz_jset(o, "kernel_like_pct", cz_jnum(num(kref, "closest_pct")));
	}
	if (json_is_number(json_object_get(thp, "ns_per_page")))
		cz_jset(o, "kernel_thp_ns_per_page", cz_jnum(num(thp, "ns_per_page")));
}

/* The line of several runs (o from class_summary()). */
static void class_text(char *buf, size_t len, const json_t *o, size_t n)
{
	snprintf(buf, len, "kernel clear_user %.1f ns/4 KiB (median of %zu runs, %.1f to %.1f)",
		 num(o, "kernel_ns_per_chunk"), n, num(o, "kernel_ns_min"), num(o, "kernel_ns_max"));
	if (json_object_get(o, "kernel_like_pct"))
		snprintf(buf + strlen(buf), len - strlen(buf), "; closest: %s, %.1f%% %s than the kernel "
			 "(median; closest in %lld of %zu runs)", str(o, "kernel_like"),
			 fabs(num(o, "kernel_like_pct")), num(o, "kernel_like_pct") < 0 ? "faster" : "slower",
			 (long long)json_integer_value(json_object_get(o, "kernel_like_runs")), n);
	else if (json_object_get(o, "kernel_like"))
		snprintf(buf + strlen(buf), len - strlen(buf), "; closest: %s (%.2fx, %lld of %zu runs)",
			 str(o, "kernel_like"), num(o, "kernel_ratio"),
			 (long long)json_integer_value(json_object_get(o, "kernel_like_runs")), n);
	if (json_object_get(o, "kernel_thp_ns_per_page"))
		snprintf(buf + strlen(buf), len - strlen(buf), "; THP fault %.1f ns/page",
			 num(o, "kernel_thp_ns_per_page"));
}

/* The item of key among items, NULL: none. */
static const json_t *find_item(const json_t *items, const char *key)
{
	const json_t *o;
	size_t i;

	json_array_foreach(items, i, o)
		if (!strcmp(str(o, "key"), key))
			return o;
	return NULL;
}

/*
 * The class's verdicts from its runs' references: kernel_checks (one line
 * per subject: one run's, or the first disagreeing run's with how many of
 * the runs agree), kernel_path (the kernel path's line), kernel_verdict
 * (disagrees when any line does, agrees when all do) and kernel_disagrees
 * (the lines that disagree, " | " between them) -- what the CSV carries.
 */
static void class_verdicts(json_t *o, const json_t **refs, size_t n)
{
	json_t **items = calloc(n + 1, sizeof(*items)), *lines = cz_jarr(), *x;
	const json_t *it, *rep;
	char line[2600], dis[8192] = "";
	size_t i, j, k, agree, seen, ndis = 0, nagree = 0;

	if (!items)
		abort();
	for (i = 0; i < n; i++)
		items[i] = verdict_items(refs[i]);
	for (i = 0; i < n; i++)
		json_array_foreach(items[i], j, x) {
			for (k = 0; k < i && !find_item(items[k], str(x, "key")); k++)
				;
			if (k < i)
				continue;	/* said with an earlier run's */
			for (k = agree = seen = 0, rep = x; k < n; k++) {
				if (!(it = find_item(items[k], str(x, "key"))))
					continue;
				seen++;
				agree += !strcmp(str(it, "verdict"), "agrees");
				if (!strcmp(str(it, "verdict"), "disagrees") && strcmp(str(rep, "verdict"), "disagrees"))
					rep = it;
			}
			if (n > 1)
				snprintf(line, sizeof(line), "%s (agrees in %zu of %zu runs)", str(rep, "line"),
					 agree, seen);
			else
				snprintf(line, sizeof(line), "%s", str(rep, "line"));
			cz_jpush(lines, cz_jstr(line));
			if (!strcmp(str(x, "key"), "kernel path"))
				cz_jset(o, "kernel_path", cz_jstr(line));
			nagree += agree == seen;
			if (agree < seen && !strcmp(str(rep, "verdict"), "disagrees"))
				snprintf(dis + strlen(dis), sizeof(dis) - strlen(dis), "%s%s", ndis++ ? " | " : "",
					 line);
		}
	if (json_array_size(lines)) {
		cz_jset(o, "kernel_verdict", cz_jstr(ndis ? "disagrees" : nagree == json_array_size(lines) ?
						     "agrees" : "unknown"));
		cz_jset(o, "kernel_disagrees", cz_jstr(dis));
	}
	cz_jset(o, "kernel_checks", lines);
	for (i = 0; i < n; i++)
		json_decref(items[i]);
	free(items);
}

/*
 * One class's reference: sut_class, kernel_runs (the runs with a figure),
 * the figures (kernel_*) and kernel_ref, the line shown under the table;
 * *recorded false when none of its runs recorded one.
 */
static json_t *class_ref(const char *cls, const json_t *docs, const json_t **refs, bool *recorded)
{
	const json_t *doc, *kref, *err = NULL;
	json_t *o = cz_jobj();
	char line[640];
	size_t k, m = 0;

	for (k = 0; k < json_array_size(docs); k++) {
		doc = json_array_get(docs, k);
		kref = json_object_get(json_object_get(doc, "environment"), "kernel_ref");
		if (!kref || strcmp(str(doc, "sut"), cls))
			continue;
		if (json_is_number(json_object_get(json_object_get(kref, "kernel"), "ns_per_chunk")))
			refs[m++] = kref;
		else
			err = kref;
	}
	cz_jset(o, "sut_class", cz_jstr(cls));
	cz_jset(o, "kernel_runs", json_integer((json_int_t)m));
	if (m == 1) {
		run_summary(o, refs[0]);
		zab_kref_text(line, sizeof(line), refs[0]);
	} else if (m) {
		class_summary(o, refs, m);
		class_text(line, sizeof(line), o, m);
	} else if (err) {
		zab_kref_text(line, sizeof(line), err);
	} else {
		snprintf(line, sizeof(line), "not recorded (runs with kernel-ref = no, or older ones)");
	}
	cz_jset(o, "kernel_ref", cz_jstr(line));
	class_verdicts(o, refs, m);
	*recorded = m || err;
	return o;
}

json_t *zab_kref_classes(struct czres_result *const *r, size_t n, const json_t *docs)
{
	const json_t **refs = calloc(json_array_size(docs) + 1, sizeof(*refs));
	json_t *arr = cz_jarr();
	size_t i, shown = 0;
	bool rec;

	if (!refs)
		abort();
	for (i = 0; i < n; i++) {
		cz_jpush(arr, class_ref(r[i]->sut, docs, refs, &rec));
		shown += rec;
	}
	free(refs);
	/* nothing when no run recorded one: reports of older stores stay as they were */
	if (!shown) {
		json_decref(arr);
		return NULL;
	}
	return arr;
}

void zab_kref_by_class(FILE *f, const json_t *classes)
{
	const json_t *o;
	size_t i;

	if (!classes)
		return;
	const json_t *l;
	size_t j;

	fprintf(f, "\nkernel reference (environment.kernel_ref):\n");
	json_array_foreach(classes, i, o) {
		fprintf(f, "  %s: %s\n", str(o, "sut_class"), str(o, "kernel_ref"));
		json_array_foreach(json_object_get(o, "kernel_checks"), j, l)
			fprintf(f, "  %s: %s\n", str(o, "sut_class"), json_string_value(l));
	}
}

/* Each row of a view's doc gets the figures of its class's reference (CSV columns too). */
void zab_kref_rows(json_t *doc, const json_t *classes)
{
	static const char *const keys[] = { "kernel_ref", "kernel_runs", "kernel_ns_per_chunk",
					    "kernel_like", "kernel_ratio", "kernel_thp_ns_per_page",
					    "kernel_path", "kernel_verdict", "kernel_disagrees" };
	json_t *row, *v;
	const json_t *o;
	size_t i, j, k;

	if (!classes)
		return;
	cz_jset(doc, "kernel_ref", json_deep_copy(classes));
	json_array_foreach(json_object_get(doc, "rows"), i, row)
		json_array_foreach(classes, j, o) {
			if (strcmp(str(o, "sut_class"), str(row, "sut_class")))
				continue;
			for (k = 0; k < CZ_ARRAY_SIZE(keys); k++)
				if ((v = json_object_get(o, keys[k])))
					cz_jset(row, keys[k], json_incref(v));
		}
}
