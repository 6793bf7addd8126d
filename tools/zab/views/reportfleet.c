/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab report --campaign ID: what zab fleet recorded of each SUT of the
 * campaign (store/fleetstate.h) under the table -- "class C: n of m SUTs
 * complete", and each SUT that did not complete with its state -- so a
 * report never reads as a fleet's whole answer when part of it failed
 * (a failure is a state, never a figure).  --min-per-class N makes a
 * class with fewer complete SUTs a failure of the report.
 */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "views.h"
#include "store/czstore.h"
#include "store/fleetstate.h"

static const char *row_str(const json_t *row, const char *key)
{
	const char *s = json_string_value(json_object_get(row, key));

	return s ? s : "";
}

/* One class's line and its SUTs that did not complete; whether it has fewer than min. */
static int class_lines(FILE *f, const json_t *rows, const char *cls, size_t min)
{
	const json_t *row;
	size_t i, n = 0, m = 0;

	json_array_foreach(rows, i, row)
		if (!strcmp(row_str(row, "sut_class"), cls)) {
			m++;
			n += !strcmp(row_str(row, "state"), "complete");
		}
	fprintf(f, "  class %s: %zu of %zu SUTs complete%s\n", cls, n, m,
		min && n < min ? " (fewer than --min-per-class)" : "");
	json_array_foreach(rows, i, row)
		if (!strcmp(row_str(row, "sut_class"), cls) && strcmp(row_str(row, "state"), "complete"))
			fprintf(f, "    %s: %s%s%s\n", row_str(row, "sut_name"), row_str(row, "state"),
				*row_str(row, "detail") ? ": " : "", row_str(row, "detail"));
	return min && n < min;
}

int zab_report_fleet(FILE *f, const char *url, const char *experiment, const char *campaign, size_t min)
{
	json_t *rows = NULL, *seen = json_object();
	const json_t *row;
	struct czs *s = zab_store_read(url, experiment);
	char err[1024];
	size_t i;
	int ret = 0;

	if (!s) {
		json_decref(seen);
		return 1;
	}
	if (czs_fleet_state_list(s, campaign, &rows, err, sizeof(err))) {
		cz_err("report: %s", err);
		ret = 1;
	} else if (!json_array_size(rows)) {
		if (min) {
			cz_err("report --min-per-class: campaign %s has no SUT states in %s (zab fleet records them)",
			       campaign, czs_name(s));
			ret = 1;
		}
	} else {
		fprintf(f, "\nSUTs of campaign %s (zab fleet's record):\n", campaign);
		json_array_foreach(rows, i, row) {
			const char *cls = row_str(row, "sut_class");

			if (json_object_get(seen, cls))
				continue;
			json_object_set_new(seen, cls, json_true());
			if (class_lines(f, rows, cls, min))
				ret = 1;
		}
	}
	json_decref(rows);
	json_decref(seen);
	czs_close(s);
	return ret;
}
