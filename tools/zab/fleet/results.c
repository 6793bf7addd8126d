/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab fleet after ansible-playbook: each SUT's result into the store (with
 * the SHA-256 of every file shipped to it), each SUT's state (fleetstate.h)
 * from what the role left in the results folder, one line per SUT, "n of m
 * SUTs complete" per class, then the report by SUT class.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "czstore.h"
#include "fleet.h"
#include "fleetstate.h"
#include "results/result.h"

int fleet_mark_stored(struct fleet *f, struct czs *s, bool after)
{
	struct czs_filter flt = { .campaign = f->campaign };
	char err[1024];
	json_t *rows, *row;
	size_t i, h;

	if (czs_list(s, CZS_RUNS, &flt, &rows, err, sizeof(err))) {
		cz_err("fleet: %s: %s", czs_name(s), err);
		return -1;
	}
	json_array_foreach(rows, i, row) {
		const char *n = json_string_value(json_object_get(row, "sut_name"));

		for (h = 0; n && h < f->nhosts; h++)
			if (!strcmp(n, f->hosts[h].name))
				*(after ? &f->hosts[h].stored : &f->hosts[h].done) = true;
	}
	json_decref(rows);
	return 0;
}

/* HOST.state: "STATE: why" as the role wrote it. */
static void read_state(struct fleet *f, struct fleet_host *h)
{
	char *path = cz_xasprintf("%s/%s.state", f->results, h->name), *text = NULL, *colon;
	size_t cap = 0;
	ssize_t n;
	FILE *in = fopen(path, "r");

	n = in ? getline(&text, &cap, in) : -1;
	if (in)
		fclose(in);
	free(path);
	if (n <= 0) {
		h->state = cz_xstrdup("unreachable");
		h->detail = cz_xstrdup("no answer (unreachable or lost; run the same command again to complete it)");
		free(text);
		return;
	}
	text[strcspn(text, "\n")] = 0;
	colon = strstr(text, ": ");
	if (colon)
		*colon = 0;
	h->state = cz_xstrdup(czs_fleet_state_valid(text) ? text : "run failed");
	h->detail = cz_xstrdup(colon ? colon + 2 : czs_fleet_state_valid(text) ? "" : text);
	free(text);
}

/* HOST.json into the store, each result with what was shipped: 1 stored, 0 none, -1 failed. */
static int import_host(struct fleet *f, struct czs *s, const struct fleet_host *h)
{
	char *path = cz_xasprintf("%s/%s.json", f->results, h->name), err[1024], uuid[37];
	json_t *doc, *list, *one;
	struct stat st;
	bool already;
	size_t j, n;
	int ret = 1;

	if (stat(path, &st)) {
		free(path);
		return 0;
	}
	doc = czres_json_load(path, "");
	list = doc ? json_object_get(doc, "results") : NULL;
	n = !doc ? 0 : json_is_array(list) ? json_array_size(list) : 1;
	for (j = 0; j < n; j++) {
		one = json_is_array(list) ? json_array_get(list, j) : doc;
		json_object_set_new(one, "shipped", json_pack("{s:s, s:O}", "sha256sums", f->sums, "files",
							      f->shipped));
		if (czs_put_run(s, one, path, uuid, &already, err, sizeof(err))) {
			cz_err("fleet: %s: not stored in %s: %s", path, czs_name(s), err);
			ret = -1;
		}
	}
	if (!doc)
		ret = -1;
	json_decref(doc);
	free(path);
	return ret;
}

void fleet_collect(struct fleet *f, struct czs *s)
{
	char err[1024];
	size_t i;
	int k;

	for (i = 0; i < f->nhosts; i++) {
		struct fleet_host *h = &f->hosts[i];

		if (h->done)
			continue;
		read_state(f, h);
		k = import_host(f, s, h);
		if (k < 0 || (k == 0 && !strcmp(h->state, "complete"))) {
			free(h->state);
			free(h->detail);
			h->state = cz_xstrdup("run failed");
			h->detail = cz_xstrdup("its result could not be stored");
		} else if (k > 0 && strcmp(h->state, "complete")) {
			/* its result came back and is stored: that is what completes it */
			free(h->state);
			free(h->detail);
			h->state = cz_xstrdup("complete");
			h->detail = cz_xstrdup("");
		}
		if (czs_fleet_state_put(s, f->campaign, f->name, h->name, h->cls, h->state, h->detail,
					err, sizeof(err)))
			cz_err("fleet: %s: state not recorded in %s: %s", h->name, czs_name(s), err);
	}
}

/* "CLASS: n of m SUTs complete" per class; -1 when one has fewer than the minimum. */
static int per_class(const struct fleet *f)
{
	size_t i, j, n, m;
	int ret = 0;

	for (i = 0; i < f->nhosts; i++) {
		for (j = 0; j < i && strcmp(f->hosts[j].cls, f->hosts[i].cls); j++)
			;
		if (j < i)
			continue;       /* class already counted */
		for (n = m = 0, j = i; j < f->nhosts; j++)
			if (!strcmp(f->hosts[j].cls, f->hosts[i].cls)) {
				m++;
				n += f->hosts[j].done || f->hosts[j].stored;
			}
		printf("  class %s: %zu of %zu SUTs complete%s\n", f->hosts[i].cls, n, m,
		       f->min_per_class && n < f->min_per_class ? " (fewer than --min-per-class)" : "");
		if (f->min_per_class && n < f->min_per_class)
			ret = -1;
	}
	return ret;
}

int fleet_summary(struct fleet *f, struct czs *s)
{
	size_t i, failed = 0;

	if (fleet_mark_stored(f, s, true))
		return 1;
	printf("zab fleet: campaign %s, per SUT:\n", f->campaign);
	for (i = 0; i < f->nhosts; i++) {
		const struct fleet_host *h = &f->hosts[i];

		if (h->done || h->stored) {
			printf("  %s: ok\n", h->name);
			continue;
		}
		failed++;
		printf("  %s: %s%s%s\n", h->name, h->state ? h->state : "unreachable",
		       h->detail && *h->detail ? ": " : "", h->detail ? h->detail : "");
	}
	if (per_class(f))
		return 1;
	return f->min_per_class ? 0 : failed ? 1 : 0;
}

void fleet_report(const struct fleet *f)
{
	const char *argv[16];
	int n = 0;

	argv[n++] = f->self;
	argv[n++] = "report";
	if (f->store) {
		argv[n++] = "--store";
		argv[n++] = f->store;
	}
	argv[n++] = "--experiment";
	argv[n++] = f->name;
	argv[n++] = "--campaign";
	argv[n++] = f->campaign;
	argv[n++] = "--by";
	argv[n++] = "sut-class";
	if (f->html) {
		argv[n++] = "--html";
		argv[n++] = f->html;
	}
	argv[n] = NULL;
	fflush(stdout);
	fleet_run(argv, NULL, NULL, 0);
}
