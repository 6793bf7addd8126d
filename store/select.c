/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Run selectors (zab compare --store A B): words naming runs, turned into
 * a czs_filter.  A UUID prefix is checked here, against the store, so a
 * selector is either one run set or one line saying why not.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "czstore.h"

/* One KEY:VALUE word into f: 0, or -EINVAL. */
static int select_word(char *w, struct czs_filter *f)
{
	static const char *const keys[] = { "campaign:", "sut-class:", "sut:", "experiment:" };
	const char **slot[] = { &f->campaign, &f->sut_class, &f->sut_name, &f->experiment };
	size_t k, len;

	for (k = 0; k < 4; k++) {
		len = strlen(keys[k]);
		if (!strncmp(w, keys[k], len) && w[len] && !*slot[k]) {
			*slot[k] = w + len;
			return 0;
		}
	}
	if (strchr(w, ':') || f->uuid_prefix || strlen(w) < 8 || strlen(w) > 36 ||
	    w[strspn(w, "0123456789abcdef-")])
		return -EINVAL;
	f->uuid_prefix = w;
	return 0;
}

int czs_select(struct czs *s, char *sel, struct czs_filter *f, char *err, size_t errlen)
{
	struct czs_filter one = { 0 };
	char shown[256], *save = NULL, *w;
	json_t *rows = NULL;
	size_t n;
	int ret;

	memset(f, 0, sizeof(*f));
	snprintf(shown, sizeof(shown), "%s", sel);
	for (w = strtok_r(sel, ",", &save); w; w = strtok_r(NULL, ",", &save))
		if (select_word(w, f)) {
			snprintf(err, errlen, "selector '%s': '%s' is not a run UUID (8 or more of its "
				 "characters), campaign:ID, sut-class:C, sut:NAME or experiment:NAME, "
				 "each at most once", shown, w);
			return -EINVAL;
		}
	if (!f->uuid_prefix && !f->campaign && !f->sut_class && !f->sut_name && !f->experiment) {
		snprintf(err, errlen, "selector '%s': empty", shown);
		return -EINVAL;
	}
	if (!f->uuid_prefix)
		return 0;
	one.uuid_prefix = f->uuid_prefix;
	ret = czs_list(s, CZS_RUNS, &one, &rows, err, errlen);
	if (ret)
		return ret;
	n = json_array_size(rows);
	json_decref(rows);
	if (n == 1)
		return 0;
	snprintf(err, errlen, "selector '%s': %s", shown,
		 n ? "ambiguous: that UUID prefix names several runs" : "no run has that UUID");
	return -EINVAL;
}
