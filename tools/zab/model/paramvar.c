/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab run's --parameter-list and --parameter-scan (model.h): the command
 * line's variants once per combination of the parameters' values, each
 * with its {NAME}s replaced by params.c's one substitution.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "cli.h"
#include "model.h"

/* The values of parameter p into vals (malloc'd): how many, or -1 after one line. */
static int param_values(const struct zab_param *p, double step, char **vals)
{
	double x;
	int n = 0;

	if (p->list) {
		char **v;

		n = zab_param_list(p->list, false, CZRES_MAX_ITEMS, &v);
		if (n < 0) {
			cz_err("--parameter-list %s '%s': %s", p->name, p->list,
			       n == -E2BIG ? "more than 64 values" : "an empty value");
			return -1;
		}
		memcpy(vals, v, (size_t)n * sizeof(*v));
		free(v);
		return n;
	}
	for (x = p->lo; x <= p->hi + step * 1e-9; x = p->lo + step * n) {
		if (n == CZRES_MAX_ITEMS) {
			cz_err("--parameter-scan %s %g %g: more than 64 values (step %g)", p->name,
			       p->lo, p->hi, step);
			return -1;
		}
		vals[n++] = cz_xasprintf("%.10g", x);
	}
	if (!n)
		cz_err("--parameter-scan %s %g %g: no value (LO above HI)", p->name, p->lo, p->hi);
	return n ? n : -1;
}

/* s with every {NAME} of the parameters replaced by this combination's value (one pass). */
static char *param_subst(const char *s, const struct zab_param *p, size_t np, char *const *val)
{
	struct zab_kv kv[ZAB_MAX_PARAMS];
	size_t i;

	for (i = 0; i < np; i++) {
		kv[i].key = (char *)p[i].name;
		kv[i].val = val[i];
	}
	return zab_subst(s, kv, np, false, NULL);
}

/* One variant of the expansion: spec (NULL: none given) with the values val. 0 or -1. */
static int param_variant(struct zab_experiment *e, const struct zab_param *p, size_t np,
			 const char *spec, char *const *val)
{
	char *x = spec ? param_subst(spec, p, np, val) : cz_xstrdup("p"), *colon = strchr(x, ':');
	char *name = spec ? cz_xasprintf("%.*s", (int)(colon ? colon - x : (long)strlen(x)), x) :
			    cz_xstrdup("");
	struct zab_variant *v;
	size_t i;
	int ret = zab_variant_spec(e, x);

	free(x);
	if (ret) {
		free(name);
		return -1;
	}
	v = &e->var[e->nvar - 1];
	for (i = 0; i < np; i++) {
		x = cz_xasprintf("%s%s%s=%s", name, *name ? " " : "", p[i].name, val[i]);
		free(name);
		name = x;
		if (v->nvars == CZRES_MAX_ITEMS) {
			cz_err("variant '%s': more than %d var.NAME values", name, CZRES_MAX_ITEMS);
			free(name);
			return -1;
		}
		v->vars[v->nvars].key = cz_xstrdup(p[i].name);
		v->vars[v->nvars++].val = cz_xstrdup(val[i]);
	}
	free(v->name);
	v->name = name;
	return 0;
}

/*
 * The variants: each --variant (or one with no setting) once per
 * combination of the parameters' values, {NAME} replaced in its spec and
 * var.NAME set (so {NAME} in every command), named "VARIANT NAME=VALUE".
 */
int zab_param_variants(struct zab_experiment *e, const struct zab_param *p, size_t np, double step,
		       char *const *vspecs, size_t nv)
{
	char *vals[ZAB_MAX_PARAMS][CZRES_MAX_ITEMS], *val[ZAB_MAX_PARAMS];
	int nval[ZAB_MAX_PARAMS] = { 0 }, ret = 0;
	size_t i, k, total = 1, nbase = nv ? nv : 1, combo;

	if (e->nvar) {
		cz_err("%s: --parameter-list and --parameter-scan expand the command line's variants, not the file's",
		       e->file);
		return -1;
	}
	for (i = 0; i < np && !ret; i++) {
		nval[i] = param_values(&p[i], step > 0 ? step : 1, vals[i]);
		ret = nval[i] < 0;
		total *= nval[i] > 0 ? (size_t)nval[i] : 1;
	}
	if (!ret && total * nbase > CZRES_MAX_ITEMS) {
		cz_err("parameters: %zu variants x %zu combinations is more than %d variants", nbase,
		       total, CZRES_MAX_ITEMS);
		ret = 1;
	}
	for (i = 0; i < nbase && !ret; i++)
		for (combo = 0; combo < total && !ret; combo++) {
			size_t rest = combo;

			/* the last parameter varies fastest */
			for (k = np; k-- > 0;) {
				val[k] = vals[k][rest % (size_t)nval[k]];
				rest /= (size_t)nval[k];
			}
			ret = param_variant(e, p, np, nv ? vspecs[i] : NULL, val);
		}
	for (i = 0; i < np; i++)
		for (k = 0; k < (size_t)(nval[i] > 0 ? nval[i] : 0); k++)
			free(vals[i][k]);
	return ret ? -1 : 0;
}
