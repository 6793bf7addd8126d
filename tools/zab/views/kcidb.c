/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab store export --kcidb: stored runs as a KernelCI KCIDB I/O document,
 * schema v5.3 (kernelci/kcidb-io, kcidb_io/schema/v05_03.py; a copy of its
 * JSON schema is tests/data/kcidb-v5.json).  Per run, each variant that is a
 * step of a kernel change sequence or runs a kernel source file is one
 * checkout (its patchset_hash and patchset_files, its git commit), one build
 * (the run's architecture) and one test per result class: status DONE with
 * the cell's median as its number (the schema's status for a performance
 * measurement), ERROR for a failed cell; the verdict against the base and
 * its 95% interval in the test's misc.  Ids are "cusezero:RUN:VARIANT[...]"
 * (the schema's "origin:rest"); every list is sorted by id, every object's
 * keys sorted, no value null (the schema allows none).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "views.h"
#include "samplestat.h"
#include "stats/cellstat.h"
#include "util.h"

#define KC_ORIGIN "cusezero"
#define KC_MAJOR 5
#define KC_MINOR 3

struct kc_out {
	json_t *checkouts, *builds, *tests;
};

static const char *jstr(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* A copy of o[key] into dst, when it is there and not null. */
static void copy_key(json_t *dst, const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (v && !json_is_null(v))
		cz_jset(dst, key, json_deep_copy(v));
}

/* A finite number into o[key]; NaN and infinities are left out (KCIDB has no null). */
static void set_num(json_t *o, const char *key, double x)
{
	if (isfinite(x))
		cz_jset(o, key, cz_jnum(x));
}

static bool all_hex(const char *s, size_t len)
{
	size_t i;

	if (!s || strlen(s) != len)
		return false;
	for (i = 0; i < len; i++)
		if (!strchr("0123456789abcdef", s[i]))
			return false;
	return true;
}

/* A test path segment: [a-zA-Z0-9_-]+ (the schema's path pattern), every other byte '_'. */
static char *path_seg(const char *s)
{
	char *o = cz_xstrdup(s && *s ? s : "_"), *p;

	for (p = o; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-", *p))
			*p = '_';
	return o;
}

/* uname -m as the kernel's ARCH name (aarch64 is arm64), [a-z0-9_] only. */
static char *arch_name(const char *machine)
{
	char *o, *p;

	if (!machine || !*machine)
		return cz_xstrdup("unknown");
	if (!strcmp(machine, "aarch64"))
		return cz_xstrdup("arm64");
	o = cz_xstrdup(machine);
	for (p = o; *p; p++) {
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
		else if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789_", *p))
			*p = '_';
	}
	return o;
}

/* A local file as a file:// URL, every byte but unreserved ones and '/' percent-encoded. */
static char *file_url(const char *path)
{
	size_t n = strlen(path), i, j = 0;
	char *o = cz_xmalloc(8 + 3 * n + 1);

	memcpy(o, "file://", 7);
	j = 7;
	if (path[0] != '/')
		o[j++] = '/';
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)path[i];

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    strchr("/-._~", c))
			o[j++] = (char)c;
		else
			j += (size_t)sprintf(o + j, "%%%02X", c);
	}
	o[j] = 0;
	return o;
}

/* The variant object named name in the run's document, NULL when absent. */
static const json_t *variant_doc(const json_t *doc, const char *name)
{
	const json_t *arr = json_object_get(doc, "variants"), *o;
	size_t i;

	json_array_foreach(arr, i, o)
		if (jstr(o, "name") && !strcmp(jstr(o, "name"), name))
			return o;
	return NULL;
}

/* A step of a sequence, or a kernel source file (or kernel path) as its routine. */
static bool kernel_variant(const json_t *vd)
{
	const char *kind = jstr(json_object_get(vd, "routine_source"), "kind");

	return json_object_get(vd, "sequence") ||
	       (kind && (!strcmp(kind, "kernel source") || !strcmp(kind, "kernel path")));
}

/* Whether any cell of variant v has samples: the daemon ran the step's code. */
static bool measured(const struct czres_result *r, size_t v)
{
	size_t b;

	for (b = 0; b < r->nb; b++)
		if (!czres_cell(r, b, v)->failed && czres_cell(r, b, v)->n)
			return true;
	return false;
}

/* The patches: KCIDB's patchset_hash and patchset_files (name, file:// URL). */
static void checkout_patches(json_t *co, const json_t *rs)
{
	const json_t *files = json_object_get(rs, "patchset_files"), *f;
	const char *hash = jstr(rs, "patchset_hash");
	json_t *arr;
	char *url;
	size_t i;

	if (!hash || (*hash && !all_hex(hash, 64)))
		return;
	cz_jset(co, "patchset_hash", cz_jstr(hash));
	arr = cz_jset(co, "patchset_files", cz_jarr());
	json_array_foreach(files, i, f) {
		const char *name = jstr(f, "name"), *path = jstr(f, "path");
		json_t *o;

		if (!name || !*name || strchr(name, '/') || !path)
			continue;
		url = file_url(path);
		o = cz_jpush(arr, cz_jobj());
		cz_jset(o, "name", cz_jstr(name));
		cz_jset(o, "url", cz_jstr(url));
		free(url);
	}
}

