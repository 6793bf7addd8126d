/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A finished run's result -> its JSON document (what --export-zab writes; results/result.c reads it). */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "cli.h"
#include "kpath.h"
#include "model/sequence.h"
#include "views.h"
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

static void experiment_json(json_t *doc, const struct czres_result *r,
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

static void benchmarks_json(json_t *doc, const struct czres_result *r,
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
 * A variant's patches as KCIDB describes a checkout's: patchset_files (name
 * and SHA-256 of each, in the order applied) and patchset_hash, the SHA-256
 * over the newline-terminated hex SHA-256 of each patch ("sha256sum *.patch
 * | cut -c-64 | sha256sum"), "" without patches.
 */
static void patchset_json(json_t *o, char **patches, size_t n)
{
	json_t *files = cz_jarr(), *f;
	char hex[65], all[65];
	char *text = cz_xstrdup("");
	size_t i;

	for (i = 0; i < n; i++) {
		const char *base = strrchr(patches[i], '/') ? strrchr(patches[i], '/') + 1 : patches[i];
		char *t;

		f = cz_jpush(files, cz_jobj());
		cz_jset(f, "name", cz_jstr(base));
		cz_jset(f, "path", cz_jstr(patches[i]));
		if (cz_file_sha256(patches[i], hex))
			snprintf(hex, sizeof(hex), "(unreadable)");
		cz_jset(f, "sha256", cz_jstr(hex));
		t = cz_xasprintf("%s%s\n", text, hex);
		free(text);
		text = t;
	}
	if (n)
		cz_sha256_hex(text, strlen(text), all);
	else
		all[0] = 0;
	free(text);
	cz_jset(o, "patchset_hash", cz_jstr(all));
	cz_jset(o, "patchset_files", files);
}

/* The values of every "--patch=" word after the first "--source=" (before a second). */
static size_t patch_args(const struct zab_variant *vv, char ***out)
{
	size_t n = 0, nsrc = 0, i;

	*out = NULL;
	for (i = 0; i < vv->ndev; i++) {
		const char *w = vv->dev_argv[i];

		nsrc += !strncmp(w, "--source=", 9);
		if (nsrc == 1 && !strncmp(w, "--patch=", 8)) {
			*out = cz_xrealloc(*out, (n + 1) * sizeof(**out));
			(*out)[n++] = cz_xstrdup(w + 8);
		}
	}
	return n;
}

/*
 * What the variant's routine was: a kernel source file (the first
 * --source=FILE[:SYMBOL] of its daemon) with the SHA-256 of the file, the
 * kernel version of its tree, its patches (patch: the last one, and
 * patch_sha256 its hash -- with several, the patchset hash -- as before
 * series; patchset_hash and patchset_files as KCIDB's) and its git commit,
 * or the built-in routine's name.
 */
static json_t *routine_source(const struct zab_variant *vv)
{
	const char *a = NULL;
	json_t *o = cz_jobj();
	char hex[65], *file, **patches, *kv, *colon;
	size_t np, i;

	if (!zab_devarg_find(vv, "--source=", &a)) {
		cz_jset(o, "kind", cz_jstr("built-in"));
		cz_jset(o, "name", cz_jstr(vv->routine ? vv->routine : zero_device_default(NULL, 0)->name));
		return o;
	}
	file = cz_xstrdup(a);
	if (!strncmp(file, "kpath:", 6)) {
		/* what the tree's release runs for the path (zeroing/kpath.h): the step's label */
		colon = strrchr(file, ':');
		cz_jset(o, "kind", cz_jstr("kernel path"));
		cz_jset(o, "path", cz_jstr(colon + 1));
		*colon = 0;
		cz_jset(o, "tree", cz_jstr(file + 6));
		if (vv->kversion)
			cz_jset(o, "kernel_version", cz_jstr(vv->kversion));
		if (vv->label)
			cz_jset(o, "resolved", cz_jstr(vv->label));
		free(file);
		return o;
	}
	cz_jset(o, "kind", cz_jstr("kernel source"));
	cz_jset(o, "file", cz_jstr(file));
	file[zab_source_path_len(file)] = 0;       /* FILE:SYMBOL: the file's hash */
	if (!cz_file_sha256(file, hex))
		cz_jset(o, "file_sha256", cz_jstr(hex));
	kv = vv->kversion ? cz_xstrdup(vv->kversion) : zab_tree_version(file);
	if (kv)
		cz_jset(o, "kernel_version", cz_jstr(kv));
	free(kv);
	free(file);
	np = patch_args(vv, &patches);
	if (np) {
		cz_jset(o, "patch", cz_jstr(patches[np - 1]));
		if (np == 1 && !cz_file_sha256(patches[0], hex))
			cz_jset(o, "patch_sha256", cz_jstr(hex));
	}
	patchset_json(o, patches, np);
	if (np > 1)
		cz_jset(o, "patch_sha256", json_deep_copy(json_object_get(o, "patchset_hash")));
	if (vv->git_commit)
		cz_jset(o, "git_commit", cz_jstr(vv->git_commit));
	for (i = 0; i < np; i++)
		free(patches[i]);
	free(patches);
	return o;
}

static void variants_json(json_t *doc, const struct czres_result *r,
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
		if (vv->seq) {
			/* a step of a change sequence (sequence.h): NAME@step of 0..steps */
			cz_jset(o, "sequence", cz_jstr(vv->seq));
			if (vv->seq_kind)
				cz_jset(o, "sequence_kind", cz_jstr(vv->seq_kind));
			cz_jset(o, "step", cz_jnum(vv->step));
			cz_jset(o, "steps", cz_jnum(vv->steps));
			cz_jset(o, "label", cz_jstr(vv->label ? vv->label : ""));
		}
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

json_t *zab_result_json(const struct czres_result *r, const struct zab_experiment *e,
			   json_t *env, json_t *devinfo, json_t *sessinfo, uint64_t seed)
{
	json_t *doc = cz_jobj();

	cz_jset(doc, "zab", cz_jnum(1));
	cz_jset(doc, "sut", cz_jstr(r->sut));
	cz_jset(doc, "environment", env);
	experiment_json(doc, r, e, sessinfo, seed);
	benchmarks_json(doc, r, e);
	variants_json(doc, r, e, devinfo);
	czrep_cells_json(doc, r);
	return doc;
}
