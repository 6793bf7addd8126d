/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab fleet --bisect: each SUT class searches on its own.  One SUT of each
 * class (the first by name) gets the bundle and runs `zab bisect
 * EXPERIMENT --sut CLASS` there (czsut.py bisect: the same checks and lock
 * as a run; the probes go into a store in its run folder), every class at
 * once through one ansible-playbook.  Back on the controller: each SUT's
 * answer (HOST.bisect), and its probes imported into the store like a
 * fleet run's documents (tagged with the campaign and the SUT's inventory
 * name), then one line per class.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "czstore.h"
#include "fleet.h"
#include "model/pack.h"
#include "results/result.h"

/* HOST.json's runs tagged with the campaign and the host's name (zab bisect sets neither). */
static void fb_tag(const struct fleet *f, const struct fleet_host *h)
{
	char *path = cz_xasprintf("%s/%s.json", f->results, h->name);
	json_t *doc, *list, *one, *run;
	size_t i, n;

	if (access(path, F_OK)) {
		free(path);
		return;
	}
	doc = czres_json_load(path, "fleet");
	list = doc ? json_object_get(doc, "results") : NULL;
	n = !doc ? 0 : json_is_array(list) ? json_array_size(list) : 1;
	for (i = 0; i < n; i++) {
		one = json_is_array(list) ? json_array_get(list, i) : doc;
		run = json_object_get(one, "run");
		if (!json_is_object(run))
			continue;
		json_object_set_new(run, "campaign", json_string(f->campaign));
		json_object_set_new(run, "sut_name", json_string(h->name));
	}
	if (doc && json_dump_file(doc, path, JSON_COMPACT))
		cz_err("fleet: %s: cannot write it back", path);
	json_decref(doc);
	free(path);
}

/* The answer lines of HOST.bisect, each as "class C (HOST): LINE"; -1 when it has none. */
static int fb_answer(const struct fleet *f, const struct fleet_host *h, int *rc)
{
	char *path = cz_xasprintf("%s/%s.bisect", f->results, h->name), *line = NULL;
	size_t cap = 0, n = 0;
	FILE *in = fopen(path, "r");

	free(path);
	*rc = -1;
	while (in && getline(&line, &cap, in) > 0) {
		line[strcspn(line, "\n")] = 0;
		if (sscanf(line, "exit %d", rc) == 1 && !strncmp(line, "exit ", 5))
			continue;
		printf("  class %s (%s): %s\n", h->cls, h->name, line);
		n++;
	}
	free(line);
	if (in)
		fclose(in);
	return n ? 0 : -1;
}

/* One SUT per class in cz_todo (the others marked done): how many. */
static size_t fb_pick(struct fleet *f)
{
	size_t h, j, todo = 0;

	for (h = 0; h < f->nhosts; h++) {
		for (j = 0; j < h && strcmp(f->hosts[j].cls, f->hosts[h].cls); j++)
			;
		f->hosts[h].done = j < h;
		todo += j == h;
	}
	return todo;
}

size_t fleet_bisect_pick(struct fleet *f)
{
	size_t h, todo = fb_pick(f);
	char *path;

	printf("zab fleet: bisect on %zu class%s:", todo, todo == 1 ? "" : "es");
	for (h = 0; h < f->nhosts; h++)
		if (!f->hosts[h].done)
			printf(" %s (%s)", f->hosts[h].cls, f->hosts[h].name);
	putchar('\n');
	for (h = 0; h < f->nhosts; h++) {
		path = cz_xasprintf("%s/%s.bisect", f->results, f->hosts[h].name);
		unlink(path);
		free(path);
	}
	return todo;
}

int fleet_bisect_collect(struct fleet *f, struct czs *s, size_t todo)
{
	size_t h, answered = 0;
	int rc, ret = 0;

	for (h = 0; h < f->nhosts; h++)
		if (!f->hosts[h].done)
			fb_tag(f, &f->hosts[h]);
	fleet_collect(f, s);
	zab_pack_remove(f->bundle);
	printf("zab fleet: campaign %s, bisect per class:\n", f->campaign);
	for (h = 0; h < f->nhosts; h++) {
		const struct fleet_host *x = &f->hosts[h];

		if (x->done)
			continue;
		if (!fb_answer(f, x, &rc) && (rc == 0 || rc == 1 || rc == 125)) {
			answered++;
			continue;
		}
		printf("  class %s (%s): no answer: %s%s%s\n", x->cls, x->name, x->state ? x->state : "unreachable",
		       x->detail && *x->detail ? ": " : "", x->detail ? x->detail : "");
		ret = 1;
	}
	printf("zab fleet: %zu of %zu classes answered\n", answered, todo);
	return ret;
}
