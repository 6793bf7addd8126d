/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Parameters and {NAME} substitution, one engine for experiment files'
 * var.NAME (zab_expand), zab run's --parameter-list / --parameter-scan and
 * hyperfine mode's -L / -P.  Substitution is one pass over the template: a
 * value put in is never searched again, so a value holding its own {NAME}
 * (or another's) is taken as it is.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "model.h"

bool zab_ident(const char *s)
{
	if (!*s || isdigit((unsigned char)*s))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

/* The value of the {NAME} at p (len: its length with the braces), NULL when none. */
static const char *lookup(const char *p, size_t len, const struct zab_kv *kv, size_t nkv)
{
	size_t i;

	/* later entries win: variant vars override experiment vars */
	for (i = nkv; i-- > 0;)
		if (strlen(kv[i].key) == len - 2 && !memcmp(kv[i].key, p + 1, len - 2))
			return kv[i].val;
	return NULL;
}

char *zab_subst(const char *tmpl, const struct zab_kv *kv, size_t nkv, bool strict, char **bad)
{
	size_t cap = strlen(tmpl) + 64, n = 0, len, vl;
	char *out = cz_xmalloc(cap);
	const char *p = tmpl, *end, *val;

	while (*p) {
		val = NULL;
		len = 1;
		/* strict: "${NAME}" is the shell's, not ours */
		if (*p == '{' && !(strict && p > tmpl && p[-1] == '$') && (end = strchr(p, '}'))) {
			val = lookup(p, (size_t)(end - p) + 1, kv, nkv);
			if (val) {
				len = (size_t)(end - p) + 1;
			} else if (strict) {
				char *name = cz_xasprintf("%.*s", (int)(end - p - 1), p + 1);

				if (zab_ident(name)) {
					*bad = name;
					free(out);
					return NULL;
				}
				free(name);
			}
		}
		vl = val ? strlen(val) : 1;
		if (n + vl + 1 >= cap)
			out = cz_xrealloc(out, cap = 2 * (n + vl + 1));
		memcpy(out + n, val ? val : p, vl);
		n += vl;
		p += len;
	}
	out[n] = 0;
	return out;
}

int zab_param_list(const char *list, bool empty_ok, size_t max, char ***vals)
{
	const char *s = list;
	size_t n = 0, len;

	*vals = NULL;
	do {
		len = strcspn(s, ",");
		if ((!len && !empty_ok) || n == max) {
			zab_param_free(*vals, n);
			*vals = NULL;
			return !len && !empty_ok ? -EINVAL : -E2BIG;
		}
		*vals = cz_xrealloc(*vals, (n + 1) * sizeof(**vals));
		(*vals)[n++] = cz_xasprintf("%.*s", (int)len, s);
		s += len;
	} while (*s++);
	return (int)n;
}

void zab_param_free(char **vals, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(vals[i]);
	free(vals);
}