/* What the run, the variant and its step are, for a checkout's misc. */
static json_t *step_misc(const struct czres_result *r, const json_t *vd)
{
	static const char *const seq_keys[] = { "sequence", "sequence_kind", "step", "steps", "label" };
	json_t *m = cz_jobj();
	size_t i;

	cz_jset(m, "run", cz_jstr(jstr(json_object_get(r->doc, "run"), "uuid")));
	cz_jset(m, "experiment", cz_jstr(r->title ? r->title : ""));
	cz_jset(m, "variant", cz_jstr(jstr(vd, "name")));
	for (i = 0; i < CZ_ARRAY_SIZE(seq_keys); i++)
		copy_key(m, vd, seq_keys[i]);
	copy_key(m, vd, "routine_source");
	return m;
}

static void add_checkout(struct kc_out *k, const struct czres_result *r, size_t v, const json_t *vd,
			 const char *id)
{
	const json_t *rs = json_object_get(vd, "routine_source");
	const char *started = jstr(json_object_get(r->doc, "run"), "started"), *label = jstr(vd, "label");
	json_t *co = cz_jpush(k->checkouts, cz_jobj());
	char *comment;

	cz_jset(co, "id", cz_jstr(id));
	cz_jset(co, "origin", cz_jstr(KC_ORIGIN));
	if (started)
		cz_jset(co, "start_time", cz_jstr(started));
	/* a measured cell: the daemon assembled the file with its patches */
	if (measured(r, v))
		cz_jset(co, "valid", json_true());
	if (all_hex(jstr(rs, "git_commit"), 40))
		cz_jset(co, "git_commit_hash", cz_jstr(jstr(rs, "git_commit")));
	checkout_patches(co, rs);
	if (json_object_get(vd, "step"))
		comment = cz_xasprintf("%s: step %lld/%lld of %s%s%s%s%s", r->vname[v],
				       (long long)json_integer_value(json_object_get(vd, "step")),
				       (long long)json_integer_value(json_object_get(vd, "steps")),
				       jstr(vd, "sequence") ? jstr(vd, "sequence") : "?",
				       label && *label ? ": " : "", label ? label : "",
				       jstr(rs, "kernel_version") ? ", kernel " : "",
				       jstr(rs, "kernel_version") ? jstr(rs, "kernel_version") : "");
	else
		comment = cz_xasprintf("%s%s%s", r->vname[v], jstr(rs, "kernel_version") ? ", kernel " : "",
				       jstr(rs, "kernel_version") ? jstr(rs, "kernel_version") : "");
	cz_jset(co, "comment", cz_jstr(comment));
	free(comment);
	cz_jset(co, "misc", step_misc(r, vd));
}

/* The build: the step's file assembled into the daemon, on the run's architecture. */
static void add_build(struct kc_out *k, const struct czres_result *r, size_t v, const json_t *vd,
		      const char *coid, const char *id, const char *arch)
{
	const json_t *rs = json_object_get(vd, "routine_source"), *env = json_object_get(r->doc, "environment");
	const char *started = jstr(json_object_get(r->doc, "run"), "started"), *file = jstr(rs, "file");
	json_t *bu = cz_jpush(k->builds, cz_jobj()), *m;
	char *cfg = NULL;

	cz_jset(bu, "id", cz_jstr(id));
	cz_jset(bu, "checkout_id", cz_jstr(coid));
	cz_jset(bu, "origin", cz_jstr(KC_ORIGIN));
	cz_jset(bu, "architecture", cz_jstr(arch));
	if (started)
		cz_jset(bu, "start_time", cz_jstr(started));
	if (measured(r, v))
		cz_jset(bu, "status", cz_jstr("PASS"));
	/* the configuration: which file (and function) or kernel path the daemon ran */
	if (file)
		cfg = cz_xstrdup(strrchr(file, '/') ? strrchr(file, '/') + 1 : file);
	else if (jstr(rs, "path"))
		cfg = cz_xasprintf("kpath:%s", jstr(rs, "path"));
	if (cfg)
		cz_jset(bu, "config_name", cz_jstr(cfg));
	free(cfg);
	m = cz_jset(bu, "misc", cz_jobj());
	cz_jset(m, "run", cz_jstr(jstr(json_object_get(r->doc, "run"), "uuid")));
	cz_jset(m, "variant", cz_jstr(r->vname[v]));
	copy_key(m, vd, "device");
	copy_key(m, env, "cusezero_version");
	copy_key(m, env, "machine");
	json_object_del(json_object_get(m, "device"), "sessions");
}

