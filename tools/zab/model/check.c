/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An experiment as read (experiment.c) made ready to run: the variants
 * for another machine left out (arch=), every change sequence expanded
 * into its step variants (sequence.h), and the checks across keys --
 * names, substitutions, the base, placement and rotate, files, measure
 * (zab_experiment_check).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cli.h"
#include "kpath.h"
#include "model.h"
#include "sequence.h"
#include "util.h"
#include "zeroing.h"

/* the {NAME}s zab sets for every run */
static const char *const builtin_vars[] = {
	"dev", "routine", "align", "chunk", "variant", "session", "cmd", "offset", "point",
};

static int expand_sequences(struct zab_experiment *e);

/* Drop the variants meant for another machine (arch=), named in e->arch_dropped. */
static void filter_arch(struct zab_experiment *e)
{
	struct utsname u;
	size_t i, j = 0;
	char *list = NULL, *d;

	if (uname(&u))
		return;
	for (i = 0; i < e->nvar; i++) {
		if (e->var[i].arch && strcmp(e->var[i].arch, u.machine)) {
			d = cz_xasprintf("%s%s'%s' (arch = %s)", list ? list : "", list ? ", " : "",
					 e->var[i].name, e->var[i].arch);
			free(list);
			list = d;
			zab_variant_free(&e->var[i]);
			continue;
		}
		e->var[j++] = e->var[i];
	}
	e->nvar = j;
	if (list) {
		free(e->arch_dropped);
		e->arch_dropped = cz_xasprintf("%s, not for this %s machine", list, u.machine);
		free(list);
	}
}

/*
 * placement = rotate: the daemon rotates (a device variant only), over at
 * most CUSEZERO_ROTATE_MAX copies.
 */
static int rotate_check(const struct zab_experiment *e, size_t v)
{
	const struct zab_placement *p = zab_var_placement(e, v);
	const struct zab_variant *x = &e->var[v];

	if (p->mode != ZAB_PLACE_ROTATE)
		return 0;
	if (!x->device) {
		cz_err("%s: variant '%s': placement=%s rotates a cusezero daemon's copies: give it a device setting (routine=, align=, ...)",
			x->where, x->name, p->spec);
		return -EINVAL;
	}
	if (p->nset > CUSEZERO_ROTATE_MAX) {
		cz_err("%s: variant '%s': placement=%s: %zu offsets, at most %d rotate",
			x->where, x->name, p->spec, p->nset, CUSEZERO_ROTATE_MAX);
		return -EINVAL;
	}
	return 0;
}

/*
 * A device variant placed per run needs a routine that can be placed (its
 * reason otherwise).  Its own align= is where its daemon starts; each run
 * then moves it (so one file gives both: --placement fixed runs the own).
 */
