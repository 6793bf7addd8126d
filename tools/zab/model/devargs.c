/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A variant's daemon arguments (struct zab_variant's dev_argv, one word
 * each, never split on blanks) and the FILE:SYMBOL rule of a source: used
 * by the experiment reader and the sequence expander alike, so they sit
 * below both (no dependency runs back from sequence to experiment).
 */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "model.h"

void zab_devarg_add(struct zab_variant *x, const char *word)
{
	x->dev_argv = cz_xrealloc(x->dev_argv, (x->ndev + 1) * sizeof(*x->dev_argv));
	x->dev_argv[x->ndev++] = cz_xstrdup(word);
}

size_t zab_devarg_find(const struct zab_variant *x, const char *opt, const char **first)
{
	size_t i, n = 0, len = strlen(opt);

	if (first)
		*first = NULL;
	for (i = 0; i < x->ndev; i++) {
		if (strncmp(x->dev_argv[i], opt, len))
			continue;
		if (!n++ && first)
			*first = x->dev_argv[i] + len;
	}
	return n;
}

size_t zab_source_path_len(const char *spec)
{
	const char *colon = strrchr(spec, ':');

	return colon && !strchr(colon, '/') ? (size_t)(colon - spec) : strlen(spec);
}