/* The SUT the test ran on. */
static json_t *test_env(const struct czres_result *r)
{
	static const char *const keys[] = { "cpu", "cpu_id", "cores", "machine", "kernel", "cusezero_version" };
	const json_t *env = json_object_get(r->doc, "environment");
	const char *name = jstr(json_object_get(r->doc, "run"), "sut_name");
	json_t *o = cz_jobj(), *m;
	char *comment;
	size_t i;

	comment = cz_xasprintf("SUT class %s%s%s", r->sut ? r->sut : "?", name ? ", SUT " : "", name ? name : "");
	cz_jset(o, "comment", cz_jstr(comment));
	free(comment);
	m = cz_jset(o, "misc", cz_jobj());
	if (r->sut)
		cz_jset(m, "sut_class", cz_jstr(r->sut));
	if (name)
		cz_jset(m, "sut_name", cz_jstr(name));
	for (i = 0; i < CZ_ARRAY_SIZE(keys); i++)
		copy_key(m, env, keys[i]);
	return o;
}

/* The rule whose verdict the table shows (stats/cellstat.c). */
static const char *verdict_rule(const struct czres_result *r, size_t b, size_t v)
{
	const struct czres_cell *c = czres_cell(r, b, v), *base = czres_cell(r, b, r->base);

	if (c->off && base->off)
		return "layouts";
	if (c->loff && base->loff)
		return "rotate";
	return r->paired ? "paired" : "overlap";
}

/*
 * The verdict against the base: its mark (R, I, none; base; n/a: nothing to
 * compare; failed), the value's own change in per cent (new / base - 1, as
 * the tables show it) and its 95% interval, the rule.
 */
static json_t *test_verdict(const struct czres_result *r, size_t b, size_t v)
{
	const struct czres_cell *c = czres_cell(r, b, v), *base = czres_cell(r, b, r->base);
	double pct = NAN, lo = NAN, hi = NAN;
	json_t *o = cz_jobj();
	int flag = CZST_CHANGE_NONE;

	cz_jset(o, "base", cz_jstr(r->vname[r->base]));
	if (v != r->base && !c->failed)
		flag = czst_change_ci(r, b, v, &pct, &lo, &hi);
	cz_jset(o, "mark", cz_jstr(c->failed ? "failed" : v == r->base ? "base" :
				   flag == CZST_CHANGE_NONE ? "n/a" : !flag ? "none" : flag < 0 ? "R" : "I"));
	if (flag == CZST_CHANGE_NONE)
		return o;
	cz_jset(o, "rule", cz_jstr(verdict_rule(r, b, v)));
	set_num(o, "change_pct", pct);
	set_num(o, "ci_low_pct", lo);
	set_num(o, "ci_high_pct", hi);
	set_num(o, "mann_whitney_p", cz_mann_whitney_p(base->x, base->n, c->x, c->n));
	return o;
}

/* The cell's figures and the verdict, for the test's misc. */
static json_t *test_misc(const struct czres_result *r, size_t b, size_t v, const struct czst_cstat *cs)
{
	json_t *m = cz_jobj();

	cz_jset(m, "run", cz_jstr(jstr(json_object_get(r->doc, "run"), "uuid")));
	cz_jset(m, "experiment", cz_jstr(r->title ? r->title : ""));
	cz_jset(m, "variant", cz_jstr(r->vname[v]));
	cz_jset(m, "benchmark", cz_jstr(r->b[b].group ? r->b[b].group : ""));
	cz_jset(m, "result_class", cz_jstr(r->b[b].name));
	cz_jset(m, "unit", cz_jstr(r->b[b].unit ? r->b[b].unit : ""));
	cz_jset(m, "better", cz_jstr(r->b[b].higher ? "higher" : "lower"));
	cz_jset(m, "n", cz_jnum((double)czres_cell(r, b, v)->n));
	if (cs->ok) {
		set_num(m, "mean", cs->s.mean);
		set_num(m, "stddev", cs->s.sd);
		set_num(m, "ci_low", cs->s.ci_lo);
		set_num(m, "ci_high", cs->s.ci_hi);
		set_num(m, "median", cs->s.median);
		set_num(m, "min", cs->s.min);
		set_num(m, "max", cs->s.max);
	}
	cz_jset(m, "verdict", test_verdict(r, b, v));
	return m;
}

