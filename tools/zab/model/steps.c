/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A change sequence's steps in stored runs: names, labels, the result class (steps.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "steps.h"
#include "model.h"

long zab_step_of(const char *vname, const char *seq, size_t *seqlen)
{
	const char *at = strrchr(vname, '@');
	char *end;
	long k;

	if (!at || at == vname || !isdigit((unsigned char)at[1]))
		return -1;
	if (seq && (strlen(seq) != (size_t)(at - vname) || strncmp(seq, vname, (size_t)(at - vname))))
		return -1;
	k = strtol(at + 1, &end, 10);
	if (*end || k < 0)
		return -1;
	if (seqlen)
		*seqlen = (size_t)(at - vname);
	return k;
}

char *zab_step_seq(const struct czres_result *r)
{
	size_t v, len;

	for (v = 0; v < r->nv; v++)
		if (zab_step_of(r->vname[v], NULL, &len) >= 0) {
			char *s = cz_xmalloc(len + 1);

			memcpy(s, r->vname[v], len);
			s[len] = 0;
			return s;
		}
	return NULL;
}

const char *zab_step_label(const struct czres_result *r, const char *vname)
{
	const json_t *x;
	size_t i;

	json_array_foreach(json_object_get(r->doc, "variants"), i, x) {
		const char *n = json_string_value(json_object_get(x, "name"));
		const char *l = json_string_value(json_object_get(x, "label"));

		if (n && !strcmp(n, vname) && l && *l)
			return l;
	}
	return vname;
}

size_t zab_step_bench(const struct czres_result *r, const char *name)
{
	size_t b;

	for (b = 0; name && b < r->nb; b++)
		if (!strcmp(r->b[b].name, name))
			return b;
	if (name)
		return r->nb;
	for (b = 0; b < r->nb; b++)
		if (r->b[b].kind == CZRES_RK_DEV_RATE)
			return b;
	return 0;
}