static int placement_check(const struct zab_experiment *e)
{
	const struct zero_routine *r;
	size_t v;

	for (v = 0; v < e->nvar; v++) {
		const struct zab_variant *x = &e->var[v];

		if (rotate_check(e, v))
			return -EINVAL;
		if (zab_var_placement(e, v)->mode == ZAB_PLACE_FIXED || !x->device)
			continue;
		r = x->routine ? zero_lookup(x->routine) : zero_device_default(NULL, 0);
		if (r && !r->code_start) {
			cz_err("%s: variant '%s': routine %s cannot be placed (placement=%s): %s",
				x->where, x->name, r->name, zab_var_placement(e, v)->spec,
				r->no_reloc_why ? r->no_reloc_why : "not relocatable");
			return -EINVAL;
		}
		if (r && !r->loop_head && !zab_var_placement(e, v)->entry) {
			cz_err("%s: variant '%s': routine %s has no loop head to place (compiled C, or no loop): use %s@entry",
				x->where, x->name, r->name, zab_var_placement(e, v)->spec);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * The files a variant's daemon will read (--source, --patch): a missing one
 * is said before anything runs, naming it, not as "no default symbol".
 */
static int files_check(const struct zab_experiment *e)
{
	struct stat st;
	char *path;
	size_t v, i;
	int ret = 0;

	for (v = 0; v < e->nvar && !ret; v++) {
		for (i = 0; i < e->var[v].ndev && !ret; i++) {
			const char *w = e->var[v].dev_argv[i];
			const char *val = !strncmp(w, "--source=", 9) ? w + 9 :
					  !strncmp(w, "--patch=", 8) ? w + 8 : NULL;
			bool tree = false;
			size_t n;

			if (!val)
				continue;
			if (!strncmp(val, "kpath:", 6)) {
				val += 6;	/* kpath:TREE:PATH: the tree, a folder */
				tree = true;
			}
			/* FILE:SYMBOL (TREE:PATH): the file */
			n = w[2] == 's' ? zab_source_path_len(val) : strlen(val);
			path = cz_xasprintf("%.*s", (int)n, val);
			if (access(path, R_OK) || stat(path, &st)) {
				cz_err("%s: variant '%s': %s %s: %s", e->var[v].where, e->var[v].name,
				       w[2] == 's' ? "source" : "patch", path, strerror(errno));
				ret = -EINVAL;
			} else if (tree && !S_ISDIR(st.st_mode)) {
				cz_err("%s: variant '%s': source kpath:%s: %s, not a kernel tree's folder",
				       e->var[v].where, e->var[v].name, path, zab_file_kind(st.st_mode));
				ret = -EINVAL;
			} else if (tree) {
				/* the resolver reads the tree's files itself */
			} else if (!S_ISREG(st.st_mode)) {
				/* a FIFO would hold the daemon (and the run) forever */
				cz_err("%s: variant '%s': %s %s: %s, not a regular file", e->var[v].where,
				       e->var[v].name, w[2] == 's' ? "source" : "patch", path,
				       zab_file_kind(st.st_mode));
				ret = -EINVAL;
			} else if (zab_blob_check(path)) {
				ret = -EINVAL;    /* a blob changed since zab expand wrote it */
			}
			free(path);
		}
	}
	return ret;
}

/*
 * A benchmark with a unit prints its number (auto means output there); a
 * timed one measures seconds, lower is better.
 */
static int measure_check(struct zab_experiment *e)
{
	size_t b;

	for (b = 0; b < e->nbench; b++) {
		struct zab_bench *x = &e->bench[b];

		if (x->measure == ZAB_MEASURE_AUTO && x->unit && *x->unit)
			x->measure = ZAB_MEASURE_OUTPUT;
		if (x->measure != ZAB_MEASURE_TIME)
			continue;
		if (x->unit && *x->unit && strcmp(x->unit, "seconds")) {
			cz_err("%s: benchmark '%s' is timed (measure = time, --time): its unit is seconds, not '%s'",
				x->where, x->name, x->unit);
			return -EINVAL;
		}
		free(x->unit);
		x->unit = cz_xstrdup("seconds");
		x->higher = false;
	}
	return 0;
}

int zab_experiment_check(struct zab_experiment *e)
{
	struct zab_kv kv[3 * CZRES_MAX_ITEMS];
	size_t b, v, i, n;
	char *bad = NULL, *s, *cmd;

	filter_arch(e);
	if (expand_sequences(e))
		return -EINVAL;
	for (v = 0; v < e->nvar; v++)
		for (i = 0; i < v; i++)
			if (!strcmp(e->var[i].name, e->var[v].name)) {
				cz_err("%s: variant '%s' defined twice (first at %s)",
					e->var[v].where, e->var[v].name, e->var[i].where);
				return -EINVAL;
			}

	if (!e->nbench) {
		cz_err("%s: no benchmark (give --bench NAME=CMD or a [benchmark NAME] section)",
			e->file ? e->file : "command line");
		return -EINVAL;
	}
	if (e->nvar < 2) {
		cz_err("%s: need at least two variants to compare (got %zu%s%s)",
			e->file ? e->file : "command line", e->nvar,
			e->arch_dropped ? "; left out: " : "", e->arch_dropped ? e->arch_dropped : "");
		return -EINVAL;
	}
	for (b = 0; b < e->nbench; b++)
		if (!e->bench[b].cmd) {
			cz_err("%s: benchmark '%s' has no cmd=", e->bench[b].where,
				e->bench[b].name);
			return -EINVAL;
		}
	if (measure_check(e))
		return -EINVAL;
	if (e->base) {
		for (v = 0; v < e->nvar && strcmp(e->var[v].name, e->base); v++)
			;
		if (v == e->nvar) {
			cz_err("%s: base variant '%s' is not defined",
				e->file ? e->file : "--base", e->base);
			return -EINVAL;
		}
	}
	/* Every {name} must resolve for every variant (built-ins get dummies here). */
	for (v = 0; v < e->nvar; v++) {
		n = 0;
		for (i = 0; i < CZ_ARRAY_SIZE(builtin_vars); i++)
			kv[n++] = (struct zab_kv){ (char *)builtin_vars[i], (char *)"x" };
		for (i = 0; i < e->nvars; i++)
			kv[n++] = e->vars[i];
		for (i = 0; i < e->var[v].nvars; i++)
			kv[n++] = e->var[v].vars[i];
		for (b = 0; b < e->nbench; b++) {
			cmd = e->var[v].cmd ? e->var[v].cmd : e->bench[b].cmd;
			s = zab_expand(cmd, kv, n, &bad);
			if (!s) {
				cz_err("%s: unknown variable {%s} in command '%s' (variant '%s'; define var.%s=)",
					e->var[v].cmd ? e->var[v].where : e->bench[b].where, bad, cmd,
					e->var[v].name, bad);
				free(bad);
				return -EINVAL;
			}
			free(s);
			s = e->prepare ? zab_expand(e->prepare, kv, n, &bad) : cz_xstrdup("");
			if (!s) {
				cz_err("%s: unknown variable {%s} in --prepare command '%s' (variant '%s')",
					e->file ? e->file : "--prepare", bad, e->prepare, e->var[v].name);
				free(bad);
				return -EINVAL;
			}
			free(s);
			if (e->var[v].cmd) {
				s = zab_expand(e->bench[b].cmd, kv, n, &bad);
				if (!s) {
					cz_err("%s: unknown variable {%s} in command '%s'",
						e->bench[b].where, bad, e->bench[b].cmd);
					free(bad);
					return -EINVAL;
				}
				free(s);
			}
		}
	}
	if (placement_check(e) || files_check(e))
		return -EINVAL;
	if (!e->sessions)
		e->sessions = 1;
	/* three measured runs: the fewest a confidence interval and a U test can use */
	if (!e->repeats)
		e->repeats = ZAB_DEFAULT_REPEATS;
	return 0;
}

static void copy_kv(struct zab_kv *dst, const struct zab_kv *src, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		dst[i].key = cz_xstrdup(src[i].key);
		dst[i].val = cz_xstrdup(src[i].val);
	}
}

static char *dup_or_null(const char *s)
{
	return s ? cz_xstrdup(s) : NULL;
}

/* A deep copy of v (a sequence's steps start as copies of its variant). */
static void variant_copy(struct zab_variant *d, const struct zab_variant *v)
{
	*d = *v;
	d->name = dup_or_null(v->name);
	d->cmd = dup_or_null(v->cmd);
	copy_kv(d->env, v->env, v->nenv);
	copy_kv(d->vars, v->vars, v->nvars);
	d->routine = dup_or_null(v->routine);
	d->align = dup_or_null(v->align);
	d->align_point = dup_or_null(v->align_point);
	d->chunk = dup_or_null(v->chunk);
	d->frontend = dup_or_null(v->frontend);
	d->threads = dup_or_null(v->threads);
	d->dev_argv = NULL;
	d->ndev = 0;
	for (size_t i = 0; i < v->ndev; i++)
		zab_devarg_add(d, v->dev_argv[i]);
	d->where = dup_or_null(v->where);
	d->arch = dup_or_null(v->arch);
	memset(&d->placement, 0, sizeof(d->placement));
	if (v->placement.spec)
		zab_placement_parse(v->placement.spec, &d->placement);
	d->series = dup_or_null(v->series);
	d->kernels = dup_or_null(v->kernels);
	d->git = dup_or_null(v->git);
	d->seq = dup_or_null(v->seq);
	d->seq_kind = dup_or_null(v->seq_kind);
	d->label = dup_or_null(v->label);
	d->kversion = dup_or_null(v->kversion);
	d->git_commit = dup_or_null(v->git_commit);
}

/*
 * Every sequence variant replaced, where it stands, by its steps NAME@0 ..
 * NAME@N (sequence.h); base= naming a sequence means its step 0.
 */
static int expand_sequences(struct zab_experiment *e)
{
	struct zab_variant x;
	struct zab_seq *sp;
	size_t v, k, extra;

	for (v = 0; v < e->nvar; v++) {
		if (!zab_seq_is(&e->var[v]))
			continue;
		e->seqs = cz_xrealloc(e->seqs, (e->nseqs + 1) * sizeof(*e->seqs));
		sp = &e->seqs[e->nseqs];
		/* room: the variants beside this one; more steps are refused before any work */
		if (zab_seq_build(&e->var[v], CZRES_MAX_ITEMS - (e->nvar - 1), sp))
			return -EINVAL;
		e->nseqs++;
		extra = sp->nstep - 1;
		if (e->nvar + extra > CZRES_MAX_ITEMS) {
			cz_err("%s: variant '%s': %zu steps make %zu variants, more than %d",
			       e->var[v].where, e->var[v].name, sp->nstep, e->nvar + extra, CZRES_MAX_ITEMS);
			return -EINVAL;
		}
		x = e->var[v];
		memmove(&e->var[v + sp->nstep], &e->var[v + 1], (e->nvar - v - 1) * sizeof(x));
		for (k = 0; k < sp->nstep; k++) {
			variant_copy(&e->var[v + k], &x);
			zab_seq_apply(&e->var[v + k], sp, k);
		}
		if (e->base && !strcmp(e->base, x.name)) {
			free(e->base);
			e->base = cz_xasprintf("%s@0", x.name);
		}
		zab_variant_free(&x);
		e->nvar += extra;
		v += extra;
	}
	return 0;
}

