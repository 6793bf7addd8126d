/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Run selectors (zab compare --store A B): words naming runs, turned into
 * a czs_filter.  A UUID prefix is checked here, against the store, so a
 * selector is either one run set or one line saying why not.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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
	if (f->experiment && (ret = czs_experiment_known(s, f->experiment, err, errlen)))
		return ret;
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

/* Levenshtein distance of a and b, letters compared without case. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, *row = calloc(lb + 1, sizeof(*row)), d;

	if (!row)
		return la + lb;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (tolower((unsigned char)a[i - 1]) !=
							   tolower((unsigned char)b[j - 1]));

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	d = row[lb];
	free(row);
	return d;
}

/* The experiment file's name without folder or extension ("quick-alignment"). */
static void file_stem(const char *file, char *out, size_t len)
{
	const char *b = strrchr(file, '/'), *dot;

	b = b ? b + 1 : file;
	dot = strrchr(b, '.');
	snprintf(out, len, "%.*s", (int)(dot && dot != b ? dot - b : (long)strlen(b)), b);
}

struct known {
	const char *name, *file;
	size_t d;
};

static int by_distance(const void *x, const void *y)
{
	const struct known *a = x, *b = y;

	return a->d != b->d ? (a->d < b->d ? -1 : 1) : strcmp(a->name, b->name);
}

int czs_experiment_known(struct czs *s, const char *name, char *err, size_t errlen)
{
	json_t *rows = NULL, *row;
	struct known *k;
	size_t n, i, m = 0, o;
	char stem[256];
	int ret = czs_list(s, CZS_EXPERIMENTS, NULL, &rows, err, errlen);

	if (ret)
		return ret;
	n = json_array_size(rows);
	k = calloc(n + 1, sizeof(*k));
	for (i = 0; k && i < n; i++) {
		row = json_array_get(rows, i);
		k[m].name = json_string_value(json_object_get(row, "experiment"));
		k[m].file = json_string_value(json_object_get(row, "file"));
		if (!k[m].name)
			continue;
		if (!strcmp(k[m].name, name)) {
			free(k);
			json_decref(rows);
			return 0;
		}
		k[m].d = distance(name, k[m].name);
		file_stem(k[m].file ? k[m].file : "", stem, sizeof(stem));
		if (stem[0] && distance(name, stem) < k[m].d)
			k[m].d = distance(name, stem);
		m++;
	}
	if (m > 1)
		qsort(k, m, sizeof(*k), by_distance);
	o = (size_t)snprintf(err, errlen, "no experiment '%s' in %s", name, czs_name(s));
	if (!m && o < errlen)
		snprintf(err + o, errlen - o, ", which holds none");
	for (i = 0; i < m && i < 10 && o < errlen; i++) {
		file_stem(k[i].file ? k[i].file : "", stem, sizeof(stem));
		o += (size_t)snprintf(err + o, errlen - o, "%s'%s'%s%s%s", i ? ", " : "; stored (closest first): ",
				      k[i].name, stem[0] && strcmp(stem, k[i].name) ? " (file " : "",
				      stem[0] && strcmp(stem, k[i].name) ? stem : "",
				      stem[0] && strcmp(stem, k[i].name) ? ")" : "");
	}
	if (m > 10 && o < errlen)
		snprintf(err + o, errlen - o, " and %zu more (zab store ls experiments)", m - 10);
	free(k);
	json_decref(rows);
	return -ENOENT;
}
