/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zero_sources_load(): every --source of a set, kernel files through
 * zero_ksrc_load_all() and kernel paths (kpath:TREE:PATH) through the
 * release resolver (kpath_load.c), which loads what it resolves through
 * zero_ksrc_load().  Above both, so that ksrc.c never calls back into the
 * resolver (no dependency cycle between the two).
 */
#include <string.h>

#include "ksrc.h"
#include "ksrc_int.h"

int zero_sources_load(const struct zero_ksrc_set *s, const struct zero_routine **out, char *err,
		      size_t errlen)
{
	unsigned i;
	int ret = zero_ksrc_load_all(s, out, err, errlen);

	for (i = 0; !ret && i < s->n; i++)
		if (!strncmp(s->o[i].source, "kpath:", 6))
			ret = ksrc_kpath_source(&s->o[i], &out[i], err, errlen);
	return ret;
}
