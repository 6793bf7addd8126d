/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A finished run's result -> its JSON document (what --export-zab writes; store/result.c reads it). */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "cli.h"
#include "zab.h"
#include "util.h"
#include "zeroing.h"

static json_t *kv_obj(const struct zab_kv *kv, size_t n)
{
	json_t *o = cz_jobj();
	size_t i;

	for (i = 0; i < n; i++)
		cz_jset(o, kv[i].key, cz_jstr(kv[i].val));
	return o;
}

static const char *colocate_name(const struct zab_colocate *c)
{
	return c->mode == ZAB_COLOC_OFF ? "off" : c->mode == ZAB_COLOC_CPU ? "cpu" : "auto";
}

static void experiment_json(json_t *doc, const struct zab_result *r,
			    const struct zab_experiment *e, json_t *sessinfo, uint64_t seed)
{
	json_t *ex = cz_jset(doc, "experiment", cz_jobj());
	char hex[65];

	cz_jset(ex, "name", cz_jstr(r->title));
	cz_jset(ex, "file", cz_jstr(e->file));
	if (e->file && !cz_file_sha256(e->file, hex))
		cz_jset(ex, "file_sha256", cz_jstr(hex));
	cz_jset(ex, "sessions", cz_jnum(r->sessions));
	cz_jset(ex, "warmups", cz_jnum(r->warmups));
	cz_jset(ex, "repeats", cz_jnum(r->repeats));
	cz_jset(ex, "retries", cz_jnum(e->retries));
	cz_jset(ex, "order", cz_jstr(zab_order_name(e->order)));
	cz_jset(ex, "seed", cz_jnum((double)seed));
	cz_jset(ex, "base", cz_jstr(r->vname[r->base]));
	cz_jset(ex, "vars", kv_obj(e->vars, e->nvars));
	cz_jset(ex, "colocate", cz_jstr(colocate_name(&e->colocate)));
	/* the offsets of each run follow from this and the seed (sample_offsets has them) */
	cz_jset(ex, "placement", cz_jstr(e->placement.spec ? e->placement.spec : "fixed"));
	/* the (R)/(I) rule at fixed placement: CIs apart, or runs of one slot paired */
	cz_jset(ex, "verdict", cz_jstr(r->paired ? "paired" : "overlap"));
	if (e->colocate.mode == ZAB_COLOC_CPU)
		cz_jset(ex, "colocate_cpu", cz_jnum(e->colocate.cpu));
	/* per session: the CPU its daemons and benchmarks ran on (null: not co-located) */
	if (sessinfo)
		cz_jset(ex, "session_placement", json_deep_copy(sessinfo));
}

static void benchmarks_json(json_t *doc, const struct zab_result *r,
			    const struct zab_experiment *e)
{
	json_t *arr = cz_jset(doc, "benchmarks", cz_jarr()), *o;
	size_t b;

	for (b = 0; b < r->nb; b++) {
		o = cz_jpush(arr, cz_jobj());
		cz_jset(o, "name", cz_jstr(r->b[b].name));
		cz_jset(o, "group", cz_jstr(r->b[b].group));
		cz_jset(o, "unit", cz_jstr(r->b[b].unit));
		cz_jset(o, "better", cz_jstr(r->b[b].higher ? "higher" : "lower"));
		cz_jset(o, "cmd", cz_jstr(e->bench[r->b[b].src].cmd));
		cz_jset(o, "source", cz_jstr(zab_rkinds[r->b[b].kind].source));
		if (r->b[b].timed)   /* absent: the number printed (files from before, too) */
			cz_jset(o, "measure", cz_jstr("time"));
	}
}

/*
 * What the variant's routine was: a kernel source file (the first
 * --source=FILE[:SYMBOL] of its daemon) with the SHA-256 of the file and of
 * its --patch, or the built-in routine's name.
 */
static json_t *routine_source(const struct zab_variant *vv)
{
	const char *a = vv->dev_args ? strstr(vv->dev_args, "--source=") : NULL;
	const char *p = vv->dev_args ? strstr(vv->dev_args, "--patch=") : NULL;
	json_t *o = cz_jobj();
	char hex[65], *file, *colon;

	if (!a) {
		cz_jset(o, "kind", cz_jstr("built-in"));
		cz_jset(o, "name", cz_jstr(vv->routine ? vv->routine : zero_default()->name));
		return o;
	}
	file = zab_xasprintf("%.*s", (int)strcspn(a + 9, " "), a + 9);
	cz_jset(o, "kind", cz_jstr("kernel source"));
	cz_jset(o, "file", cz_jstr(file));
	colon = strrchr(file, ':');
	if (colon && !strchr(colon, '/'))
		*colon = 0;       /* FILE:SYMBOL: the file's hash */
	if (!cz_file_sha256(file, hex))
		cz_jset(o, "file_sha256", cz_jstr(hex));
	free(file);
	if (p) {
		file = zab_xasprintf("%.*s", (int)strcspn(p + 8, " "), p + 8);
		cz_jset(o, "patch", cz_jstr(file));
		if (!cz_file_sha256(file, hex))
			cz_jset(o, "patch_sha256", cz_jstr(hex));
		free(file);
	}
	return o;
}

static void variants_json(json_t *doc, const struct zab_result *r,
			  const struct zab_experiment *e, json_t *devinfo)
{
	json_t *arr = cz_jset(doc, "variants", cz_jarr()), *o, *s;
	size_t v;

	for (v = 0; v < r->nv; v++) {
		const struct zab_variant *vv = &e->var[v];

		o = cz_jpush(arr, cz_jobj());
		cz_jset(o, "name", cz_jstr(vv->name));
		if (vv->cmd)
			cz_jset(o, "cmd", cz_jstr(vv->cmd));
		cz_jset(o, "env", kv_obj(vv->env, vv->nenv));
		cz_jset(o, "vars", kv_obj(vv->vars, vv->nvars));
		cz_jset(o, "placement", cz_jstr(zab_var_placement(e, v)->spec ?
					      zab_var_placement(e, v)->spec : "fixed"));
		if (!vv->device)
			continue;
		s = cz_jset(o, "device", cz_jobj());
		cz_jset(s, "routine", cz_jstr(vv->routine));
		cz_jset(s, "align", cz_jstr(vv->align));
		cz_jset(s, "align_point", cz_jstr(vv->align_point));
		cz_jset(s, "chunk", cz_jstr(vv->chunk));
		cz_jset(s, "frontend", cz_jstr(vv->frontend ? vv->frontend : "fuse"));
		cz_jset(s, "threads", cz_jstr(vv->threads));
		cz_jset(o, "routine_source", routine_source(vv));
		if (devinfo && v < json_array_size(devinfo))
			cz_jset(s, "sessions", json_deep_copy(json_array_get(devinfo, v)));
	}
}

json_t *zab_result_json(const struct zab_result *r, const struct zab_experiment *e,
			   json_t *env, json_t *devinfo, json_t *sessinfo, uint64_t seed)
{
	json_t *doc = cz_jobj();

	cz_jset(doc, "zab", cz_jnum(1));
	cz_jset(doc, "sut", cz_jstr(r->sut));
	cz_jset(doc, "environment", env);
	experiment_json(doc, r, e, sessinfo, seed);
	benchmarks_json(doc, r, e);
	variants_json(doc, r, e, devinfo);
	zab_cells_json(doc, r);
	return doc;
}