static void add_test(struct kc_out *k, const struct czres_result *r, size_t b, size_t v, const char *buid)
{
	const struct czres_cell *c = czres_cell(r, b, v);
	const char *started = jstr(json_object_get(r->doc, "run"), "started");
	json_t *t = cz_jpush(k->tests, cz_jobj()), *num;
	char *id, *g = path_seg(r->b[b].group), *n = path_seg(r->b[b].name), *path;
	struct czst_cstat cs;

	czst_cell_stat(r, b, v, &cs);
	id = cz_xasprintf("%s:%s", buid, r->b[b].name);
	path = cz_xasprintf(KC_ORIGIN ".%s.%s", g, n);
	cz_jset(t, "id", cz_jstr(id));
	cz_jset(t, "build_id", cz_jstr(buid));
	cz_jset(t, "origin", cz_jstr(KC_ORIGIN));
	cz_jset(t, "path", cz_jstr(path));
	if (started)
		cz_jset(t, "start_time", cz_jstr(started));
	/* DONE: a measurement, no statement on the code; ERROR: the benchmark failed */
	cz_jset(t, "status", cz_jstr(c->failed ? "ERROR" : cs.ok ? "DONE" : "SKIP"));
	if (cs.ok && isfinite(cs.s.median)) {
		num = cz_jset(t, "number", cz_jobj());
		cz_jset(num, "value", cz_jnum(cs.s.median));
		if (r->b[b].unit && *r->b[b].unit)
			cz_jset(num, "unit", cz_jstr(r->b[b].unit));
	}
	if (c->failed && c->error && *c->error) {
		/* the schema's maxLength is 16384 characters: as many bytes at most */
		char *ex = cz_xstrdup(c->error);

		if (strlen(ex) > 16384)
			ex[16384] = 0;
		cz_jset(t, "log_excerpt", cz_jstr(ex));
		free(ex);
	}
	cz_jset(t, "environment", test_env(r));
	cz_jset(t, "misc", test_misc(r, b, v, &cs));
	free(id);
	free(path);
	free(g);
	free(n);
}

/* One run: a checkout, a build and its tests per kernel variant; how many checkouts. */
static size_t add_run(struct kc_out *k, const struct czres_result *r)
{
	const char *uuid = jstr(json_object_get(r->doc, "run"), "uuid");
	char *arch = arch_name(jstr(json_object_get(r->doc, "environment"), "machine"));
	size_t v, b, n = 0;

	for (v = 0; uuid && v < r->nv; v++) {
		const json_t *vd = variant_doc(r->doc, r->vname[v]);
		char *coid, *buid;

		if (!vd || !kernel_variant(vd))
			continue;
		coid = cz_xasprintf(KC_ORIGIN ":%s:%s", uuid, r->vname[v]);
		buid = cz_xasprintf("%s:%s", coid, arch);
		add_checkout(k, r, v, vd, coid);
		add_build(k, r, v, vd, coid, buid, arch);
		for (b = 0; b < r->nb; b++)
			add_test(k, r, b, v, buid);
		free(coid);
		free(buid);
		n++;
	}
	free(arch);
	return n;
}

/* Every null member removed, at any depth: KCIDB allows no null property. */
static void strip_nulls(json_t *j)
{
	const char *key;
	json_t *v;
	void *tmp;
	size_t i;

	if (json_is_array(j))
		json_array_foreach(j, i, v)
			strip_nulls(v);
	if (!json_is_object(j))
		return;
	json_object_foreach_safe(j, tmp, key, v) {
		if (json_is_null(v))
			json_object_del(j, key);
		else
			strip_nulls(v);
	}
}

static int by_id(const void *a, const void *b)
{
	return strcmp(jstr(*(json_t *const *)a, "id"), jstr(*(json_t *const *)b, "id"));
}

/* arr's objects sorted by their "id" (byte order), as a new array. */
static json_t *sorted(json_t *arr)
{
	size_t n = json_array_size(arr), i;
	json_t **v = cz_xmalloc((n ? n : 1) * sizeof(*v)), *out = cz_jarr();

	for (i = 0; i < n; i++)
		v[i] = json_array_get(arr, i);
	qsort(v, n, sizeof(*v), by_id);
	for (i = 0; i < n; i++)
		json_array_append(out, v[i]);
	free(v);
	json_decref(arr);
	return out;
}

json_t *zab_kcidb_doc(const struct czres_result *r, size_t n, size_t *ncheckouts)
{
	struct kc_out k = { cz_jarr(), cz_jarr(), cz_jarr() };
	json_t *doc = cz_jobj(), *ver;
	size_t i;

	*ncheckouts = 0;
	for (i = 0; i < n; i++)
		*ncheckouts += add_run(&k, &r[i]);
	ver = cz_jset(doc, "version", cz_jobj());
	cz_jset(ver, "major", cz_jnum(KC_MAJOR));
	cz_jset(ver, "minor", cz_jnum(KC_MINOR));
	cz_jset(doc, "checkouts", sorted(k.checkouts));
	cz_jset(doc, "builds", sorted(k.builds));
	cz_jset(doc, "tests", sorted(k.tests));
	strip_nulls(doc);
	return doc;
}
